package dev.numlint.flags;

import dev.numlint.flags.checks.FlagHazard;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.BuildOptions;
import dev.numlint.spi.Checks;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The build-flag audit (phase 0): reads compile_commands.json, CMakeLists.txt and *.cmake files, and Makefiles
 * (Makefile, makefile, GNUmakefile, *.mk), reports hazardous nvcc and host-compiler flags at the line and column
 * where they are written, and records the build context of the scanned source files for the later phases.
 *
 * <p>Findings (layer build-flags): {@code --use_fast_math} (NL002 approximate division, NL006 intrinsic math
 * functions and approximate sqrt, NL007 flush-to-zero), {@code -prec-div=false} (NL002), {@code -prec-sqrt=false}
 * (NL006), {@code -ftz=true} (NL007), an explicit {@code -fmad=true} (NL003 at level note: it is nvcc's default),
 * {@code -m32} and {@code -mfpmath=387} (NL005), host {@code -march=} values with FMA or {@code -mfma} without
 * {@code -ffp-contract=off} (NL003), and host {@code -ffast-math}/{@code -Ofast} (NL002, NL006, NL007).
 * {@code -funsafe-math-optimizations} and {@code -freciprocal-math} give NL002 (and NL007 for the former, whose
 * link step adds crtfastmath.o). Each rule is one check class in {@code dev.numlint.flags.checks} (registered
 * {@link dev.numlint.flags.checks.BuildFlagCheck}s; {@link #implementedRules()} is derived from them) that reads
 * the flags {@link FlagInterpreter} interpreted once per compilation scope. Flags written under a condition (an {@code if()}, {@code ifeq}, a build
 * configuration) are reported with medium confidence and the condition in the message, but are not recorded in the
 * build context, since the build may not use them.
 *
 * <p>Build context: per compiled file for compile_commands.json entries and Makefile commands that name their
 * source; per target source for CMake targets; otherwise for every scanned source file under the build file's
 * directory (contexts of enclosing directories are merged, nearest last, as CMake's subdirectories inherit them).
 *
 * <p>{@code --nvcc-flags} tokens ({@link ScanContext#commandLineFlags()}) are interpreted and recorded as
 * project-wide build context only: they produce no findings (the user chose them for this scan; the source and PTX
 * findings they cause cite them as "set at --nvcc-flags").
 */
public final class BuildFlagAnalyzer implements Analyzer {
    /** Pseudo-file that locations of {@code --nvcc-flags} tokens name. */
    public static final String COMMAND_LINE = "--nvcc-flags";

    @Override
    public String id() {
        return "build-flags";
    }

    @Override
    public Layer layer() {
        return Layer.BUILD_FLAGS;
    }

    @Override
    public int phase() {
        return PHASE_CONTEXT;
    }

    @Override
    public Set<String> implementedRules() {
        return Checks.ruleIds(FlagInterpreter.CHECKS);
    }

    @Override
    public boolean accepts(Path file) {
        Path n = file.getFileName();
        if (n == null) return false;
        return dev.numlint.spi.BuildFileNames.isBuildFile(n.toString());
    }

    private final BuildOptions options;

    public BuildFlagAnalyzer() {
        this(BuildOptions.DEFAULT);
    }

    public BuildFlagAnalyzer(BuildOptions options) {
        this.options = options == null ? BuildOptions.DEFAULT : options;
    }

    /** The same analyzer with other build-model options. */
    @Override
    public BuildFlagAnalyzer withBuildOptions(BuildOptions o) {
        return new BuildFlagAnalyzer(o);
    }

    /**
     * What a device-code flag of the analyzed build changes in the scanned code ({@link FlagReach}), and the findings
     * of files the configured build does not compile as notes ({@link NotCompiledReview}), joined ({@link SameFileFlags}).
     */
    @Override
    public List<Finding> review(
            List<Finding> findings,
            Map<String, BuildContext> contexts,
            Set<String> notAnalyzed,
            Map<String, List<dev.numlint.model.UnitArithmetic>> units) {
        return SameFileFlags.join(
                NotCompiledReview.review(FlagReach.review(findings, contexts, notAnalyzed, units), contexts));
    }

    public BuildOptions options() {
        return options;
    }

    /** A compilation-database entry of a host source: its arguments, directory and where it is written. */
    record DbEntry(CompileCommandsAudit.Entry entry, Path base, String origin, Path database) {}

    /** Everything the audit found, in reporting order: selected configurations first, then unselected ones. */
    static final class Model {
        final Contexts db = new Contexts("compile_commands.json");
        final Contexts make = new Contexts("Makefile");
        final Contexts cmake = new Contexts("CMake");
        final Contexts py = new Contexts("setup.py");
        final List<FlagTok> unselected = new ArrayList<>();
        /** The host (.c/.cpp) entries of the compilation database by compiled file, for the .cu files without one. */
        final Map<Path, DbEntry> hostEntries = new HashMap<>();
        /** The CMake target that compiles each CUDA source, with all its sources (a FindCUDA target's .cpp entries). */
        final Map<Path, CMakeTargets.Target> targetOf = new HashMap<>();
        /** Where the notices of the context choice go. */
        FindingSink sink;
        /** The compilation database the build context comes from ({@code -p} or found automatically), or null. */
        String dbUsed;
        /** That database's file (absolute), or null. */
        Path dbFile;
        /** The build directories whose CMakeCache.txt may configure a CMake project: -p's, the database's, build/. */
        final List<Path> buildDirs = new ArrayList<>();
        /** Why --preset / --make-target did not apply, per place tried; how many places applied them. */
        final List<String> presetMissing = new ArrayList<>();

        final List<String> targetMissing = new ArrayList<>();
        int presetApplied;
        int targetFound;
    }

    /** Id of the notification that makes the scan a usage error: an option that applied nowhere in the tree. */
    public static final String USAGE_ERROR = "usage-error";

    /**
     * {@code --preset} or {@code --make-target} that no evaluated project has: the scan ran with the defaults, which
     * is not what was asked for, so the command line reports a usage error (exit 2) instead of a report.
     */
    private void optionsApplied(FindingSink sink, Model model) {
        if (options.preset() != null && model.presetApplied == 0 && !model.presetMissing.isEmpty()) {
            sink.notify(new Notification(
                    "--preset",
                    0,
                    Level.ERROR,
                    USAGE_ERROR,
                    "--preset " + options.preset() + ": no evaluated CMake project has it ("
                            + model.presetMissing.get(0) + ")"));
        }
        if (options.makeTarget() != null && model.targetFound == 0 && !model.targetMissing.isEmpty()) {
            sink.notify(new Notification(
                    "--make-target",
                    0,
                    Level.ERROR,
                    USAGE_ERROR,
                    "--make-target " + options.makeTarget() + ": no evaluated Makefile has that target ("
                            + String.join(", ", model.targetMissing) + ")"));
        }
    }

    @Override
    public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
        recordCommandLine(ctx);
        FlagReporter rep = new FlagReporter(ctx, sink, WrittenFlags.of(ctx, ctx.files()));
        Model model = new Model();
        model.sink = sink;
        dev.numlint.spi.TrustBoundary boundary = ctx.boundary();
        java.util.function.Predicate<Path> inTree = p -> inTree(boundary, p);
        List<Path> dbs = new ArrayList<>();
        List<Path> cmakes = new ArrayList<>();
        List<Path> makes = new ArrayList<>();
        List<Path> setups = new ArrayList<>();
        for (Path f : BuildFiles.withProjectBuildFiles(ctx, files, inTree, sink).stream()
                .map(x -> x.toAbsolutePath().normalize())
                .sorted(BY_DEPTH)
                .toList()) {
            String n = f.getFileName().toString();
            if (n.equals("compile_commands.json")) dbs.add(f);
            else if (n.equals("CMakeLists.txt") || n.endsWith(".cmake")) cmakes.add(f);
            else if (n.equals("setup.py")) setups.add(f);
            else if (!dev.numlint.spi.BuildFileNames.isFlagSource(n)) makes.add(f); // WrittenFlags reads the others
        }
        if (options.compileCommandsDir() != null) {
            Path p = options.compileCommandsDir().toAbsolutePath().normalize();
            if (Files.isDirectory(p)) p = p.resolve("compile_commands.json");
            if (Files.isRegularFile(p)) {
                dbs.remove(p);
                dbs.add(0, p);
                boolean under = ctx.root() != null
                        && p.startsWith(ctx.root().toAbsolutePath().normalize());
                model.dbUsed = (under ? ctx.relativize(p) : p.toString()) + " (given with -p)";
                model.dbFile = p;
            } else {
                sink.notify(new Notification(
                        "-p",
                        0,
                        Level.ERROR,
                        "unreadable-file",
                        "-p " + options.compileCommandsDir()
                                + ": no compile_commands.json there; the build files are used"));
            }
        }
        if (options.compileCommandsDir() == null) BuildFiles.autoDetectDatabase(ctx, dbs, inTree, sink, model);
        BuildFiles.buildDirectories(ctx, options.compileCommandsDir(), model.dbUsed == null ? null : dbs, model);
        Path usedDb = model.dbUsed == null || dbs.isEmpty() ? null : dbs.get(0);
        for (Path f : dbs) guarded(ctx, sink, f, () -> compileCommands(ctx, f, rep, model, f.equals(usedDb)));
        Set<Path> cmakeRead = new HashSet<>();
        Map<Path, String> skippedSubdirs = new LinkedHashMap<>();
        for (Path f : cmakes) {
            if (cmakeRead.contains(f) || !f.getFileName().toString().equals("CMakeLists.txt")) continue;
            guarded(ctx, sink, f, () -> cmakeProject(ctx, f, null, rep, model, cmakeRead, skippedSubdirs, inTree));
        }
        List<Path> templates = new ArrayList<>();
        for (Path f : cmakes) {
            if (cmakeRead.contains(f)) continue;
            if (BuildFiles.configureTemplate(f)) {
                templates.add(f);
                continue;
            }
            String forced = skippedSubdirs.get(f.getParent());
            if (forced == null) {
                forced = f.getFileName().toString().equals("CMakeLists.txt")
                        ? null
                        : f.getFileName() + ", which no evaluated CMakeLists.txt includes";
            }
            String fc = forced;
            guarded(ctx, sink, f, () -> cmakeProject(ctx, f, fc, rep, model, cmakeRead, skippedSubdirs, inTree));
        }
        if (!templates.isEmpty()) {
            List<String> names = templates.stream().map(ctx::relativize).toList();
            sink.notify(new Notification(
                    names.get(0),
                    0,
                    Level.NOTE,
                    "not-evaluated",
                    templates.size() + " configure_file template" + (templates.size() == 1 ? "" : "s") + " ("
                            + String.join(", ", names.subList(0, Math.min(3, names.size())))
                            + (names.size() > 3 ? ", ..." : "")
                            + ") not read as CMake scripts: the headers they become exist only once the project is "
                            + "configured"));
        }
        makefiles(ctx, sink, makes, rep, model, inTree);
        optionsApplied(sink, model);
        for (Path f : setups) guarded(ctx, sink, f, () -> setupPy(ctx, f, rep, model, inTree));
        rep.report(FlagInterpreter.interpret(dedupe(model.unselected)));
        Map<Path, BuildContext> chosen = ContextChoice.apply(ctx, model);
        rep.flush(chosen, reachable(ctx, model));
    }

    /**
     * Where each flag would apply by any build system: the locations of the flags in the file and directory contexts
     * that every build system (compile_commands.json, Makefiles, setup.py, CMake) would give the scanned sources,
     * before {@link #applyContexts} chooses one of them per file.
     */
    private static Set<Location> reachable(ScanContext ctx, Model model) {
        Set<Location> out = new HashSet<>();
        for (Path f : ctx.files()) {
            Path file = f.toAbsolutePath().normalize();
            if (!isSource(file)) continue;
            for (Contexts cs : List.of(model.db, model.make, model.py, model.cmake)) {
                BuildContext own = cs.files.get(file);
                if (own != null) own.origins().forEach(o -> out.add(o.location()));
                BuildContext dir = ContextChoice.directoryContext(cs, file);
                if (dir != null) dir.origins().forEach(o -> out.add(o.location()));
            }
        }
        return out;
    }

    static final java.util.Comparator<Path> BY_DEPTH =
            java.util.Comparator.comparingInt(Path::getNameCount).thenComparing(java.util.Comparator.naturalOrder());

    /**
     * Whether a build file may read {@code p}: inside the scan's {@link dev.numlint.spi.TrustBoundary} (the real
     * paths of the scanned PATHs, symbolic links resolved; never a version-control directory). A path that does not
     * exist yet counts as inside when its lexical path is.
     */
    static boolean inTree(dev.numlint.spi.TrustBoundary boundary, Path p) {
        Path a = p.toAbsolutePath().normalize();
        try {
            if (Files.exists(a)) return boundary.contains(a.toRealPath());
        } catch (IOException | RuntimeException e) {
            return false;
        }
        for (Path r : boundary.roots()) {
            if (a.startsWith(r)) return dev.numlint.spi.TrustBoundary.refusedName(a) == null;
        }
        return false;
    }

    private static void guarded(ScanContext ctx, FindingSink sink, Path file, Runnable r) {
        try {
            r.run();
        } catch (RuntimeException | StackOverflowError e) {
            sink.notify(new Notification(
                    ctx.relativize(file),
                    0,
                    Level.ERROR,
                    "internal-error",
                    "build-flag audit failed on this file: " + e));
        }
    }

    private static void recordCommandLine(ScanContext ctx) {
        List<String> flags = ctx.commandLineFlags();
        if (flags == null || flags.isEmpty()) return;
        List<FlagTok> toks = new ArrayList<>();
        int col = 1;
        for (String f : flags) {
            toks.add(new FlagTok(f, Location.of(COMMAND_LINE, 1, col), FlagTok.Lang.CUDA, null, COMMAND_LINE));
            col += f.length() + 1;
        }
        FlagInterpreter.Result r =
                FlagInterpreter.interpret(toks, ctx.root().toAbsolutePath().normalize());
        ctx.addBuildContext(null, r.cuda);
    }

    private static String read(ScanContext ctx, Path file, FindingSink sink) {
        try {
            long max = ctx.maxFileSize(Layer.BUILD_FLAGS);
            long size = Files.size(file);
            if (size > max) {
                sink.notify(new Notification(
                        ctx.relativize(file),
                        0,
                        Level.ERROR,
                        "file-too-large",
                        "not analyzed: the file has " + size + " bytes, more than max-file-size for build-flags (" + max
                                + ")"));
                return null;
            }
            byte[] b = Files.readAllBytes(file);
            for (int i = 0; i < Math.min(b.length, 8192); i++) {
                if (b[i] == 0) {
                    sink.notify(new Notification(
                            ctx.relativize(file),
                            0,
                            Level.ERROR,
                            "binary-file",
                            "binary content, not a build file; not analyzed"));
                    return null;
                }
            }
            try {
                return StandardCharsets.UTF_8
                        .newDecoder()
                        .decode(java.nio.ByteBuffer.wrap(b))
                        .toString();
            } catch (MalformedInputException e) {
                return new String(b, StandardCharsets.ISO_8859_1);
            }
        } catch (IOException e) {
            sink.notify(new Notification(
                    ctx.relativize(file), 0, Level.ERROR, "unreadable-file", "cannot read: " + e.getMessage()));
            return null;
        }
    }

    private static void problems(FindingSink sink, List<String[]> problems) {
        for (String[] p : problems) {
            int line;
            try {
                line = Integer.parseInt(p[1]);
            } catch (NumberFormatException e) {
                line = 0;
            }
            Level level = Level.parse(p[2].toLowerCase(Locale.ROOT));
            String id = p.length > 4 ? p[3] : level == Level.ERROR ? "unreadable-file" : "parse-error";
            sink.notify(new Notification(p[0], line, level, id, p.length > 4 ? p[4] : p[3]));
        }
    }

    /** The same flags, all under {@code cond} (written where the selected configuration does not go). */
    private static List<FlagTok> conditional(List<FlagTok> toks, String cond) {
        List<FlagTok> out = new ArrayList<>();
        for (FlagTok t : toks) {
            String c = t.condition() == null
                    ? cond
                    : t.condition().contains(cond) ? t.condition() : t.condition() + " and " + cond;
            out.add(new FlagTok(t.text(), t.loc(), t.lang(), c, t.via()));
        }
        return out;
    }

    // ------------------------------------------------------------------ CMake

    private void cmakeProject(
            ScanContext ctx,
            Path file,
            String forced,
            FlagReporter rep,
            Model model,
            Set<Path> read,
            Map<Path, String> skippedSubdirs,
            java.util.function.Predicate<Path> inTree) {
        Map<String, String> cache = new LinkedHashMap<>();
        CMakeCacheFile.Result configured = forced != null
                ? new CMakeCacheFile.Result(Map.of(), null, null)
                : CMakeCacheFile.forProject(file.getParent(), model.buildDirs, inTree);
        cache.putAll(configured.values());
        Map<String, String> origins = new LinkedHashMap<>();
        for (String k : configured.values().keySet()) origins.put(k, ctx.relativize(configured.file()));
        if (configured.problem() != null) {
            rep.sink.notify(new Notification(
                    ctx.relativize(configured.file()),
                    0,
                    Level.NOTE,
                    "not-evaluated",
                    "CMake cache " + configured.problem() + ": the CMake project's defaults are used"));
        }
        if (options.preset() != null && forced == null) {
            CMakePresets.Result pr = CMakePresets.cacheVariables(file.getParent(), options.preset(), inTree);
            if (pr.error() != null) {
                model.presetMissing.add(ctx.relativize(file) + ": " + pr.error());
            } else {
                model.presetApplied++;
            }
            if (pr.error() != null) {
                rep.sink.notify(new Notification(
                        ctx.relativize(file),
                        0,
                        Level.ERROR,
                        "not-evaluated",
                        "--preset " + options.preset() + ": " + pr.error() + "; the defaults are used"));
            }
            cache.putAll(pr.values());
            for (String k : pr.values().keySet()) origins.put(k, "--preset " + options.preset());
        }
        cache.putAll(options.cmakeDefines());
        for (String k : options.cmakeDefines().keySet()) origins.put(k, "--cmake-define");
        CMakeAudit.Out out = CMakeAudit.audit(
                file, ctx::relativize, inTree, cache, origins, forced, ctx.maxFileSize(Layer.BUILD_FLAGS));
        read.addAll(out.read);
        skippedSubdirs.putAll(out.skippedSubdirectories);
        problems(rep.sink, out.problems);
        problems(rep.sink, out.notices);
        String rel = ctx.relativize(file);
        StringBuilder cfg = new StringBuilder();
        for (Map.Entry<String, String> e : out.decisive.entrySet()) {
            if (cfg.length() > 60) {
                cfg.append(", ...");
                break;
            }
            cfg.append(cfg.length() == 0 ? "; " : ", ")
                    .append(e.getKey())
                    .append('=')
                    .append(e.getValue());
        }
        if (configured.file() != null && configured.problem() == null)
            cfg.append("; cache ").append(ctx.relativize(configured.file()));
        if (options.preset() != null && forced == null) cfg.append("; preset ").append(options.preset());
        Path dir = file.getParent();
        Map<Path, List<FlagTok>> dirFlags = new LinkedHashMap<>();
        dirFlags.put(dir, out.directory);
        dirFlags.putAll(out.subdirectories);
        Map<Path, FlagInterpreter.Result> dirResults = new HashMap<>();
        for (Map.Entry<Path, List<FlagTok>> e : dirFlags.entrySet()) {
            FlagInterpreter.Result d = FlagInterpreter.interpret(dedupe(e.getValue()), e.getKey());
            rep.report(d);
            String notDefault = out.notDefaultDirectories.get(e.getKey());
            if (notDefault != null) {
                d = FlagInterpreter.interpret(dedupe(unconditional(e.getValue(), notDefault)), e.getKey());
            }
            String arch = e.getKey().equals(dir) ? out.cudaArch.get("") : out.cudaArch.get("dir:" + e.getKey());
            if (arch == null) arch = out.cudaArch.get("");
            if (arch != null) d.cuda.cudaArch(arch);
            dirResults.put(e.getKey(), d);
            String dn = ctx.relativize(e.getKey());
            String c = "CMake directory " + (dn.isEmpty() ? "." : dn) + " (" + rel + cfg + notDefault(notDefault) + ")";
            model.cmake.dir(e.getKey(), d.cuda, d.host, c);
        }
        for (CMakeTargets.Target t : CMakeTargets.targets(
                out,
                dir,
                dirFlags,
                d -> {
                    FlagInterpreter.Result r = dirResults.get(d);
                    return r == null ? null : r.cuda.cudaArch();
                },
                BuildFlagAnalyzer::dedupe,
                rep)) {
            String c = "CMake target " + t.name() + " (" + rel + cfg
                    + notDefault(out.notDefaultDirectories.get(out.targetDirs.getOrDefault(t.name(), dir))) + ")";
            for (Path src : t.sources()) {
                model.cmake.file(src, CMakeTargets.context(t, src), c);
                if (isCuda(src)) model.targetOf.putIfAbsent(src, t);
            }
        }
        for (Map.Entry<Path, List<FlagTok>> e : out.sourceFlags.entrySet()) {
            List<FlagTok> all = new ArrayList<>(out.directory);
            all.addAll(e.getValue());
            FlagInterpreter.Result r = FlagInterpreter.interpret(dedupe(all), dir);
            rep.report(r);
            model.cmake.file(
                    e.getKey(), isCuda(e.getKey()) ? r.cuda : r.host, "CMake source properties (" + rel + cfg + ")");
        }
        model.unselected.addAll(out.unselected);
        NotDefaultSources.report(ctx, file, forced, cache, out, model, rep, inTree);
    }

    /**
     * The flags of a subdirectory the default configuration does not add, for the build context of its own sources
     * (they are built only under that condition): the condition is dropped; their hazards keep it.
     */
    static List<FlagTok> unconditional(List<FlagTok> toks, String cond) {
        List<FlagTok> out = new ArrayList<>();
        String suffix = " and " + cond;
        for (FlagTok t : toks) {
            String c = t.condition();
            if (c != null && c.equals(cond)) c = null;
            else if (c != null && c.endsWith(suffix)) c = c.substring(0, c.length() - suffix.length());
            out.add(c == t.condition() ? t : new FlagTok(t.text(), t.loc(), t.lang(), c, t.via()));
        }
        return out;
    }

    private static String notDefault(String cond) {
        return cond == null
                ? ""
                : "; not in the default configuration: added under "
                        + cond.replaceFirst(", which is false in (the default|this) configuration", "");
    }

    // ------------------------------------------------------------------ make

    private void makefiles(
            ScanContext ctx,
            FindingSink sink,
            List<Path> makes,
            FlagReporter rep,
            Model model,
            java.util.function.Predicate<Path> inTree) {
        // per directory the file GNU make reads: GNUmakefile, makefile, Makefile
        Map<Path, Path> top = new LinkedHashMap<>();
        for (String n : List.of("GNUmakefile", "makefile", "Makefile")) {
            for (Path f : makes) {
                if (f.getFileName().toString().equals(n)) top.putIfAbsent(f.getParent(), f);
            }
        }
        Set<Path> read = new HashSet<>();
        for (Path f : top.values()) {
            if (Files.exists(f.getParent().resolve("CMakeCache.txt"))) {
                sink.notify(new Notification(
                        ctx.relativize(f),
                        0,
                        Level.NOTE,
                        "not-evaluated",
                        "generated by CMake (CMakeCache.txt next to it): the CMake project is evaluated instead"));
                read.add(f);
                continue;
            }
            guarded(ctx, sink, f, () -> {
                MakeResult out = MakefileAudit.audit(
                        f, ctx::relativize, inTree, options.makeTarget(), ctx.maxFileSize(Layer.BUILD_FLAGS));
                if (options.makeTarget() != null) {
                    if (out.problems.stream().anyMatch(p -> p.message().startsWith("--make-target '"))) {
                        model.targetMissing.add(ctx.relativize(f));
                    } else {
                        model.targetFound++;
                    }
                }
                read.addAll(out.read);
                makefile(ctx, f, out, rep, model, null);
            });
        }
        for (Path f : makes) {
            if (read.contains(f)) continue;
            Path owner = top.get(f.getParent());
            String forced =
                    owner == null ? null : f.getFileName() + ", which " + ctx.relativize(owner) + " does not include";
            guarded(ctx, sink, f, () -> {
                MakeResult out =
                        MakefileAudit.audit(f, ctx::relativize, inTree, null, ctx.maxFileSize(Layer.BUILD_FLAGS));
                makefile(ctx, f, out, rep, model, forced);
            });
        }
    }

    private static void makefile(
            ScanContext ctx, Path file, MakeResult out, FlagReporter rep, Model model, String forced) {
        for (MakeResult.Problem p : out.problems) {
            rep.sink.notify(new Notification(
                    p.file(), p.line(), Level.parse(p.level().toLowerCase(Locale.ROOT)), p.id(), p.message()));
        }
        Path dir = file.getParent();
        String rel = ctx.relativize(file);
        if (forced != null) {
            model.unselected.addAll(conditional(out.variables, forced));
            for (MakeResult.Command c : out.commands) model.unselected.addAll(conditional(c.toks(), forced));
            model.unselected.addAll(conditional(out.unselected, forced));
            return;
        }
        for (MakeResult.Command c : out.commands) {
            FlagInterpreter.Result r = FlagInterpreter.interpret(dedupe(c.toks()), dir);
            rep.report(r);
            for (Path p : c.sources()) {
                model.make.file(p, c.nvcc() || isCuda(p) ? r.cuda : r.host, c.configuration() + " (" + rel + ")");
            }
        }
        FlagInterpreter.Result v = FlagInterpreter.interpret(dedupe(out.variables), dir);
        rep.report(v);
        model.make.dir(
                dir,
                v.cuda,
                v.host,
                "Makefile " + (out.goal == null ? "variables" : "goal " + out.goal + ", flag variables") + " (" + rel
                        + ")");
        model.unselected.addAll(out.unselected);
    }

    // ------------------------------------------------------------------ setup.py

    /**
     * A Python build ({@link SetupPyAudit}): each extension's flags are interpreted like a compile command's (their
     * hazards reported at the setup.py line that writes them) and become the build context of its sources.
     */
    private void setupPy(
            ScanContext ctx, Path file, FlagReporter rep, Model model, java.util.function.Predicate<Path> inTree) {
        String text = read(ctx, file, rep.sink);
        if (text == null) return;
        String rel = ctx.relativize(file);
        SetupPyAudit.Out out = SetupPyAudit.audit(rel, text);
        problems(rep.sink, out.problems);
        Path dir = file.getParent();
        for (SetupPyAudit.Ext e : out.extensions) {
            FlagInterpreter.Result r = FlagInterpreter.interpret(e.flags(), dir);
            rep.report(r);
            String origin = "setup.py extension " + (e.name() == null ? "" : e.name() + " ") + "(" + rel + ":"
                    + e.line() + (e.partial() ? "; partly read: computed values are not evaluated" : "") + ")";
            for (String s : e.sources()) {
                Path src;
                try {
                    src = dir.resolve(s).normalize();
                } catch (InvalidPathException ex) {
                    continue;
                }
                if (!inTree.test(src) || !Files.isRegularFile(src)) continue;
                model.py.file(src, isCuda(src) ? r.cuda : r.host, origin);
            }
        }
    }

    // ------------------------------------------------------------------ compile_commands.json

    /**
     * Reads one compilation database. The one the build context comes from ({@code used}: given with {@code -p} or
     * found automatically) also decides which flags of the build files are in this build ({@link FlagReporter}).
     */
    private void compileCommands(ScanContext ctx, Path file, FlagReporter rep, Model model, boolean used) {
        String text = read(ctx, file, rep.sink);
        if (text == null) return;
        String rel = ctx.relativize(file);
        CompileCommandsAudit.Out out = CompileCommandsAudit.audit(rel, text);
        problems(rep.sink, out.problems);
        Map<String, Path> byName = new HashMap<>();
        Set<String> ambiguous = new HashSet<>();
        for (Path p : ctx.files())
            if (byName.putIfAbsent(p.getFileName().toString(), p) != null)
                ambiguous.add(p.getFileName().toString());
        if (used) rep.database(rel, out.entries);
        Set<Path> scannedSet = new HashSet<>(ctx.files());
        Map<Path, Path> realScanned = null;
        // the same flag in many entries is one setting: report it once, with the number of entries
        Map<String, List<FlagHazard>> grouped = new LinkedHashMap<>();
        for (CompileCommandsAudit.Entry e : out.entries) {
            Path base = null;
            try {
                base = e.directory() == null
                        ? file.getParent()
                        : file.getParent().resolve(e.directory());
            } catch (InvalidPathException ex) {
                // not a path
            }
            List<FlagTok> toks = OptionsFiles.expand(ctx, e.toks(), base, rep.sink);
            FlagInterpreter.Result r =
                    FlagInterpreter.interpret(toks, base, e.compiler() == FlagTok.Lang.CUDA ? null : e.program());
            if (used) rep.databaseCommand(r);
            for (FlagHazard h : r.hazards) {
                grouped.computeIfAbsent(
                                h.ruleId() + "\u0000" + h.entry().flag() + "\u0000"
                                        + h.entry().target(),
                                k -> new ArrayList<>())
                        .add(h);
            }
            Path src = CompileCommandsAudit.resolve(ctx, e, base, byName, ambiguous);
            if (src == null && used) UnscannedUnits.absent(ctx, e, base, model.db);
            Path link = null;
            if (src != null && !scannedSet.contains(src)) {
                // compiled through a symbolic link to a scanned file (madgraph4gpu's P1_*/X.cc -> ../X.cc): the
                // scanned file is the unit; quoted includes the link's directory resolved stay found there
                if (realScanned == null) realScanned = realPaths(ctx.files());
                Path target = realScanned.get(realPath(src));
                if (target != null) {
                    link = src.getParent();
                    src = target;
                }
            }
            if (src != null) {
                if (e.compiler() != FlagTok.Lang.CUDA && !isCuda(src)) {
                    model.hostEntries.putIfAbsent(
                            src,
                            new DbEntry(e, base, "compile_commands.json entry (" + rel + ":" + e.line() + ")", file));
                }
                BuildContext unit = e.compiler() == FlagTok.Lang.CUDA ? r.cuda : r.host;
                if (link != null) unit = unit.copy().addIncludePath(link);
                model.db.file(src, unit, "compile_commands.json entry (" + rel + ":" + e.line() + ")");
                Path ptx = e.compiler() == FlagTok.Lang.CUDA ? PtxOutputs.written(toks, base, scannedSet) : null;
                if (ptx != null)
                    ctx.addBuildContext(ptx, BuildContext.defaults().writtenFrom(src, rel + ":" + e.line()));
            }
        }
        for (List<FlagHazard> hs : grouped.values()) {
            if (used) rep.databaseGroup(hs);
            else rep.reportGroup(hs);
        }
        // a C, C++ or CUDA unit with other variants kept (BuildContext.variants): the source front end's
        // build-variants notice says which it analyzed; this one only for the rest (a CUDA entry standing for host
        // ones)
        model.db.variants.keySet().removeIf(src -> isSource(src) && model.db.others.containsKey(src));
        model.db.variants.forEach((src, n) -> rep.sink.notify(new Notification(
                ctx.relativize(src),
                0,
                Level.NOTE,
                "build-variants",
                rel + " compiles this file " + n + " times with different defines; it is analyzed as its "
                        + (model.db.cudaVariant.contains(src)
                                ? "CUDA entry (-x cu) compiles it, where its device code is active"
                                : "first entry compiles it")
                        + " (" + String.join(" ", defineFlags(model.db.files.get(src))) + ")")));
        model.db.variants.clear(); // counted per database
        model.db.cudaVariant.clear();
    }

    private static List<String> defineFlags(BuildContext c) {
        List<String> out = new ArrayList<>();
        if (c != null) for (String d : c.defines()) out.add("-D" + d);
        if (out.isEmpty()) out.add("no defines");
        return out;
    }

    static List<FlagTok> dedupe(List<FlagTok> toks) {
        Map<String, FlagTok> seen = new LinkedHashMap<>();
        for (FlagTok t : toks) {
            seen.putIfAbsent(t.loc().shortText() + "\u0000" + t.text() + "\u0000" + t.lang(), t);
        }
        return new ArrayList<>(seen.values());
    }

    /** The scanned files by their real paths (the first one of each). */
    private static Map<Path, Path> realPaths(List<Path> files) {
        Map<Path, Path> out = new HashMap<>();
        for (Path f : files) out.putIfAbsent(realPath(f), f);
        return out;
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | RuntimeException e) {
            return p;
        }
    }

    static boolean isCuda(Path p) {
        if (p.getFileName() == null) return false; // a source written as "/" (a root has no file name)
        String n = p.getFileName().toString();
        return n.endsWith(".cu") || n.endsWith(".cuh") || n.endsWith(".ptx");
    }

    static boolean isSource(Path p) {
        if (p.getFileName() == null) return false;
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        int dot = n.lastIndexOf('.');
        if (dot < 0) return false;
        return Set.of("cu", "cuh", "ptx", "c", "cc", "cpp", "cxx", "c++", "h", "hh", "hpp", "hxx", "inl", "tpp")
                .contains(n.substring(dot + 1));
    }

    // ------------------------------------------------------------------ reporting

    /** The related-location text of the other places that set the same flag for the same files. */
    static final String SAME_FLAG = "same flag in another entry";
}
