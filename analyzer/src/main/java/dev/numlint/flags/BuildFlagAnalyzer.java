package dev.numlint.flags;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Confidence;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.spi.Analyzer;
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
import java.util.TreeMap;

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
 * link step adds crtfastmath.o). Flags written under a condition (an {@code if()}, {@code ifeq}, a build
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
    private static final Set<String> RULES = Set.of("NL002", "NL003", "NL005", "NL006", "NL007");

    @Override public String id() { return "build-flags"; }
    @Override public Layer layer() { return Layer.BUILD_FLAGS; }
    @Override public int phase() { return PHASE_CONTEXT; }
    @Override public Set<String> implementedRules() { return RULES; }

    @Override
    public boolean accepts(Path file) {
        Path n = file.getFileName();
        if (n == null) return false;
        String name = n.toString();
        return name.equals("compile_commands.json") || name.equals("CMakeLists.txt") || name.endsWith(".cmake")
                || name.equals("Makefile") || name.equals("makefile") || name.equals("GNUmakefile")
                || name.endsWith(".mk");
    }

    /** Build contexts per directory (from directory-wide flags) and per file (targets, compile commands). */
    private static final class Contexts {
        final Map<Path, BuildContext[]> dirs = new HashMap<>();   // {cuda, host}
        final Map<Path, BuildContext> files = new HashMap<>();

        void dir(Path d, BuildContext cuda, BuildContext host) {
            BuildContext[] c = dirs.computeIfAbsent(d, k -> new BuildContext[] {BuildContext.defaults(),
                    BuildContext.defaults()});
            c[0].merge(cuda);
            c[1].merge(host);
        }

        void file(Path f, BuildContext c) {
            files.merge(f, c, (a, b) -> a.copy().merge(b));
        }
    }

    @Override
    public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
        recordCommandLine(ctx);
        Reporter rep = new Reporter(ctx, sink);
        Contexts contexts = new Contexts();
        for (Path f : files.stream().sorted().toList()) {
            Path file = f.toAbsolutePath().normalize();
            try {
                analyzeFile(ctx, file, rep, contexts);
            } catch (RuntimeException | StackOverflowError e) {
                sink.notify(new Notification(ctx.relativize(file), 0, Level.ERROR, "internal-error",
                        "build-flag audit failed on this file: " + e));
            }
        }
        applyContexts(ctx, contexts);
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
        FlagInterpreter.Result r = FlagInterpreter.interpret(toks);
        ctx.addBuildContext(null, r.cuda);
    }

    private void analyzeFile(ScanContext ctx, Path file, Reporter rep, Contexts contexts) {
        String rel = ctx.relativize(file);
        String name = file.getFileName().toString();
        if (name.endsWith(".cmake") || name.equals("CMakeLists.txt")) {
            CMakeAudit.Out out = CMakeAudit.audit(file, ctx::relativize,
                    ctx.maxFileSize(dev.numlint.model.Layer.BUILD_FLAGS));
            problems(rep.sink, out.problems);
            cmake(ctx, file, out, rep, contexts);
            return;
        }
        String text = read(ctx, file, rep.sink);
        if (text == null) return;
        if (name.equals("compile_commands.json")) {
            CompileCommandsAudit.Out out = CompileCommandsAudit.audit(rel, text);
            problems(rep.sink, out.problems);
            compileCommands(ctx, file, out, rep, contexts);
        } else {
            MakefileAudit.Out out = MakefileAudit.audit(rel, text);
            problems(rep.sink, out.problems);
            makefile(ctx, file, out, rep, contexts);
        }
    }

    private static String read(ScanContext ctx, Path file, FindingSink sink) {
        try {
            long max = ctx.maxFileSize(dev.numlint.model.Layer.BUILD_FLAGS);
            long size = Files.size(file);
            if (size > max) {
                sink.notify(new Notification(ctx.relativize(file), 0, Level.ERROR, "file-too-large",
                        "not analyzed: the file has " + size + " bytes, more than max-file-size for build-flags ("
                                + max + ")"));
                return null;
            }
            byte[] b = Files.readAllBytes(file);
            for (int i = 0; i < Math.min(b.length, 8192); i++) {
                if (b[i] == 0) {
                    sink.notify(new Notification(ctx.relativize(file), 0, Level.ERROR, "binary-file",
                            "binary content, not a build file; not analyzed"));
                    return null;
                }
            }
            try {
                return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(b)).toString();
            } catch (MalformedInputException e) {
                return new String(b, StandardCharsets.ISO_8859_1);
            }
        } catch (IOException e) {
            sink.notify(new Notification(ctx.relativize(file), 0, Level.ERROR, "unreadable-file",
                    "cannot read: " + e.getMessage()));
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
            sink.notify(new Notification(p[0], line, level, level == Level.ERROR ? "unreadable-file" : "parse-error",
                    p[3]));
        }
    }

    // ------------------------------------------------------------------ per format

    private static void cmake(ScanContext ctx, Path file, CMakeAudit.Out out, Reporter rep, Contexts contexts) {
        Path dir = file.getParent();
        FlagInterpreter.Result d = FlagInterpreter.interpret(dedupe(out.directory));
        rep.report(d.hazards);
        String dirArch = out.cudaArch.get("");
        if (dirArch != null) d.cuda.cudaArch(dirArch);
        contexts.dir(dir, d.cuda, d.host);
        Set<String> names = new java.util.LinkedHashSet<>(out.targets.keySet());
        names.addAll(out.sources.keySet());
        names.addAll(out.cudaArch.keySet());
        names.remove("");
        for (String t : names) {
            List<FlagTok> own = out.targets.getOrDefault(t, List.of());
            String arch = out.cudaArch.get(t);
            if (own.isEmpty() && arch == null) continue;
            List<FlagTok> all = new ArrayList<>(out.directory);
            all.addAll(own);
            FlagInterpreter.Result r = FlagInterpreter.interpret(dedupe(all));
            rep.report(r.hazards);
            if (arch != null) r.cuda.cudaArch(arch);
            for (Path src : out.sources.getOrDefault(t, List.of())) {
                contexts.file(src, isCuda(src) ? r.cuda : r.host);
            }
        }
        for (Map.Entry<Path, List<FlagTok>> e : out.sourceFlags.entrySet()) {
            List<FlagTok> all = new ArrayList<>(out.directory);
            all.addAll(e.getValue());
            FlagInterpreter.Result r = FlagInterpreter.interpret(dedupe(all));
            rep.report(r.hazards);
            contexts.file(e.getKey(), isCuda(e.getKey()) ? r.cuda : r.host);
        }
    }

    private static void makefile(ScanContext ctx, Path file, MakefileAudit.Out out, Reporter rep, Contexts contexts) {
        Path dir = file.getParent();
        FlagInterpreter.Result v = FlagInterpreter.interpret(dedupe(out.variables));
        rep.report(v.hazards);
        contexts.dir(dir, v.cuda, v.host);
        for (int i = 0; i < out.commands.size(); i++) {
            FlagInterpreter.Result r = FlagInterpreter.interpret(dedupe(out.commands.get(i)));
            rep.report(r.hazards);
            boolean nvcc = !out.commands.get(i).isEmpty() && out.commands.get(i).get(0).lang() == FlagTok.Lang.CUDA;
            for (String src : out.commandFiles.get(i)) {
                try {
                    Path p = dir.resolve(src).normalize();
                    contexts.file(p, nvcc || isCuda(p) ? r.cuda : r.host);
                } catch (InvalidPathException e) {
                    // not a path
                }
            }
        }
    }

    private static void compileCommands(ScanContext ctx, Path file, CompileCommandsAudit.Out out, Reporter rep,
                                        Contexts contexts) {
        Map<String, Path> byName = new HashMap<>();
        Set<String> ambiguous = new HashSet<>();
        for (Path p : ctx.files()) {
            String n = p.getFileName().toString();
            if (byName.putIfAbsent(n, p) != null) ambiguous.add(n);
        }
        // the same flag in many entries is one setting: report it once, with the number of entries
        Map<String, List<FlagInterpreter.Hazard>> grouped = new LinkedHashMap<>();
        for (CompileCommandsAudit.Entry e : out.entries) {
            FlagInterpreter.Result r = FlagInterpreter.interpret(e.toks());
            for (FlagInterpreter.Hazard h : r.hazards) {
                grouped.computeIfAbsent(h.ruleId() + "\u0000" + h.entry().flag() + "\u0000" + h.entry().target(),
                        k -> new ArrayList<>()).add(h);
            }
            Path src = resolve(ctx, e, byName, ambiguous);
            if (src != null) contexts.file(src, e.compiler() == FlagTok.Lang.CUDA ? r.cuda : r.host);
        }
        for (List<FlagInterpreter.Hazard> hs : grouped.values()) {
            rep.reportGroup(hs);
        }
    }

    /** The scanned file an entry compiles: its path, or (database from another machine) the same path tail. */
    private static Path resolve(ScanContext ctx, CompileCommandsAudit.Entry e, Map<String, Path> byName,
                                Set<String> ambiguous) {
        Path p;
        try {
            p = Path.of(e.file());
            if (!p.isAbsolute() && e.directory() != null) p = Path.of(e.directory()).resolve(p);
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

    private static void applyContexts(ScanContext ctx, Contexts contexts) {
        if (contexts.dirs.isEmpty() && contexts.files.isEmpty()) return;
        // directories from the outermost to the nearest
        TreeMap<Integer, List<Path>> byDepth = new TreeMap<>();
        for (Path d : contexts.dirs.keySet()) byDepth.computeIfAbsent(d.getNameCount(), k -> new ArrayList<>()).add(d);
        for (Path f : ctx.files()) {
            Path file = f.toAbsolutePath().normalize();
            if (!isSource(file)) continue;
            BuildContext c = BuildContext.defaults();
            boolean any = false;
            boolean cuda = isCuda(file);
            String n = file.getFileName().toString();
            boolean header = n.endsWith(".h") || n.endsWith(".hpp") || n.endsWith(".hh") || n.endsWith(".hxx");
            for (List<Path> ds : byDepth.values()) {
                for (Path d : ds) {
                    if (!file.startsWith(d)) continue;
                    BuildContext[] dc = contexts.dirs.get(d);
                    if (header) {
                        mergeDistinct(c, dc[1]);
                        mergeDistinct(c, dc[0]);
                    } else {
                        mergeDistinct(c, cuda ? dc[0] : dc[1]);
                    }
                    any = true;
                }
            }
            BuildContext own = contexts.files.get(file);
            if (own != null) {
                mergeDistinct(c, own);
                any = true;
            }
            if (any && !isEmpty(c)) ctx.addBuildContext(file, c);
        }
    }

    /** {@link BuildContext#merge} without repeating an origin that is already recorded (same flag, same place). */
    private static void mergeDistinct(BuildContext into, BuildContext other) {
        BuildContext o = other.copy();
        BuildContext settings = BuildContext.defaults().fastMath(o.fastMath()).precDiv(o.precDiv())
                .precSqrt(o.precSqrt()).ftz(o.ftz()).fmad(o.fmad()).hostArch(o.hostArch())
                .hostFpContractOff(o.hostFpContractOff()).hostFastMath(o.hostFastMath()).m32(o.m32())
                .mfpmath387(o.mfpmath387()).cudaArch(o.cudaArch());
        o.nvccFlags().forEach(settings::addNvccFlag);
        Set<BuildContext.FlagOrigin> have = new HashSet<>(into.origins());
        for (BuildContext.FlagOrigin fo : o.origins()) {
            if (have.add(fo)) settings.addOrigin(fo.flag(), fo.location());
        }
        into.merge(settings);
    }

    private static boolean isEmpty(BuildContext c) {
        return c.origins().isEmpty() && c.nvccFlags().isEmpty() && c.cudaArch() == null;
    }

    // ------------------------------------------------------------------ reporting

    /** Turns hazards into findings, once per (rule, location). */
    private static final class Reporter {
        final ScanContext ctx;
        final FindingSink sink;
        final Set<String> done = new HashSet<>();

        Reporter(ScanContext ctx, FindingSink sink) {
            this.ctx = ctx;
            this.sink = sink;
        }

        void report(List<FlagInterpreter.Hazard> hs) {
            for (FlagInterpreter.Hazard h : hs) reportGroup(List.of(h));
        }

        /** Reports the first hazard of a group of identical settings; the others become related locations. */
        void reportGroup(List<FlagInterpreter.Hazard> hs) {
            FlagInterpreter.Hazard h = hs.get(0);
            FlagInterpreter.Entry e = h.entry();
            FlagTok t = e.origin();
            String key = h.ruleId() + "\u0000" + e.loc().shortText() + "\u0000" + e.flag();
            if (!done.add(key)) return;
            if (!ctx.rules().enabled(h.ruleId())) return;
            StringBuilder msg = new StringBuilder(h.message());
            msg.append("; set through ").append(t.via());
            if (hs.size() > 1) msg.append(" and ").append(hs.size() - 1).append(" more entr")
                    .append(hs.size() == 2 ? "y" : "ies");
            if (t.condition() != null) msg.append("; applies only under ").append(t.condition());
            Finding.Builder b = Finding.builder(h.ruleId())
                    .location(e.loc())
                    .message(msg.toString())
                    .layer(Layer.BUILD_FLAGS)
                    .evidence(new Evidence("flag", e.flag(), null))
                    .confidence(t.condition() != null ? Confidence.MEDIUM : Confidence.HIGH)
                    .fingerprintKey("flag|" + h.ruleId() + "|" + e.flag() + "|" + e.target() + "|" + t.via())
                    .property("appliesTo", switch (e.target()) {
                        case DEVICE -> "cuda-device";
                        case CU_HOST -> "cuda-host";
                        case HOST -> "host";
                    });
            if (t.condition() != null) b.property("condition", t.condition());
            if (h.level() != null) b.level(h.level());
            for (int i = 1; i < hs.size() && i <= 10; i++) {
                b.related(hs.get(i).entry().loc(), "same flag in another entry");
            }
            sink.report(b);
        }
    }
}
