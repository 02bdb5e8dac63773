package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.cuda.parser.CudaParser;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CommonToken;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ListTokenSource;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;

/**
 * The CUDA C/C++ source front end. Two levels: {@link Preprocessor} + {@link TopLevelSplitter} split each file
 * into declarations and function bodies by brace matching; each body is parsed by the ANTLR statement grammar
 * (SLL prediction first, full LL only when SLL fails) and analyzed by {@link FunctionAnalyzer}. A body the grammar
 * cannot parse loses only that function and is reported as a WARNING notification naming file, line and token.
 */
public final class CudaSourceAnalyzer implements Analyzer {
    private static final Set<String> EXTENSIONS = Set.of("cu", "cuh");
    private static final long MAX_BYTES = 8L << 20;
    /** Deeper nesting than this is generated code; the parser's recursion would be slow (and could overflow). */
    private static final int MAX_NESTING = 200;

    /** Counters for corpus runs and benchmarks. */
    public static final class Stats {
        public final AtomicLong files = new AtomicLong();
        public final AtomicLong lines = new AtomicLong();
        public final AtomicLong functions = new AtomicLong();
        public final AtomicLong sllParsed = new AtomicLong();
        public final AtomicLong llParsed = new AtomicLong();
        public final AtomicLong failed = new AtomicLong();
        public final Map<String, AtomicLong> findings = new ConcurrentHashMap<>();
        /** Nanoseconds in preprocessing+splitting, parsing, and rule analysis. */
        public final AtomicLong preNanos = new AtomicLong();
        public final AtomicLong parseNanos = new AtomicLong();
        public final AtomicLong ruleNanos = new AtomicLong();

        @Override
        public String toString() {
            return "files=" + files + " lines=" + lines + " functions=" + functions + " sll=" + sllParsed + " ll="
                    + llParsed + " failed=" + failed + " findings=" + new java.util.TreeMap<>(findings) + " ms(pre/parse/rules)="
                    + preNanos.get() / 1_000_000 + "/" + parseNanos.get() / 1_000_000 + "/" + ruleNanos.get() / 1_000_000;
        }
    }

    private final Stats stats = new Stats();

    public Stats stats() {
        return stats;
    }

    @Override public String id() { return "cuda-source"; }
    @Override public Layer layer() { return Layer.CUDA_SOURCE; }
    @Override public int phase() { return PHASE_KERNEL; }

    @Override
    public Set<String> implementedRules() {
        return Set.of("NL001", "NL002", "NL003", "NL004", "NL005", "NL006", "NL008", "NL009", "NL010", "NL011");
    }

    @Override
    public boolean accepts(Path file) {
        String n = file.getFileName() == null ? "" : file.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 && EXTENSIONS.contains(n.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    @Override
    public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
        Map<Path, HeaderInfo> cache = new ConcurrentHashMap<>();
        // Files are pulled from a shared queue by the calling thread and by helpers on the scan's pool, so the
        // scan never deadlocks when its pool is busy (the caller alone can finish the work).
        ConcurrentLinkedQueue<Path> queue = new ConcurrentLinkedQueue<>(files);
        Runnable worker = () -> {
            Path f;
            while ((f = queue.poll()) != null) {
                analyzeFile(ctx, f, sink, cache);
            }
        };
        int helpers = Math.min(files.size() - 1, Runtime.getRuntime().availableProcessors() - 1);
        List<AtomicBoolean> claimed = new ArrayList<>();
        List<CountDownLatch> done = new ArrayList<>();
        for (int i = 0; i < helpers; i++) {
            AtomicBoolean claim = new AtomicBoolean();
            CountDownLatch latch = new CountDownLatch(1);
            try {
                ctx.executor().execute(() -> {
                    if (!claim.compareAndSet(false, true)) return; // the caller finished without this helper
                    try {
                        worker.run();
                    } finally {
                        latch.countDown();
                    }
                });
            } catch (RuntimeException rejected) {
                break;
            }
            claimed.add(claim);
            done.add(latch);
        }
        try {
            worker.run();
        } finally {
            for (int i = 0; i < claimed.size(); i++) {
                if (claimed.get(i).compareAndSet(false, true)) continue; // never started: nothing left for it
                try {
                    done.get(i).await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Macros and declarations of a project header, cached per scan. */
    record HeaderInfo(Map<String, Preprocessor.Macro> macros, FileScope scope) {
    }

    /** Analyzes one file (never throws). */
    public void analyzeFile(ScanContext ctx, Path file, FindingSink sink, Map<Path, HeaderInfo> cache) {
        String rel = ctx.relativize(file);
        try {
            byte[] bytes;
            try {
                if (Files.size(file) > MAX_BYTES) {
                    sink.notify(new Notification(rel, 0, Level.ERROR, "file-too-large",
                            "not analyzed: larger than " + (MAX_BYTES >> 20) + " MiB"));
                    return;
                }
                bytes = Files.readAllBytes(file);
            } catch (IOException e) {
                sink.notify(new Notification(rel, 0, Level.ERROR, "unreadable-file", "not analyzed: " + e.getMessage()));
                return;
            }
            for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
                if (bytes[i] == 0) {
                    sink.notify(new Notification(rel, 0, Level.ERROR, "binary-file", "not analyzed: binary content"));
                    return;
                }
            }
            String text = new String(bytes, StandardCharsets.UTF_8);
            stats.files.incrementAndGet();
            stats.lines.addAndGet(countLines(text));
            BuildContext bc = ctx.buildContext(file);
            Map<String, Preprocessor.Macro> macros = new HashMap<>();
            List<Path> includeDirs = new ArrayList<>();
            commandLineMacros(bc, macros, includeDirs, file);
            FileScope scope = new FileScope();
            Set<Path> active = new HashSet<>();
            active.add(file.toAbsolutePath().normalize());
            Preprocessor pp = new Preprocessor(macros, (name, line) -> {
                HeaderInfo h = header(file, name, includeDirs, macros, cache, active);
                if (h != null) {
                    macros.putAll(h.macros());
                    scope.mergeFrom(h.scope());
                }
            });
            long t0 = System.nanoTime();
            List<PToken> toks = pp.run(text);
            TopLevelSplitter sp = new TopLevelSplitter(toks, scope, true);
            sp.split();
            stats.preNanos.addAndGet(System.nanoTime() - t0);
            Reporter rep = new Reporter(ctx, sink, file, bc);
            for (TopLevelSplitter.LongDoubleDecl ld : sp.longDoubles) {
                if (rep.enabled("NL005")) {
                    rep.report("NL005", ld.line(), null, "long double " + ld.what() + " in host code: x86 evaluates it in "
                            + "80-bit x87 extended precision while the GPU rounds every operation to 64 bits (nvcc treats "
                            + "long double as double in device code), so CPU and GPU results differ", "long double " + ld.what(),
                            dev.numlint.model.Confidence.HIGH, null);
                }
            }
            for (TopLevelSplitter.FunctionDef f : sp.functions) {
                stats.functions.incrementAndGet();
                analyzeFunction(ctx, rel, scope, f, toks, rep, sink);
            }
            rep.counts.forEach((k, v) -> stats.findings.computeIfAbsent(k, x -> new AtomicLong()).addAndGet(v));
        } catch (StackOverflowError | RuntimeException e) {
            sink.notify(new Notification(rel, 0, Level.ERROR, "internal-error", "CUDA source analysis failed: " + e));
        }
    }

    private static long countLines(String s) {
        long n = 1;
        for (int i = 0; i < s.length(); i++) if (s.charAt(i) == '\n') n++;
        return n;
    }

    private static void commandLineMacros(BuildContext bc, Map<String, Preprocessor.Macro> macros, List<Path> dirs, Path file) {
        Preprocessor tmp = new Preprocessor(macros, null);
        List<String> flags = bc.nvccFlags();
        for (int i = 0; i < flags.size(); i++) {
            String fl = flags.get(i);
            if (fl.startsWith("-D") && fl.length() > 2) {
                String d = fl.substring(2);
                int eq = d.indexOf('=');
                tmp.run("#define " + (eq < 0 ? d + " 1" : d.substring(0, eq) + " " + d.substring(eq + 1)) + "\n");
            } else if (fl.startsWith("-I") && fl.length() > 2) {
                Path p = Path.of(fl.substring(2));
                dirs.add(p.isAbsolute() ? p : file.getParent() == null ? p : file.getParent().resolve(p));
            }
        }
    }

    private HeaderInfo header(Path from, String name, List<Path> dirs, Map<String, Preprocessor.Macro> macros,
            Map<Path, HeaderInfo> cache, Set<Path> active) {
        Path found = null;
        Path dir = from.toAbsolutePath().getParent();
        if (dir != null && Files.isRegularFile(dir.resolve(name))) found = dir.resolve(name);
        for (int i = 0; found == null && i < dirs.size(); i++) {
            if (Files.isRegularFile(dirs.get(i).resolve(name))) found = dirs.get(i).resolve(name);
        }
        if (found == null) return null;
        found = found.toAbsolutePath().normalize();
        if (active.contains(found) || active.size() > 32) return null;
        HeaderInfo h = cache.get(found);
        if (h != null) return h;
        String text;
        try {
            if (Files.size(found) > MAX_BYTES) return null;
            text = new String(Files.readAllBytes(found), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        active.add(found);
        Map<String, Preprocessor.Macro> hm = new HashMap<>(macros);
        FileScope hs = new FileScope();
        Path headerPath = found;
        Preprocessor pp = new Preprocessor(hm, (n, line) -> {
            HeaderInfo inner = header(headerPath, n, dirs, hm, cache, active);
            if (inner != null) {
                hm.putAll(inner.macros());
                hs.mergeFrom(inner.scope());
            }
        });
        List<PToken> toks = pp.run(text);
        new TopLevelSplitter(toks, hs, false).split();
        active.remove(found);
        // keep only what the header (and its includes) defined, not a copy of the includer's macro table
        Map<String, Preprocessor.Macro> own = new HashMap<>();
        for (Map.Entry<String, Preprocessor.Macro> e : hm.entrySet()) {
            if (macros.get(e.getKey()) != e.getValue()) own.put(e.getKey(), e.getValue());
        }
        h = new HeaderInfo(own, hs);
        cache.put(found, h);
        return h;
    }

    private void analyzeFunction(ScanContext ctx, String rel, FileScope scope, TopLevelSplitter.FunctionDef f,
            List<PToken> toks, Reporter rep, FindingSink sink) {
        List<PToken> body = new ArrayList<>(f.bodyEnd - f.bodyStart + 2);
        int depth = 0;
        for (int i = f.bodyStart; i <= f.bodyEnd; i++) {
            PToken t = toks.get(i);
            int ty = t.getType();
            if (ty == CudaLexer.LPAREN || ty == CudaLexer.LBRACKET || ty == CudaLexer.LBRACE) {
                if (++depth > MAX_NESTING) {
                    stats.failed.incrementAndGet();
                    sink.notify(new Notification(rel, t.getLine(), Level.WARNING, "parse-error", "function '" + f.name
                            + "' (line " + f.line + ") not analyzed: brackets nested deeper than " + MAX_NESTING
                            + " at line " + t.getLine() + "; the rest of the file was analyzed"));
                    return;
                }
            } else if (ty == CudaLexer.RPAREN || ty == CudaLexer.RBRACKET || ty == CudaLexer.RBRACE) {
                depth--;
            }
            t.setTokenIndex(body.size());
            body.add(t);
        }
        PToken last = body.get(body.size() - 1);
        PToken eof = new PToken(Token.EOF, "<EOF>", last.getLine(), 0, Set.of(), null);
        eof.setTokenIndex(body.size());
        body.add(eof);
        CudaParser.FunctionBodyContext tree;
        long t0 = System.nanoTime();
        CudaParser p = new CudaParser(new CommonTokenStream(new ListTokenSource(new ArrayList<CommonToken>(body))));
        p.setTypeNames(n -> scope.isTypeName(n) || f.templateParams.contains(n));
        p.removeErrorListeners();
        p.setErrorHandler(new BailErrorStrategy());
        p.getInterpreter().setPredictionMode(PredictionMode.SLL);
        try {
            tree = p.functionBody();
            stats.sllParsed.incrementAndGet();
        } catch (ParseCancellationException sllFailure) {
            p = new CudaParser(new CommonTokenStream(new ListTokenSource(new ArrayList<CommonToken>(body))));
            p.setTypeNames(n -> scope.isTypeName(n) || f.templateParams.contains(n));
            p.removeErrorListeners();
            p.setErrorHandler(new BailErrorStrategy());
            p.getInterpreter().setPredictionMode(PredictionMode.LL);
            try {
                tree = p.functionBody();
                stats.llParsed.incrementAndGet();
            } catch (ParseCancellationException e) {
                stats.failed.incrementAndGet();
                Token bad = e.getCause() instanceof RecognitionException
                        ? ((RecognitionException) e.getCause()).getOffendingToken() : p.getCurrentToken();
                String near = bad == null ? "?" : bad.getType() == Token.EOF ? "end of function" : "'" + bad.getText() + "'";
                int line = bad == null ? f.line : bad.getLine();
                sink.notify(new Notification(rel, line, Level.WARNING, "parse-error", "function '" + f.name
                        + "' (line " + f.line + ") not analyzed: construct not understood near " + near + " at line "
                        + line + "; the rest of the file was analyzed"));
                return;
            }
        } catch (StackOverflowError e) {
            stats.failed.incrementAndGet();
            sink.notify(new Notification(rel, f.line, Level.WARNING, "parse-error", "function '" + f.name
                    + "' not analyzed: nesting too deep"));
            return;
        }
        long t1 = System.nanoTime();
        stats.parseNanos.addAndGet(t1 - t0);
        new FunctionAnalyzer(rep, scope, f, body).analyze(tree);
        stats.ruleNanos.addAndGet(System.nanoTime() - t1);
    }
}
