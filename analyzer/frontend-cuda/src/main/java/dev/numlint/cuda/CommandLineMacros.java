package dev.numlint.cuda;

import dev.numlint.model.BuildContext;
import dev.numlint.spi.ScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The preprocessor state a file's compile command sets: its macros and its include directories inside the tree. */
final class CommandLineMacros {
    private CommandLineMacros() {}

    /**
     * Macros and include directories from the build context's nvcc flags: {@code -DNAME}, {@code -D NAME},
     * {@code -DNAME=V}, {@code --define-macro=NAME[=V]}, {@code -Idir}, {@code -I dir}, {@code --include-path=dir}.
     * An include directory is used only when it lies inside the scan root (the scan reads nothing outside it); a
     * relative one is resolved against the directory of the build file that set it, then the source file's
     * directory, then the scan root.
     */
    static void read(
            ScanContext ctx, BuildContext bc, Map<String, Preprocessor.Macro> macros, List<Path> dirs, Path file) {
        Preprocessor tmp = new Preprocessor(macros, null);
        // the context's preprocessor state (every -D/-U/-I of the command, host or CUDA), then the nvcc flags in
        // their order: a host command's list holds only what Clang reads from it (-std, -include), and keyed on an
        // empty list, a host command with -std lost every -D and -I (gcc -std=c99 -DUSE_FLOAT: 'real' was an int)
        List<String> flags = new ArrayList<>();
        for (String d : bc.impliedDefines()) flags.add("-D" + d);
        for (String d : bc.defines()) flags.add("-D" + d);
        for (String u : bc.undefines()) flags.add("-U" + u);
        for (Path p : bc.includePaths()) flags.add("-I" + p);
        flags.addAll(bc.nvccFlags());
        Path root = ctx.root() == null ? null : ctx.root().toAbsolutePath().normalize();
        for (int i = 0; i < flags.size(); i++) {
            String fl = flags.get(i).strip();
            String def = null;
            String inc = null;
            String raw = fl;
            String undef = null;
            if (fl.equals("-D")
                    || fl.equals("--define-macro")
                    || fl.equals("-I")
                    || fl.equals("--include-path")
                    || fl.equals("-U")
                    || fl.equals("--undefine-macro")
                    || fl.equals("-isystem")) {
                if (i + 1 >= flags.size()) break;
                String v = flags.get(++i).strip();
                raw = fl + " " + v;
                if (fl.equals("-D") || fl.equals("--define-macro")) def = v;
                else if (fl.equals("-U") || fl.equals("--undefine-macro")) undef = v;
                else inc = v;
            } else if (fl.startsWith("--undefine-macro=")) {
                undef = fl.substring("--undefine-macro=".length());
            } else if (fl.startsWith("-U")) {
                undef = fl.substring(2);
            } else if (fl.startsWith("--define-macro=")) {
                def = fl.substring("--define-macro=".length());
            } else if (fl.startsWith("-D")) {
                def = fl.substring(2);
            } else if (fl.startsWith("--include-path=")) {
                inc = fl.substring("--include-path=".length());
            } else if (fl.startsWith("-isystem=")) {
                inc = fl.substring("-isystem=".length());
            } else if (fl.startsWith("-I")) {
                inc = fl.substring(2);
            }
            if (undef != null) {
                macros.remove(undef.strip());
            } else if (def != null) {
                if (def.startsWith("=")) def = def.substring(1);
                int eq = def.indexOf('=');
                String name = eq < 0 ? def : def.substring(0, eq);
                if (name.isEmpty() || !Character.isJavaIdentifierStart(name.charAt(0))) continue;
                tmp.run("#define " + (eq < 0 ? name + " 1" : name + " " + def.substring(eq + 1)) + "\n");
            } else if (inc != null && !inc.isEmpty() && root != null) {
                Path dir = includeDir(ctx, bc, root, file, raw, fl, inc);
                if (dir != null && !dirs.contains(dir)) dirs.add(dir);
            }
        }
    }

    private static Path includeDir(
            ScanContext ctx, BuildContext bc, Path root, Path file, String raw, String fl, String value) {
        Path p;
        try {
            p = Path.of(value);
        } catch (RuntimeException bad) {
            return null;
        }
        List<Path> bases = new ArrayList<>();
        if (p.isAbsolute()) {
            bases.add(null);
        } else {
            String compact = raw.replace(" ", "");
            bc.originOf(f -> f.replace(" ", "").equals(compact) || f.equals(fl)).ifPresent(o -> {
                String where = o.location() == null ? null : o.location().file();
                if (where != null && !where.startsWith("--")) {
                    Path bf = root.resolve(where).getParent();
                    if (bf != null) bases.add(bf);
                }
            });
            Path fd = file.toAbsolutePath().getParent();
            if (fd != null) bases.add(fd);
            bases.add(root);
        }
        for (Path b : bases) {
            Path d = (b == null ? p : b.resolve(p)).toAbsolutePath().normalize();
            if (d.startsWith(root) && Files.isDirectory(d)) return d;
        }
        return null;
    }
}
