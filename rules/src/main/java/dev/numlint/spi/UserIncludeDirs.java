package dev.numlint.spi;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The include directories a user names on the command line: trusted like the toolkit's by every reader that compiles
 * the tree's code (nvcc for the PTX layer, Clang for the source layer), while the same directory named by the tree's
 * own build files is not.
 */
public final class UserIncludeDirs {
    private UserIncludeDirs() {}

    /**
     * The absolute, existing directories that {@code -I}, {@code -isystem} or {@code --include-path} name in the
     * user's {@code --nvcc-flags}: the user named them, so nvcc may read headers there (an MPI or a package's headers
     * outside the scanned tree); relative ones are the tree's and stay under its rules.
     */
    public static List<Path> of(List<String> flags) {
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < flags.size(); i++) {
            String f = flags.get(i);
            String v = null;
            for (String opt : List.of("-I", "-isystem", "--include-path", "-idirafter")) {
                if (f.equals(opt) && i + 1 < flags.size()) v = flags.get(++i);
                else if (f.startsWith(opt + "=")) v = f.substring(opt.length() + 1);
                else if (opt.equals("-I") && f.startsWith("-I") && f.length() > 2) v = f.substring(2);
                if (v != null) break;
            }
            if (v == null) continue;
            try {
                Path p = Path.of(v);
                if (p.isAbsolute() && java.nio.file.Files.isDirectory(p)) out.add(p.normalize());
            } catch (java.nio.file.InvalidPathException e) {
                // not a path: nvcc's own flag check names it
            }
        }
        return out;
    }
}
