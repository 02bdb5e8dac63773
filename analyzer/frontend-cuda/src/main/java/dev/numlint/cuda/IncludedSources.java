package dev.numlint.cuda;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.FindingSink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Code that the build compiles only through an {@code #include}, analyzed in the context of the source that includes
 * it (issue 26), by both front ends:
 *
 * <ul>
 *   <li>a listed source (a {@code .c}, {@code .cu}...) that the build model says no compile command compiles but a
 *       compiled source includes ({@link BuildContext#compiledVia()}: liquid-dsp's {@code firfilt.proto.c}, included
 *       after {@code #define FIRFILT(name) ...}) is analyzed once, through its first includer in path order, instead
 *       of on its own, where its name-building macros are undefined;
 *   <li>a listed header whose code is inactive alone but active where a source includes it after defining a macro
 *       (the single-header implementation pattern: {@code #define STB_IMAGE_IMPLEMENTATION}, then the include) is
 *       analyzed, after its analysis alone, once more for each distinct state of the macros its conditions test,
 *       keeping only the lines that no earlier analysis of it read: each line's findings come from one analysis.
 * </ul>
 *
 * Clang reads such a file by parsing the translation unit that includes it with that unit's compile command and
 * keeping the cursors located in the file ({@code ClangParser}'s target): the macros defined before the include, the
 * declarations of the headers included before it and the unit's language are the compiler's, not a reconstruction
 * from {@code -D} flags (a function-like macro, a typedef of an earlier header cannot be passed that way).
 * A source that scanned sources include but that no compile command compiles through an include (a guessed build,
 * an includer the build does not compile) is analyzed on its own as before, and one notice lists those sources.
 */
final class IncludedSources {
    /** Contexts kept per listed header (distinct states of the macros its conditions test). */
    static final int MAX_CONTEXTS = 8;

    private IncludedSources() {}

    /** What the front end's driver does for these analyses (this class does not call back into it). */
    interface Driver {
        /** Analyzes one file, {@code from} its includer's context or null ({@code CudaSourceAnalyzer.analyzeFile}). */
        void analyze(Path file, FindingSink sink, CudaScanRun.IncludedFrom from);

        /** Runs {@code worker} on the scan's threads, for {@code n} files. */
        void inParallel(int n, Runnable worker);

        /** The language a file is read in when no build context says CUDA ({@code SourceKinds.dialect}). */
        Preprocessor.Dialect dialect(Path file);
    }

    /**
     * Files reached by {@code #include} from the scanned sources that the scan itself does not list (extensions such
     * as .hcu, .inl, .hxx, .tpp, and headers outside the scanned paths): each is analyzed once, with the macros its
     * first includer (in path order) had defined at the include and that includer's build context; headers they
     * include follow, round by round, until none is left. A round's files are analyzed in parallel, each with the
     * includer its round started with, and the progress display counts them (session 55: a scan stood at "65 of 65
     * file analyses done" for minutes while it analyzed, one by one, the headers of a fire solver).
     */
    static void analyzeReached(Driver driver, CudaScanRun run, FindingSink sink, java.util.Set<Path> done) {
        while (true) {
            List<Map.Entry<Path, CudaScanRun.IncludedFrom>> pending = new ArrayList<>();
            for (Map.Entry<Path, CudaScanRun.IncludedFrom> e : run.included.entrySet()) {
                if (!done.contains(e.getKey())) pending.add(Map.entry(e.getKey(), e.getValue()));
            }
            if (pending.isEmpty()) return;
            pending.sort(Map.Entry.comparingByKey());
            for (Map.Entry<Path, CudaScanRun.IncludedFrom> e : pending) done.add(e.getKey());
            run.ctx.moreFiles(pending.size());
            java.util.concurrent.ConcurrentLinkedQueue<Map.Entry<Path, CudaScanRun.IncludedFrom>> queue =
                    new java.util.concurrent.ConcurrentLinkedQueue<>(pending);
            driver.inParallel(pending.size(), () -> {
                Map.Entry<Path, CudaScanRun.IncludedFrom> e;
                while ((e = queue.poll()) != null) {
                    driver.analyze(e.getKey(), sink, e.getValue());
                    run.ctx.fileDone();
                }
            });
        }
    }

    /**
     * Whether the build compiles {@code file} through the unit {@code unit} with another command than the unit's
     * first: its context ({@code ContextChoice}) names the unit and has other defines than the unit's.
     */
    static boolean variantOf(CudaScanRun run, Path file, Path unit) {
        BuildContext bc = run.ctx.buildContext(file);
        Path via = bc.compiledVia() == null ? null : CudaScanRun.realPath(bc.compiledVia());
        return unit.equals(via)
                && !bc.defines().equals(run.ctx.buildContext(unit).defines());
    }

    /** A listed source that the build compiles only through an include of it (never a header). */
    static boolean compiledThroughInclude(CudaScanRun run, Path file) {
        return run.ctx.buildContext(file).compiledVia() != null;
    }

    /**
     * Records the includer of a listed header for the header's analysis in context: the first in path order for each
     * distinct state of the macros the header's conditions test. A header without conditions means the same
     * everywhere and is not recorded.
     */
    static void reachedHeader(
            CudaScanRun run,
            Path header,
            Path includer,
            Map<String, Preprocessor.Macro> macros,
            Preprocessor.Dialect d) {
        Set<String> names = run.conditionNames.computeIfAbsent(header, IncludedSources::conditionNames);
        if (names.isEmpty()) return;
        StringBuilder sig = new StringBuilder(d.name());
        for (String n : names) {
            Preprocessor.Macro m = macros.get(n);
            sig.append('\u0000').append(n).append('=');
            if (m == null) {
                sig.append('-');
            } else {
                sig.append(m.params()).append(m.variadic());
                for (PToken t : m.body()) sig.append(' ').append(t.getText());
            }
        }
        Map<String, CudaScanRun.IncludedFrom> contexts =
                run.headerContexts.computeIfAbsent(header, k -> new ConcurrentHashMap<>());
        String key = sig.toString();
        if (!contexts.containsKey(key) && contexts.size() >= MAX_CONTEXTS) return;
        contexts.compute(
                key,
                (k, old) -> old != null && old.includer().compareTo(includer) <= 0
                        ? old
                        : new CudaScanRun.IncludedFrom(includer, new HashMap<>(macros), d));
    }

    /**
     * The identifiers of a header's {@code #if}, {@code #ifdef}, {@code #ifndef} and {@code #elif} lines that it does
     * not {@code #define} itself (its include guard is one it defines: an includer that already included it changes
     * nothing worth a context of its own), sorted.
     */
    static Set<String> conditionNames(Path header) {
        Set<String> names = new TreeSet<>();
        byte[] b;
        try {
            if (Files.size(header) > (8 << 20)) return names;
            b = Files.readAllBytes(header);
        } catch (IOException | RuntimeException e) {
            return names;
        }
        // comments blanked: a single-file library's usage comment shows "#define STB_IMAGE_IMPLEMENTATION", which
        // the header itself does not define
        String text = new String(CodeOnly.of(b), StandardCharsets.ISO_8859_1);
        java.util.regex.Matcher m = CONDITION.matcher(text);
        while (m.find()) {
            java.util.regex.Matcher id = IDENTIFIER.matcher(m.group(1));
            while (id.find()) {
                String n = id.group();
                if (!n.equals("defined")) names.add(n);
            }
        }
        java.util.regex.Matcher d = DEFINE.matcher(text);
        while (d.find()) names.remove(d.group(1));
        return names;
    }

    private static final java.util.regex.Pattern CONDITION =
            java.util.regex.Pattern.compile("(?m)^[ \\t]*#[ \\t]*(?:ifdef|ifndef|if|elif)\\b([^\\n]*)");
    private static final java.util.regex.Pattern DEFINE =
            java.util.regex.Pattern.compile("(?m)^[ \\t]*#[ \\t]*define[ \\t]+([A-Za-z_]\\w*)");
    /** The names a file's text defines as macros, under any {@code #if} branch (at most 4096). */
    static Set<String> definedMacros(byte[] text) {
        Set<String> out = new java.util.HashSet<>();
        if (text == null) return out;
        java.util.regex.Matcher m = DEFINE.matcher(new String(text, StandardCharsets.ISO_8859_1));
        while (m.find() && out.size() < 4096) out.add(m.group(1));
        return out;
    }

    private static final java.util.regex.Pattern IDENTIFIER = java.util.regex.Pattern.compile("[A-Za-z_]\\w*");

    /** The lines of the file that hold a token after preprocessing (its active code). */
    static BitSet lines(List<PToken> toks) {
        BitSet b = new BitSet();
        for (PToken t : toks) if (t.getLine() > 0) b.set(t.getLine());
        return b;
    }

    /**
     * The translation unit Clang parses for a file first included by {@code includer}: the includer when the build
     * compiles it, else the unit that compiles it ({@link BuildContext#compiledVia()}), else, for an includer that is
     * itself only included (a fragment, a header), its own includer's unit; null when it cannot be read.
     */
    static ClangSupplements.Unit translationUnit(
            CudaScanRun run,
            Path includer,
            java.util.function.Predicate<Path> isHeader,
            java.util.function.Function<Path, Preprocessor.Dialect> dialect) {
        return translationUnit(run, includer, null, isHeader, dialect);
    }

    /**
     * As {@link #translationUnit(CudaScanRun, Path, java.util.function.Predicate, java.util.function.Function)} for the
     * file {@code target}: a unit that compiles it through another command than its first ({@link #variantOf}) is
     * parsed with that command, the target's own context.
     */
    static ClangSupplements.Unit translationUnit(
            CudaScanRun run,
            Path includer,
            Path target,
            java.util.function.Predicate<Path> isHeader,
            java.util.function.Function<Path, Preprocessor.Dialect> dialect) {
        Path p = includer;
        boolean viaCommand = false; // the unit is the one the build model says compiles the file
        for (int i = 0; i < ProjectHeaders.MAX_INCLUDE_DEPTH; i++) {
            BuildContext bc = run.ctx.buildContext(p);
            if (bc.compiledVia() != null) {
                Path via = CudaScanRun.realPath(bc.compiledVia());
                if (via != null) p = via;
                viaCommand = true;
                break;
            }
            CudaScanRun.IncludedFrom up = run.included.get(p);
            if (up == null && isHeader.test(p)) up = run.listedIncluders.get(p);
            if (up == null || up.includer().equals(p)) break;
            p = up.includer();
        }
        // the build model's unit comes from an include scan that does not evaluate #if (ContextChoice); a command
        // variant's unit is kept: its first command's preprocessing need not reach the target
        if (target != null && !(viaCommand && variantOf(run, target, p))) {
            Path reaching = reachingUnit(run, p, target);
            if (reaching != null) p = reaching;
        }
        try {
            if (Files.size(p) > run.maxHeaderBytes) return null;
            BuildContext bc = target != null && variantOf(run, target, p)
                    ? run.ctx.buildContext(target)
                    : run.ctx.buildContext(p);
            Preprocessor.Dialect d = bc.compiledAsCuda() ? Preprocessor.Dialect.CUDA : dialect.apply(p);
            return new ClangSupplements.Unit(p, Files.readAllBytes(p), bc, d);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The compiled unit to parse for {@code target} when {@code unit} (its includer's first includer, in path order)
     * does not reach it: a header's first includer need not be the one whose macros make the include of the target
     * active (session 77 round E: a noise library's bindings include {@code anl.h} without
     * {@code ANL_IMPLEMENTATION}, so its {@code imaging.inl} is inactive there, and its conversions vanished from the
     * report once the bindings were scanned). The units whose preprocessing read the target, one the build compiles
     * first, then the path; null when {@code unit} reaches it, or no unit's reads are known to.
     */
    static Path reachingUnit(CudaScanRun run, Path unit, Path target) {
        Set<Path> reads = run.unitReads.get(unit);
        if (reads == null || reads.contains(target)) return null;
        Path best = null;
        boolean bestCompiled = false;
        for (Map.Entry<Path, Set<Path>> e : new java.util.TreeMap<>(run.unitReads).entrySet()) {
            if (!e.getValue().contains(target)) continue;
            BuildContext bc = run.ctx.buildContext(e.getKey());
            boolean compiled = bc.notCompiledReason() == null && !dev.numlint.cuda.clang.ClangFrontEnd.guessed(bc);
            if (best == null || compiled && !bestCompiled) {
                best = e.getKey();
                bestCompiled = compiled;
            }
        }
        return best;
    }

    /**
     * Analyzes the listed sources that the build compiles only through an include: those a scanned source's
     * preprocessing reached, through their first includer (in rounds: an included source may include another); the
     * others on their own. Returns the paths (relative) of those analyzed on their own.
     */
    static List<String> analyzeThroughIncluders(
            Driver driver, CudaScanRun run, List<Path> viaIncluder, FindingSink sink) {
        List<Path> left = new ArrayList<>(viaIncluder);
        while (true) {
            List<Path> ready = new ArrayList<>();
            for (Path f : left) {
                Path real = CudaScanRun.realPath(f);
                if (real != null && run.listedIncluders.containsKey(real)) ready.add(f);
            }
            if (ready.isEmpty()) break;
            left.removeAll(ready);
            ConcurrentLinkedQueue<Path> queue = new ConcurrentLinkedQueue<>(ready);
            driver.inParallel(ready.size(), () -> {
                Path f;
                while ((f = queue.poll()) != null) {
                    driver.analyze(f, sink, run.listedIncluders.get(CudaScanRun.realPath(f)));
                }
            });
        }
        // a source the build compiles through another command of a unit than the first (-DPLUGIN_SOURCE="gui/b.c" of
        // a GUI host unit's second entry, session 63 round B): the unit's preprocessing did not reach it; Clang
        // parses the unit with that command (the source's own context, ContextChoice), the hand-written front end
        // reads it without the unit's macros
        List<Path> throughVariants = new ArrayList<>();
        for (Path f : left) {
            BuildContext bc = run.ctx.buildContext(f);
            Path via = bc.compiledVia() == null ? null : CudaScanRun.realPath(bc.compiledVia());
            // a unit the scan preprocessed, or one it leaves out (excluded; ContextChoice checked it is a regular file
            // of the tree)
            boolean unit = via != null && (run.unitsPreprocessed.contains(via) || !run.listed.contains(via));
            if (unit && variantOf(run, f, via)) throughVariants.add(f);
        }
        left.removeAll(throughVariants);
        ConcurrentLinkedQueue<Path> queue = new ConcurrentLinkedQueue<>(throughVariants);
        driver.inParallel(throughVariants.size(), () -> {
            Path f;
            while ((f = queue.poll()) != null) {
                BuildContext bc = run.ctx.buildContext(f);
                Preprocessor.Dialect d = bc.compiledAsCuda() ? Preprocessor.Dialect.CUDA : driver.dialect(f);
                driver.analyze(
                        f,
                        sink,
                        new CudaScanRun.IncludedFrom(CudaScanRun.realPath(bc.compiledVia()), new HashMap<>(), d));
            }
        });
        List<String> alone = new ArrayList<>();
        for (Path f : left) {
            driver.analyze(f, sink, null);
            alone.add(run.ctx.relativize(f));
        }
        return alone;
    }

    /**
     * Analyzes each listed header again in the contexts its includers give it (after its analysis alone), keeping
     * the lines that only that context makes active ({@link CudaScanRun.IncludedFrom#covered()}).
     */
    static void analyzeInContexts(Driver driver, CudaScanRun run, List<Path> listed, FindingSink sink) {
        ConcurrentLinkedQueue<Path> queue = new ConcurrentLinkedQueue<>();
        for (Path h : listed) {
            Path real = CudaScanRun.realPath(h);
            if (real != null && run.headerContexts.containsKey(real) && run.aloneLines.containsKey(real)) queue.add(h);
        }
        if (queue.isEmpty()) return;
        driver.inParallel(queue.size(), () -> {
            Path h;
            while ((h = queue.poll()) != null) {
                Path real = CudaScanRun.realPath(h);
                BitSet covered = (BitSet) run.aloneLines.get(real).clone();
                List<Map.Entry<String, CudaScanRun.IncludedFrom>> contexts =
                        new ArrayList<>(run.headerContexts.get(real).entrySet());
                contexts.sort(Comparator.comparing((Map.Entry<String, CudaScanRun.IncludedFrom> e) ->
                                e.getValue().includer())
                        .thenComparing(Map.Entry::getKey));
                for (Map.Entry<String, CudaScanRun.IncludedFrom> c : contexts) {
                    driver.analyze(h, sink, c.getValue().covering(covered));
                }
            }
        });
    }

    /**
     * The one notice naming the included sources analyzed on their own, or null when there are none: those no
     * compile command of the build compiles through an include ({@code throughIncluders}, and those of
     * {@code sources} a scanned source includes that the build does not compile), and those of {@code sources} the
     * build compiles as units of their own besides (a {@code main.cu} that includes {@code src/network.cu}, which has its own entry, or
     * a unity file only unbuilt tests include: session 64 rounds A and B read "no compile command compiles them
     * through an include" as a claim about those).
     */
    static Notification aloneNotice(CudaScanRun run, List<Path> sources, List<String> throughIncluders) {
        List<String> alone = new ArrayList<>(throughIncluders);
        List<String> own = new ArrayList<>();
        for (Path f : sources) {
            Path real = CudaScanRun.realPath(f);
            if (real == null || !run.listedIncluders.containsKey(real)) continue;
            BuildContext bc = run.ctx.buildContext(f);
            (bc.compiled() && bc.compiledVia() == null ? own : alone).add(run.ctx.relativize(f));
        }
        if (alone.isEmpty() && own.isEmpty()) return null;
        List<String> parts = new ArrayList<>();
        if (!alone.isEmpty())
            parts.add(alone.size() + " that no compile command of the build compiles through an include ("
                    + names(alone) + ")");
        if (!own.isEmpty())
            parts.add(own.size() + " that the build also compiles as units of their own, analyzed with their own"
                    + " commands (" + names(own) + ")");
        return new Notification(
                java.util.stream.Stream.concat(alone.stream(), own.stream())
                        .sorted()
                        .findFirst()
                        .get(),
                0,
                Level.NOTE,
                "source-alone",
                (alone.size() + own.size()) + " source file(s) that a scanned source #includes were analyzed on their"
                        + " own, not as an includer compiles them: " + String.join("; ", parts));
    }

    private static String names(List<String> files) {
        List<String> sorted = files.stream().sorted().toList();
        return String.join(", ", sorted.subList(0, Math.min(8, sorted.size()))) + (sorted.size() > 8 ? ", ..." : "");
    }

    /**
     * The findings and notices of a header's analysis in one context that fall on the lines only that context
     * makes active; file-wide notices (line 0) only when they say that something was not analyzed.
     */
    static final class LineFilter implements FindingSink {
        private static final Set<String> FILE_WIDE =
                Set.of("clang-not-parsed", "over-budget", "internal-error", "not-fully-evaluated");
        private final FindingSink to;
        private final BitSet lines;

        LineFilter(FindingSink to, BitSet lines) {
            this.to = to;
            this.lines = lines;
        }

        @Override
        public void report(Finding.Builder finding) {
            dev.numlint.model.Location l = finding.location();
            if (l != null && lines.get(l.startLine())) to.report(finding);
        }

        @Override
        public void notify(Notification n) {
            if (n.line() > 0 ? lines.get(n.line()) : FILE_WIDE.contains(n.id())) to.notify(n);
        }
    }
}
