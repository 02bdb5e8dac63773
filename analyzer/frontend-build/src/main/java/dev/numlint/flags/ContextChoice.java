package dev.numlint.flags;

import static dev.numlint.flags.BuildFlagAnalyzer.*;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.ScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Chooses each scanned file's build context from what the build-flag audit found ({@link BuildFlagAnalyzer.Model}):
 * its own compilation-database entry or command, the host entry it borrows (a .cu file without one), its Makefile or
 * CMake directory, in that order of preference, with the configuration each came from; and the summary lines of the
 * analyzed configuration.
 */
final class ContextChoice {
    private ContextChoice() {}

    /**
     * The database's units that the scan does not list (excluded), inside the scanned tree, each a regular file and
     * no link, with their database context and its other commands as variants, in path order.
     */
    private static Map<Path, BuildContext> unscannedUnits(ScanContext ctx, Model model, Set<Path> scanned) {
        Map<Path, BuildContext> out = new LinkedHashMap<>();
        if (ctx.root() == null || model.db.files.isEmpty()) return out;
        Path root;
        try {
            root = ctx.root().toAbsolutePath().normalize().toRealPath();
        } catch (java.io.IOException | RuntimeException e) {
            return out;
        }
        for (Path u : new java.util.TreeSet<>(model.db.files.keySet())) {
            if (scanned.contains(u) || !isSource(u)) continue;
            try {
                if (!Files.isRegularFile(u, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                        || !u.toRealPath().startsWith(root)) continue;
            } catch (java.io.IOException | RuntimeException e) {
                continue;
            }
            BuildContext own = model.db.files.get(u);
            BuildContext c = BuildContext.defaults();
            mergeDistinct(c, own);
            c.configuration(own.configuration()).compiled(true);
            for (BuildContext v : model.db.others.getOrDefault(u, List.of())) {
                BuildContext vc = BuildContext.defaults();
                mergeDistinct(vc, v);
                c.addVariant(vc.configuration(v.configuration()).compiled(true));
            }
            out.put(u, c);
        }
        return out;
    }

    /**
     * The build context of every scanned source, by authority: its compile_commands.json entry; else the Makefile
     * command that compiles it, else the directory-wide flags of the Makefiles above it (a Makefile wins over a
     * CMake project in the same tree, since it is what {@code make} runs there, except for a .cu that the Makefiles give
     * no flag at all and a CMake target names); else the CMake target that
     * compiles it, else the flags of its CMake directory. A file the build never compiles on its own but a compiled file {@code #include}s gets its
     * includer's context, with {@link BuildContext#compiledVia()}.
     */
    static Map<Path, BuildContext> apply(ScanContext ctx, Model model) {
        Map<Path, BuildContext> chosen = new LinkedHashMap<>();
        Set<Path> compiled = new HashSet<>();
        List<Path> sources = new ArrayList<>();
        for (Path f : ctx.files()) {
            Path file = f.toAbsolutePath().normalize();
            if (isSource(file)) sources.add(file);
        }
        java.util.Collections.sort(sources);
        // a .cu file that a unit of the compilation database #includes is compiled through it (beagle's kernels4.cu
        // includes "libhmsbeagle/GPU/kernels/kernelsAll.cu" through -I of the root): it gets its includer's context
        // below, not a borrowed host entry of its own
        // (through any depth of includes: a unit that includes kernel.cu, which includes kernel_math.cu, compiles
        // both; session 51's wave solver had the second level borrowed and reported as not compiled)
        Set<Path> includedByDbUnits = new HashSet<>();
        if (!model.hostEntries.isEmpty()) {
            Set<Path> scannedSources = new HashSet<>(sources);
            Set<Path> reached = new HashSet<>();
            for (Path file : sources) {
                BuildContext dbc = model.db.files.get(file);
                if (dbc == null) continue;
                java.util.ArrayDeque<Path> queue = new java.util.ArrayDeque<>(List.of(file));
                Map<Path, Integer> level = new HashMap<>(Map.of(file, 0));
                while (!queue.isEmpty()) {
                    Path f = queue.poll();
                    if (level.get(f) >= 16) continue;
                    for (Path inc : IncludeScan.quotedIncludes(f, dbc.includePaths(), scannedSources)) {
                        if (model.db.files.containsKey(inc) || level.containsKey(inc) || !reached.add(inc)) continue;
                        level.put(inc, level.get(f) + 1);
                        if (inc.getFileName().toString().endsWith(".cu")) includedByDbUnits.add(inc);
                        queue.add(inc);
                    }
                }
            }
        }
        for (Path file : sources) {
            BuildContext own = model.db.files.get(file);
            if (own == null && includedByDbUnits.contains(file)) continue;
            // a .cu that a custom command of the CMake project compiles with nvcc: that command is its compile
            // command (CMakeCustomCommands), no database lists it
            if (own == null && byCustomCommand(model, file)) own = model.cmake.files.get(file);
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
            if (own == null && c == null) {
                BuildContext target = model.cmake.files.get(file);
                if (target != null && !unit(file)) {
                    // a header a CMake target lists is compiled by the units that #include it: their context (below:
                    // a C unit's host flags, a .cu unit's nvcc flags such as -fmad=false for its device code), and
                    // the target's only when no scanned unit includes it
                    c = BuildContext.defaults();
                    mergeDistinct(c, target);
                    c.configuration(target.configuration());
                } else {
                    own = target;
                }
            }
            if (own != null) {
                compiled.add(file);
                c = BuildContext.defaults();
                mergeDistinct(c, own);
                c.configuration(own.configuration());
                // a borrowed entry of a .cu that no target of this configuration compiles: analyzed with its
                // neighbours' flags, its includes followed, but not compiled by the configured build
                if (own.notCompiledReason() != null) c.notCompiled(own.notCompiledReason());
                else c.compiled(true);
                if (own == model.db.files.get(file)) {
                    // its other compile commands with other defines, each made as this one (the front ends decide
                    // which to analyze too: those whose differing defines the unit uses)
                    for (BuildContext v : model.db.others.getOrDefault(file, List.of())) {
                        BuildContext vc = BuildContext.defaults();
                        mergeDistinct(vc, v);
                        c.addVariant(vc.configuration(v.configuration()).compiled(true));
                    }
                }
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
        // units of the database the scan leaves out (--exclude 'robtk/**') still give the scanned files they include
        // their context: a GUI host unit that #includes each plugin GUI (session 63 round B)
        Map<Path, BuildContext> unscanned = unscannedUnits(ctx, model, scanned);
        for (Path u : unscanned.keySet()) depth.put(u, 0);
        queue.addAll(unscanned.keySet());
        while (!queue.isEmpty()) {
            Path tu = queue.poll();
            BuildContext tc = chosen.containsKey(tu) ? chosen.get(tu) : unscanned.get(tu);
            if (tc == null || depth.get(tu) >= 16) continue;
            // each variant of the unit's command too: the one whose -D names a computed include's file gives it its
            // context (-DPLUGIN_SOURCE="gui/meter.c", IncludeScan)
            List<BuildContext> commands = new ArrayList<>(List.of(tc));
            commands.addAll(tc.variants());
            for (BuildContext vc : commands)
                for (Path inc : IncludeScan.quotedIncludes(tu, vc.includePaths(), scanned, vc.defines())) {
                    if (compiled.contains(inc) || depth.containsKey(inc)) continue;
                    Path via = tc.compiledVia() != null ? tc.compiledVia() : tu;
                    BuildContext c = BuildContext.defaults();
                    mergeDistinct(c, vc);
                    String base = tc.configuration() == null
                            ? ""
                            : tc.configuration().replaceFirst("^compiled through [^:]*: ", "");
                    c.compiledVia(via)
                            .compiled(true)
                            .configuration("compiled through " + ctx.relativize(via) + ": " + base);
                    chosen.put(inc, c);
                    depth.put(inc, depth.get(tu) + 1);
                    queue.add(inc);
                }
        }
        deviceFromCudaIncluders(chosen, compiled, tus, scanned);
        notCompiledByDatabase(ctx, model, sources, chosen, includedByDbUnits);
        UnbuiltIncluders.review(ctx, model, sources, chosen);
        UnscannedUnits.review(ctx, model, sources);
        for (Map.Entry<Path, BuildContext> e : chosen.entrySet()) {
            if (!isEmpty(e.getValue()) || e.getValue().notCompiledReason() != null)
                ctx.addBuildContext(e.getKey(), e.getValue());
        }
        BuildContext project = BuildContext.defaults();
        if (model.dbUsed != null) project.addSummary("compilation database: " + printable(model.dbUsed));
        for (String line : summary(ctx, sources, chosen)) project.addSummary(line);
        if (!project.summary().isEmpty()) ctx.addBuildContext(null, project);
        return chosen;
    }

    /** Whether a custom command of the CMake project compiles {@code file} with nvcc ({@link CMakeCustomCommands}). */
    private static boolean byCustomCommand(Model model, Path file) {
        CMakeTargets.Target t = model.targetOf.get(file);
        return t != null && CMakeCustomCommands.named(t.name()) && model.cmake.files.containsKey(file);
    }

    /** Extensions of the files a compiler is given as translation units (not headers, fragments or PTX). */
    private static final Set<String> UNIT_EXTENSIONS = Set.of("cu", "c", "cc", "cpp", "cxx", "c++");

    static boolean unit(Path p) {
        String n = p.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        int dot = n.lastIndexOf('.');
        return dot >= 0 && UNIT_EXTENSIONS.contains(n.substring(dot + 1));
    }

    /**
     * The translation units that the configured build is known not to compile (issue 26: SUPRA's minimum-variance
     * beamformers and OpenIGTLink output, NiftyRec's {@code obsolete/} kernels gave default-visible warnings): a
     * compilation database is used and lists units of the file's kind (host C/C++ entries for a .c/.cpp file, .cu
     * entries for a .cu file, so a FindCUDA export without .cu entries says nothing about .cu files), and it has no
     * entry for the file, nor does a unit it compiles include it. Such a file is still analyzed; its findings are
     * notes ({@link NotCompiledReview}). A file the database does not name but that an include of a compiled unit
     * reaches, or that another build of the tree (a Makefile, setup.py) compiles, is not concerned.
     */
    /**
     * A header that a CUDA unit includes as well as the host unit whose context it took (a C99 physics header shared
     * by the CPU library and the kernels): its device code is compiled by that CUDA unit's nvcc, so the unit's device
     * settings ({@code -fmad}, {@code -prec-div}, {@code -prec-sqrt}, {@code -ftz}, {@code --use_fast_math}) are its
     * device settings; its host settings stay the host unit's. The first CUDA unit (by path) that reaches it decides,
     * as the context of a header two CUDA units include is the first one's.
     */
    private static void deviceFromCudaIncluders(
            Map<Path, BuildContext> chosen, Set<Path> compiled, List<Path> tus, Set<Path> scanned) {
        Set<Path> visited = new HashSet<>();
        for (Path tu : tus) {
            BuildContext tc = chosen.get(tu);
            if (!isCuda(tu) || tc == null || !deviceSettings(tc)) continue;
            java.util.ArrayDeque<Path> queue = new java.util.ArrayDeque<>(List.of(tu));
            while (!queue.isEmpty()) {
                Path f = queue.poll();
                for (Path inc : IncludeScan.quotedIncludes(f, tc.includePaths(), scanned)) {
                    if (compiled.contains(inc) || !visited.add(inc)) continue;
                    BuildContext hc = chosen.get(inc);
                    if (hc != null && !deviceSettings(hc)) {
                        hc.fastMath(tc.fastMath())
                                .precDiv(tc.precDiv())
                                .precSqrt(tc.precSqrt())
                                .ftz(tc.ftz())
                                .fmad(tc.fmad())
                                .deviceDebug(tc.deviceDebug());
                        for (BuildContext.FlagOrigin o : tc.origins()) {
                            if (DEVICE_FLAG.matcher(o.flag()).find()) hc.addOrigin(o.flag(), o.location());
                        }
                    }
                    queue.add(inc);
                }
            }
        }
    }

    /** An nvcc flag that sets device arithmetic (its origin is what a device finding cites). */
    private static final java.util.regex.Pattern DEVICE_FLAG =
            java.util.regex.Pattern.compile("fmad|fast.math|prec.div|prec.sqrt|ftz");

    private static boolean deviceSettings(BuildContext c) {
        return c.fastMath() != null
                || c.precDiv() != null
                || c.precSqrt() != null
                || c.ftz() != null
                || c.fmad() != null
                || c.deviceDebug() != null;
    }

    private static void notCompiledByDatabase(
            ScanContext ctx,
            Model model,
            List<Path> sources,
            Map<Path, BuildContext> chosen,
            Set<Path> includedByDbUnits) {
        if (model.dbUsed == null || model.db.files.isEmpty()) return;
        boolean hostUnits = false;
        boolean cudaUnits = false;
        List<String> left = new ArrayList<>();
        for (Path f : model.db.files.keySet()) {
            if (!unit(f)) continue;
            if (isCuda(f)) cudaUnits = true;
            else hostUnits = true;
        }
        // CMake's export lists every unit of its configuration, in any language: one with .cu units and no C/C++
        // unit compiles no C/C++ file (session 60: a neural network's USE_GPU=ON build, whose CPU sources gave
        // default-visible warnings); FindCUDA's export without .cu entries still says nothing about .cu files, but
        // another generator's database (meson's, bear's) lists the .cu units it compiles like any other: with C/C++
        // units and none it compiles no CUDA (session 65 round G: a video metric's meson build with CUDA off)
        boolean cmakeDb = cmakeExport(model.dbFile);
        boolean cmakeExport = cudaUnits && !hostUnits && cmakeDb;
        // the directories the database holds a unit of
        Set<Path> builtDirs = new java.util.HashSet<>();
        for (Path f : model.db.files.keySet()) if (f.getParent() != null) builtDirs.add(f.getParent());
        for (Path file : sources) {
            if (!unit(file) || model.db.files.containsKey(file) || includedByDbUnits.contains(file)) continue;
            if (byCustomCommand(model, file)) continue;
            if (isCuda(file) ? !cudaUnits && (cmakeDb || !hostUnits) : !hostUnits && !cmakeExport) continue;
            BuildContext c = chosen.get(file);
            if (c != null && (c.compiledVia() != null || c.notCompiledReason() != null)) continue;
            // a Makefile's or setup.py's unit is the build's where the database holds a unit of its directory (a unit
            // that failed under make -k); a directory with none was not built (sox's test/Makefile, which the
            // top-level make does not run: session 62 round D, a long double warning in a test program)
            if ((model.make.files.containsKey(file) || model.py.files.containsKey(file))
                    && builtDirs.contains(file.getParent())) continue;
            String why = !isCuda(file) && !hostUnits
                    ? "the compilation database " + printable(model.dbUsed) + ", CMake's export of this configuration,"
                            + " lists no C/C++ unit: this configuration compiles none"
                    : isCuda(file) && !cudaUnits
                            ? "the compilation database " + printable(model.dbUsed) + " lists C/C++ units and no .cu"
                                    + " unit: this configuration compiles no CUDA"
                            : "the compilation database " + printable(model.dbUsed) + " lists the "
                                    + (isCuda(file) ? ".cu" : "C/C++")
                                    + " units this configuration compiles and not this one";
            if (c == null) {
                c = BuildContext.defaults();
                chosen.put(file, c);
            }
            c.notCompiled(why);
            left.add(ctx.relativize(file));
        }
        if (left.isEmpty() || model.sink == null) return;
        int shown = Math.min(left.size(), 10);
        model.sink.notify(new Notification(
                dbLocation(model.dbUsed),
                0,
                Level.NOTE,
                "not-compiled-units",
                left.size() + " scanned C/C++/CUDA unit" + (left.size() == 1 ? "" : "s")
                        + " that this configuration does not compile (the compilation database lists the others):"
                        + " analyzed, their findings are notes: " + String.join(", ", left.subList(0, shown))
                        + (left.size() > shown ? " and " + (left.size() - shown) + " more" : "")));
    }

    /**
     * The compilation database's path as a notice's file: {@code dbUsed} without how it was found ("(given with -p)",
     * "(found automatically: ...)"), which a notice's message may say but a file location cannot hold (SARIF wrote no
     * report: "cannot express ... as a URI", session 63's hostile tree).
     */
    static String dbLocation(String dbUsed) {
        String s = printable(dbUsed);
        for (String how : List.of(" (given with -p)", " (found automatically")) {
            int at = s.lastIndexOf(how);
            if (at > 0) return s.substring(0, at);
        }
        return s;
    }

    /** Whether the compilation database {@code db} is CMake's export: a CMakeCache.txt lies beside it. */
    private static boolean cmakeExport(Path db) {
        Path dir = db == null ? null : db.getParent();
        return dir != null && Files.isRegularFile(dir.resolve("CMakeCache.txt"));
    }

    /**
     * A .cu file the compilation database has no entry for (CMake's export of a FindCUDA {@code cuda_add_library}
     * target lists only its .cpp files): the preprocessor flags ({@code -I -D -U -isystem -include -std}) of the
     * entry of a .c/.cpp file in the same directory, else in the nearest directory above it that has entries, plus
     * the nvcc flags the CMake evaluation gives it ({@code CUDA_NVCC_FLAGS}); a notice names the borrowed entry.
     */
    private static BuildContext borrowedEntry(ScanContext ctx, Model model, Path file) {
        DbEntry donor = null;
        CMakeTargets.Target target = model.targetOf.get(file);
        if (target != null) { // FindCUDA: the .c/.cpp entries of the same target (CMake exports those)
            donor = target.sources().stream()
                    .sorted()
                    .map(model.hostEntries::get)
                    .filter(java.util.Objects::nonNull)
                    .findFirst()
                    .orElse(null);
            if (donor == null) target = null;
        }
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
        String who = (from == null ? "?" : ctx.relativize(from))
                + (target == null ? "" : " (same CMake target " + target.name() + ")");
        c.configuration("borrowed " + donor.origin() + " of " + who + ": the database has no entry for this .cu"
                + (cm == null ? "" : ", with the CMake evaluation's nvcc flags"));
        if (leftOutByConfiguration(model, donor, target != null)) {
            c.notCompiled("no target of this configuration compiles it: the compilation database lists its .cu"
                    + " units and not this one");
        }
        model.sink.notify(new Notification(
                ctx.relativize(file),
                0,
                Level.NOTE,
                "borrowed-build-entry",
                whyNoEntry(ctx, model, file, donor, target != null)
                        + ": it is analyzed and compiled with the -I/-D/-U/-isystem/"
                        + "-include/-std flags of the " + donor.origin() + " of " + who
                        + (cm == null ? "" : " and the nvcc flags of the CMake evaluation")
                        + (c.notCompiledReason() == null
                                ? ""
                                : "; as no target of this configuration compiles it, its findings are notes")));
        return c;
    }

    /** The database was written by CMake: a CMake target compiles the file, or a CMakeCache.txt is beside it. */
    private static boolean cmakeBuilt(DbEntry donor, boolean cmakeTarget) {
        Path db = donor.database();
        return cmakeTarget
                || (db != null
                        && db.getParent() != null
                        && Files.exists(db.getParent().resolve("CMakeCache.txt")));
    }

    private static long cuEntries(Model model) {
        return model.db.files.keySet().stream()
                .filter(f -> f.getFileName().toString().endsWith(".cu"))
                .count();
    }

    /**
     * A CMake database that lists .cu units (first-class CUDA, or FindCUDA's commands added to it) and not this one,
     * which no CMake target of the evaluation names: no target of this configuration compiles it.
     */
    private static boolean leftOutByConfiguration(Model model, DbEntry donor, boolean cmakeTarget) {
        return cmakeBuilt(donor, cmakeTarget) && !cmakeTarget && cuEntries(model) > 0;
    }

    /**
     * Why the database has no entry for a .cu file, naming the build the database came from: CMake's export (a CMake
     * target compiles the file, or a CMakeCache.txt is beside the database) leaves out a FindCUDA target's .cu files;
     * a database of another build (a Makefile recorded with bear, a hand-made one) simply does not compile the file.
     */
    private static String whyNoEntry(ScanContext ctx, Model model, Path file, DbEntry donor, boolean cmakeTarget) {
        Path db = donor.database();
        String where = db == null ? "the compilation database" : ctx.relativize(db);
        boolean cmake = cmakeBuilt(donor, cmakeTarget);
        long cuEntries = cuEntries(model);
        if (leftOutByConfiguration(model, donor, cmakeTarget)) {
            return "no entry for this .cu file in " + where + " (CMake's export lists the CUDA sources of this"
                    + " configuration's targets, " + cuEntries + " .cu file" + (cuEntries == 1 ? "" : "s")
                    + ", and none of them is this one: no target of this configuration compiles it)";
        }
        if (cmake) {
            return "no entry for this .cu file in " + where + " (CMake's export of a FindCUDA target lists only its"
                    + " .c/.cpp files)";
        }
        String make = model.make.files.containsKey(file)
                ? "; the evaluated Makefile compiles it"
                : model.make.files.isEmpty() ? "" : "; no evaluated Makefile rule compiles it either";
        return "no entry for this .cu file in " + where + " (a database not written by CMake: no CMakeCache.txt"
                + " beside it and no CMake target compiles the file; the build it was recorded from, e.g. a"
                + " Makefile, did not compile this file on its own, as with a .cu #included by another unit" + make
                + ")";
    }

    static BuildContext directoryContext(Contexts cs, Path file) {
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
                .deviceDebug(o.deviceDebug())
                .hostArch(o.hostArch())
                .hostFpContractOff(o.hostFpContractOff())
                .hostFastMath(o.hostFastMath())
                .hostOptLevel(o.hostOptLevel())
                .hostReassociation(o.hostReassociation())
                .hostStd(o.hostStd())
                .hostCompiler(o.hostCompiler())
                .m32(o.m32())
                .mfpmath387(o.mfpmath387())
                .cudaArch(o.cudaArch());
        o.nvccFlags().forEach(settings::addNvccFlag);
        o.defines().forEach(settings::addDefine);
        o.undefines().forEach(settings::addUndefine);
        o.hostMacroFlags().forEach(settings::addHostMacroFlag);
        o.includePaths().forEach(settings::addIncludePath);
        if (o.compiledVia() != null) settings.compiledVia(o.compiledVia());
        if (o.compiledAsCuda()) settings.compiledAsCuda(true);
        if (o.compiledAsHost() != null) settings.compiledAsHost(o.compiledAsHost());
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
}
