package dev.numlint.ptx;

import dev.numlint.knowledge.WrittenCode;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.model.Operation;
import dev.numlint.ptx.PtxAnalyzer.SourceCache;
import dev.numlint.ptx.facts.Consequences.Consequence;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.DebugLoc;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.model.PtxModule;
import dev.numlint.ptx.model.SourcePos;
import dev.numlint.ptx.parser.PtxReader;
import dev.numlint.ptx.rules.PtxHit;
import dev.numlint.ptx.rules.PtxRules;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.rules.RulePolicy;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import dev.numlint.util.Demangler;
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
 * Turns PTX text into findings: parses it, runs the PTX checks over every function and maps each hit to the CUDA
 * source position where the operation is written.
 *
 * <p>One finding per rule and source position: the copies of an inlined helper at every call site and the
 * instances of a template merge into one finding at the line where the operation is written, with the call sites
 * as related locations. Different operations of one rule on one line (an {@code __expf} and a {@code __cosf}, atomics
 * into two arrays) stay separate findings. Instructions whose own position is in a toolkit or system header (the
 * math library, CUB, Thrust) are the library's, not the programmer's: they are reported only for rules whose hazard
 * is the call itself (a conversion, an atomic, a tensor-core operation, flush-to-zero), at the user's call site,
 * and marked {@code libraryCode} so that they never count as confirming a source finding.
 */
final class PtxFindings {
    /** The rule's policy (catalog): whether a header routine's call is the hazard, whether operations differ. */
    private static RulePolicy policy(String ruleId) {
        return RuleCatalog.get().policy(ruleId);
    }

    private static final int MAX_CALL_SITES = 10;

    private final ScanContext ctx;
    private final Path ptxFile;
    private final Path cuFile;
    private final Map<Integer, String> files;
    private final Map<Integer, Path> fileIndex;
    private final SourceCache sources;
    private final Map<String, Entry> out = new LinkedHashMap<>();
    private final Map<String, Integer> ordinals = new HashMap<>();
    /** Whether some function of the module has a line ({@code -G}, {@code -lineinfo}): see {@link #report}. */
    private boolean located;

    /** Whether some instruction of {@code fn} has a source line. */
    private static boolean hasLine(PtxFunction fn) {
        for (Instruction in : fn.instructions()) {
            if (in.loc() != null && in.loc().pos().line() > 0) return true;
        }
        return false;
    }

    private static final class Entry {
        final Finding.Builder builder;
        final Set<Location> callSites = new java.util.LinkedHashSet<>();
        final Set<Integer> siteLines = new HashSet<>();
        Impact.Kind kind;
        int instances = 1;
        /** The function (mangled) of the occurrence shown, and the gravest kind of each function's occurrences. */
        String shownFunction;

        final Map<String, Integer> kinds = new HashMap<>();

        /** Records an occurrence's function and kind (null: not classified, the least grave). */
        void occurrence(String function, Impact.Kind k) {
            int rank = k == null ? Impact.Kind.values().length : k.ordinal();
            kinds.merge(function, rank, Math::min);
        }

        Entry(Finding.Builder builder, Impact.Kind kind) {
            this.builder = builder;
            this.kind = kind;
        }
    }

    private PtxFindings(
            ScanContext ctx,
            Path ptxFile,
            Path cuFile,
            Map<Integer, String> files,
            Map<Integer, Path> fileIndex,
            SourceCache sources) {
        this.ctx = ctx;
        this.ptxFile = ptxFile;
        this.cuFile = cuFile;
        this.files = files;
        this.fileIndex = fileIndex;
        this.sources = sources;
    }

    static void analyzeText(
            ScanContext ctx,
            FindingSink sink,
            String text,
            Path ptxFile,
            Path cuFile,
            BuildContext bc,
            SourceCache sources) {
        Path shownFile = cuFile != null ? cuFile : ptxFile;
        String rel = ctx.relativize(shownFile);
        PtxReader.Result res = PtxReader.read(text);
        if (res.failed()
                || (res.module().functions().isEmpty() && !res.problems().isEmpty())) {
            PtxReader.Problem p = res.problems().get(0);
            sink.notify(new Notification(
                    rel,
                    cuFile == null ? p.line() : 0,
                    Level.ERROR,
                    "parse-error",
                    "not valid PTX: " + p.message() + " at '" + p.token() + "' (PTX line " + p.line() + ")"));
            return;
        }
        if (!res.problems().isEmpty()) {
            Set<String> reported = new HashSet<>();
            for (PtxReader.Problem p : res.problems()) {
                String fn = p.function();
                String key = fn == null ? "line" + p.line() : fn;
                if (!reported.add(key) || reported.size() > 20) {
                    continue;
                }
                sink.notify(new Notification(
                        rel,
                        cuFile == null ? p.line() : 0,
                        Level.WARNING,
                        "parse-error",
                        "PTX syntax error at line " + p.line() + " near '" + p.token() + "': " + p.message()
                                + (res.skippedFunctions().isEmpty()
                                        ? ""
                                        : "; skipped functions: "
                                                + String.join(
                                                        ", ",
                                                        res.skippedFunctions().stream()
                                                                .limit(5)
                                                                .toList()))));
            }
        }
        PtxModule m = res.module();
        Path ptxDir = ptxFile.toAbsolutePath().getParent();
        Map<Integer, Path> fileIndex = new HashMap<>();
        dev.numlint.spi.TrustBoundary boundary = PtxAnalyzer.boundary(ctx);
        for (Map.Entry<Integer, String> e : m.files().entrySet()) {
            Path p = resolveSource(e.getValue(), ptxDir, ctx.root(), cuFile, boundary);
            if (p != null) {
                fileIndex.put(e.getKey(), p);
            }
        }
        if (cuFile == null && staleness(ctx, sink, ptxFile, m, fileIndex, sources)) {
            return; // its lines name other code now: findings there would be at the wrong places
        }
        // the lines the compiler emitted code for, and those with FP64 code: nvcc decides what is double
        CompiledLines.report(ctx, m, fileIndex, cuFile == null ? null : rel);
        UnitFloatOps.report(ctx, cuFile, m, fileIndex);
        PtxFacts.Settings settings = new PtxFacts.Settings(
                minTripCount(ctx),
                bc != null && bc.effectiveFastMath(),
                loc -> {
                    // the line where the operation is written: the innermost position in user code
                    SourcePos u = writtenPos(loc, m.files());
                    Path p = u == null ? null : fileIndex.get(u.fileIndex());
                    return p == null ? null : sources.line(p, u.line());
                },
                loc -> writtenPos(loc, m.files()),
                PtxFacts.builtWithoutContraction(m.definedFunctions()) || bc != null && !bc.effectiveFmad(),
                bc != null && !bc.effectivePrecDiv(),
                bc != null && !bc.effectivePrecSqrt());
        PtxFindings findings = new PtxFindings(ctx, ptxFile, cuFile, m.files(), fileIndex, sources);
        findings.located = m.definedFunctions().stream().anyMatch(PtxFindings::hasLine);
        long budgetMs = fileBudgetMs();
        long deadline = dev.numlint.model.CpuClock.now() + budgetMs * 1_000_000L;
        List<PtxFunction> functions = m.definedFunctions();
        for (int i = 0; i < functions.size(); i++) {
            PtxFunction fn = functions.get(i);
            if (LibraryCode.isLibraryFunction(fn.name())) {
                continue;
            }
            if (dev.numlint.model.CpuClock.now() - deadline > 0) {
                sink.notify(new Notification(
                        rel,
                        0,
                        Level.WARNING,
                        "ptx-budget",
                        "not fully analyzed: the PTX "
                                + "layer's budget of " + budgetMs + " ms per file was used up after " + i + " of "
                                + functions.size() + " functions; the rest (from " + Demangler.simpleName(fn.name())
                                + ") was skipped"));
                break;
            }
            for (PtxHit h : PtxRules.check(fn, settings, id -> ctx.rules().enabled(id))) {
                findings.report(h);
            }
        }
        findings.out.values().forEach(e -> {
            String named = PtxInstantiations.named(e.shownFunction, e.kinds, e.builder.message());
            if (named != null) e.builder.message(named);
            // the call sites the instruction's function was inlined at: where a moved instruction may be written
            Identity id = e.builder.identity();
            Boolean holds = id.origin() == null ? null : id.origin().lineHoldsOperation();
            List<Location> candidates =
                    id.origin() == null ? List.of() : id.origin().candidates();
            e.builder.identity(id.withOrigin(new Identity.Origin(holds, List.copyOf(e.callSites), candidates)));
            sink.report(e.builder);
        });
    }

    /**
     * A checked-in .ptx that no longer matches a source file its debug information names (inside the scan root): its
     * findings could point at the wrong lines. Said once per .ptx file. The evidence is the content, not file times
     * (in a git checkout a file's modification time is when it was checked out, not when it was edited, so times
     * report fresh clones and branch switches as stale and miss real edits): every {@code .loc} names a line and the
     * column where an operation starts, so in a matching source the line exists and a token starts at that column.
     * A {@code .loc} past the end of the file, past the end of its line, or at a blank is a source that changed
     * after the .ptx was generated (lines inserted, deleted or re-indented). Measured on 19,745 {@code .loc} entries
     * of freshly compiled PTX (Rodinia, TIGRE, the examples): none points at a blank; inserting one line at the top
     * of the example kernel makes 8 of its 80 point at blanks or past a line's end. A stale .ptx gives only this
     * notice, no findings: its positions name other code now (an error on a closing brace).
     *
     * @return whether the notice was given
     */
    static boolean staleness(
            ScanContext ctx,
            FindingSink sink,
            Path ptxFile,
            PtxModule module,
            Map<Integer, Path> fileIndex,
            SourceCache sources) {
        Path root = ctx.root().toAbsolutePath().normalize();
        Map<Integer, Boolean> checkable = new HashMap<>();
        for (PtxFunction fn : module.definedFunctions()) {
            for (Instruction in : fn.instructions()) {
                DebugLoc loc = in.loc();
                if (loc == null) continue;
                List<SourcePos> positions = new ArrayList<>();
                positions.add(loc.pos());
                positions.addAll(loc.inlinedAt());
                for (SourcePos pos : positions) {
                    Path src = pos == null ? null : fileIndex.get(pos.fileIndex());
                    if (src == null || pos.line() <= 0) continue;
                    Path a = src.toAbsolutePath().normalize();
                    if (!checkable.computeIfAbsent(
                            pos.fileIndex(), k -> a.startsWith(root) && sources.lineCount(a) > 0)) continue;
                    String why = mismatch(sources, a, pos);
                    if (why != null) {
                        sink.notify(new Notification(
                                ctx.relativize(ptxFile),
                                0,
                                Level.WARNING,
                                "ptx-stale",
                                ctx.relativize(ptxFile) + " does not match " + ctx.relativize(a) + " (" + why
                                        + "): not analyzed; regenerate it or delete it"));
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Why {@code pos} cannot be a position in the current {@code src}, or null when it can. */
    static String mismatch(SourceCache sources, Path src, SourcePos pos) {
        int count = sources.lineCount(src);
        if (pos.line() > count) {
            return "line " + pos.line() + " is past its end";
        }
        if (pos.column() <= 0) return null;
        // .loc columns count bytes
        byte[] line = sources.line(src, pos.line()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int i = pos.column() - 1;
        if (i >= line.length || line[i] == ' ' || line[i] == '\t') {
            return "nothing at line " + pos.line() + ", column " + pos.column();
        }
        return null;
    }

    /**
     * The PTX layer's time budget per file (property {@code numlint.ptx.fileBudgetMs}, default 120 s): functions
     * not reached within it are skipped with a "not fully analyzed" notice, so one hostile file cannot stall a scan.
     */
    static long fileBudgetMs() {
        return Math.max(0, Long.getLong("numlint.ptx.fileBudgetMs", 120_000L));
    }

    /**
     * Where the operation is written in user code: the .loc position itself when it is user code, else the
     * innermost call site in the inlined_at chain that is user code (the user's call of a header function); null
     * when everything is library code.
     */
    static SourcePos writtenPos(DebugLoc loc, Map<Integer, String> files) {
        if (loc == null) {
            return null;
        }
        if (!LibraryCode.isSystemPath(files.get(loc.pos().fileIndex()))) {
            return loc.pos();
        }
        for (SourcePos p : loc.inlinedAt()) {
            if (!LibraryCode.isSystemPath(files.get(p.fileIndex()))) {
                return p;
            }
        }
        return null;
    }

    /** The outermost call site in user code (the kernel's own line) when the instruction was inlined, else null. */
    static SourcePos outermostCallSite(DebugLoc loc, Map<Integer, String> files) {
        if (loc == null || loc.inlinedAt().isEmpty()) {
            return null;
        }
        List<SourcePos> chain = loc.inlinedAt();
        for (int i = chain.size() - 1; i >= 0; i--) {
            if (!LibraryCode.isSystemPath(files.get(chain.get(i).fileIndex()))) {
                return chain.get(i);
            }
        }
        return null;
    }

    /**
     * The debug location of the hit's instruction; when it has none or only line 0 (compiler-generated code between
     * statements), the nearest located instruction among the hit's related instructions, then before it in the
     * function, so the finding never lands on line 1 of the source by default.
     */
    static DebugLoc locatedLoc(PtxHit h) {
        DebugLoc own = h.at().loc();
        if (own != null && own.pos().line() > 0) {
            return own;
        }
        if (h.related() != null) {
            for (Instruction r : h.related()) {
                if (r.loc() != null && r.loc().pos().line() > 0) {
                    return r.loc();
                }
            }
        }
        List<Instruction> ins = h.function().instructions();
        for (int i = ins.indexOf(h.at()) - 1; i >= 0; i--) {
            DebugLoc l = ins.get(i).loc();
            if (l != null && l.pos().line() > 0) {
                return l;
            }
        }
        return own;
    }

    /** How far {@link #firstLocatedUse} follows a value through instructions without line information. */
    private static final int MAX_USE_STEPS = 64;

    /**
     * The debug location of the first instruction with a line that uses the value the hit's instructions compute
     * (through other instructions without one), or null. nvcc gives loop-invariant arithmetic it hoists out of a loop
     * line 0 (no line); the line before it in the PTX is then the loop's header, which shows no arithmetic, while the
     * use of the value is in the code the arithmetic was written in (often a function inlined into the loop).
     */
    static DebugLoc firstLocatedUse(PtxHit h) {
        List<Instruction> start = new ArrayList<>();
        start.add(h.at());
        if (h.related() != null) start.addAll(h.related());
        java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>();
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (Instruction i : start) {
            if (seen.add(i.index())) work.add(i.index());
        }
        var du = h.function().defUse();
        int steps = 0;
        DebugLoc best = null;
        int bestIndex = Integer.MAX_VALUE;
        while (!work.isEmpty() && steps++ < MAX_USE_STEPS) {
            int cur = work.poll();
            for (int u : du.users(cur)) {
                if (!seen.add(u)) continue;
                Instruction x = h.function().instruction(u);
                DebugLoc l = x.loc();
                if (l != null && l.pos().line() > 0) {
                    if (u < bestIndex) { // the use that comes first in the function
                        best = l;
                        bestIndex = u;
                    }
                } else {
                    work.add(u);
                }
            }
        }
        return best;
    }

    /**
     * {@code loc}, or the first use of the hit's value ({@link #firstLocatedUse}) when the hit's instructions have no
     * line and {@code loc} (the line before them) cannot hold a product: no {@code *} on it (a loop header). A line
     * with a product may be the statement the hoisted arithmetic was written in (its loads come first) and stays,
     * unless the use lies in a function inlined deeper than that line (session 26's defect 11: a library's
     * grid-stride loop {@code i += blockDim.x * gridDim.x} and the user's functor it calls, whose invariant double
     * arithmetic nvcc hoists out of the loop: every functor's landed on the library's line, merged).
     */
    private DebugLoc atUse(PtxHit h, DebugLoc loc) {
        if (!withoutLine(h) || loc == null) return loc;
        DebugLoc use = firstLocatedUse(h);
        if (use != null && use.inlinedAt().size() > loc.inlinedAt().size()) {
            // hoisted out of a function inlined into the loop (a functor a library's grid-stride kernel template
            // calls): the line before it is the caller's (its loop, whatever it shows), the use is where it was written
            return use;
        }
        SourcePos p = writtenPos(loc, files);
        Path f = p == null ? null : fileIndex.get(p.fileIndex());
        String text = f == null ? null : sources.line(f, p.line());
        if (text == null || text.contains("*")) return loc;
        return use != null ? use : loc;
    }

    /** Whether neither the hit's instruction nor its related ones carry a line. */
    private static boolean withoutLine(PtxHit h) {
        DebugLoc own = h.at().loc();
        if (own != null && own.pos().line() > 0) return false;
        if (h.related() != null) {
            for (Instruction r : h.related()) {
                if (r.loc() != null && r.loc().pos().line() > 0) return false;
            }
        }
        return true;
    }

    /** Whether the hit's own instruction and its related ones have no line, so {@link #atUse} placed it at a use. */
    static boolean placedAtUse(PtxHit h, DebugLoc loc) {
        DebugLoc own = h.at().loc();
        if (own != null && own.pos().line() > 0 || loc == null) return false;
        if (h.related() != null) {
            for (Instruction r : h.related()) {
                if (r.loc() != null && r.loc().pos().line() > 0) return false;
            }
        }
        return loc == firstLocatedUse(h);
    }

    /**
     * The source file a PTX {@code .file} entry names, when it exists inside the scanned roots (symlinks resolved);
     * null otherwise. A .file entry (or a {@code #line} directive behind it) naming a file elsewhere, such as
     * {@code /etc/passwd} or a toolkit header, is never read: nothing from outside the roots may reach a report. Nor
     * is a file inside them that is no source ({@code .git/config}, {@code /proc/self/environ} when the scan starts
     * at {@code /}): the scan's {@link dev.numlint.spi.TrustBoundary} decides.
     */
    static Path resolveSource(
            String written, Path ptxDir, Path root, Path cuFile, dev.numlint.spi.TrustBoundary boundary) {
        if (written == null || written.isEmpty()) return null;
        try {
            Path p = Path.of(written);
            List<Path> candidates = new ArrayList<>();
            if (p.isAbsolute()) {
                candidates.add(p);
            } else {
                for (Path base : new Path[] {
                    cuFile == null ? null : cuFile.toAbsolutePath().getParent(), ptxDir, root
                }) {
                    if (base != null) candidates.add(base.resolve(p));
                }
            }
            for (Path q : candidates) {
                if (!Files.isRegularFile(q)) continue;
                return boundary.readable(q) != null ? q.normalize() : null;
            }
        } catch (RuntimeException e) {
            return null;
        }
        return null;
    }

    private Location locationOf(SourcePos pos) {
        Path srcFile = pos == null ? null : fileIndex.get(pos.fileIndex());
        if (srcFile != null) {
            return Location.of(ctx.relativize(srcFile), pos.line(), Math.max(0, pos.column()));
        }
        if (cuFile != null && pos != null) {
            return Location.line(ctx.relativize(cuFile), pos.line());
        }
        return null;
    }

    private void report(PtxHit h) {
        Instruction in = h.at();
        DebugLoc loc = atUse(h, locatedLoc(h));
        SourcePos written = writtenPos(loc, files);
        // toolkit/system header code (math library, CUB, Thrust), or a routine of it a -G build emits on its own: a
        // math routine by its name, or any function without a line in a module whose other functions have lines
        // (session 72 round D: the float atomicAdd's __fAtomicAdd of a -G build, an NL009 warning at line 1 of the
        // unit beside the source layer's at the call)
        if (loc != null && written == null
                || loc == null && (ToolkitRoutines.is(h.function().name()) || located && !hasLine(h.function())))
            return;
        boolean libraryCode =
                loc != null && LibraryCode.isSystemPath(files.get(loc.pos().fileIndex()));
        if (libraryCode && !policy(h.ruleId()).ptxCallIsHazard()) {
            return; // an operation inside a header routine: the library's, not the programmer's expression
        }
        Location ptxLoc = Location.line(ctx.relativize(ptxFile), in.ptxLine());
        SourcePos shownAt = written;
        written = new FoldedConstants(files, fileIndex, sources).writtenAt(h, loc, written);
        Location primary = locationOf(written);
        Path srcFile = written == null ? null : fileIndex.get(written.fileIndex());
        String srcLine = srcFile == null ? null : sources.line(srcFile, written.line());
        if (primary == null) {
            primary = cuFile != null ? Location.line(ctx.relativize(cuFile), 1) : ptxLoc;
        }
        SourcePos outer = outermostCallSite(loc, files);
        Location callSite = outer == null || outer.equals(written) ? null : locationOf(outer);
        // different operations written on one line are different findings; an operation written in a helper that is
        // inlined at several call sites is one written operation, whatever each caller passes (its accumulation
        // target): one finding, its other call sites related and counted
        String operation = !policy(h.ruleId()).ptxPerOperation()
                ? ""
                : callSite == null ? "|" + h.shape() : "|inlined|" + Operation.computedBy(in.opcode());
        String dedupe = h.ruleId() + "|" + primary.file() + "|"
                + (srcFile != null || cuFile != null
                        ? "line" + primary.startLine()
                        : written != null ? "loc" + written.fileIndex() + ":" + written.line() : "i" + in.ptxLine())
                + operation;
        Entry prev = out.get(dedupe);
        Impact impact = impact(h, loc);
        if (prev != null) {
            addSites(prev, h, primary);
            prev.occurrence(h.function().name(), impact == null ? null : impact.kind());
            prev.instances++;
            prev.builder.property("instances", prev.instances);
            if (callSite != null && prev.callSites.size() < MAX_CALL_SITES && prev.callSites.add(callSite)) {
                prev.builder.related(
                        callSite,
                        "also inlined here ("
                                + Demangler.simpleName(h.function().name()) + ")");
            }
            if (impact != null && (prev.kind == null || impact.kind().compareTo(prev.kind) < 0)) {
                // the more consequential occurrence is the one shown: its message, instructions and evidence agree
                prev.kind = impact.kind();
                prev.shownFunction = h.function().name();
                prev.builder
                        .impact(impact)
                        .message(shown(h, impact, loc))
                        .property("mangledName", h.function().name())
                        .property("ptxLine", in.ptxLine())
                        .property("ptxInstruction", in.text())
                        .identity(identity(h, impact, srcLine, origin(h, written, srcLine))
                                .withLibraryCode(prev.builder.identity().libraryCode()))
                        .clearEvidence();
                evidence(prev.builder, h, primary, ptxLoc, srcLine);
            }
            return;
        }
        String fnName = h.function().name();
        Finding.Builder b = Finding.builder(h.ruleId())
                .location(primary)
                .message(shown(h, impact, loc))
                .layer(Layer.PTX)
                .confidence(h.confidence())
                .function(Demangler.simpleName(fnName))
                .property("mangledName", fnName)
                .property("ptxLine", in.ptxLine())
                .property("ptxInstruction", in.text())
                .impact(impact)
                .identity(identity(h, impact, srcLine, origin(h, written, srcLine)));
        if (libraryCode) {
            b.property("libraryCode", true).identity(b.identity().withLibraryCode(true));
        }
        evidence(b, h, primary, ptxLoc, srcLine);
        if (shownAt != written && shownAt != null) {
            Location inCallee = locationOf(shownAt);
            if (inCallee != null) {
                b.related(inCallee, dev.numlint.rules.RuleCatalog.get().phrase("ptx-line-inlined-argument"));
            }
        }
        if (cuFile == null && primary != ptxLoc) {
            b.related(ptxLoc, "emitted as `" + in.text() + "`");
        }
        Entry e = new Entry(b, impact == null ? null : impact.kind());
        e.shownFunction = fnName;
        e.occurrence(fnName, e.kind);
        e.siteLines.add(primary.startLine());
        addSites(e, h, primary);
        if (callSite != null) {
            e.callSites.add(callSite);
            b.related(callSite, "inlined here (" + Demangler.simpleName(fnName) + ")");
        }
        String shapeText = srcLine != null ? srcLine.strip().replaceAll("\\s+", " ") : h.shape();
        String key = h.ruleId() + "|" + fnName + "|" + h.shape() + "|" + shapeText;
        int ord = ordinals.merge(key, 1, Integer::sum);
        b.fingerprintKey(key + (ord > 1 ? "#" + ord : ""));
        out.put(dedupe, e);
    }

    /** The hit's instruction, the instructions of the same hazard and the source line, as evidence. */
    private void evidence(Finding.Builder b, PtxHit h, Location primary, Location ptxLoc, String srcLine) {
        Instruction in = h.at();
        b.evidence(new Evidence("ptx", in.text(), cuFile != null || primary == ptxLoc ? null : ptxLoc));
        for (Instruction r : h.related()) {
            b.evidence(new Evidence(
                    "ptx", r.text(), cuFile != null ? null : Location.line(ctx.relativize(ptxFile), r.ptxLine())));
        }
        if (srcLine != null) {
            b.evidence(Evidence.source(srcLine.strip()));
        }
    }

    /** The hit's other instructions of the same hazard (an accumulator's other updates) as related locations. */
    private void addSites(Entry e, PtxHit h, Location primary) {
        for (Instruction site : h.sites()) {
            SourcePos sp = writtenPos(site.loc(), files);
            Location sl = sp == null || sp.line() <= 0 ? null : locationOf(sp);
            if (sl != null && sl.file().equals(primary.file()) && e.siteLines.add(sl.startLine())) {
                e.builder.related(sl, dev.numlint.rules.RuleCatalog.get().phrase("ptx-also-accumulated"));
            }
        }
    }

    /** The last component of a location's file ({@code src/monin_obukhov.h}: {@code monin_obukhov.h}). */
    private static String fileName(String file) {
        int slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
        return file.substring(slash + 1);
    }

    /** The hit's consequence as an Impact with the sink's source location, or null when not classified. */
    private Impact impact(PtxHit h, DebugLoc shownAt) {
        Consequence c = h.consequence();
        if (c == null) {
            return null;
        }
        Location sink = null;
        if (c.sink() != null && c.sink().loc() != null) {
            sink = locationOf(writtenPos(c.sink().loc(), files));
        }
        // the line the finding is shown at (code without a line: the use it was moved to)
        Location own = shownAt == null ? null : locationOf(writtenPos(shownAt, files));
        boolean sameLine =
                sink != null && own != null && own.file().equals(sink.file()) && own.startLine() == sink.startLine();
        // a sink on the hazard's own line is "on this line", not a line number that reads like another place; a sink
        // in another file (an inlined header function's test) names its file, else the line reads as one of the
        // finding's own file
        var catalog = dev.numlint.rules.RuleCatalog.get();
        String what = c.what()
                + (sink == null
                        ? ""
                        : " "
                                + (sameLine
                                        ? catalog.phrase("ptx-sink-here")
                                        : own != null && !own.file().equals(sink.file())
                                                ? catalog.phrase(
                                                        "ptx-sink-other-file",
                                                        "line",
                                                        sink.startLine(),
                                                        "file",
                                                        fileName(sink.file()))
                                                : catalog.phrase("ptx-sink-line", "line", sink.startLine())));
        Impact i = new Impact(c.kind(), what, sink, null, c.reach());
        if (c.kind() == Impact.Kind.GROWING && "f32".equals(h.at().type())) {
            i = i.withErrorBound("(n-1)*2^-24 relative to the sum of |terms| for n terms");
        } else if (c.kind() == Impact.Kind.GROWING && "f64".equals(h.at().type())) {
            i = i.withErrorBound("(n-1)*2^-53 relative to the sum of |terms| for n terms");
        }
        return i;
    }

    /**
     * The hit's typed identity: opcode, source operations, accumulator, decision, the hazard independently of the
     * build (the message without its instructions: add.rn.f32 and add.rn.ftz.f32 of two builds are one hazard), the
     * origin (can the line hold the operation; call sites are added when reported), and the check's judgement.
     */
    private static Identity identity(PtxHit h, Impact impact, String srcLine, Identity.Origin origin) {
        // the message this layer composes, rendered from the check's template with its instructions left empty
        String hazard = withConsequence(h, h.message().withoutInstructions(), impact);
        String opcode = h.at().opcode();
        return Identity.NONE
                .withInstruction(opcode)
                .withOperations(Operation.computedBy(opcode))
                .withAccumulator(WrittenCode.updatedVariable(srcLine))
                .withDecision(h.decision())
                .withHazard(hazard)
                .withOrigin(origin)
                .withCode(WrittenCode.tokens(srcLine))
                .withSymbol(h.function().name())
                .withSum(sum(h))
                .withJudgement(h.judgement());
    }

    /**
     * The loop-carried sum of a hit of a rule whose policy merges accumulators: the type it is computed in (from the
     * instruction's type, {@code f32} or {@code f64}); the loop is not typed at this layer. Null for other rules.
     */
    private static Identity.Sum sum(PtxHit h) {
        if (!policy(h.ruleId()).mergeAccumulators()) return null;
        String t = h.at().type();
        String type = "f32".equals(t) ? "float" : "f64".equals(t) ? "double" : null;
        return type == null ? null : new Identity.Sum(type, null);
    }

    /**
     * Whether the written line {@code srcLine} at {@code written} can hold the hit's operation, the construct its
     * rule's policy names ({@code relocate-ptx}; the opcode's own, a division or a conversion, for other rules); a
     * construct a declared type can bring (double math) is also held where one of the hit's instructions loads data
     * on that line. When it cannot, the lines of the hit's other instructions below it (and of the use its
     * consequence names) that can are the candidates where the operation is written (a loop-invariant hoisted from
     * its statement to the loop's header).
     */
    private Identity.Origin origin(PtxHit h, SourcePos written, String srcLine) {
        if (srcLine == null) {
            return new Identity.Origin(null, List.of());
        }
        WrittenCode.Construct c = policy(h.ruleId()).relocatePtx();
        if (c == null) {
            return new Identity.Origin(WrittenCode.mayHold(h.at().opcode(), srcLine), List.of());
        }
        boolean holds = WrittenCode.mayHold(c, srcLine) || c.spansLines() && continued(written);
        List<Location> candidates = new ArrayList<>();
        List<Instruction> others = new ArrayList<>(h.related());
        if (h.consequence() != null && h.consequence().sink() != null) {
            others.add(h.consequence().sink()); // where its value is used
        }
        for (Instruction r : others) {
            SourcePos p = r.loc() == null ? null : writtenPos(r.loc(), files);
            if (p == null || p.fileIndex() != written.fileIndex()) continue;
            if (p.line() == written.line()) {
                holds |= c.typedByDeclaration() && r.opcode().startsWith("ld");
                continue;
            }
            Path f = fileIndex.get(p.fileIndex());
            String text = f == null || p.line() < written.line() ? null : sources.line(f, p.line());
            Location at = text != null && WrittenCode.mayHold(c, text) ? locationOf(p) : null;
            if (at != null && candidates.stream().noneMatch(l -> l.startLine() == at.startLine())) {
                candidates.add(at);
            }
        }
        candidates.sort(java.util.Comparator.comparingInt(Location::startLine));
        return new Identity.Origin(holds, List.of(), holds ? List.of() : candidates);
    }

    /** The line at {@code pos} goes on with a statement a line above it began ({@link WrittenCode#continuedAfter}). */
    private boolean continued(SourcePos pos) {
        Path f = fileIndex.get(pos.fileIndex());
        if (f == null || pos.line() <= 1) return false;
        return WrittenCode.continuedAfter(sources.line(f, pos.line() - 1));
    }

    /**
     * The minimum trip count of an accumulation loop the PTX layer reports: the option the catalog's policy names
     * ({@code ptx-trip-count-option}) of the rule that declares it.
     */
    private static int minTripCount(ScanContext ctx) {
        return dev.numlint.ptx.facts.PtxFacts.minTripCount(ctx.rules());
    }

    /**
     * {@link #message}, saying so when the hit's instructions have no line and it is shown at the first use of its
     * value ({@link #placedAtUse}: code the compiler hoisted out of a loop).
     */
    private static String shown(PtxHit h, Impact impact, DebugLoc loc) {
        String text = message(h, impact);
        if (!placedAtUse(h, loc)) return text;
        String placed = dev.numlint.rules.RuleCatalog.get().phrase("ptx-line-hoisted", "message", text);
        return placed.length() <= dev.numlint.rules.Quote.MESSAGE ? placed : text;
    }

    /** The check's message, followed by the consequence when it amplifies or cancels (if its policy says so). */
    private static String message(PtxHit h, Impact impact) {
        return withConsequence(h, h.message().text(), impact);
    }

    /** {@code text} (the hit's message, or its hazard), followed by the consequence as {@link #message} states it. */
    private static String withConsequence(PtxHit h, String text, Impact impact) {
        if (impact == null || !policy(h.ruleId()).ptxStatesConsequence()) {
            return text;
        }
        return switch (impact.kind()) {
            case AMPLIFIED, CANCELLATION -> dev.numlint.rules.RuleCatalog.get()
                    .phrase("ptx-consequence", "message", text, "consequence", impact.consequence());
            default -> text;
        };
    }
}
