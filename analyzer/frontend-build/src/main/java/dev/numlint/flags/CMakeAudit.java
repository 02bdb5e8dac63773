package dev.numlint.flags;

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
    static final Set<String> TARGET_KEYWORDS = Set.of(
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
        /** CUDA sources that a target command names only in a branch the default configuration skips. */
        final Map<Path, String> notDefaultSources = new LinkedHashMap<>();
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
        /**
         * FindCUDA targets: {@code CUDA_NVCC_FLAGS[_<CONFIG>]} and the {@code cuda_include_directories} as they stood
         * at each {@code cuda_add_library/cuda_add_executable/cuda_wrap_srcs} call of the target (FindCUDA reads them
         * there, in the calling directory's scope); they replace the directory's final values for its CUDA sources.
         */
        final Map<String, List<FlagTok>> findCuda = new LinkedHashMap<>();
    }

    /** The variable FindCUDA's cuda_include_directories() appends to. */
    static final String CUDA_INCLUDES = "CUDA_NVCC_INCLUDE_DIRS_USER";

    private static final String DEFAULT_FALSE = ", which is false in the default configuration";
    private static final String CONFIGURED_FALSE = ", which is false in this configuration";

    /** Whether a flag is one FindCUDA reads at a cuda_add_* call (its value then, not the directory's last one). */
    static boolean findCudaScoped(FlagTok t) {
        return t.via().startsWith("CUDA_NVCC_FLAGS") || t.via().equals("cuda_include_directories");
    }

    /**
     * An open block. {@code state}: 0 its commands run (a loop or function body, or a branch whose condition is
     * known true or unknown: {@code condition} is non-null then), 1 skipped (a branch known false; {@code skip}
     * describes it).
     */
    record Block(
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

    final Function<Path, String> relativize;
    final List<Path> fileTable = new ArrayList<>();
    final Map<String, PosText> vars = new HashMap<>();
    final Deque<Block> blocks = new ArrayDeque<>();
    private final List<CondRange> condRanges = new ArrayList<>();
    final Out out = new Out();
    Path currentDir;
    private int includeDepth;
    private final java.util.function.Predicate<Path> inTree;
    private final CMakeCondition conditions;
    /** The commands of skipped branches, audited in the scope the branch would have. */
    private final CMakeSkippedBranches skippedBranches = new CMakeSkippedBranches(this);
    /** The flags the project writes, where it writes them. */
    final CMakeFlags flags = new CMakeFlags(this);
    /** The variables' expansion and the commands that set them. */
    final CMakeVariables variables;
    /** Directory-wide options per directory (add_compile_options & co.), inherited by subdirectories. */
    List<FlagTok> dirOptions = new ArrayList<>();
    /** Skip mode: the condition of the skipped branch whose commands are being audited, and where it starts. */
    String skipMode;

    int skipFi;
    int skipLine;
    /** Forced condition for a whole file evaluated on its own although the project skips it. */
    String forced;
    /** The skipped branch under which the subdirectory being evaluated is added (null: a default one). */
    String notDefault;

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
        this.variables = new CMakeVariables(vars, conditions, this::currentCondition, this::charge);
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
        return audit(file, relativize, inTree, cache, Map.of(), forced, maxBytes);
    }

    /**
     * As {@link #audit(Path, Function, java.util.function.Predicate, Map, String, long)}, with where the configured
     * build gives each cache value ({@code origins}: "build/CMakeCache.txt", "--cmake-define"): a condition such a
     * value decides is false "in this configuration", one the project's defaults decide "in the default
     * configuration".
     */
    static Out audit(
            Path file,
            Function<Path, String> relativize,
            java.util.function.Predicate<Path> inTree,
            Map<String, String> cache,
            Map<String, String> origins,
            String forced,
            long maxBytes) {
        CMakeAudit a = new CMakeAudit(relativize, inTree);
        a.conditions.cacheOrigin.putAll(origins);
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

    /**
     * The configuration the analyzed build uses, for {@code $<CONFIG:...>}: {@code CMAKE_BUILD_TYPE} as the cache or
     * the lists set it, or null when it is empty (a multi-configuration generator, or no type chosen: then no
     * configuration's expression is decided).
     */
    String configuration() {
        PosText t = vars.get("CMAKE_BUILD_TYPE");
        return t == null || t.text.isBlank() ? null : t.text.trim();
    }

    String currentCondition() {
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
            int v = conditions.eval(c.args(), variables::values);
            blocks.push(branch(name, describe(c, fi), fi, c.line(), v, v == 1, v == 2));
            return;
        }
        if (BLOCK_OPEN.contains(name)) {
            if (skip != null) {
                blocks.push(new Block(name, null, fi, c.line(), 1, true, false, skip.skip()));
                return;
            }
            if (name.equals("function") || name.equals("macro")) {
                List<PosText> v = variables.values(c.args());
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
                    .replaceFirst(", which is (false|true) in (the default|this) configuration.*$", "")
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
            int v = conditions.eval(c.args(), variables::values);
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
            skippedBranches.skipped(c, fi, skip);
            return;
        }
        List<PosText> v = variables.values(c.args());
        cmdFile = fi;
        cmdLine = c.line();
        cmdColumn = c.column();
        if (CMakeCustomCommands.COMMANDS.contains(name)) CMakeCustomCommands.read(this, c.args());
        execute(name, v);
    }

    /** The file index, line and column of the command being executed: the place of flags made only of variables. */
    int cmdFile = -1, cmdLine, cmdColumn;

    void execute(String name, List<PosText> v) {
        switch (name) {
            case "option" -> {
                if (!v.isEmpty() && !vars.containsKey(v.get(0).text)) {
                    vars.put(v.get(0).text, v.size() > 2 ? v.get(2) : PosText.of("OFF", -1, 0, 0));
                }
            }
            case "add_subdirectory" -> addSubdirectory(v, null);
            case "add_compile_definitions" -> {
                for (PosText p : v) flags.define(p, null, "add_compile_definitions", dirOptions);
            }
            case "include_directories" -> {
                for (PosText p : v) {
                    if (!TARGET_KEYWORDS.contains(p.text)) flags.includeDir(p, null, "include_directories", dirOptions);
                }
            }
            case "cuda_include_directories" -> {
                // FindCUDA: list(APPEND CUDA_NVCC_INCLUDE_DIRS_USER dirs), read by the nvcc steps of the cuda_add_*
                // calls that follow (not by host sources); a variable, so it has the directory's scope
                List<PosText> l = new ArrayList<>();
                l.add(PosText.of("APPEND", -1, 0, 0));
                l.add(PosText.of(CUDA_INCLUDES, -1, 0, 0));
                for (PosText p : v) if (!TARGET_KEYWORDS.contains(p.text)) l.add(p);
                variables.list(l);
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
                    for (GenexEval.Piece piece : GenexEval.eval(p, currentCondition(), configuration())) {
                        if (name.equals("target_compile_definitions")) {
                            flags.define(piece.text(), piece.condition(), name + "(" + t + ")", into);
                        } else {
                            flags.includeDir(piece.text(), piece.condition(), name + "(" + t + ")", into);
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
            case "set" -> variables.set(v);
            case "unset" -> {
                if (!v.isEmpty()) vars.remove(v.get(0).text);
            }
            case "string" -> variables.string(v);
            case "list" -> variables.list(v);
            case "add_compile_options" -> flags.compileOptions(v, 0, dirOptions, "add_compile_options");
            case "add_definitions" -> {
                for (PosText p : v) flags.toks(p, FlagTok.Lang.ANY, null, "add_definitions", dirOptions);
            }
            case "target_compile_options" -> {
                if (v.isEmpty()) return;
                String t = v.get(0).text.isEmpty() ? "(unresolved target)" : v.get(0).text;
                flags.compileOptions(
                        v,
                        1,
                        out.targets.computeIfAbsent(t, k -> new ArrayList<>()),
                        "target_compile_options(" + t + ")");
            }
            case "add_executable", "add_library", "target_sources" -> flags.target(name, v);
            case "cuda_add_executable", "cuda_add_library" -> {
                flags.target(name, v);
                if (!v.isEmpty()) findCudaCall(v.get(0).text);
            }
            case "cuda_wrap_srcs" -> {
                // FindCUDA: cuda_wrap_srcs(target format generated_var sources... [OPTIONS ...]) compiles the sources
                // with the target's flags (zfp's CUDA backend); the two middle arguments are no sources
                if (v.size() > 3) {
                    List<PosText> w = new ArrayList<>(v.size() - 2);
                    w.add(v.get(0));
                    w.addAll(v.subList(3, v.size()));
                    flags.target(name, w);
                    findCudaCall(v.get(0).text);
                }
            }
            case "set_target_properties" -> flags.targetProperties(v);
            case "set_source_files_properties" -> flags.sourceProperties(v);
            case "set_property" -> flags.setProperty(v);
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
                    desc
                            + (conditions.lastOrigin() != null ? CONFIGURED_FALSE : DEFAULT_FALSE)
                            + conditions.lastDecisive());
            default -> new Block(name, desc + " (value unknown)", fi, line, 0, anyTrue, anyUnknown, null);
        };
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

    /** {@code skipped}: the condition of the skipped branch that adds it, or null when the branch runs. */
    void addSubdirectory(List<PosText> v, String skipped) {
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
            cudaIncludes(flags);
            flagVariables(flags, false);
            out.subdirectories.put(sub, flags);
            String a = CMakeFlags.arch(vars.getOrDefault("CMAKE_CUDA_ARCHITECTURES", PosText.EMPTY).text);
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
    String writtenUnder(int fi, int line) {
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
        cudaIncludes(out.directory);
        flagVariables(out.directory, false);
        PosText archs = vars.get("CMAKE_CUDA_ARCHITECTURES");
        if (archs != null) {
            String a = CMakeFlags.arch(archs.text);
            if (a != null) out.cudaArch.put("", a);
        }
    }

    /**
     * A FindCUDA call ({@code cuda_add_library}, {@code cuda_add_executable}, {@code cuda_wrap_srcs}) of a target:
     * the CUDA_NVCC_FLAGS and cuda_include_directories it compiles the target's CUDA sources with, as they are now.
     */
    private void findCudaCall(String target) {
        if (skipMode != null || target.isEmpty()) return;
        List<FlagTok> at = out.findCuda.computeIfAbsent(target, k -> new ArrayList<>());
        cudaIncludes(at);
        flagVariables(at, true);
    }

    /** The cuda_include_directories of this scope now, as -I flags for the CUDA compiler. */
    private void cudaIncludes(List<FlagTok> into) {
        PosText dirs = vars.get(CUDA_INCLUDES);
        if (dirs == null) return;
        for (PosText p : dirs.splitList()) {
            flags.includeDir(p, null, "cuda_include_directories", into, FlagTok.Lang.CUDA);
        }
    }

    /**
     * The values of the flag variables now (CMAKE_<LANG>_FLAGS[_<CONFIG>], CUDA_NVCC_FLAGS[_<CONFIG>]); only
     * FindCUDA's with {@code nvccOnly}.
     */
    private void flagVariables(List<FlagTok> into, boolean nvccOnly) {
        String buildType =
                vars.getOrDefault("CMAKE_BUILD_TYPE", PosText.EMPTY).text.toUpperCase(Locale.ROOT);
        for (String lang : nvccOnly ? List.of("NVCC") : List.of("CUDA", "CXX", "C", "NVCC")) {
            for (String suffix : CONFIG_SUFFIXES) {
                String var = lang.equals("NVCC") ? "CUDA_NVCC_FLAGS" + suffix : "CMAKE_" + lang + "_FLAGS" + suffix;
                PosText val = vars.get(var);
                if (val == null) continue;
                String cond = suffix.isEmpty() || suffix.substring(1).equals(buildType)
                        ? null
                        : "the " + suffix.substring(1) + " configuration (CMAKE_BUILD_TYPE is '"
                                + vars.getOrDefault("CMAKE_BUILD_TYPE", PosText.EMPTY).text + "')";
                FlagTok.Lang l = lang.equals("CUDA") || lang.equals("NVCC") ? FlagTok.Lang.CUDA : FlagTok.Lang.HOST;
                flags.toks(val, l, cond, var, into);
            }
        }
    }
}
