package dev.numlint.toolchain;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The allow-list of nvcc flags numlint passes when it compiles untrusted code to PTX. Flags come from the scanned
 * repository's build files (Makefile, CMake, compile_commands.json) and from {@code --nvcc-flags}; only
 * code-generation flags whose values are validated survive:
 * <ul>
 *   <li>without a value: --use_fast_math, -lineinfo, -G, --expt-relaxed-constexpr, --expt-extended-lambda,
 *   --extended-lambda;</li>
 *   <li>true/false: -ftz, -prec-div, -prec-sqrt, -fmad, -rdc; -dc/--device-c and -dw/--device-w (separate
 *   compilation) as -rdc=true;</li>
 *   <li>-O0..-O3, -std=c++NN;</li>
 *   <li>-D/-U with a macro name and a value free of shell metacharacters (parentheses allowed in a -D, which nvcc
 *   quotes: a function-like macro of at most one parameter);</li>
 *   <li>-I/-isystem whose directory (symlinks followed) lies inside a scanned root or the toolkit/system include
 *   directories;</li>
 *   <li>-include/--pre-include of a regular file (symlinks followed) inside a scanned root or the toolkit;</li>
 *   <li>-arch/-code/-gencode are read (the requested architecture) but not passed: the caller passes one virtual
 *   architecture.</li>
 * </ul>
 * Any value containing whitespace, quotes, a newline, a backtick, {@code $}, {@code ;}, {@code &}, {@code |},
 * redirections, parentheses, globs, a backslash or a comma (nvcc splits option values at commas and hands
 * host-compiler options to a shell) is dropped, as is everything else (-ccbin, -Xcompiler, -Xptxas,
 * -Xlinker, unknown flags). Every dropped flag becomes a {@link Dropped} entry naming the flag, where it was set
 * and why.
 */
public final class NvccFlagPolicy {
    /** A flag that was not passed: the flag as written (shortened), where it was set (or null) and why. */
    public record Dropped(String flag, String where, String reason) {
        /** One line for a notification. */
        public String message() {
            return "nvcc flag '" + flag + "'" + (where == null ? "" : " (set in " + where + ")")
                    + " was not passed to nvcc: " + reason;
        }
    }

    /**
     * The decision for one flag list: {@code args} for nvcc, the include directories ({@code -I} first, then
     * {@code -isystem}; real paths) for the include graph, the architectures the build asked for, what was dropped.
     */
    public record Decision(
            List<String> args,
            List<Path> includeDirs,
            List<Path> systemIncludeDirs,
            List<String> archs,
            List<Dropped> dropped) {}

    private final IncludePolicy dirs;

    /** {@code dirs}: where -I and -isystem directories may point (the scanned roots and trusted include trees). */
    public NvccFlagPolicy(IncludePolicy dirs) {
        this.dirs = dirs;
    }

    /** Applies the policy; {@code origin} says where a flag was set (null when unknown). */
    public Decision apply(List<String> flags, Function<String, String> origin) {
        Function<String, String> where = origin == null ? f -> null : origin;
        List<String> args = new ArrayList<>();
        List<Path> inc = new ArrayList<>();
        List<Path> sys = new ArrayList<>();
        List<String> archs = new ArrayList<>();
        List<Dropped> dropped = new ArrayList<>();
        // forced includes, decided after the loop: a relative one is looked for on the include path, which later
        // flags may still extend (-include thrust/sort.h before its -I)
        List<String[]> forced = new ArrayList<>();
        for (int i = 0; i < flags.size(); i++) {
            String raw = flags.get(i);
            String f = raw == null ? "" : raw.strip();
            if (f.isEmpty()) continue;
            String name = f.startsWith("--") ? f.substring(1) : f;
            int eq = name.indexOf('=');
            String key = eq < 0 ? name : name.substring(0, eq);
            String value = eq < 0 ? null : name.substring(eq + 1);
            String shown = f;
            switch (key) {
                case "-use_fast_math",
                        "-use-fast-math",
                        "-lineinfo",
                        "-G",
                        "-device-debug",
                        "-generate-line-info",
                        "-expt-relaxed-constexpr",
                        "-expt-extended-lambda",
                        "-extended-lambda" -> {
                    if (value != null) {
                        dropped.add(drop(f, where, "takes no value"));
                    } else {
                        String k =
                                switch (key) {
                                    case "-device-debug", "-G" -> "-G";
                                    case "-generate-line-info", "-lineinfo" -> "-lineinfo";
                                    case "-use-fast-math" -> "--use_fast_math";
                                    default -> "-" + key;
                                };
                        if (!args.contains(k)) args.add(k);
                    }
                }
                case "-ftz", "-prec-div", "-prec-sqrt", "-fmad", "-rdc", "-relocatable-device-code" -> {
                    if (value == null && i + 1 < flags.size() && isBool(flags.get(i + 1))) {
                        value = flags.get(++i).strip();
                        shown = f + " " + value;
                    }
                    if (value != null && isBool(value)) {
                        String k = key.equals("-relocatable-device-code") ? "-rdc" : key;
                        args.removeIf(a -> a.startsWith(k + "=")); // the last setting wins, as in nvcc
                        args.add(k + "=" + value.toLowerCase(Locale.ROOT));
                    } else {
                        dropped.add(drop(shown, where, "expects true or false"));
                    }
                }
                case "-dc", "-device-c", "-dw", "-device-w" -> {
                    // separate compilation (-rdc=true plus an object file): its PTX keeps the unit's external
                    // __device__ functions, which whole-program PTX drops when no kernel of the unit calls them, and
                    // calls across units stay calls (nothing contracts across them)
                    if (value != null) dropped.add(drop(f, where, "takes no value"));
                    else if (!args.contains("-rdc=true") && !args.contains("-rdc=false")) args.add("-rdc=true");
                }
                case "-arch", "-code", "-gencode", "-gpu-architecture", "-gpu-code", "-generate-code" -> {
                    if (value == null && i + 1 < flags.size()) value = flags.get(++i);
                    if (value != null
                            && (key.equals("-arch")
                                    || key.equals("-gpu-architecture")
                                    || key.equals("-gencode")
                                    || key.equals("-generate-code"))) {
                        String a = archOf(value);
                        if (a != null) archs.add(a);
                    }
                }
                case "-std" -> {
                    if (value == null && i + 1 < flags.size()) {
                        value = flags.get(++i).strip();
                        shown = f + " " + value;
                    }
                    if (value != null && value.matches("c\\+\\+\\d\\d")) args.add("-std=" + value);
                    // a host compiler's GNU dialect (a borrowed .cpp entry's -std=gnu++17): nvcc's -std takes only
                    // c++NN, and its host compilation keeps the GNU extensions gcc enables by default
                    else if (value != null && value.matches("gnu\\+\\+\\d\\d"))
                        args.add("-std=c++" + value.substring(5));
                    else dropped.add(drop(shown, where, "not a C++ standard numlint knows"));
                }
                case "-include", "-pre-include" -> {
                    // a header the build includes before the source (a configured config.h, a prelude of macros):
                    // a regular file inside the scanned tree or the toolkit, passed by its real path
                    if (value == null
                            && i + 1 < flags.size()
                            && !flags.get(i + 1).strip().startsWith("-")) {
                        value = flags.get(++i).strip();
                        shown = f + " " + value;
                    }
                    forced.add(new String[] {value, shown});
                }
                case "-Xcompiler", "-compiler-options", "-Xptxas", "-ptxas-options" -> {
                    if (value == null && i + 1 < flags.size()) {
                        value = flags.get(++i);
                        shown = f + " " + value;
                    }
                    String tool = key.contains("ptxas") ? "ptxas" : "host compiler";
                    // -fopenmp defines _OPENMP for the host preprocessor, which nvcc -ptx runs too: host code that
                    // includes <omp.h> under #ifdef _OPENMP and calls omp_get_wtime() does not compile without it
                    // (session 83, a Jacobi solver's timers). It names no file and runs nothing: passed alone.
                    boolean openMp = value != null
                            && !key.contains("ptxas")
                            && java.util.Arrays.asList(value.strip().split("[,\\s]+"))
                                    .contains("-fopenmp");
                    if (openMp && !args.contains(OPENMP)) args.add(OPENMP);
                    if (openMp && value.strip().equals("-fopenmp")) continue;
                    String bad = value == null ? null : unsafeChars(value);
                    dropped.add(drop(
                            shown,
                            where,
                            (bad != null
                                            ? "its value " + bad + " (nvcc splits the value at commas into separate "
                                                    + tool + " options)"
                                            : tool + " options are not needed to produce PTX")
                                    + (openMp ? "; its -fopenmp is passed" : "")));
                }
                default -> {
                    if (f.matches("-O[0-3]")) {
                        if (!args.contains(f)) args.add(f);
                    } else if (f.startsWith("-D")
                            || f.startsWith("-U")
                            || key.equals("-define-macro")
                            || key.equals("-undefine-macro")) {
                        boolean def = f.startsWith("-D") || key.equals("-define-macro");
                        String v =
                                f.startsWith("-D") || f.startsWith("-U") ? f.substring(2) : value == null ? "" : value;
                        if (v.isEmpty() && i + 1 < flags.size()) {
                            v = flags.get(++i).strip();
                            shown = f + " " + v;
                        }
                        String bad = def ? unsafeDefine(v) : unsafe(v);
                        int e = v.indexOf('=');
                        String macro = e < 0 ? v : v.substring(0, e);
                        if (bad != null) dropped.add(drop(shown, where, "its value " + bad));
                        else if (!macro.matches(def ? FUNCTION_LIKE : "[A-Za-z_][A-Za-z0-9_]*") || !def && e >= 0) {
                            dropped.add(drop(shown, where, "not a macro name"));
                        } else {
                            args.add((def ? "-D" : "-U") + v);
                        }
                    } else if (f.startsWith("-I")
                            || key.equals("-include-path")
                            || f.startsWith("-isystem")
                            || key.equals("-system-include")) {
                        boolean system = f.startsWith("-isystem") || key.equals("-system-include");
                        String v = f.startsWith("-isystem")
                                ? f.substring("-isystem".length())
                                : f.startsWith("-I") ? f.substring(2) : value == null ? "" : value;
                        if (v.startsWith("=")) v = v.substring(1);
                        if (v.isEmpty() && i + 1 < flags.size()) {
                            v = flags.get(++i).strip();
                            shown = f + " " + v;
                        }
                        String why = includeDir(v, system ? sys : inc);
                        if (why != null) dropped.add(drop(shown, where, why));
                    } else {
                        dropped.add(drop(f, where, "not a code-generation flag numlint passes to nvcc -ptx"));
                    }
                }
            }
        }
        List<Path> path = new ArrayList<>(inc);
        path.addAll(sys);
        for (String[] fi : forced) {
            String why = fi[0] == null ? "has no file" : preInclude(fi[0], args, path);
            if (why != null) dropped.add(drop(fi[1], where, why));
        }
        for (Path p : inc) args.add("-I" + p);
        for (Path p : sys) {
            args.add("-isystem");
            args.add(p.toString());
        }
        return new Decision(
                List.copyOf(args), List.copyOf(inc), List.copyOf(sys), List.copyOf(archs), List.copyOf(dropped));
    }

    /** Adds {@code -include REAL} to {@code args} and returns null, or returns why the file is not allowed. */
    private String preInclude(String v, List<String> args, List<Path> path) {
        Object r = allowed(v, "file", false);
        // a name not beside the command (-include cstdio, which the flag interpreter resolved against the command's
        // directory): the system header the host compiler finds
        Path sys = r instanceof String why && why.equals("the file does not exist") ? onIncludePath(v, path) : null;
        if (sys != null) r = sys;
        if (r instanceof String why) return why;
        String real = r.toString();
        if (!args.contains(real)) {
            args.add("-include");
            args.add(real);
        }
        return null;
    }

    /**
     * A forced include written relative and not beside the command ({@code -include thrust/sort.h}), found as the
     * compiler finds it: in the -I directories already passed (each allowed), then the system's and the toolkit's
     * include directories; a bare name also as a system header. Null when none holds it.
     */
    private Path onIncludePath(String v, List<Path> path) {
        // resolved against the command's directory by the flag interpreter: the system header of that name
        if (v.startsWith("/")) return IncludePolicy.systemHeader(fileName(v), dirs.systemDirs());
        if (v.contains("..") || unsafe(v) != null) return null;
        List<Path> search = new java.util.ArrayList<>();
        search.addAll(path);
        for (Path d : dirs.systemDirs()) search.addAll(List.of(d, d.resolve("include"), d.resolve("include/cccl")));
        for (Path d : search) {
            Path real = IncludePolicy.real(d.resolve(v)), dir = IncludePolicy.real(d);
            if (real != null && dir != null && real.startsWith(dir) && java.nio.file.Files.isRegularFile(real))
                return real;
        }
        return v.contains("/") ? null : IncludePolicy.systemHeader(fileName(v), dirs.systemDirs());
    }

    /** The last name of the path {@code v}, or null. */
    private static String fileName(String v) {
        try {
            Path n = Path.of(v).getFileName();
            return n == null ? null : n.toString();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Adds the real directory to {@code out} and returns null, or returns why it is not allowed. */
    private String includeDir(String v, List<Path> out) {
        Object r = allowed(v, "directory", true);
        if (r instanceof String why) return why;
        Path real = (Path) r;
        if (!out.contains(real)) out.add(real);
        return null;
    }

    /**
     * The real path of the {@code what} ("file" or "directory") an -I or -include value names, relative to the first
     * root, when it is safe, exists, has that kind and lies inside the roots or the toolkit; else why not (a String).
     */
    private Object allowed(String v, String what, boolean directory) {
        String bad = unsafe(v);
        if (bad != null) return "its value " + bad;
        if (v.isEmpty()) return "has no " + what;
        Path p;
        try {
            Path given = Path.of(v);
            p = given.isAbsolute()
                    ? given
                    : dirs.roots().isEmpty()
                            ? given.toAbsolutePath()
                            : dirs.roots().get(0).resolve(given);
        } catch (InvalidPathException e) {
            return "not a valid path";
        }
        Path real = IncludePolicy.real(p);
        if (real == null) return "the " + what + " does not exist";
        if (directory ? !java.nio.file.Files.isDirectory(real) : !java.nio.file.Files.isRegularFile(real)) {
            return directory ? "not a directory" : "not a regular file";
        }
        if (!dirs.inRoots(real) && !dirs.inSystem(real) && !(directory && dirs.aboveRoots(real))) {
            return directory ? OUTSIDE_DIRECTORY : "the " + what + " lies outside the scanned tree and the toolkit";
        }
        return real;
    }

    /** Why an -I directory outside the scanned tree and the toolkit is dropped (the notice's last words). */
    public static final String OUTSIDE_DIRECTORY = "the directory lies outside the scanned tree and the toolkit";

    /** Null when {@code v} is safe as an argument value, else a phrase saying what it contains. */
    public static String unsafe(String v) {
        if (v.startsWith("-")) return "starts with '-'";
        return unsafeChars(v);
    }

    /** The one host compiler option passed to nvcc -ptx (see the -Xcompiler case of {@link #apply}). */
    public static final String OPENMP = "-Xcompiler=-fopenmp";

    /** A macro name, or a function-like macro of at most one parameter (nvcc splits a -D value at commas). */
    private static final String FUNCTION_LIKE = "[A-Za-z_][A-Za-z0-9_]*(\\(([A-Za-z_][A-Za-z0-9_]*)?\\))?";

    /**
     * Like {@link #unsafe} for a -D value, where parentheses are kept ({@code -D_ALIGNAS(x)=alignas(x)}, a function-like
     * macro): nvcc hands a -D to the host preprocessor inside double quotes ({@code -D "_ALIGNAS(x)=alignas(x)"} in
     * nvcc 13's {@code --dryrun}), where the shell takes parentheses literally; {@code $}, backticks, quotes and
     * backslashes, which it does not, stay refused.
     */
    static String unsafeDefine(String v) {
        String bad = unsafe(v);
        boolean paren = bad != null && (bad.endsWith("'('") || bad.endsWith("')'"));
        return paren ? unsafe(v.replace("(", "").replace(")", "")) : bad;
    }

    /** Like {@link #unsafe} without the leading-dash check (for option values that are options themselves). */
    static String unsafeChars(String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '\n' || c == '\r') return "contains a newline";
            if (Character.isWhitespace(c) || Character.isSpaceChar(c)) return "contains whitespace";
            if (Character.isISOControl(c)) return "contains a control character";
            if (c == '$' && i + 1 < v.length() && v.charAt(i + 1) == '(') return "contains '$(' (command substitution)";
            if (c == '`') return "contains a backtick (command substitution)";
            if (c == '\'' || c == '"') return "contains a quote";
            if (c == ',') return "contains ','";
            if ("$;&|<>(){}[]*?!~#\\^".indexOf(c) >= 0) return "contains the shell metacharacter '" + c + "'";
        }
        return null;
    }

    private static Dropped drop(String flag, Function<String, String> where, String reason) {
        String shown = flag.length() > 120 ? flag.substring(0, 117) + "..." : flag;
        String w;
        try {
            w = where.apply(flag);
        } catch (RuntimeException e) {
            w = null;
        }
        return new Dropped(shown, w, reason);
    }

    private static boolean isBool(String s) {
        String t = s.strip();
        return t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false");
    }

    /** compute_NN / sm_NN / lto_NN from an -arch or -gencode value, else null. */
    static String archOf(String v) {
        int i = v.indexOf("compute_");
        if (i < 0) i = v.indexOf("sm_");
        if (i < 0) i = v.indexOf("lto_");
        if (i < 0) return null;
        int j = v.indexOf('_', i) + 1;
        int k = j;
        while (k < v.length() && Character.isDigit(v.charAt(k))) k++;
        if (k == j) return null;
        if (k < v.length() && Character.isLetter(v.charAt(k))) k++;
        return v.substring(i, k);
    }
}
