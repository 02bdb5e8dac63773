package dev.numlint.cli;

import dev.numlint.config.NumlintConfig;
import dev.numlint.scan.ScanOptions;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.PtxMode;
import dev.numlint.toolchain.Nvcc;
import dev.numlint.toolchain.PtxCache;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The options that say what to scan and how it is built; shared by {@code scan} and {@code validate}. */
final class ScanInputs {
    enum Ptx {
        auto,
        off
    }

    @Option(
            names = "--ptx",
            paramLabel = "MODE",
            defaultValue = "auto",
            description =
                    "auto: compile .cu files (and C++ sources built with -x cu) to PTX with nvcc when nvcc is found; off: never"
                            + " (default: ${DEFAULT-VALUE})")
    Ptx ptx;

    @Option(
            names = "--nvcc-flags",
            paramLabel = "FLAGS",
            description = "nvcc flags the code is built with, e.g. \"--use_fast_math -arch=sm_80\"")
    String nvccFlags;

    @Option(
            names = "--cuda-arch",
            paramLabel = "ARCH",
            description = "architecture for PTX: compute_NN, sm_NN or NN " + "(e.g. 80, sm_90a; default: "
                    + ScanOptions.DEFAULT_CUDA_ARCH + ")")
    String cudaArch;

    @Option(
            names = "--classpath",
            paramLabel = "CP",
            description = "class path for resolving Java types (jars and "
                    + "class directories separated by the path separator, ':' on Unix; each must exist)")
    String classpath;

    @Option(
            names = "--java-release",
            paramLabel = "N",
            description = "the Java release of the Java sources (8, 11, 17, 21 ...), instead of the one read from "
                    + "pom.xml or the Gradle build")
    Integer javaRelease;

    @Option(
            names = "--maven-repo",
            paramLabel = "DIR",
            description = "a local Maven repository (e.g. ~/.m2/repository) from which parent POMs that are not in "
                    + "the scanned tree may be read, for the Java release (default: none is read)")
    Path mavenRepo;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "configuration file (default: " + NumlintConfig.FILE_NAME + " in the scanned directory)")
    Path config;

    @Option(
            names = "--exclude",
            paramLabel = "GLOB",
            description = "skip matching files and directories ('**' " + "spans directories); repeatable")
    List<String> excludes = new ArrayList<>();

    @Option(
            names = "--all-configurations",
            description = "also analyze the inactive #if/#ifdef branches of CUDA "
                    + "sources; their findings name the condition (off by default)")
    boolean allConfigurations;

    @Option(
            names = "--frontend",
            paramLabel = "NAME",
            description = "C, C++ and CUDA front end: auto (default; also Clang through libclang, in guarded worker "
                    + "processes, when it loads, else the hand-written one with a notice), clang, or legacy (the "
                    + "hand-written one only)")
    String frontend;

    @Option(
            names = "--scope",
            paramLabel = "SCOPE",
            description = "C, C++ and CUDA files to analyze: tree (default: every source and header found) or build"
                    + " (the sources the build compiles, from its compile_commands.json, Makefile or CMake targets,"
                    + " and the project headers they include; every other C/C++/CUDA file is listed as not analyzed,"
                    + " with the reason, as a note)")
    String scope;

    @Option(
            names = "--cache-dir",
            paramLabel = "DIR",
            description = "cache for derived PTX, per-file analysis results and precompiled CUDA headers (default: "
                    + "$XDG_CACHE_HOME/numlint or $HOME/.cache/numlint)")
    Path cacheDir;

    @Option(
            names = "-p",
            paramLabel = "DIR",
            description = "directory with the compile_commands.json to use (as "
                    + "clang-tidy's -p); default: the scan root and its build*/ directories")
    Path compileCommandsDir;

    @Option(
            names = "--make-target",
            paramLabel = "TARGET",
            description = "Makefile goal to evaluate instead of the " + "default goal")
    String makeTarget;

    @Option(
            names = "--cmake-define",
            paramLabel = "NAME=VALUE",
            description = "CMake cache value for the " + "evaluation of CMakeLists.txt (like cmake -D); repeatable")
    List<String> cmakeDefines = new ArrayList<>();

    @Option(
            names = "--preset",
            paramLabel = "NAME",
            description = "CMake configure preset (CMakePresets.json) " + "whose cache variables apply")
    String preset;

    /** The build-model options ({@code -p}, {@code --make-target}, {@code --cmake-define}, {@code --preset}). */
    dev.numlint.spi.BuildOptions buildOptions() {
        java.util.Map<String, String> defs = new java.util.LinkedHashMap<>();
        for (String d : cmakeDefines) {
            int eq = d.indexOf('=');
            String name = eq < 0 ? d : d.substring(0, eq);
            int colon = name.indexOf(':'); // NAME:TYPE=VALUE as cmake -D takes it
            if (colon > 0) name = name.substring(0, colon);
            if (name.isEmpty()) {
                throw new Main.UsageException("--cmake-define: expected NAME=VALUE, got '" + d + "'");
            }
            defs.put(name, eq < 0 ? "ON" : d.substring(eq + 1));
        }
        if (compileCommandsDir != null && !Files.exists(compileCommandsDir)) {
            throw new Main.UsageException("-p: '" + compileCommandsDir + "' does not exist");
        }
        if (compileCommandsDir != null
                && Files.isDirectory(compileCommandsDir)
                && !Files.isRegularFile(compileCommandsDir.resolve("compile_commands.json"))) {
            throw new Main.UsageException("-p: no compile_commands.json in '" + compileCommandsDir + "'");
        }
        return new dev.numlint.spi.BuildOptions(
                compileCommandsDir == null
                        ? null
                        : compileCommandsDir.toAbsolutePath().normalize(),
                makeTarget,
                defs,
                preset);
    }

    @Option(
            names = "--enable",
            paramLabel = "RULE[,RULE...]",
            split = ",",
            description = "turn these rules on, over .numlint.yml (repeatable)")
    List<String> enable = new ArrayList<>();

    @Option(
            names = "--disable",
            paramLabel = "RULE[,RULE...]",
            split = ",",
            description = "turn these rules off, over .numlint.yml (repeatable)")
    List<String> disable = new ArrayList<>();

    /** The configuration's rule settings with --enable and --disable on top; unknown or contradictory ids: usage. */
    private dev.numlint.config.ConfiguredRuleSettings ruleSettings(dev.numlint.config.NumlintConfig cfg) {
        dev.numlint.rules.RuleCatalog catalog = dev.numlint.rules.RuleCatalog.get();
        java.util.Map<String, dev.numlint.config.RuleConfig> rules = new java.util.LinkedHashMap<>(cfg.rules());
        for (String id : enable) {
            if (disable.contains(id)) {
                throw new Main.UsageException("rule " + id + " is both in --enable and in --disable");
            }
        }
        for (List<String> ids : List.of(enable, disable)) {
            boolean on = ids == enable;
            for (String raw : ids) {
                String id = raw.strip();
                if (!catalog.has(id)) {
                    throw new Main.UsageException("--" + (on ? "enable" : "disable") + ": unknown rule '" + id
                            + "' (the rules: " + String.join(", ", catalog.ids()) + ")");
                }
                dev.numlint.config.RuleConfig old = rules.get(id);
                rules.put(
                        id,
                        new dev.numlint.config.RuleConfig(
                                on,
                                old == null ? null : old.level(),
                                old == null ? java.util.Map.of() : old.options()));
            }
        }
        return new dev.numlint.config.ConfiguredRuleSettings(catalog, rules);
    }

    @Option(
            names = {"-j", "--jobs"},
            paramLabel = "N",
            description = "use at most N threads for the analysis (default: one per core), e.g. on a CI runner that "
                    + "shares its machine")
    int jobs;

    @Option(
            names = "--fail-on-input-problems",
            description = "exit with " + Main.EXIT_INPUT_PROBLEMS + " when a file "
                    + "could not be analyzed (binary, too large, unreadable, unparsable) and nothing else failed the run "
                    + "(also fail-on-input-problems: true in .numlint.yml)")
    boolean failOnInputProblems;

    /** The accepted forms of {@code --cuda-arch}: compute_NN, sm_NN, lto_NN or NN, with nvcc's a/f suffixes. */
    static final java.util.regex.Pattern CUDA_ARCH =
            java.util.regex.Pattern.compile("(?:(compute|sm|lto)_)?([1-9][0-9]{1,2})([af]?)");

    /**
     * The scan options for {@code paths}, the absolute paths themselves, whether input problems fail the run
     * ({@code --fail-on-input-problems} or the configuration's key) and the configuration file (or null).
     */
    record Prepared(ScanOptions options, List<Path> paths, boolean failOnInputProblems, Path configFile) {}

    Prepared prepare(List<Path> paths, List<Analyzer> analyzers) {
        scanned(paths);
        List<Path> abs = new ArrayList<>();
        for (Path p : paths) {
            if (!Files.exists(p)) {
                throw new Main.UsageException("PATH '" + p + "' does not exist");
            }
            abs.add(p.toAbsolutePath().normalize());
        }
        Path root = root(abs);
        NumlintConfig cfg = loadConfig(abs, root);
        // a file or subdirectory inside a project: the project's build context, root and fingerprints
        Path project = dev.numlint.scan.ProjectRoot.find(abs);
        if (project != null && !project.startsWith(root)) root = project;

        if (jobs < 0) throw new Main.UsageException("-j " + jobs + ": the number of threads must be 1 or more");
        dev.numlint.model.Cores.limit(jobs);
        ScanOptions.Builder b = ScanOptions.builder(root)
                .jobs(jobs)
                .paths(abs)
                .analyzers(analyzers)
                .config(cfg)
                .rules(ruleSettings(cfg))
                .notice(configNotice);
        if (project != null) b.setting(dev.numlint.scan.ProjectRoot.SETTING, project.toString());
        if (compileCommandsDir != null && Files.isDirectory(compileCommandsDir)) {
            b.setting(
                    dev.numlint.scan.ProjectRoot.BUILD_DIR_SETTING,
                    compileCommandsDir.toAbsolutePath().normalize().toString());
        }
        if (excludes.size() > dev.numlint.util.Glob.MAX_COUNT) {
            throw new Main.UsageException("--exclude: " + excludes.size() + " patterns, more than the limit of "
                    + dev.numlint.util.Glob.MAX_COUNT);
        }
        for (String g : excludes) {
            try {
                new dev.numlint.util.Glob(g);
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException("--exclude: " + e.getMessage());
            }
            b.exclude(g);
        }
        List<String> flags = commandLineFlags();
        String arch = normalizedCudaArch();
        List<Path> cp = classpathEntries();
        b.ptx(ptx == Ptx.auto ? PtxMode.AUTO : PtxMode.OFF, ptx == Ptx.auto ? nvccOrNull() : null);
        b.notice(nvccNotice);
        b.nvccFlags(flags);
        b.cudaArch(arch);
        if (cudaArch != null) b.setting(dev.numlint.ptx.PtxAnalyzer.CUDA_ARCH_SETTING, arch);
        b.buildOptions(buildOptions());
        b.classpath(cp);
        b.cacheDir(checkedCacheDir());
        if (allConfigurations) b.setting("all-configurations", "true");
        if (javaRelease != null) {
            if (javaRelease < 1 || javaRelease > 99) {
                throw new Main.UsageException(
                        "--java-release: '" + javaRelease + "' is not a Java release (8, 11, 17 ...)");
            }
            b.setting("java-release", Integer.toString(javaRelease));
        }
        if (mavenRepo != null) {
            if (!java.nio.file.Files.isDirectory(mavenRepo)) {
                throw new Main.UsageException("--maven-repo: '" + mavenRepo + "' is not a directory");
            }
            b.setting("maven-repo", mavenRepo.toAbsolutePath().normalize().toString());
        }
        if (frontend != null) {
            // the CLI knows the names only; the CUDA front end reads the setting
            String f = frontend.toLowerCase(java.util.Locale.ROOT);
            if (!List.of("auto", "clang", "legacy").contains(f)) {
                throw new Main.UsageException("--frontend: '" + frontend + "' is not auto, clang or legacy");
            }
            b.setting("frontend", f);
        }
        if (scope != null) {
            // the CLI knows the names only; the CUDA front end reads the setting
            String sc = scope.toLowerCase(java.util.Locale.ROOT);
            if (!List.of("tree", "build").contains(sc)) {
                throw new Main.UsageException("--scope: '" + scope + "' is not tree or build");
            }
            b.setting("scope", sc);
        }
        if (System.console() != null && System.getenv("CI") == null) {
            b.progress(System.err);
        } else {
            b.progressLines(System.err);
        }
        boolean failOnInput = failOnInputProblems || Boolean.TRUE.equals(cfg.failOnInputProblems());
        return new Prepared(b.build(), abs, failOnInput, cfg.source() == null ? null : Path.of(cfg.source()));
    }

    /**
     * {@code --cuda-arch} checked and normalized: NN becomes compute_NN; anything else that is not compute_NN, sm_NN
     * or lto_NN (with nvcc's a/f suffixes) is a usage error rather than silently the default. Null when absent.
     */
    String normalizedCudaArch() {
        if (cudaArch == null) {
            return null;
        }
        java.util.regex.Matcher m = CUDA_ARCH.matcher(cudaArch.strip());
        if (!m.matches()) {
            throw new Main.UsageException("--cuda-arch: '" + cudaArch + "' is not an architecture; write compute_NN, "
                    + "sm_NN or NN, e.g. compute_80, sm_90a or 86");
        }
        return (m.group(1) == null ? "compute" : m.group(1)) + "_" + m.group(2) + m.group(3);
    }

    /** {@code --classpath} entries as absolute paths; an entry that does not exist is a usage error. */
    List<Path> classpathEntries() {
        List<Path> cp = new ArrayList<>();
        if (classpath == null) {
            return cp;
        }
        for (String e : classpath.split(java.util.regex.Pattern.quote(File.pathSeparator))) {
            if (e.isBlank()) {
                continue;
            }
            Path p = Path.of(e).toAbsolutePath().normalize();
            if (!Files.exists(p)) {
                throw new Main.UsageException("--classpath: entry '" + e + "' does not exist");
            }
            if (!Files.isDirectory(p) && !Files.isReadable(p)) {
                throw new Main.UsageException("--classpath: entry '" + e + "' cannot be read");
            }
            cp.add(p);
        }
        return cp;
    }

    /** The tokens of {@code --nvcc-flags} (empty when absent). */
    List<String> commandLineFlags() {
        return nvccFlags == null ? List.of() : tokenize(nvccFlags);
    }

    String cudaArchOrDefault() {
        return cudaArch == null ? ScanOptions.DEFAULT_CUDA_ARCH : normalizedCudaArch();
    }

    /**
     * The directories of the scanned tree, lexically: each PATH (a file's directory) and the report root. A link at
     * or above an output inside them may have been planted by the tree ({@link dev.numlint.spi.SafeFiles}).
     */
    static List<Path> treeDirs(List<Path> paths) {
        List<Path> out = new ArrayList<>();
        if (paths == null || paths.isEmpty()) return out;
        List<Path> abs = new ArrayList<>();
        for (Path p : paths) {
            Path a = p.toAbsolutePath().normalize();
            abs.add(a);
            out.add(Files.isDirectory(a) ? a : a.getParent() == null ? a : a.getParent());
        }
        out.add(root(abs));
        return out;
    }

    /** The scanned PATHs, for checks made before {@link #prepare} (the cache directory, files given by option). */
    private List<Path> scanned = List.of();

    ScanInputs scanned(List<Path> paths) {
        scanned = paths == null ? List.of() : List.copyOf(paths);
        return this;
    }

    /**
     * A file named by an option ({@code --config}, {@code --baseline}, {@code --spec}): when it lies inside the
     * scanned tree, it must be a regular file whose real path stays inside it (a symbolic link the tree planted to
     * {@code /etc/passwd} or {@code ~/.ssh/id_rsa} is refused, exit 2); a file outside the tree is the caller's.
     */
    Path checkedInput(String option, Path file) {
        if (file == null || scanned.isEmpty()) return file;
        Path abs = file.toAbsolutePath().normalize();
        boolean inTree = false;
        for (Path d : treeDirs(scanned)) inTree |= abs.startsWith(d);
        dev.numlint.spi.TrustBoundary b = dev.numlint.spi.TrustBoundary.of(treeDirs(scanned));
        try {
            Path real = abs.toRealPath();
            inTree |= b.contains(real);
        } catch (java.io.IOException | RuntimeException e) {
            return file; // does not exist: the option's own check says so
        }
        if (!inTree) return file;
        String why = b.refusal(abs);
        if (why != null) {
            throw new Main.UsageException(option + ": '" + file + "' is not read: " + why
                    + " (numlint reads nothing outside the scanned tree)");
        }
        return file;
    }

    /**
     * The working directory when every PATH lies under it (paths in reports stay clickable), else the deepest
     * directory that holds every PATH, so that the files of each are named relative to one place ({@code a/x.c},
     * {@code b/y.c}; not {@code x.c} beside an absolute {@code /tmp/t/b/y.c}); the first PATH when only the file
     * system's root holds them all. It names files only: the configuration is read from a PATH or the working
     * directory ({@link #configDirs}), never from a directory above the scanned tree.
     */
    static Path root(List<Path> paths) {
        Path cwd = Path.of("").toAbsolutePath().normalize();
        if (paths.stream().allMatch(p -> p.startsWith(cwd))) {
            return cwd;
        }
        Path first = paths.get(0);
        Path common = Files.isDirectory(first) ? first : first.getParent();
        for (Path p : paths) {
            Path d = Files.isDirectory(p) ? p : p.getParent();
            while (common != null && d != null && !d.startsWith(common)) common = common.getParent();
        }
        if (common == null || common.getParent() == null) return Files.isDirectory(first) ? first : first.getParent();
        return common;
    }

    /** Where the tree's own configuration is looked for: the first PATH's directory, then the working directory. */
    private static List<Path> configDirs(List<Path> paths, Path root) {
        Path first = paths.get(0);
        Path dir = Files.isDirectory(first) ? first : first.getParent();
        Path cwd = Path.of("").toAbsolutePath().normalize();
        return root.equals(cwd) || root.equals(dir) ? List.of(dir, root) : List.of(dir);
    }

    private NumlintConfig loadConfig(List<Path> paths, Path root) {
        if (config != null) {
            if (Files.isDirectory(config)) {
                throw new Main.UsageException("--config '" + config + "' is a directory; name the file, e.g. '"
                        + config.resolve(NumlintConfig.FILE_NAME) + "'");
            }
            if (!Files.exists(config)) {
                throw new Main.UsageException("configuration file '" + config + "' does not exist");
            }
            if (!Files.isRegularFile(config)) {
                throw new Main.UsageException("--config '" + config + "' is not a regular file");
            }
            return NumlintConfig.load(checkedInput("--config", config));
        }
        for (Path d : configDirs(paths, root)) {
            Path f = d.resolve(NumlintConfig.FILE_NAME);
            if (Files.isRegularFile(f) || Files.isSymbolicLink(f)) {
                // the tree's own configuration: read only when it is a file of that directory, not a link out of it
                String why = dev.numlint.spi.TrustBoundary.of(List.of(d)).refusal(f);
                if (why == null) return NumlintConfig.load(f);
                Path a = f.toAbsolutePath().normalize();
                String rel = a.startsWith(root) ? root.relativize(a).toString() : a.toString();
                configNotice = new dev.numlint.model.Notification(
                        rel,
                        0,
                        dev.numlint.model.Level.WARNING,
                        "config-not-read",
                        "not read (the defaults apply): " + why);
                return NumlintConfig.defaults();
            }
        }
        return NumlintConfig.defaults();
    }

    /** Splits a flag string like a shell would (single and double quotes, backslash escapes). */
    static List<String> tokenize(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inToken = false;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < s.length()) {
                    cur.append(s.charAt(++i));
                } else {
                    cur.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inToken = true;
            } else if (c == '\\' && i + 1 < s.length()) {
                cur.append(s.charAt(++i));
                inToken = true;
            } else if (Character.isWhitespace(c)) {
                if (inToken) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    inToken = false;
                }
            } else {
                cur.append(c);
                inToken = true;
            }
        }
        if (quote != 0) {
            throw new Main.UsageException("--nvcc-flags: unclosed quote in '" + s + "'");
        }
        if (inToken) {
            out.add(cur.toString());
        }
        return out;
    }

    @Option(
            names = "--nvcc",
            paramLabel = "FILE",
            description = "the CUDA toolkit's nvcc to use (default: nvcc on " + "PATH, else /usr/local/cuda/bin/nvcc)")
    Path nvcc;

    /** The nvcc to use ({@code --nvcc} when given, which must be an executable file), or null when none is found. */
    Path nvccOrNull() {
        if (nvcc != null && !(Files.isRegularFile(nvcc) && Files.isExecutable(nvcc))) {
            throw new Main.UsageException("--nvcc: '" + nvcc + "' is not an executable file");
        }
        List<Path> skipped = new ArrayList<>();
        Path found = Nvcc.find(nvcc, System.getenv("PATH"), treeDirs(scanned), skipped)
                .orElse(null);
        if (!skipped.isEmpty()) {
            Path root = root(
                    scanned.stream().map(q -> q.toAbsolutePath().normalize()).toList());
            Path first = skipped.get(0);
            nvccNotice = new dev.numlint.model.Notification(
                    first.startsWith(root) ? root.relativize(first).toString() : null,
                    0,
                    dev.numlint.model.Level.WARNING,
                    "nvcc-in-tree",
                    "not run: the nvcc that PATH names first lies inside the scanned tree (its programs are never run); "
                            + (found == null
                                    ? "no other nvcc was found, so the PTX layer is off"
                                    : "the next nvcc in the search order is used")
                            + "; give the toolkit's with --nvcc");
        }
        return found;
    }

    /** Why an nvcc on PATH was passed over ({@link #nvccOrNull}), or null; reported with the scan's notifications. */
    dev.numlint.model.Notification nvccNotice;

    /** Why the tree's configuration file was not read, or null; reported with the scan's notifications. */
    dev.numlint.model.Notification configNotice;

    /**
     * {@code --cache-dir} (null: the default), checked: a file there, a symbolic link there (also a dangling one)
     * or at a directory above it inside the scanned tree is a usage error.
     */
    Path checkedCacheDir() {
        try {
            PtxCache.checkUsable(cacheDir, treeDirs(scanned));
        } catch (PtxCache.CacheDirException e) {
            throw new Main.UsageException("--cache-dir: " + e.getMessage());
        }
        return cacheDir;
    }
}
