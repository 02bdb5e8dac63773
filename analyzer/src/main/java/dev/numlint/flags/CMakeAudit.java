package dev.numlint.flags;

import dev.numlint.model.Location;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Evaluates a CMake project (a CMakeLists.txt, the files it {@code include()}s and the subdirectories it adds)
 * for its default configuration, far enough to know which compiler flags its targets get: variables
 * ({@code set}, {@code unset}, {@code option()} and {@code set(... CACHE ...)} defaults, overridable with
 * {@code --cmake-define NAME=VALUE} or a CMakePresets.json preset; {@code string(APPEND|PREPEND|REPLACE)},
 * {@code list(APPEND|PREPEND|REMOVE_ITEM)}), the flag variables ({@code CMAKE_CUDA_FLAGS}, {@code CMAKE_CXX_FLAGS},
 * {@code CMAKE_C_FLAGS} and their per-configuration variants, FindCUDA's {@code CUDA_NVCC_FLAGS}),
 * {@code add_compile_options}, {@code add_definitions}, {@code add_compile_definitions},
 * {@code include_directories}, {@code target_compile_options} with generator expressions,
 * {@code target_compile_definitions}, {@code target_include_directories}, FindCUDA's
 * {@code cuda_add_executable(... OPTIONS ...)} and {@code cuda_include_directories} (CUDA sources only), target
 * sources and CUDA architectures, {@code include()} of local
 * files and {@code add_subdirectory()} (each directory sees its parent's variables and directory flags; a
 * subdirectory added in a branch the default configuration skips is evaluated in its parent's scope too, its flags
 * audited under that branch's condition, and its sources get that configuration's context).
 *
 * <p>{@code if()/elseif()/else()} are evaluated with CMake's condition rules ({@link CMakeCondition}); Linux is
 * assumed ({@code UNIX} and {@code LINUX} are true, {@code WIN32}, {@code APPLE} and {@code MSVC} undefined). A
 * branch the default configuration does not take is not executed, but the flags written in it are audited with a
 * condition that names it ("if(USE_HIP) at CMakeLists.txt:36, which is false in the default configuration") and
 * never become a build context. A condition whose value depends on something numlint cannot know (a
 * {@code find_package()} result, an environment variable, a compiler property) takes both branches, as
 * conditional. Loops and function bodies are read once, as conditional.
 *
 * <p>Bounded: expansions are limited in size and the whole evaluation in work and time; past a limit a
 * "not fully evaluated" notice names the place.
 */
final class CMakeAudit {
    private static final List<String> CONFIG_SUFFIXES =
            List.of("", "_RELEASE", "_DEBUG", "_RELWITHDEBINFO", "_MINSIZEREL");
    private long maxBytes = dev.numlint.spi.ScanContext.defaultMaxFileSize(dev.numlint.model.Layer.BUILD_FLAGS);
    private static final Set<String> BLOCK_OPEN = Set.of("if", "foreach", "while", "function", "macro", "block");
    private static final Set<String> BLOCK_CLOSE =
            Set.of("endif", "endforeach", "endwhile", "endfunction", "endmacro", "endblock");
    private static final Set<String> TARGET_KEYWORDS = Set.of(
            "WIN32",
            "MACOSX_BUNDLE",
            "EXCLUDE_FROM_ALL",
            "STATIC",
            "SHARED",
            "MODULE",
            "OBJECT",
            "INTERFACE",
            "PUBLIC",
            "PRIVATE",
            "SYSTEM",
            "BEFORE",
            "AFTER");

    /** Result of one build file. */
    static final class Out {
        /** Directory-wide flags (all targets of this directory). */
        final List<FlagTok> directory = new ArrayList<>();
        /** Additional flags per target. */
        final Map<String, List<FlagTok>> targets = new LinkedHashMap<>();
        /** Additional flags per source file (set_source_files_properties). */
        final Map<Path, List<FlagTok>> sourceFlags = new LinkedHashMap<>();
        /** Source files per target (absolute, normalized). */
        final Map<String, List<Path>> sources = new LinkedHashMap<>();
        /** compute_XX from CMAKE_CUDA_ARCHITECTURES, per target from CUDA_ARCHITECTURES ("" = directory). */
        final Map<String, String> cudaArch = new HashMap<>();

        final List<String[]> problems = new ArrayList<>(); // {file, line, message}
        /** Files read (the build file and what it includes). */
        final List<Path> read = new ArrayList<>();
        /** Directory flags of each subdirectory evaluated through add_subdirectory (inherited ones included). */
        final Map<Path, List<FlagTok>> subdirectories = new LinkedHashMap<>();
        /** The directory each target is defined in. */
        final Map<String, Path> targetDirs = new HashMap<>();
        /** Flags written where the default configuration does not go (each with its condition). */
        final List<FlagTok> unselected = new ArrayList<>();
        /** Subdirectories added only in a branch the default configuration skips, with that condition. */
        final Map<Path, String> skippedSubdirectories = new LinkedHashMap<>();
        /**
         * Subdirectories (and those they add) evaluated with their parent's state although the default
         * configuration skips the add_subdirectory(): the condition every flag written there carries. Their sources
         * are built only under it, so their build context is that configuration's; their hazards stay conditional.
         */
        final Map<Path, String> notDefaultDirectories = new LinkedHashMap<>();
        /** The cache values that decided conditions, e.g. "USE_HIP=OFF", for the configuration summary. */
        final Map<String, String> decisive = new java.util.TreeMap<>();
        /** "notification" problems with an id: {file, line, level, id, message}. */
        final List<String[]> notices = new ArrayList<>();
    }

    /**
     * An open block. {@code state}: 0 its commands run (a loop or function body, or a branch whose condition is
     * known true or unknown: {@code condition} is non-null then), 1 skipped (a branch known false; {@code skip}
     * describes it).
     */
    private record Block(
            String name,
            String condition,
            int fileIndex,
            int line,
            int state,
            boolean anyTrue,
            boolean anyUnknown,
            String skip) {
        Block(String name, String condition, int fileIndex, int line) {
            this(name, condition, fileIndex, line, 0, false, false, null);
        }
    }

    private record CondRange(int fileIndex, int from, int to, String condition) {}

    private final Function<Path, String> relativize;
    private final List<Path> fileTable = new ArrayList<>();
    private final Map<String, PosText> vars = new HashMap<>();
    private final Deque<Block> blocks = new ArrayDeque<>();
    private final List<CondRange> condRanges = new ArrayList<>();
    private final Out out = new Out();
    private Path currentDir;
    private int includeDepth;
    private final java.util.function.Predicate<Path> inTree;
    private final CMakeCondition conditions;
    /** Directory-wide options per directory (add_compile_options & co.), inherited by subdirectories. */
    private List<FlagTok> dirOptions = new ArrayList<>();
    /** Skip mode: the condition of the skipped branch whose commands are being audited, and where it starts. */
    private String skipMode;

    private int skipFi;
    private int skipLine;
    /** Forced condition for a whole file evaluated on its own although the project skips it. */
    private String forced;
    /** The skipped branch under which the subdirectory being evaluated is added (null: a default one). */
    private String notDefault;

    private final long deadline = dev.numlint.model.CpuClock.now() + TIME_BUDGET_NANOS;
    private long work;
    private boolean budgetNoticed;

    /** Longest value one expansion may produce. */
    static final int MAX_EXPANSION = 256 * 1024;
    /** Characters all expansions of one project may produce together. */
    static final long MAX_WORK = 32L << 20;

    static final long TIME_BUDGET_NANOS = 10_000_000_000L;
    static final int MAX_SUBDIRECTORIES = 2000;

    private CMakeAudit(Function<Path, String> relativize, java.util.function.Predicate<Path> inTree) {
        this.relativize = relativize;
        this.inTree = inTree;
        this.conditions = new CMakeCondition(vars, inTree);
    }

    static Out audit(Path file, Function<Path, String> relativize) {
        return audit(
                file,
                relativize,
                p -> true,
                Map.of(),
                null,
                dev.numlint.spi.ScanContext.defaultMaxFileSize(dev.numlint.model.Layer.BUILD_FLAGS));
    }

    /**
     * Evaluates the project whose top-level list file is {@code file}.
     *
     * @param cache     initial cache values ({@code --cmake-define}, a preset's cacheVariables): they win over
     *                  {@code option()} and {@code set(... CACHE ...)} defaults
     * @param forced    null, or a condition that applies to everything in the file (a subdirectory the project
     *                  adds only under a condition that is false in the default configuration)
     * @param maxBytes  the build-flags layer's max-file-size, for the file and every file it includes or adds
     */
    static Out audit(
            Path file,
            Function<Path, String> relativize,
            java.util.function.Predicate<Path> inTree,
            Map<String, String> cache,
            String forced,
            long maxBytes) {
        CMakeAudit a = new CMakeAudit(relativize, inTree);
        a.maxBytes = maxBytes;
        a.currentDir = file.getParent();
        String dir = a.currentDir.toString();
        for (String v : List.of(
                "CMAKE_CURRENT_SOURCE_DIR",
                "CMAKE_CURRENT_LIST_DIR",
                "CMAKE_SOURCE_DIR",
                "PROJECT_SOURCE_DIR",
                "CMAKE_HOME_DIRECTORY")) {
            a.vars.put(v, PosText.of(dir, -1, 0, 0));
        }
        for (String[] d : new String[][] {
            {"UNIX", "1"},
            {"LINUX", "1"},
            {"CMAKE_SYSTEM_NAME", "Linux"},
            {"CMAKE_HOST_SYSTEM_NAME", "Linux"},
            {"CMAKE_HOST_UNIX", "1"},
            {"CMAKE_BUILD_TYPE", ""}
        }) {
            a.vars.put(d[0], PosText.of(d[1], -1, 0, 0));
        }
        for (Map.Entry<String, String> e : cache.entrySet()) {
            a.vars.put(e.getKey(), PosText.of(e.getValue(), -1, 0, 0));
            a.conditions.cacheGiven.add(e.getKey());
        }
        a.forced = forced;
        try {
            a.runFile(file);
            a.finish();
        } catch (OverBudget e) {
            a.notFullyEvaluated(file, 0, e.getMessage());
        }
        a.out.decisive.putAll(a.conditions.decisive);
        return a.out;
    }

    /** A budget ran out. */
    static final class OverBudget extends RuntimeException {
        OverBudget(String m) {
            super(m, null, false, false);
        }
    }

    private void notFullyEvaluated(Path file, int line, String why) {
        if (budgetNoticed) return;
        budgetNoticed = true;
        out.notices.add(new String[] {
            relativize.apply(file),
            Integer.toString(line),
            "WARNING",
            "not-evaluated",
            "CMake project not fully evaluated: " + why + "; the values involved are treated as unknown"
        });
    }

    private void charge(int n) {
        work += n;
        if (work > MAX_WORK)
            throw new OverBudget("variable expansion produced more than " + (MAX_WORK >> 20) + " MiB of text");
        if ((work & 0xfff) < n && dev.numlint.model.CpuClock.now() > deadline) {
            throw new OverBudget("the time budget of " + TIME_BUDGET_NANOS / 1_000_000_000L + " s ran out");
        }
    }

    private void runFile(Path file) {
        String text;
        try {
            long size = Files.size(file);
            if (size > maxBytes) {
                out.problems.add(new String[] {
                    relativize.apply(file),
                    "0",
                    "ERROR",
                    "file-too-large",
                    "not analyzed: the file has " + size + " bytes, more than max-file-size for build-flags ("
                            + maxBytes + ")"
                });
                return;
            }
            byte[] bytes = Files.readAllBytes(file);
            try {
                text = StandardCharsets.UTF_8
                        .newDecoder()
                        .decode(java.nio.ByteBuffer.wrap(bytes))
                        .toString();
            } catch (java.nio.charset.CharacterCodingException e) {
                text = new String(bytes, StandardCharsets.ISO_8859_1); // legacy encodings: flags are ASCII
            }
        } catch (IOException | RuntimeException e) {
            out.problems.add(new String[] {relativize.apply(file), "0", "ERROR", "cannot read: " + e.getMessage()});
            return;
        }
        int fi = fileTable.size();
        fileTable.add(file);
        out.read.add(file);
        if (text.indexOf('\0') >= 0) {
            out.problems.add(new String[] {relativize.apply(file), "0", "ERROR", "binary content, not a CMake file"});
            return;
        }
        CMakeLexer lx = CMakeLexer.lex(text, fi);
        for (CMakeLexer.Problem p : lx.problems) {
            out.problems.add(new String[] {relativize.apply(file), Integer.toString(p.line()), "WARNING", p.message()});
        }
        for (CMakeLexer.Command c : lx.commands) {
            if (dev.numlint.model.CpuClock.now() > deadline) {
                throw new OverBudget("the time budget of " + TIME_BUDGET_NANOS / 1_000_000_000L + " s ran out");
            }
            try {
                command(c, fi);
            } catch (OverBudget e) {
                notFullyEvaluated(file, c.line(), e.getMessage() + " (at " + c.name() + "())");
            } catch (RuntimeException e) {
                out.problems.add(new String[] {
                    relativize.apply(file),
                    Integer.toString(c.line()),
                    "WARNING",
                    "could not evaluate " + c.name() + "(): " + e
                });
            }
        }
    }

    // ---------------------------------------------------------------- evaluation of arguments

    /** Expands ${VAR}, $ENV{VAR}, $CACHE{VAR} (nested). Escaped characters are never syntax. */
    private PosText expand(PosText t) {
        if (t.text.indexOf('$') < 0) return t;
        PosText.Builder b = new PosText.Builder();
        int i = 0;
        int n = t.length();
        while (i < n) {
            char c = t.charAt(i);
            if (c == '$' && !t.literalAt(i)) {
                int open = -1;
                boolean env = false;
                if (i + 1 < n && t.charAt(i + 1) == '{') open = i + 1;
                else if (t.text.startsWith("ENV{", i + 1)) {
                    open = i + 4;
                    env = true;
                } else if (t.text.startsWith("CACHE{", i + 1)) open = i + 6;
                if (open >= 0) {
                    int close = matchBrace(t, open);
                    if (close > 0) {
                        PosText name = expand(t.sub(open + 1, close));
                        PosText v = env ? null : vars.get(name.text);
                        if (v != null) {
                            if (b.length() + v.length() > MAX_EXPANSION) {
                                throw new OverBudget("the value of ${" + name.text + "} grows beyond " + MAX_EXPANSION
                                        + " characters");
                            }
                            charge(v.length());
                            b.append(v);
                        } else if (env || conditions.unknown(name.text)) {
                            b.append(PosText.of(CMakeCondition.UNKNOWN, -1, 0, 0));
                        }
                        i = close + 1;
                        continue;
                    }
                }
            }
            b.append(c, t.fileAt(i), t.lineAt(i), t.colAt(i), t.literalAt(i));
            i++;
        }
        return b.build();
    }

    private static int matchBrace(PosText t, int open) {
        int depth = 0;
        for (int i = open; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '{') depth++;
            else if (c == '}' && --depth == 0) return i;
        }
        return -1;
    }

    /** The argument list as CMake passes it to the command: unquoted arguments are split at ';'. */
    private List<PosText> values(List<CMakeLexer.Arg> args) {
        List<PosText> out = new ArrayList<>();
        for (CMakeLexer.Arg a : args) {
            switch (a.kind()) {
                case BRACKET -> out.add(a.text());
                case QUOTED -> out.add(expand(a.text()));
                case UNQUOTED -> out.addAll(expand(a.text()).splitList());
                default -> out.add(a.text());
            }
        }
        return out;
    }

    private static PosText join(List<PosText> items, int from, int to, char sep) {
        PosText.Builder b = new PosText.Builder();
        for (int i = from; i < to; i++) {
            if (i > from && sep != '\0') b.appendSynthetic(sep);
            b.append(items.get(i));
        }
        return b.build();
    }

    private String currentCondition() {
        for (Block b : blocks) {
            if (b.condition() != null) return b.condition();
        }
        return forced;
    }

    /** The innermost skipped branch, or null when commands run. */
    private Block skipping() {
        for (Block b : blocks) {
            if (b.state() == 1) return b;
        }
        return null;
    }

    // ---------------------------------------------------------------- commands

    private void command(CMakeLexer.Command c, int fi) {
        String name = c.name().toLowerCase(Locale.ROOT);
        Block skip = skipping();
        if (name.equals("if")) {
            if (skip != null) {
                blocks.push(new Block(name, null, fi, c.line(), 1, true, false, skip.skip()));
                return;
            }
            int v = conditions.eval(c.args(), this::values);
            blocks.push(branch(name, describe(c, fi), fi, c.line(), v, v == 1, v == 2));
            return;
        }
        if (BLOCK_OPEN.contains(name)) {
            if (skip != null) {
                blocks.push(new Block(name, null, fi, c.line(), 1, true, false, skip.skip()));
                return;
            }
            if (name.equals("function") || name.equals("macro")) {
                List<PosText> v = values(c.args());
                if (!v.isEmpty()) conditions.commands.add(v.get(0).text.toLowerCase(Locale.ROOT));
            }
            blocks.push(new Block(name, name.equals("block") ? null : describe(c, fi), fi, c.line()));
            return;
        }
        if (name.equals("else") || name.equals("elseif")) {
            if (blocks.isEmpty() || !blocks.peek().name().equals("if")) return;
            Block b = blocks.pop();
            if (b.condition() != null) condRanges.add(new CondRange(b.fileIndex(), b.line(), c.line(), b.condition()));
            if (skipping() != null) { // the whole if() is in a skipped branch
                blocks.push(b);
                return;
            }
            String first = (b.condition() != null ? b.condition() : b.skip() != null ? b.skip() : "if()")
                    .replaceFirst(", which is (false|true) in the default configuration.*$", "")
                    .replaceFirst(" \\(value unknown\\)$", "")
                    .replaceFirst("^(the else branch of |elseif\\(.*\\) after )", "");
            if (b.anyTrue()) {
                String d = (name.equals("else") ? "the else branch of " : describe(c, fi) + " after ") + first
                        + ", which is not taken in the default configuration (an earlier branch is)";
                blocks.push(new Block("if", null, fi, c.line(), 1, true, b.anyUnknown(), d));
                return;
            }
            if (name.equals("else")) {
                String d = "the else branch of " + first;
                if (b.anyUnknown()) {
                    blocks.push(new Block("if", d, fi, c.line(), 0, false, true, null));
                } else {
                    blocks.push(new Block("if", null, fi, c.line(), 0, true, false, null));
                }
                return;
            }
            int v = conditions.eval(c.args(), this::values);
            String d = describe(c, fi) + " after " + first;
            if (b.anyUnknown() && v != 0) v = 2;
            blocks.push(branch("if", d, fi, c.line(), v, v == 1, b.anyUnknown() || v == 2));
            return;
        }
        if (BLOCK_CLOSE.contains(name)) {
            if (!blocks.isEmpty()) {
                Block b = blocks.pop();
                if (b.condition() != null)
                    condRanges.add(new CondRange(b.fileIndex(), b.line(), c.line(), b.condition()));
            }
            return;
        }
        if (skip != null) {
            skipped(c, fi, skip);
            return;
        }
        List<PosText> v = values(c.args());
        cmdFile = fi;
        cmdLine = c.line();
        cmdColumn = c.column();
        execute(name, v);
    }

    /** The file index, line and column of the command being executed: the place of flags made only of variables. */
    private int cmdFile = -1;

    private int cmdLine;
    private int cmdColumn;

    private void execute(String name, List<PosText> v) {
        switch (name) {
            case "option" -> {
                if (!v.isEmpty() && !vars.containsKey(v.get(0).text)) {
                    vars.put(v.get(0).text, v.size() > 2 ? v.get(2) : PosText.of("OFF", -1, 0, 0));
                }
            }
            case "add_subdirectory" -> addSubdirectory(v, null);
            case "add_compile_definitions" -> {
                for (PosText p : v) define(p, null, "add_compile_definitions", dirOptions);
            }
            case "include_directories" -> {
                for (PosText p : v) {
                    if (!TARGET_KEYWORDS.contains(p.text)) includeDir(p, null, "include_directories", dirOptions);
                }
            }
            case "cuda_include_directories" -> {
                // FindCUDA: include directories of the nvcc steps of cuda_add_* targets (not of host sources)
                for (PosText p : v) {
                    if (!TARGET_KEYWORDS.contains(p.text)) {
                        includeDir(p, null, "cuda_include_directories", dirOptions, FlagTok.Lang.CUDA);
                    }
                }
            }
            case "target_compile_definitions", "target_include_directories" -> {
                if (v.isEmpty()) return;
                String t = v.get(0).text.isEmpty() ? "(unresolved target)" : v.get(0).text;
                List<FlagTok> into = out.targets.computeIfAbsent(t, k -> new ArrayList<>());
                boolean iface = false;
                for (PosText p : v.subList(1, v.size())) {
                    if (p.text.equals("INTERFACE")) {
                        iface = true; // usage requirements of dependents, not of this target
                        continue;
                    }
                    if (p.text.equals("PUBLIC") || p.text.equals("PRIVATE")) {
                        iface = false;
                        continue;
                    }
                    if (iface || TARGET_KEYWORDS.contains(p.text)) continue;
                    for (GenexEval.Piece piece : GenexEval.eval(p, currentCondition())) {
                        if (name.equals("target_compile_definitions")) {
                            define(piece.text(), piece.condition(), name + "(" + t + ")", into);
                        } else {
                            includeDir(piece.text(), piece.condition(), name + "(" + t + ")", into);
                        }
                    }
                }
            }
            case "find_package" -> {
                if (!v.isEmpty()) conditions.unknownPrefix(v.get(0).text);
            }
            case "execute_process",
                    "find_program",
                    "find_library",
                    "find_path",
                    "find_file",
                    "try_compile",
                    "try_run",
                    "get_filename_component",
                    "math",
                    "file",
                    "cmake_host_system_information",
                    "check_language",
                    "check_cxx_compiler_flag",
                    "check_c_compiler_flag",
                    "check_include_file",
                    "check_symbol_exists",
                    "check_function_exists",
                    "check_cxx_source_compiles",
                    "check_c_source_compiles",
                    "get_property",
                    "get_target_property",
                    "get_directory_property",
                    "get_source_file_property",
                    "separate_arguments",
                    "cmake_parse_arguments" -> {
                // results computed by CMake at configure time: unknown here (outputs named after keywords or as
                // the first or last argument)
                for (int i = 0; i < v.size(); i++) {
                    String a = v.get(i).text;
                    if (a.endsWith("_VARIABLE") && i + 1 < v.size()) conditions.unknownVar(v.get(i + 1).text);
                }
                if (!v.isEmpty() && !name.equals("execute_process") && !name.equals("file")) {
                    conditions.unknownVar(v.get(0).text);
                    conditions.unknownVar(v.get(v.size() - 1).text);
                }
                if (name.equals("file") && v.size() > 1) conditions.unknownVar(v.get(1).text);
            }
            case "set" -> set(v);
            case "unset" -> {
                if (!v.isEmpty()) vars.remove(v.get(0).text);
            }
            case "string" -> string(v);
            case "list" -> list(v);
            case "add_compile_options" -> compileOptions(v, 0, dirOptions, "add_compile_options");
            case "add_definitions" -> {
                for (PosText p : v) toks(p, FlagTok.Lang.ANY, null, "add_definitions", dirOptions);
            }
            case "target_compile_options" -> {
                if (v.isEmpty()) return;
                String t = v.get(0).text.isEmpty() ? "(unresolved target)" : v.get(0).text;
                compileOptions(
                        v,
                        1,
                        out.targets.computeIfAbsent(t, k -> new ArrayList<>()),
                        "target_compile_options(" + t + ")");
            }
            case "add_executable", "add_library", "cuda_add_executable", "cuda_add_library", "target_sources" -> target(
                    name, v);
            case "cuda_wrap_srcs" -> {
                // FindCUDA: cuda_wrap_srcs(target format generated_var sources... [OPTIONS ...]) compiles the sources
                // with the target's flags (zfp's CUDA backend); the two middle arguments are no sources
                if (v.size() > 3) {
                    List<PosText> w = new ArrayList<>(v.size() - 2);
                    w.add(v.get(0));
                    w.addAll(v.subList(3, v.size()));
                    target(name, w);
                }
            }
            case "set_target_properties" -> targetProperties(v);
            case "set_source_files_properties" -> sourceProperties(v);
            case "set_property" -> setProperty(v);
            case "include" -> include(v);
            default -> {
                // other commands do not set compiler flags
            }
        }
    }

    /** A branch block for a condition value (1 true, 0 false, 2 unknown). */
    private Block branch(String name, String desc, int fi, int line, int v, boolean anyTrue, boolean anyUnknown) {
        return switch (v) {
            case 1 -> new Block(name, null, fi, line, 0, anyTrue, anyUnknown, null);
            case 0 -> new Block(
                    name,
                    null,
                    fi,
                    line,
                    1,
                    anyTrue,
                    anyUnknown,
                    desc + ", which is false in the default configuration" + conditions.lastDecisive());
            default -> new Block(name, desc + " (value unknown)", fi, line, 0, anyTrue, anyUnknown, null);
        };
    }

    /** Commands of a skipped branch that shape the scope a subdirectory added in that branch inherits. */
    private static final Set<String> SCOPE_COMMANDS = Set.of(
            "set",
            "unset",
            "string",
            "list",
            "option",
            "include_directories",
            "cuda_include_directories",
            "add_definitions",
            "add_compile_definitions",
            "add_compile_options");

    /** The scope of a skipped branch as if it were taken: its variables and directory flags. */
    private record Shadow(Map<String, PosText> vars, List<FlagTok> dirOptions) {}

    /** Per skipped branch (by identity), its scope so far; only for a branch not nested in another skipped one. */
    private final Map<Block, Shadow> shadows = new java.util.IdentityHashMap<>();

    /**
     * Runs {@code r} in the scope the skipped branch {@code skip} would have if it were taken (null when the branch
     * is nested in another skipped one: then the enclosing scope as it is), with every flag written under the
     * branch's condition; the scope's changes are kept for the branch's later commands.
     */
    private void inBranchScope(Block skip, Runnable r) {
        int skipping = 0;
        for (Block b : blocks) if (b.state() == 1) skipping++;
        String savedSkip = skipMode;
        String savedForced = forced;
        skipMode = null;
        String cond = skip.skip();
        String outer = currentCondition();
        forced = outer == null || outer.contains(cond) ? cond : outer + " and " + cond;
        if (skipping != 1) {
            try {
                r.run();
            } finally {
                skipMode = savedSkip;
                forced = savedForced;
            }
            return;
        }
        Shadow sh = shadows.computeIfAbsent(skip, k -> new Shadow(new HashMap<>(vars), new ArrayList<>(dirOptions)));
        Map<String, PosText> savedVars = new HashMap<>(vars);
        List<FlagTok> savedOptions = dirOptions;
        vars.clear();
        vars.putAll(sh.vars());
        dirOptions = new ArrayList<>(sh.dirOptions());
        try {
            r.run();
            shadows.put(skip, new Shadow(new HashMap<>(vars), dirOptions));
        } finally {
            vars.clear();
            vars.putAll(savedVars);
            dirOptions = savedOptions;
            skipMode = savedSkip;
            forced = savedForced;
        }
    }

    /** A command in a skipped branch: not executed, but the flags written in it are audited. */
    private void skipped(CMakeLexer.Command c, int fi, Block skip) {
        String name = c.name().toLowerCase(Locale.ROOT);
        if (SCOPE_COMMANDS.contains(name)) {
            // for a subdirectory the branch adds: its scope, as if the branch were taken (flags stay conditional)
            inBranchScope(skip, () -> execute(name, values(c.args())));
        }
        skipMode = skip.skip();
        skipFi = skip.fileIndex();
        skipLine = skip.line();
        try {
            List<PosText> v = values(c.args());
            switch (name) {
                case "set", "string", "list" -> {
                    int from = name.equals("set") ? 1 : 2;
                    int varAt = name.equals("set") ? 0 : 1;
                    if (v.size() <= from) return;
                    String var = v.get(varAt).text;
                    if (!isFlagVar(var)) return;
                    int end = v.size();
                    for (int i = from; i < v.size(); i++) {
                        if (v.get(i).text.equals("CACHE") || v.get(i).text.equals("PARENT_SCOPE")) {
                            end = i;
                            break;
                        }
                    }
                    FlagTok.Lang lang = var.contains("CUDA")
                            ? FlagTok.Lang.CUDA
                            : var.contains("_CXX_") || var.contains("_C_") ? FlagTok.Lang.HOST : FlagTok.Lang.ANY;
                    toks(join(v, from, end, ';'), lang, skipMode, var, out.unselected);
                }
                case "add_subdirectory" -> {
                    if (!v.isEmpty()) {
                        try {
                            out.skippedSubdirectories.putIfAbsent(
                                    currentDir.resolve(v.get(0).text).normalize(), skipMode);
                        } catch (RuntimeException e) {
                            // not a path
                        }
                        // evaluated in the branch's scope, every flag written there under the skipped branch
                        String cond = skipMode;
                        String savedNotDefault = notDefault;
                        notDefault = cond;
                        try {
                            inBranchScope(skip, () -> addSubdirectory(values(c.args()), cond));
                        } finally {
                            notDefault = savedNotDefault;
                        }
                    }
                }
                case "add_compile_options",
                        "add_definitions",
                        "add_compile_definitions",
                        "target_compile_options",
                        "target_compile_definitions",
                        "cuda_add_executable",
                        "cuda_add_library",
                        "cuda_wrap_srcs",
                        "set_target_properties",
                        "set_source_files_properties" -> execute(name, v);
                default -> {
                    // nothing else carries flags
                }
            }
        } finally {
            skipMode = null;
        }
    }

    private static boolean isFlagVar(String var) {
        return var.matches("CMAKE_(CUDA|CXX|C)_FLAGS(_[A-Z]+)?|CUDA_NVCC_FLAGS(_[A-Z]+)?");
    }

    /** "if(WITH_FAST_MATH) at CMakeLists.txt:12" */
    private String describe(CMakeLexer.Command c, int fi) {
        StringBuilder sb = new StringBuilder(c.name()).append('(');
        for (CMakeLexer.Arg a : c.args()) {
            if (sb.length() > 60) {
                sb.append(" ...");
                break;
            }
            char last = sb.charAt(sb.length() - 1);
            if (last != '(' && a.kind() != CMakeLexer.Kind.CLOSE_PAREN) sb.append(' ');
            sb.append(a.kind() == CMakeLexer.Kind.QUOTED ? "\"" + a.text() + "\"" : a.text().text);
        }
        return sb.append(") at ")
                .append(relativize.apply(fileTable.get(fi)))
                .append(':')
                .append(c.line())
                .toString();
    }

    private void set(List<PosText> v) {
        if (v.isEmpty()) return;
        String var = v.get(0).text;
        int end = v.size();
        boolean cache = false;
        boolean force = false;
        for (int i = 1; i < v.size(); i++) {
            String s = v.get(i).text;
            if (s.equals("CACHE")) {
                end = Math.min(end, i);
                cache = true;
            } else if (s.equals("PARENT_SCOPE")) {
                end = Math.min(end, i);
            } else if (s.equals("FORCE") && cache) {
                force = true;
            }
        }
        if (end <= 1) {
            if (!cache) vars.remove(var);
            return;
        }
        if (cache && !force && vars.containsKey(var)) return;
        assign(var, join(v, 1, end, ';'));
    }

    /** Assignment; inside a conditional block the new value adds to the old one (both branches may run). */
    private void assign(String var, PosText value) {
        PosText old = vars.get(var);
        if (currentCondition() != null && old != null && !old.text.isEmpty() && !value.text.contains(old.text)) {
            PosText.Builder b = new PosText.Builder().append(old);
            b.appendSynthetic(isStringFlagVar(var) ? ' ' : ';');
            b.append(value);
            value = b.build();
        }
        vars.put(var, value);
    }

    private static boolean isStringFlagVar(String var) {
        return var.startsWith("CMAKE_") && var.contains("_FLAGS");
    }

    private void string(List<PosText> v) {
        if (v.size() < 2) return;
        String op = v.get(0).text;
        String var = v.get(1).text;
        PosText old = vars.getOrDefault(var, PosText.EMPTY);
        switch (op) {
            case "APPEND" -> vars.put(var, old.concat(join(v, 2, v.size(), '\0')));
            case "PREPEND" -> vars.put(var, join(v, 2, v.size(), '\0').concat(old));
            case "REPLACE" -> {
                if (v.size() < 4) return;
                String match = v.get(1).text;
                PosText repl = v.get(2);
                String outVar = v.get(3).text;
                PosText input = join(v, 4, v.size(), '\0');
                if (match.isEmpty()) return;
                PosText.Builder b = new PosText.Builder();
                int i = 0;
                while (i < input.length()) {
                    if (input.text.startsWith(match, i)) {
                        b.append(repl);
                        i += match.length();
                    } else {
                        b.append(input, i);
                        i++;
                    }
                }
                vars.put(outVar, b.build());
            }
            default -> {
                // other string() operations: the output variable (the last argument) is unknown
                conditions.unknownVar(v.get(v.size() - 1).text);
            }
        }
    }

    private void list(List<PosText> v) {
        if (v.size() < 2) return;
        String op = v.get(0).text;
        String var = v.get(1).text;
        PosText old = vars.getOrDefault(var, PosText.EMPTY);
        switch (op) {
            case "APPEND" -> {
                if (v.size() < 3) return;
                PosText add = join(v, 2, v.size(), ';');
                vars.put(
                        var,
                        old.text.isEmpty()
                                ? add
                                : old.concat(PosText.of(";", -1, 0, 0)).concat(add));
            }
            case "PREPEND" -> {
                if (v.size() < 3) return;
                PosText add = join(v, 2, v.size(), ';');
                vars.put(
                        var,
                        old.text.isEmpty()
                                ? add
                                : add.concat(PosText.of(";", -1, 0, 0)).concat(old));
            }
            case "REMOVE_ITEM" -> {
                if (currentCondition() != null) return; // may not run: keep the items (they may apply)
                Set<String> remove = new java.util.HashSet<>();
                for (int i = 2; i < v.size(); i++) remove.add(v.get(i).text);
                List<PosText> keep = new ArrayList<>();
                for (PosText p : old.splitList()) {
                    if (!remove.contains(p.text)) keep.add(p);
                }
                vars.put(var, join(keep, 0, keep.size(), ';'));
            }
            default -> {
                if (!op.equals("REMOVE_DUPLICATES") && !op.equals("SORT") && !op.equals("REVERSE")) {
                    conditions.unknownVar(v.get(v.size() - 1).text);
                }
            }
        }
    }

    private void compileOptions(List<PosText> v, int from, List<FlagTok> into, String via) {
        for (int i = from; i < v.size(); i++) {
            PosText p = v.get(i);
            if (TARGET_KEYWORDS.contains(p.text)) continue;
            for (GenexEval.Piece piece : GenexEval.eval(p, currentCondition())) {
                PosText t = piece.text();
                if (t.text.startsWith("SHELL:")) {
                    toks(t.sub(6), piece.lang(), piece.condition(), via, into);
                } else {
                    // one list element is one argument; a space inside stays part of it
                    add(into, t.trim(), piece.lang(), piece.condition(), via);
                }
            }
        }
    }

    private void target(String cmd, List<PosText> v) {
        if (v.isEmpty()) return;
        String t = v.get(0).text;
        if (v.size() > 1 && (v.get(1).text.equals("IMPORTED") || v.get(1).text.equals("ALIAS"))) return;
        List<Path> srcs = skipMode != null ? new ArrayList<>() : out.sources.computeIfAbsent(t, k -> new ArrayList<>());
        if (skipMode == null && !cmd.equals("target_sources")) out.targetDirs.putIfAbsent(t, currentDir);
        boolean options = false;
        String cfg = null;
        for (int i = 1; i < v.size(); i++) {
            String s = v.get(i).text;
            if ((cmd.startsWith("cuda_add_") || cmd.equals("cuda_wrap_srcs")) && s.equals("OPTIONS")) {
                options = true;
                continue;
            }
            if (options) {
                if (s.equals("RELEASE") || s.equals("DEBUG") || s.equals("RELWITHDEBINFO") || s.equals("MINSIZEREL")) {
                    cfg = "the " + s + " configuration";
                    continue;
                }
                String cond = cfg != null ? cfg : currentCondition();
                toks(
                        v.get(i),
                        FlagTok.Lang.CUDA,
                        cond,
                        cmd + "(" + t + " OPTIONS)",
                        out.targets.computeIfAbsent(t, k -> new ArrayList<>()));
                continue;
            }
            if (TARGET_KEYWORDS.contains(s) || s.contains("$<") || s.isEmpty()) continue;
            try {
                srcs.add(currentDir.resolve(s).normalize());
            } catch (RuntimeException e) {
                // not a path
            }
        }
    }

    private void targetProperties(List<PosText> v) {
        int p = propertiesKeyword(v);
        if (p < 0) return;
        for (int i = p + 1; i + 1 < v.size(); i += 2) {
            String prop = v.get(i).text;
            if (prop.equals("CUDA_ARCHITECTURES") && skipMode == null) {
                String arch = arch(v.get(i + 1).text);
                for (int t = 0; t < p; t++) {
                    if (arch != null) out.cudaArch.put(v.get(t).text, arch);
                }
            } else if (prop.equals("COMPILE_OPTIONS") || prop.equals("COMPILE_FLAGS")) {
                for (int t = 0; t < p; t++) {
                    String tn = v.get(t).text;
                    propertyFlags(
                            prop,
                            v.get(i + 1),
                            out.targets.computeIfAbsent(tn, k -> new ArrayList<>()),
                            "set_target_properties(" + tn + " " + prop + ")");
                }
            }
        }
    }

    /** Index of the PROPERTIES keyword of a set_*_properties command, or -1. */
    private static int propertiesKeyword(List<PosText> v) {
        for (int i = 0; i < v.size(); i++) {
            if (v.get(i).text.equals("PROPERTIES")) {
                return i;
            }
        }
        return -1;
    }

    /** COMPILE_OPTIONS is a list of options (generator expressions allowed); COMPILE_FLAGS a command-line string. */
    private void propertyFlags(String prop, PosText value, List<FlagTok> into, String via) {
        if (prop.equals("COMPILE_FLAGS")) {
            toks(value, FlagTok.Lang.ANY, currentCondition(), via, into);
        } else {
            compileOptions(value.splitList(), 0, into, via);
        }
    }

    /** set_source_files_properties(f... PROPERTIES COMPILE_OPTIONS|COMPILE_FLAGS value ...). */
    private void sourceProperties(List<PosText> v) {
        int p = propertiesKeyword(v);
        if (p < 0) return;
        for (int i = p + 1; i + 1 < v.size(); i += 2) {
            String prop = v.get(i).text;
            if (!prop.equals("COMPILE_OPTIONS") && !prop.equals("COMPILE_FLAGS")) continue;
            for (int f = 0; f < p; f++) {
                String name = v.get(f).text;
                if (name.isEmpty()
                        || name.contains("$<")
                        || name.equals("DIRECTORY")
                        || name.equals("TARGET_DIRECTORY")) continue;
                Path src;
                try {
                    src = currentDir.resolve(name).normalize();
                } catch (RuntimeException e) {
                    continue;
                }
                propertyFlags(
                        prop,
                        v.get(i + 1),
                        out.sourceFlags.computeIfAbsent(src, k -> new ArrayList<>()),
                        "set_source_files_properties(" + name + " " + prop + ")");
            }
        }
    }

    private void setProperty(List<PosText> v) {
        // set_property(TARGET t... [APPEND] PROPERTY CUDA_ARCHITECTURES values...)
        if (v.isEmpty() || !v.get(0).text.equals("TARGET")) return;
        int p = -1;
        for (int i = 1; i < v.size(); i++) {
            if (v.get(i).text.equals("PROPERTY")) {
                p = i;
                break;
            }
        }
        if (p < 0 || p + 2 >= v.size() + 1 || p + 1 >= v.size()) return;
        if (v.get(p + 1).text.equals("CUDA_ARCHITECTURES")) {
            String arch = arch(join(v, p + 2, v.size(), ';').text);
            for (int t = 1; t < p; t++) {
                String tn = v.get(t).text;
                if (!tn.equals("APPEND") && !tn.equals("APPEND_STRING") && arch != null) out.cudaArch.put(tn, arch);
            }
        }
    }

    /** The highest listed architecture as compute_XX ("75;80-real;86" gives compute_86); null for native/all. */
    static String arch(String value) {
        int best = -1;
        for (String a : value.split("[;\\s]+")) {
            String n = a.replaceAll("-(real|virtual)$", "").replaceAll("^(sm_|compute_)", "");
            if (n.matches("\\d+[a-z]?")) {
                int num = Integer.parseInt(n.replaceAll("[a-z]$", ""));
                best = Math.max(best, num);
            }
        }
        return best < 0 ? null : "compute_" + best;
    }

    private void include(List<PosText> v) {
        if (v.isEmpty() || includeDepth >= 8) return;
        String f = v.get(0).text;
        if (f.isEmpty() || f.contains("$<")) return;
        List<Path> candidates = new ArrayList<>();
        try {
            candidates.add(currentDir.resolve(f));
            if (!f.endsWith(".cmake")) {
                for (PosText m :
                        vars.getOrDefault("CMAKE_MODULE_PATH", PosText.EMPTY).splitList()) {
                    candidates.add(currentDir.resolve(m.text).resolve(f + ".cmake"));
                }
            }
        } catch (RuntimeException e) {
            return;
        }
        for (Path c : candidates) {
            Path n = c.normalize();
            if (Files.isRegularFile(n) && !inTree.test(n)) {
                // include(/outside/x.cmake) or a link out of the tree: never read, its values never reach a report
                // or nvcc's arguments
                PosText at = v.get(0);
                int fi = at.fileAt(0);
                out.notices.add(new String[] {
                    fi >= 0 && fi < fileTable.size() ? relativize.apply(fileTable.get(fi)) : relativize.apply(n),
                    Integer.toString(Math.max(0, at.lineAt(0))),
                    "WARNING",
                    "include-not-read",
                    "include(" + f + ") not read: it lies outside the scanned tree (numlint reads nothing outside it);"
                            + " the values it would set are unknown"
                });
                return;
            }
            if (Files.isRegularFile(n) && !fileTable.contains(n)) {
                includeDepth++;
                runFile(n);
                includeDepth--;
                return;
            }
        }
    }

    // ---------------------------------------------------------------- flags

    /** Splits a command-line string (a CMAKE_*_FLAGS value, an OPTIONS item) into arguments. */
    private void toks(PosText value, FlagTok.Lang lang, String cond, String via, List<FlagTok> into) {
        for (PosText elem : value.splitList()) {
            for (PosText w : ShellWords.split(elem)) add(into, w, lang, cond, via);
        }
    }

    private void add(List<FlagTok> into, PosText w, FlagTok.Lang lang, String cond, String via) {
        if (w.text.isEmpty() || w.text.contains(CMakeCondition.UNKNOWN)) return;
        int fi = w.fileAt(0);
        if (fi < 0 || fi >= fileTable.size()) return; // synthetic text (a directory path) is no flag
        if (skipMode != null) {
            // written in a skipped branch (not a value it took from earlier lines): audited, never applied
            if (fi != skipFi || w.lineAt(0) < skipLine) return;
            into = out.unselected;
            cond = skipMode;
        }
        Location loc = Location.of(relativize.apply(fileTable.get(fi)), w.lineAt(0), w.colAt(0));
        String written = writtenUnder(fi, w.lineAt(0));
        String c = cond == null ? written : written == null || cond.contains(written) ? cond : cond + " and " + written;
        if (forced != null && (c == null || !c.contains(forced))) c = c == null ? forced : c + " and " + forced;
        into.add(new FlagTok(w.text, loc, lang, c, via));
    }

    /** A definition NAME or NAME=VALUE (a leading -D is allowed) as the flag -DNAME[=VALUE]. */
    private void define(PosText d, String cond, String via, List<FlagTok> into) {
        PosText t = d.trim();
        if (t.text.isEmpty() || t.text.contains("$<")) return;
        if (t.text.startsWith("-D")) t = t.sub(2);
        if (t.text.isEmpty()) return;
        int fi = t.fileAt(0);
        if (fi < 0 || fi >= fileTable.size()) return;
        PosText.Builder b = new PosText.Builder();
        b.append('-', fi, t.lineAt(0), t.colAt(0), true)
                .append('D', fi, t.lineAt(0), t.colAt(0), true)
                .append(t);
        add(into, b.build(), FlagTok.Lang.ANY, cond == null ? currentCondition() : cond, via);
    }

    /** An include directory as the flag -I/absolute/dir (relative ones are relative to the current directory). */
    private void includeDir(PosText d, String cond, String via, List<FlagTok> into) {
        includeDir(d, cond, via, into, FlagTok.Lang.ANY);
    }

    private void includeDir(PosText d, String cond, String via, List<FlagTok> into, FlagTok.Lang lang) {
        PosText t = d.trim();
        if (t.text.isEmpty() || t.text.contains("$<") || t.text.contains(CMakeCondition.UNKNOWN)) return;
        Path p;
        try {
            p = currentDir.resolve(t.text).normalize();
        } catch (RuntimeException e) {
            return;
        }
        int fi = -1;
        int line = 0;
        int col = 0;
        for (int i = 0; i < t.length(); i++) {
            if (t.fileAt(i) >= 0) {
                fi = t.fileAt(i);
                line = t.lineAt(i);
                col = t.colAt(i);
                break;
            }
        }
        if (fi < 0) { // the whole directory came from variables (${CMAKE_CURRENT_SOURCE_DIR}): the command's place
            fi = cmdFile;
            line = cmdLine;
            col = cmdColumn;
        }
        if (fi < 0) return;
        add(into, PosText.of("-I" + p, fi, line, col), lang, cond == null ? currentCondition() : cond, via);
    }

    /** {@code skipped}: the condition of the skipped branch that adds it, or null when the branch runs. */
    private void addSubdirectory(List<PosText> v, String skipped) {
        if (v.isEmpty()) return;
        Path sub;
        try {
            sub = currentDir.resolve(v.get(0).text).normalize();
        } catch (RuntimeException e) {
            return;
        }
        Path list = sub.resolve("CMakeLists.txt");
        if (!inTree.test(sub)
                || !Files.isRegularFile(list)
                || fileTable.contains(list)
                || out.subdirectories.size() >= MAX_SUBDIRECTORIES) {
            return;
        }
        Map<String, PosText> saved = new HashMap<>(vars);
        List<FlagTok> savedOptions = dirOptions;
        Path savedDir = currentDir;
        Deque<Block> savedBlocks = new ArrayDeque<>(blocks);
        String savedForced = forced;
        String cond = currentCondition();
        if (skipped != null) cond = cond == null || cond.contains(skipped) ? skipped : cond + " and " + skipped;
        blocks.clear();
        forced = cond;
        if (notDefault != null) out.notDefaultDirectories.put(sub, notDefault);
        dirOptions = new ArrayList<>(savedOptions);
        currentDir = sub;
        for (String n : List.of("CMAKE_CURRENT_SOURCE_DIR", "CMAKE_CURRENT_LIST_DIR")) {
            vars.put(n, PosText.of(sub.toString(), -1, 0, 0));
        }
        try {
            runFile(list);
            List<FlagTok> flags = new ArrayList<>(dirOptions);
            flagVariables(flags);
            out.subdirectories.put(sub, flags);
            String a = arch(vars.getOrDefault("CMAKE_CUDA_ARCHITECTURES", PosText.EMPTY).text);
            if (a != null) out.cudaArch.put("dir:" + sub, a);
        } finally {
            vars.clear();
            vars.putAll(saved);
            dirOptions = savedOptions;
            currentDir = savedDir;
            blocks.clear();
            blocks.addAll(savedBlocks);
            forced = savedForced;
        }
    }

    /** The condition of the innermost conditional block enclosing a line (known for closed blocks). */
    private String writtenUnder(int fi, int line) {
        String best = null;
        int bestSpan = Integer.MAX_VALUE;
        for (CondRange r : condRanges) {
            if (r.fileIndex() == fi && line > r.from() && line < r.to() && r.to() - r.from() < bestSpan) {
                best = r.condition();
                bestSpan = r.to() - r.from();
            }
        }
        for (Block b : blocks) { // still open at the end of the file
            if (b.condition() != null && b.fileIndex() == fi && line > b.line() && best == null) best = b.condition();
        }
        return best;
    }

    private void finish() {
        out.directory.addAll(dirOptions);
        flagVariables(out.directory);
        PosText archs = vars.get("CMAKE_CUDA_ARCHITECTURES");
        if (archs != null) {
            String a = arch(archs.text);
            if (a != null) out.cudaArch.put("", a);
        }
    }

    /** The values of the flag variables now (CMAKE_<LANG>_FLAGS[_<CONFIG>], CUDA_NVCC_FLAGS[_<CONFIG>]). */
    private void flagVariables(List<FlagTok> into) {
        String buildType =
                vars.getOrDefault("CMAKE_BUILD_TYPE", PosText.EMPTY).text.toUpperCase(Locale.ROOT);
        for (String lang : List.of("CUDA", "CXX", "C", "NVCC")) {
            for (String suffix : CONFIG_SUFFIXES) {
                String var = lang.equals("NVCC") ? "CUDA_NVCC_FLAGS" + suffix : "CMAKE_" + lang + "_FLAGS" + suffix;
                PosText val = vars.get(var);
                if (val == null) continue;
                String cond = suffix.isEmpty() || suffix.substring(1).equals(buildType)
                        ? null
                        : "the " + suffix.substring(1) + " configuration (CMAKE_BUILD_TYPE is '"
                                + vars.getOrDefault("CMAKE_BUILD_TYPE", PosText.EMPTY).text + "')";
                FlagTok.Lang l = lang.equals("CUDA") || lang.equals("NVCC") ? FlagTok.Lang.CUDA : FlagTok.Lang.HOST;
                toks(val, l, cond, var, into);
            }
        }
    }
}
