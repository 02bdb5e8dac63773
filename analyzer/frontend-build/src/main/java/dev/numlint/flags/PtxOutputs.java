package dev.numlint.flags;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The PTX file an nvcc compile command writes into the tree ({@code nvcc -ptx kernels.cu -o kernels_80.ptx}, as
 * mumax3's Makefile does for every kernel). Such a file is the compiler's output for a source the scan reads itself;
 * the PTX front end decides what to do with it ({@link dev.numlint.model.BuildContext#writtenFrom()}).
 */
final class PtxOutputs {
    private PtxOutputs() {}

    /**
     * The scanned {@code .ptx} file that these arguments (of one nvcc command, options files expanded) write, resolved
     * against the command's directory; null when the command writes no PTX or writes it outside the scanned files.
     */
    static Path written(List<FlagTok> toks, Path directory, Set<Path> scanned) {
        boolean ptx = false;
        String out = null;
        for (int i = 0; i < toks.size(); i++) {
            String t = toks.get(i).text();
            if (t.equals("-ptx") || t.equals("--ptx")) ptx = true;
            else if ((t.equals("-o") || t.equals("--output-file")) && i + 1 < toks.size())
                out = toks.get(++i).text();
            else if (t.startsWith("--output-file=")) out = t.substring("--output-file=".length());
            else if (t.startsWith("-o=")) out = t.substring(3);
        }
        if (!ptx || out == null || !out.endsWith(".ptx")) return null;
        try {
            Path p = Path.of(out);
            if (!p.isAbsolute()) {
                if (directory == null) return null;
                p = directory.resolve(p);
            }
            p = p.toAbsolutePath().normalize();
            return scanned.contains(p) ? p : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }
}
