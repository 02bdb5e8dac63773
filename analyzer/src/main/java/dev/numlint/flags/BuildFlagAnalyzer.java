package dev.numlint.flags;

import dev.numlint.flags.checks.FlagEntry;
import dev.numlint.flags.checks.FlagHazard;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Confidence;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.rules.Quote;
import dev.numlint.rules.RuleCatalog;
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
        String name = n.toString();
        return name.equals("compile_commands.json")
                || name.equals("CMakeLists.txt")
                || name.endsWith(".cmake")
                || name.equals("Makefile")
                || name.equals("makefile")
                || name.equals("GNUmakefile")
                || name.endsWith(".mk")
                || name.equals("setup.py");
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

    /** What a device-code flag of the analyzed build changes in the scanned code ({@link FlagReach}). */
    @Override
    public List<Finding> review(List<Finding> findings, Map<String, BuildContext> contexts, Set<String> notAnalyzed) {
        return FlagReach.review(findings, contexts, notAnalyzed);
    }

    public BuildOptions options() {
        return options;
    }

    /** One build system's contexts: per directory (directory-wide flags) and per file (commands, targets). */
    private static final class Contexts {
        final String system;
        final Map<Path, BuildContext[]> dirs = new HashMap<>(); // {cuda, host}
        final Map<Path, String> dirConfig = new HashMap<>();
        final Map<Path, BuildContext> files = new HashMap<>();

        Contexts(String system) {
            this.system = system;
        }

        void dir(Path d, BuildContext cuda, BuildContext host, String config) {
            BuildContext[] c =
                    dirs.computeIfAbsent(d, k -> new BuildContext[] {BuildContext.defaults(), BuildContext.defaults()});
            c[0].merge(cuda);
            c[1].merge(host);
            dirConfig.putIfAbsent(d, config);
        }

        void file(Path f, BuildContext c, String config) {
            BuildContext x = c.copy();
            if (x.configuration() == null) x.configuration(config);
            files.merge(f, x, (a, b) -> a.copy().merge(b).configuration(a.configuration()));
        }
    }

    /** A compilation-database entry of a host source: its arguments, directory and where it is written. */
    private record DbEntry(CompileCommandsAudit.Entry entry, Path base, String origin) {}

    /** Everything the audit found, in reporting order: selected configurations first, then unselected ones. */
    private static final class Model {
        final Contexts db = new Contexts("compile_commands.json");
        final Contexts make = new Contexts("Makefile");
        final Contexts cmake = new Contexts("CMake");
        final Contexts py = new Contexts("setup.py");
        final List<FlagTok> unselected = new ArrayList<>();
        /** The host (.c/.cpp) entries of the compilation database by compiled file, for the .cu files without one. */
        final Map<Path, DbEntry> hostEntries = new HashMap<>();
        /** Where the notices of the context choice go. */
        FindingSink sink;
        /** The compilation database the build context comes from ({@code -p} or found automatically), or null. */
        String dbUsed;
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
        Reporter rep = new Reporter(ctx, sink);
        Model model = new Model();
        model.sink = sink;
        dev.numlint.spi.TrustBoundary boundary = ctx.boundary();
        java.util.function.Predicate<Path> inTree = p -> inTree(boundary, p);
        List<Path> dbs = new ArrayList<>();
        List<Path> cmakes = new ArrayList<>();
        List<Path> makes = new ArrayList<>();
        List<Path> setups = new ArrayList<>();
        for (Path f : withProjectBuildFiles(ctx, files, inTree, sink).stream()
                .map(x -> x.toAbsolutePath().normalize())
                .sorted(BY_DEPTH)
                .toList()) {
            String n = f.getFileName().toString();
            if (n.equals("compile_commands.json")) dbs.add(f);
            else if (n.equals("CMakeLists.txt") || n.endsWith(".cmake")) cmakes.add(f);
            else if (n.equals("setup.py")) setups.add(f);
            else makes.add(f);
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
        if (options.compileCommandsDir() == null) autoDetectDatabase(ctx, dbs, inTree, sink, model);
        for (Path f : dbs) guarded(ctx, sink, f, () -> compileCommands(ctx, f, rep, model));
        Set<Path> cmakeRead = new HashSet<>();
        Map<Path, String> skippedSubdirs = new LinkedHashMap<>();
        for (Path f : cmakes) {
            if (cmakeRead.contains(f) || !f.getFileName().toString().equals("CMakeLists.txt")) continue;
            guarded(ctx, sink, f, () -> cmakeProject(ctx, f, null, rep, model, cmakeRead, skippedSubdirs, inTree));
        }
        List<Path> templates = new ArrayList<>();
        for (Path f : cmakes) {
            if (cmakeRead.contains(f)) continue;
            if (configureTemplate(f)) {
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
        rep.report(FlagInterpreter.interpret(dedupe(model.unselected)).hazards);
        Map<Path, BuildContext> chosen = applyContexts(ctx, model);
        rep.flush(chosen, reachable(ctx, model));
    }

    /**
     * Without {@code -p}: the compilation database of the scanned project's build, the first of
     * {@code compile_commands.json} in the scan root, {@code build/}, {@code out/}, {@code cmake-build-*}/ (by
     * name). The other databases in those places are not used (two builds of one project would mix), and a notice
     * says so; a database elsewhere in the tree is read as before.
     */
    private static void autoDetectDatabase(
            ScanContext ctx, List<Path> dbs, java.util.function.Predicate<Path> inTree, FindingSink sink, Model model) {
        if (ctx.root() == null) return;
        // the scan root, then each scanned directory (the root is the working directory when it holds them all)
        java.util.Set<Path> bases = new java.util.LinkedHashSet<>();
        bases.add(ctx.root().toAbsolutePath().normalize());
        for (Path b : ctx.boundary().roots()) {
            if (Files.isDirectory(b)) bases.add(b);
        }
        List<Path> places = new ArrayList<>();
        for (Path root : bases) {
            places.addAll(List.of(root, root.resolve("build"), root.resolve("out")));
            try (java.util.stream.Stream<Path> s = Files.list(root)) {
                s.filter(d -> d.getFileName().toString().startsWith("cmake-build-") && Files.isDirectory(d))
                        .sorted()
                        .forEach(places::add);
            } catch (IOException | RuntimeException e) {
                // an unreadable directory: only the fixed places
            }
        }
        Path chosen = null;
        for (Path d : places) {
            Path f = d.resolve("compile_commands.json");
            if (!Files.isRegularFile(f) || !inTree.test(f)) continue;
            if (chosen == null) {
                chosen = f;
                continue;
            }
            if (dbs.remove(f)) {
                sink.notify(new Notification(
                        ctx.relativize(f),
                        0,
                        Level.NOTE,
                        "not-evaluated",
                        "compilation database not used: " + ctx.relativize(chosen)
                                + " was found first (pass -p DIR to choose another)"));
            }
        }
        if (chosen == null) return;
        dbs.remove(chosen);
        dbs.add(0, chosen);
        model.dbUsed = ctx.relativize(chosen)
                + " (found automatically: the first of ./, build/, out/, cmake-build-*/; -p DIR chooses another)";
    }

    private static final List<String> BUILD_FILE_NAMES =
            List.of("CMakeLists.txt", "Makefile", "makefile", "GNUmakefile", "compile_commands.json", "setup.py");

    /**
     * A scan of a file or subdirectory inside a project ({@link dev.numlint.scan.ProjectRoot}, the scan root is the
     * project root then): the build files of the directories from the project root down to each scanned file are
     * read too, for the build context, as a scan of the whole project reads them. Nothing outside the root.
     */
    private static List<Path> withProjectBuildFiles(
            ScanContext ctx, List<Path> files, java.util.function.Predicate<Path> inTree, FindingSink sink) {
        String project = ctx.setting(dev.numlint.scan.ProjectRoot.SETTING).orElse(null);
        if (project == null) return files;
        Path root = Path.of(project).toAbsolutePath().normalize();
        Set<Path> have = new HashSet<>();
        for (Path f : files) have.add(f.toAbsolutePath().normalize());
        List<Path> added = new ArrayList<>();
        Set<Path> seen = new HashSet<>();
        for (Path f : ctx.files()) {
            for (Path d = f.toAbsolutePath().normalize().getParent();
                    d != null && d.startsWith(root) && seen.add(d);
                    d = d.getParent()) {
                for (String n : BUILD_FILE_NAMES) {
                    Path b = d.resolve(n);
                    if (!have.contains(b)
                            && Files.isRegularFile(b, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                            && inTree.test(b)) {
                        added.add(b);
                    }
                }
            }
        }
        if (added.isEmpty()) return files;
        added.sort(BY_DEPTH);
        List<String> names = added.stream().map(ctx::relativize).toList();
        sink.notify(new Notification(
                names.get(0),
                0,
                Level.NOTE,
                "project-build-files",
                "scanned inside the project at " + root + ": its build file" + (names.size() == 1 ? " " : "s ")
                        + String.join(", ", names.subList(0, Math.min(4, names.size())))
                        + (names.size() > 4 ? ", ..." : "") + " read for the build context"));
        List<Path> all = new ArrayList<>(files);
        all.addAll(added);
        return all;
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
                BuildContext dir = directoryContext(cs, file);
                if (dir != null) dir.origins().forEach(o -> out.add(o.location()));
            }
        }
        return out;
    }

    /** A name such as config.hpp.cmake or version.h.cmake: a configure_file input, not a script. */
    private static final java.util.regex.Pattern TEMPLATE_NAME = java.util.regex.Pattern.compile(
            ".+\\.(h|hh|hpp|hxx|h\\+\\+|inl|c|cc|cpp|cxx|cu|cuh|f90|py|txt|json|xml|pc|rc|in)\\.cmake",
            java.util.regex.Pattern.CASE_INSENSITIVE);
    /** Text only a configure_file template has: #cmakedefine, or a C #define of an @VAR@ substitution. */
    private static final java.util.regex.Pattern TEMPLATE_TEXT = java.util.regex.Pattern.compile(
            "(?m)^\\s*#\\s*cmakedefine|^\\s*#\\s*define\\s+\\w+.*@[A-Za-z_][A-Za-z0-9_]*@");

    /**
     * Whether a {@code *.cmake} file no evaluated list file includes is a {@code configure_file} template (a header
     * written with {@code #cmakedefine} or {@code @VAR@}) rather than a CMake script: its name or its first 64 KiB.
     */
    static boolean configureTemplate(Path f) {
        if (TEMPLATE_NAME.matcher(f.getFileName().toString()).matches()) return true;
        try (java.io.InputStream in = Files.newInputStream(f)) {
            byte[] head = in.readNBytes(64 * 1024);
            return TEMPLATE_TEXT
                    .matcher(new String(head, StandardCharsets.ISO_8859_1))
                    .find();
        } catch (IOException | RuntimeException e) {
            return false; // read (and reported) as a script
        }
    }

    private static final java.util.Comparator<Path> BY_DEPTH =
            java.util.Comparator.comparingInt(Path::getNameCount).thenComparing(java.util.Comparator.naturalOrder());

    /**
     * Whether a build file may read {@code p}: inside the scan's {@link dev.numlint.spi.TrustBoundary} (the real
     * paths of the scanned PATHs, symbolic links resolved; never a version-control directory). A path that does not
     * exist yet counts as inside when its lexical path is.
     */
    private static boolean inTree(dev.numlint.spi.TrustBoundary boundary, Path p) {
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
            Reporter rep,
            Model model,
            Set<Path> read,
            Map<Path, String> skippedSubdirs,
            java.util.function.Predicate<Path> inTree) {
        Map<String, String> cache = new LinkedHashMap<>();
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
        }
        cache.putAll(options.cmakeDefines());
        CMakeAudit.Out out =
                CMakeAudit.audit(file, ctx::relativize, inTree, cache, forced, ctx.maxFileSize(Layer.BUILD_FLAGS));
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
        if (options.preset() != null && forced == null) cfg.append("; preset ").append(options.preset());
        Path dir = file.getParent();
        Map<Path, List<FlagTok>> dirFlags = new LinkedHashMap<>();
        dirFlags.put(dir, out.directory);
        dirFlags.putAll(out.subdirectories);
        Map<Path, FlagInterpreter.Result> dirResults = new HashMap<>();
        for (Map.Entry<Path, List<FlagTok>> e : dirFlags.entrySet()) {
            FlagInterpreter.Result d = FlagInterpreter.interpret(dedupe(e.getValue()), e.getKey());
            rep.report(d.hazards);
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
        Set<String> names = new java.util.LinkedHashSet<>(out.sources.keySet()); // in the order of definition
        names.addAll(out.targets.keySet());
        names.addAll(out.cudaArch.keySet());
        names.remove("");
        names.removeIf(n -> n.startsWith("dir:"));
        for (String t : names) {
            List<FlagTok> own = out.targets.getOrDefault(t, List.of());
            String arch = out.cudaArch.get(t);
            Path tdir = out.targetDirs.getOrDefault(t, dir);
            List<FlagTok> all = new ArrayList<>(dirFlags.getOrDefault(tdir, out.directory));
            all.addAll(own);
            FlagInterpreter.Result r = FlagInterpreter.interpret(dedupe(all), tdir);
            rep.report(r.hazards);
            String notDefault = out.notDefaultDirectories.get(tdir);
            if (notDefault != null) r = FlagInterpreter.interpret(dedupe(unconditional(all, notDefault)), tdir);
            if (arch == null) {
                FlagInterpreter.Result d = dirResults.get(tdir);
                arch = d == null ? null : d.cuda.cudaArch();
            }
            if (arch != null) r.cuda.cudaArch(arch);
            String c = "CMake target " + t + " (" + rel + cfg + notDefault(notDefault) + ")";
            for (Path src : out.sources.getOrDefault(t, List.of())) {
                model.cmake.file(src, isCuda(src) ? r.cuda : r.host, c);
            }
        }
        for (Map.Entry<Path, List<FlagTok>> e : out.sourceFlags.entrySet()) {
            List<FlagTok> all = new ArrayList<>(out.directory);
            all.addAll(e.getValue());
            FlagInterpreter.Result r = FlagInterpreter.interpret(dedupe(all), dir);
            rep.report(r.hazards);
            model.cmake.file(
                    e.getKey(), isCuda(e.getKey()) ? r.cuda : r.host, "CMake source properties (" + rel + cfg + ")");
        }
        model.unselected.addAll(out.unselected);
    }

    /**
     * The flags of a subdirectory the default configuration does not add, for the build context of its own sources
     * (they are built only under that condition): the condition is dropped; their hazards keep it.
     */
    private static List<FlagTok> unconditional(List<FlagTok> toks, String cond) {
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
                        + cond.replace(", which is false in the default configuration", "");
    }

    // ------------------------------------------------------------------ make

    private void makefiles(
            ScanContext ctx,
            FindingSink sink,
            List<Path> makes,
            Reporter rep,
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
                MakefileAudit.Out out = MakefileAudit.audit(
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
                MakefileAudit.Out out =
                        MakefileAudit.audit(f, ctx::relativize, inTree, null, ctx.maxFileSize(Layer.BUILD_FLAGS));
                makefile(ctx, f, out, rep, model, forced);
            });
        }
    }

    private static void makefile(
            ScanContext ctx, Path file, MakefileAudit.Out out, Reporter rep, Model model, String forced) {
        for (MakefileAudit.Problem p : out.problems) {
            rep.sink.notify(new Notification(
                    p.file(), p.line(), Level.parse(p.level().toLowerCase(Locale.ROOT)), p.id(), p.message()));
        }
        Path dir = file.getParent();
        String rel = ctx.relativize(file);
        if (forced != null) {
            model.unselected.addAll(conditional(out.variables, forced));
            for (MakefileAudit.Command c : out.commands) model.unselected.addAll(conditional(c.toks(), forced));
            model.unselected.addAll(conditional(out.unselected, forced));
            return;
        }
        for (MakefileAudit.Command c : out.commands) {
            FlagInterpreter.Result r = FlagInterpreter.interpret(dedupe(c.toks()), dir);
            rep.report(r.hazards);
            for (Path p : c.sources()) {
                model.make.file(p, c.nvcc() || isCuda(p) ? r.cuda : r.host, c.configuration() + " (" + rel + ")");
            }
        }
        FlagInterpreter.Result v = FlagInterpreter.interpret(dedupe(out.variables), dir);
        rep.report(v.hazards);
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
            ScanContext ctx, Path file, Reporter rep, Model model, java.util.function.Predicate<Path> inTree) {
        String text = read(ctx, file, rep.sink);
        if (text == null) return;
        String rel = ctx.relativize(file);
        SetupPyAudit.Out out = SetupPyAudit.audit(rel, text);
        problems(rep.sink, out.problems);
        Path dir = file.getParent();
        for (SetupPyAudit.Ext e : out.extensions) {
            FlagInterpreter.Result r = FlagInterpreter.interpret(e.flags(), dir);
            rep.report(r.hazards);
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

    private void compileCommands(ScanContext ctx, Path file, Reporter rep, Model model) {
        String text = read(ctx, file, rep.sink);
        if (text == null) return;
        String rel = ctx.relativize(file);
        CompileCommandsAudit.Out out = CompileCommandsAudit.audit(rel, text);
        problems(rep.sink, out.problems);
        Map<String, Path> byName = new HashMap<>();
        Set<String> ambiguous = new HashSet<>();
        for (Path p : ctx.files()) {
            String n = p.getFileName().toString();
            if (byName.putIfAbsent(n, p) != null) ambiguous.add(n);
        }
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
            FlagInterpreter.Result r = FlagInterpreter.interpret(e.toks(), base);
            for (FlagHazard h : r.hazards) {
                grouped.computeIfAbsent(
                                h.ruleId() + "\u0000" + h.entry().flag() + "\u0000"
                                        + h.entry().target(),
                                k -> new ArrayList<>())
                        .add(h);
            }
            Path src = resolve(ctx, e, byName, ambiguous);
            if (src != null) {
                if (e.compiler() != FlagTok.Lang.CUDA && !isCuda(src)) {
                    model.hostEntries.putIfAbsent(
                            src, new DbEntry(e, base, "compile_commands.json entry (" + rel + ":" + e.line() + ")"));
                }
                model.db.file(
                        src,
                        e.compiler() == FlagTok.Lang.CUDA ? r.cuda : r.host,
                        "compile_commands.json entry (" + rel + ":" + e.line() + ")");
            }
        }
        for (List<FlagHazard> hs : grouped.values()) {
            rep.reportGroup(hs);
        }
    }
    /** The scanned file an entry compiles: its path, or (database from another machine) the same path tail. */
    private static Path resolve(
            ScanContext ctx, CompileCommandsAudit.Entry e, Map<String, Path> byName, Set<String> ambiguous) {
        Path p;
        try {
            p = Path.of(e.file());
            if (!p.isAbsolute() && e.directory() != null)
                p = Path.of(e.directory()).resolve(p);
            p = p.normalize();
        } catch (InvalidPathException ex) {
            return null;
        }
        if (Files.exists(p)) return p;
        Path fn = p.getFileName();
        if (fn == null) return null;
        String n = fn.toString();
        if (!ambiguous.contains(n)) return byName.get(n);
        Path best = null;
        int bestCommon = 0;
        for (Path c : ctx.files()) {
            if (!c.getFileName().toString().equals(n)) continue;
            int k = 0;
            while (k < Math.min(c.getNameCount(), p.getNameCount())
                    && c.getName(c.getNameCount() - 1 - k).equals(p.getName(p.getNameCount() - 1 - k))) k++;
            if (k > bestCommon) {
                bestCommon = k;
                best = c;
            }
        }
        return bestCommon >= 2 ? best : null;
    }

    private static List<FlagTok> dedupe(List<FlagTok> toks) {
        Map<String, FlagTok> seen = new LinkedHashMap<>();
        for (FlagTok t : toks) {
            seen.putIfAbsent(t.loc().shortText() + "\u0000" + t.text() + "\u0000" + t.lang(), t);
        }
        return new ArrayList<>(seen.values());
    }

    static boolean isCuda(Path p) {
        String n = p.getFileName().toString();
        return n.endsWith(".cu") || n.endsWith(".cuh") || n.endsWith(".ptx");
    }

    private static boolean isSource(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        int dot = n.lastIndexOf('.');
        if (dot < 0) return false;
        return Set.of("cu", "cuh", "ptx", "c", "cc", "cpp", "cxx", "c++", "h", "hh", "hpp", "hxx", "inl", "tpp")
                .contains(n.substring(dot + 1));
    }

    // ------------------------------------------------------------------ contexts

    /**
     * The build context of every scanned source, by authority: its compile_commands.json entry; else the Makefile
     * command that compiles it, else the directory-wide flags of the Makefiles above it (a Makefile wins over a
     * CMake project in the same tree, since it is what {@code make} runs there, except for a .cu that the Makefiles give
     * no flag at all and a CMake target names); else the CMake target that
     * compiles it, else the flags of its CMake directory. A file the build never compiles on its own but a compiled file {@code #include}s gets its
     * includer's context, with {@link BuildContext#compiledVia()}.
     */
    private static Map<Path, BuildContext> applyContexts(ScanContext ctx, Model model) {
        Map<Path, BuildContext> chosen = new LinkedHashMap<>();
        Set<Path> compiled = new HashSet<>();
        List<Path> sources = new ArrayList<>();
        for (Path f : ctx.files()) {
            Path file = f.toAbsolutePath().normalize();
            if (isSource(file)) sources.add(file);
        }
        java.util.Collections.sort(sources);
        for (Path file : sources) {
            BuildContext own = model.db.files.get(file);
            if (own == null && file.getFileName().toString().endsWith(".cu") && !model.hostEntries.isEmpty()) {
                own = borrowedEntry(ctx, model, file);
            }
            if (own == null) own = model.make.files.get(file);
            if (own == null) own = model.py.files.get(file);
            BuildContext c = null;
            if (own == null) c = directoryContext(model.make, file);
            if (own == null && c != null && isCuda(file) && noFlags(c) && model.cmake.files.containsKey(file)) {
                // a Makefile beside a CMake project that has no CUDA rule (zfp's GNU make build of the C library)
                // says nothing about a .cu that a CMake target names: the target is the build that compiles it
                c = null;
            }
            if (own == null && c == null) own = model.cmake.files.get(file);
            if (own != null) {
                compiled.add(file);
                c = BuildContext.defaults();
                mergeDistinct(c, own);
                c.configuration(own.configuration());
            } else if (c == null) {
                c = directoryContext(model.cmake, file);
            }
            if (c != null) chosen.put(file, c);
        }
        // files compiled only as part of another translation unit
        Set<Path> scanned = new HashSet<>(sources);
        // CUDA translation units first, then by path: a header included by a .cu and a .c gets the .cu's context
        List<Path> tus = new ArrayList<>(compiled);
        tus.sort(java.util.Comparator.comparing((Path p) -> !isCuda(p))
                .thenComparing(java.util.Comparator.naturalOrder()));
        java.util.ArrayDeque<Path> queue = new java.util.ArrayDeque<>(tus);
        Map<Path, Integer> depth = new HashMap<>();
        for (Path p : compiled) depth.put(p, 0);
        while (!queue.isEmpty()) {
            Path tu = queue.poll();
            BuildContext tc = chosen.get(tu);
            if (tc == null || depth.get(tu) >= 16) continue;
            for (Path inc : IncludeScan.quotedIncludes(tu, tc.includePaths(), scanned)) {
                if (compiled.contains(inc) || depth.containsKey(inc)) continue;
                Path via = tc.compiledVia() != null ? tc.compiledVia() : tu;
                BuildContext c = BuildContext.defaults();
                mergeDistinct(c, tc);
                String base = tc.configuration() == null
                        ? ""
                        : tc.configuration().replaceFirst("^compiled through [^:]*: ", "");
                c.compiledVia(via).configuration("compiled through " + ctx.relativize(via) + ": " + base);
                chosen.put(inc, c);
                depth.put(inc, depth.get(tu) + 1);
                queue.add(inc);
            }
        }
        for (Map.Entry<Path, BuildContext> e : chosen.entrySet()) {
            if (!isEmpty(e.getValue())) ctx.addBuildContext(e.getKey(), e.getValue());
        }
        BuildContext project = BuildContext.defaults();
        if (model.dbUsed != null) project.addSummary("compilation database: " + printable(model.dbUsed));
        for (String line : summary(ctx, sources, chosen)) project.addSummary(line);
        if (!project.summary().isEmpty()) ctx.addBuildContext(null, project);
        return chosen;
    }

    /**
     * A .cu file the compilation database has no entry for (CMake's export of a FindCUDA {@code cuda_add_library}
     * target lists only its .cpp files): the preprocessor flags ({@code -I -D -U -isystem -include -std}) of the
     * entry of a .c/.cpp file in the same directory, else in the nearest directory above it that has entries, plus
     * the nvcc flags the CMake evaluation gives it ({@code CUDA_NVCC_FLAGS}); a notice names the borrowed entry.
     */
    private static BuildContext borrowedEntry(ScanContext ctx, Model model, Path file) {
        DbEntry donor = null;
        for (Path d = file.getParent(); d != null && donor == null; d = d.getParent()) {
            Path dir = d;
            donor = model.hostEntries.entrySet().stream()
                    .filter(x -> dir.equals(x.getKey().getParent()))
                    .min(Map.Entry.comparingByKey())
                    .map(Map.Entry::getValue)
                    .orElse(null);
            if (ctx.root() != null && d.equals(ctx.root().toAbsolutePath().normalize())) break;
        }
        if (donor == null) return null;
        List<FlagTok> toks = new ArrayList<>();
        List<FlagTok> all = donor.entry().toks();
        for (int i = 0; i < all.size(); i++) {
            FlagTok t = all.get(i);
            String a = t.text();
            boolean split =
                    a.equals("-I") || a.equals("-D") || a.equals("-U") || a.equals("-isystem") || a.equals("-include");
            boolean joined = !split
                    && (a.startsWith("-I")
                            || a.startsWith("-D")
                            || a.startsWith("-U")
                            || a.startsWith("-isystem")
                            || a.startsWith("-std="));
            if (!split && !joined) continue;
            toks.add(new FlagTok(a, t.loc(), FlagTok.Lang.CUDA, t.condition(), t.via()));
            if (split && i + 1 < all.size()) {
                FlagTok v = all.get(++i);
                toks.add(new FlagTok(v.text(), v.loc(), FlagTok.Lang.CUDA, v.condition(), v.via()));
            }
        }
        BuildContext c = BuildContext.defaults();
        mergeDistinct(c, FlagInterpreter.interpret(toks, donor.base()).cuda);
        BuildContext cm = model.cmake.files.get(file);
        if (cm == null) cm = directoryContext(model.cmake, file);
        if (cm != null) mergeDistinct(c, cm);
        Path from = null;
        for (Map.Entry<Path, DbEntry> x : model.hostEntries.entrySet()) {
            if (x.getValue() == donor) from = x.getKey();
        }
        String who = from == null ? "?" : ctx.relativize(from);
        c.configuration("borrowed " + donor.origin() + " of " + who + ": the database has no entry for this .cu"
                + (cm == null ? "" : ", with the CMake evaluation's nvcc flags"));
        model.sink.notify(new Notification(
                ctx.relativize(file),
                0,
                Level.NOTE,
                "borrowed-build-entry",
                "no compile_commands.json entry for this .cu file (CMake's export of a FindCUDA target lists "
                        + "only its .c/.cpp files): it is analyzed and compiled with the -I/-D/-U/-isystem/"
                        + "-include/-std flags of the " + donor.origin() + " of " + who
                        + (cm == null ? "" : " and the nvcc flags of the CMake evaluation")));
        return c;
    }

    private static BuildContext directoryContext(Contexts cs, Path file) {
        if (cs.dirs.isEmpty()) return null;
        List<Path> ds = new ArrayList<>();
        for (Path d : cs.dirs.keySet()) {
            if (file.startsWith(d)) ds.add(d);
        }
        if (ds.isEmpty()) return null;
        ds.sort(java.util.Comparator.comparingInt(Path::getNameCount)); // outermost first, nearest last
        boolean cuda = isCuda(file);
        String n = file.getFileName().toString();
        boolean header = n.endsWith(".h") || n.endsWith(".hpp") || n.endsWith(".hh") || n.endsWith(".hxx");
        BuildContext c = BuildContext.defaults();
        for (Path d : ds) {
            BuildContext[] dc = cs.dirs.get(d);
            if (header) {
                mergeDistinct(c, dc[1]);
                mergeDistinct(c, dc[0]);
            } else {
                mergeDistinct(c, cuda ? dc[0] : dc[1]);
            }
        }
        c.configuration(cs.dirConfig.get(ds.get(ds.size() - 1)));
        return c;
    }

    /**
     * One line per directory (or per group of files in a directory that share a context): the context's origin
     * and its applied flags, e.g. {@code "src/mcx_core.cu: Makefile goal all -> fermi -> ... (src/Makefile):
     * -use_fast_math -DUSE_ATOMIC"}.
     */
    static List<String> summary(ScanContext ctx, List<Path> sources, Map<Path, BuildContext> chosen) {
        Map<Path, Map<String, List<Path>>> byDir = new java.util.TreeMap<>();
        for (Path f : sources) {
            BuildContext c = chosen.get(f);
            String n = f.getFileName().toString();
            boolean code = n.endsWith(".cu")
                    || n.endsWith(".c")
                    || n.endsWith(".cpp")
                    || n.endsWith(".cc")
                    || n.endsWith(".cxx");
            if (c == null && !code) continue;
            String key = c == null ? "no build file applies: compiler defaults" : describe(c);
            byDir.computeIfAbsent(f.getParent(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(key, k -> new ArrayList<>())
                    .add(f);
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<Path, Map<String, List<Path>>> d : byDir.entrySet()) {
            String dir = ctx.relativize(d.getKey());
            boolean one = d.getValue().size() == 1;
            for (Map.Entry<String, List<Path>> g : d.getValue().entrySet()) {
                List<Path> fs = g.getValue();
                String who;
                if (fs.size() == 1) {
                    who = ctx.relativize(fs.get(0));
                } else if (one) {
                    who = (dir.isEmpty() ? "." : dir) + "/ (" + fs.size() + " files)";
                } else {
                    StringBuilder sb = new StringBuilder();
                    for (int i = 0; i < Math.min(3, fs.size()); i++) {
                        sb.append(i == 0 ? "" : ", ").append(ctx.relativize(fs.get(i)));
                    }
                    if (fs.size() > 3) sb.append(" and ").append(fs.size() - 3).append(" more");
                    who = sb.toString();
                }
                out.add(printable(who + ": " + g.getKey()));
                if (out.size() >= 500) {
                    out.add("... (" + (byDir.size()) + " directories in all; see the JSON report's build contexts)");
                    return out;
                }
            }
        }
        return out;
    }

    /** Control characters (terminal escape sequences from file names or build files) as \\xNN. */
    static String printable(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) sb.append(String.format("\\x%02x", (int) c));
            else sb.append(c);
        }
        return sb.toString();
    }

    /** "Makefile goal all -> fermi (src/Makefile): -use_fast_math -DUSE_ATOMIC" */
    static String describe(BuildContext c) {
        StringBuilder sb = new StringBuilder(c.configuration() == null ? "build files" : c.configuration());
        sb.append(':');
        Set<String> shown = new java.util.LinkedHashSet<>();
        for (BuildContext.FlagOrigin o : c.origins()) shown.add(o.flag());
        if (c.cudaArch() != null) shown.add("arch " + c.cudaArch());
        for (String d : c.defines()) shown.add("-D" + d);
        int n = 0;
        for (String s : shown) {
            if (n++ == 12) {
                sb.append(" ... (").append(shown.size() - 12).append(" more)");
                break;
            }
            sb.append(' ').append(s.length() > 60 ? s.substring(0, 57) + "..." : s);
        }
        if (shown.isEmpty()) sb.append(" no floating-point flags, no defines");
        return sb.toString();
    }

    /** {@link BuildContext#merge} without repeating an origin that is already recorded (same flag, same place). */
    private static void mergeDistinct(BuildContext into, BuildContext other) {
        BuildContext o = other.copy();
        BuildContext settings = BuildContext.defaults()
                .fastMath(o.fastMath())
                .precDiv(o.precDiv())
                .precSqrt(o.precSqrt())
                .ftz(o.ftz())
                .fmad(o.fmad())
                .hostArch(o.hostArch())
                .hostFpContractOff(o.hostFpContractOff())
                .hostFastMath(o.hostFastMath())
                .m32(o.m32())
                .mfpmath387(o.mfpmath387())
                .cudaArch(o.cudaArch());
        o.nvccFlags().forEach(settings::addNvccFlag);
        o.defines().forEach(settings::addDefine);
        o.undefines().forEach(settings::addUndefine);
        o.includePaths().forEach(settings::addIncludePath);
        if (o.compiledVia() != null) settings.compiledVia(o.compiledVia());
        Set<BuildContext.FlagOrigin> have = new HashSet<>(into.origins());
        for (BuildContext.FlagOrigin fo : o.origins()) {
            if (have.add(fo)) settings.addOrigin(fo.flag(), fo.location());
        }
        into.merge(settings);
    }

    /** No flag of any kind (the configuration line aside). */
    private static boolean noFlags(BuildContext c) {
        return c.origins().isEmpty()
                && c.nvccFlags().isEmpty()
                && c.cudaArch() == null
                && c.defines().isEmpty()
                && c.includePaths().isEmpty();
    }

    private static boolean isEmpty(BuildContext c) {
        return c.origins().isEmpty()
                && c.nvccFlags().isEmpty()
                && c.cudaArch() == null
                && c.defines().isEmpty()
                && c.includePaths().isEmpty()
                && c.compiledVia() == null
                && c.configuration() == null;
    }

    // ------------------------------------------------------------------ reporting

    /** The related-location text of the other places that set the same flag for the same files. */
    static final String SAME_FLAG = "same flag in another entry";

    /**
     * Whether a condition's value is unknown (Makefiles: "whose value numlint cannot know", CMake: "(value
     * unknown)"): the analyzed build may well take it.
     */
    private static boolean unknown(String condition) {
        return condition.contains("cannot know") || condition.contains("(value unknown)");
    }

    /** Why a flag finding is about a build configuration other than the analyzed one (then it is a note). */
    private enum Inactive {
        /** written under a condition the default configuration does not take */
        CONDITION,
        /** always applies, but the analyzed build compiles every file it could apply to with other build files */
        OTHER_BUILD
    }

    /**
     * Turns hazards into findings. Hazards are collected while the build files are read and reported once the build
     * contexts are chosen: one finding per rule and flag decision of the analyzed build (the same setting written in
     * several places that reach the same files is one finding, the other places its related locations), and a note
     * for each setting the analyzed configuration does not use.
     */
    private static final class Reporter {
        final ScanContext ctx;
        final FindingSink sink;
        final Set<String> done = new HashSet<>();
        final List<List<FlagHazard>> pending = new ArrayList<>();

        Reporter(ScanContext ctx, FindingSink sink) {
            this.ctx = ctx;
            this.sink = sink;
        }

        void report(List<FlagHazard> hs) {
            for (FlagHazard h : hs) reportGroup(List.of(h));
        }

        /** Collects a group of identical settings (compile_commands.json entries); the first is reported. */
        void reportGroup(List<FlagHazard> hs) {
            FlagHazard h = hs.get(0);
            FlagEntry e = h.entry();
            String key = h.ruleId() + "\u0000" + e.loc().shortText() + "\u0000" + e.flag();
            if (!done.add(key)) return;
            if (!ctx.rules().enabled(h.ruleId())) return;
            pending.add(hs);
        }

        /** Reports what was collected, given the contexts chosen for the scanned sources. */
        void flush(Map<Path, BuildContext> chosen, Set<Location> reachable) {
            Map<Location, Set<Path>> used = new HashMap<>();
            Map<Path, List<Location>> order = new HashMap<>();
            for (Map.Entry<Path, BuildContext> c : chosen.entrySet()) {
                for (BuildContext.FlagOrigin o : c.getValue().origins()) {
                    used.computeIfAbsent(o.location(), k -> new java.util.TreeSet<>())
                            .add(c.getKey());
                    order.computeIfAbsent(c.getKey(), k -> new ArrayList<>()).add(o.location());
                }
            }
            Map<String, List<List<FlagHazard>>> active = new LinkedHashMap<>();
            for (List<FlagHazard> hs : pending) {
                FlagEntry e = hs.get(0).entry();
                String cond = e.origin().condition();
                if (cond != null && !unknown(cond)) {
                    emit(hs, Inactive.CONDITION);
                } else if (cond == null && !used.containsKey(e.loc()) && reachable.contains(e.loc())) {
                    emit(hs, Inactive.OTHER_BUILD);
                } else {
                    active.computeIfAbsent(decision(hs.get(0)), k -> new ArrayList<>())
                            .add(hs);
                }
            }
            for (List<List<FlagHazard>> same : active.values()) {
                for (List<FlagHazard> group : overlapping(same, used)) {
                    emit(primaryFirst(group, used, order), null);
                }
            }
        }

        /** The setting a hazard reports: rule, target and the flag's canonical name and value. */
        private static String decision(FlagHazard h) {
            FlagEntry e = h.entry();
            String name = e.name().replace('-', '_');
            return h.ruleId() + "\u0000" + e.target() + "\u0000" + name + "\u0000"
                    + (e.value() == null ? "" : e.value().toLowerCase(Locale.ROOT));
        }

        /** The files the analyzed build compiles with any of the settings of {@code hs}. */
        private static Set<Path> files(List<FlagHazard> hs, Map<Location, Set<Path>> used) {
            Set<Path> out = new HashSet<>();
            for (FlagHazard h : hs) out.addAll(used.getOrDefault(h.entry().loc(), Set.of()));
            return out;
        }

        /**
         * The settings of one decision key merged where they reach a common file (the same flag written twice for one
         * compilation is one decision); settings that reach different files, or no scanned file, stay apart.
         */
        private static List<List<FlagHazard>> overlapping(List<List<FlagHazard>> same, Map<Location, Set<Path>> used) {
            List<List<FlagHazard>> groups = new ArrayList<>();
            List<Set<Path>> reach = new ArrayList<>();
            for (List<FlagHazard> hs : same) {
                List<FlagHazard> g = new ArrayList<>(hs);
                Set<Path> fs = files(hs, used);
                for (int i = groups.size() - 1; i >= 0 && !fs.isEmpty(); i--) {
                    if (java.util.Collections.disjoint(reach.get(i), fs)) continue;
                    List<FlagHazard> other = groups.remove(i);
                    other.addAll(g);
                    g = other;
                    fs.addAll(reach.remove(i));
                }
                groups.add(g);
                reach.add(fs);
            }
            return groups;
        }

        /**
         * The group with the setting that the affected files' contexts record first (the one source and PTX findings
         * cite as "set here") in front; without files, the first one collected.
         */
        private static List<FlagHazard> primaryFirst(
                List<FlagHazard> group, Map<Location, Set<Path>> used, Map<Path, List<Location>> order) {
            if (group.size() == 1) return group;
            java.util.TreeSet<Path> fs = new java.util.TreeSet<>(files(group, used));
            FlagHazard first = group.get(0);
            search:
            for (Path f : fs) {
                for (Location l : order.getOrDefault(f, List.of())) {
                    for (FlagHazard h : group) {
                        if (h.entry().loc().equals(l)) {
                            first = h;
                            break search;
                        }
                    }
                }
            }
            List<FlagHazard> out = new ArrayList<>();
            out.add(first);
            for (FlagHazard h : group) {
                if (h != first) out.add(h);
            }
            return out;
        }

        /** Reports the first hazard of a group; the others become related locations. */
        private void emit(List<FlagHazard> hs, Inactive inactive) {
            FlagHazard h = hs.get(0);
            FlagEntry e = h.entry();
            FlagTok t = e.origin();
            Condition cond = t.condition() == null ? null : Condition.of(t.condition());
            RuleCatalog cat = RuleCatalog.get();
            String own = inactive == Inactive.OTHER_BUILD
                    ? cat.phrase("flag-other-build", "message", h.message())
                    : h.message();
            String msg = flagMessage(own, t.via(), hs.size() - 1, cond);
            Finding.Builder b = Finding.builder(h.ruleId())
                    .location(e.loc())
                    .message(msg)
                    .layer(Layer.BUILD_FLAGS)
                    .evidence(new Evidence("flag", e.flag(), null))
                    .confidence(t.condition() != null ? Confidence.MEDIUM : Confidence.HIGH)
                    .fingerprintKey("flag|" + h.ruleId() + "|" + e.flag() + "|" + e.target() + "|" + t.via())
                    .property(
                            "appliesTo",
                            switch (e.target()) {
                                case DEVICE -> "cuda-device";
                                case CU_HOST -> "cuda-host";
                                case HOST -> "host";
                            });
            b.property("setThrough", t.via());
            if (t.condition() != null) {
                b.property("condition", t.condition());
                if (cond.where() != null) b.related(cond.where(), "condition: " + cond.text());
            }
            if (h.level() != null) b.level(h.level());
            if (inactive != null) {
                b.impact(dev.numlint.model.Impact.bounded(
                        inactive == Inactive.CONDITION
                                ? "not set in the build configuration numlint analyzed"
                                : "the analyzed build compiles the scanned sources with other build files"));
            }
            for (int i = 1; i < hs.size() && i <= 10; i++) {
                b.related(hs.get(i).entry().loc(), SAME_FLAG);
            }
            sink.report(b);
        }
    }

    /**
     * A build-file condition as the message shows it: the position it names ("... at src/Makefile:94") becomes a
     * related location, "which is false in the default configuration" becomes "(false by default)", "Makefile target
     * 'debug' (not built by the default goal 'all')" becomes "Makefile target 'debug'", and the rest is quoted
     * shortened. The full text stays the finding's property {@code condition}.
     */
    record Condition(String head, String verdict, Location where) {
        private static final java.util.regex.Pattern AT =
                java.util.regex.Pattern.compile(" at ([^\\s,]+?):(\\d+)(?=[,\\s)]|$)");
        private static final java.util.regex.Pattern VERDICT = java.util.regex.Pattern.compile(
                "^(.*?)( \\((?:false|true|not taken) by default[^)]*\\)| \\(value unknown\\))$");

        static Condition of(String condition) {
            String t = condition;
            Location where = null;
            java.util.regex.Matcher m = AT.matcher(t);
            if (m.find()) {
                where = Location.line(m.group(1), Integer.parseInt(m.group(2)));
                t = t.substring(0, m.start()) + t.substring(m.end());
            }
            t = t.replaceAll(", which is (false|true|not taken) in the default configuration", " ($1 by default)")
                    .replace(", whose value numlint cannot know", " (value unknown)")
                    .replaceFirst("\\((false|true) by default\\) \\((.*)\\)$", "($1 by default: $2)")
                    .replaceFirst("\\(not taken by default\\) \\(an earlier branch is\\)$", "(not taken by default)")
                    .replaceFirst("^Makefile target '([^']+)' \\(not built by .*\\)$", "Makefile target '$1'");
            m = VERDICT.matcher(t);
            if (m.matches()) {
                return new Condition(m.group(1), m.group(2), where);
            }
            return new Condition(t, "", where);
        }

        /** The condition with its head shortened to {@code max} characters and its verdict kept. */
        String text(int max) {
            return Quote.shorten(head, max) + verdict;
        }

        /** The verdict without its detail: " (false by default)" for " (false by default: USE_HIP=OFF)". */
        Condition brief() {
            return new Condition(head, verdict.replaceFirst(":[^)]*\\)$", ")"), where);
        }

        String text() {
            return text(Quote.TEXT);
        }
    }

    /**
     * The message of a flag finding: the rule's own text, where the flag is set and the condition it is set under,
     * in at most {@link Quote#MESSAGE} characters. The origin is left out of the text when both do not fit (it is the
     * finding's property {@code setThrough}, and the finding's location is the flag itself), then the condition is
     * shortened further.
     */
    static String flagMessage(String own, String via, int more, Condition cond) {
        RuleCatalog cat = RuleCatalog.get();
        String m = cat.phrase("flag-via", "message", own, "via", Quote.shorten(via, Quote.TEXT));
        if (more > 0) m = cat.phrase("flag-more", "message", m, "count", more);
        if (cond != null) m = cat.phrase("flag-condition", "message", m, "condition", cond.text());
        if (m.length() <= Quote.MESSAGE) return m;
        m = more > 0 ? cat.phrase("flag-more", "message", own, "count", more) : own;
        if (cond == null) return m;
        for (Condition c : List.of(cond, cond.brief())) {
            String full = cat.phrase("flag-condition", "message", m, "condition", c.text());
            if (full.length() <= Quote.MESSAGE) return full;
        }
        Condition c = cond.brief();
        String bare = cat.phrase("flag-condition", "message", m, "condition", c.verdict());
        return cat.phrase(
                "flag-condition", "message", m, "condition", c.text(Math.max(12, Quote.MESSAGE - bare.length())));
    }
}
