package dev.numlint.cuda;

import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FlagCitation;
import dev.numlint.cuda.facts.Site;
import dev.numlint.cuda.facts.SourceDialect;
import dev.numlint.knowledge.WrittenCode;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Confidence;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Location;
import dev.numlint.model.Operation;
import dev.numlint.rules.NeverTakenNote;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/** Builds and reports the findings of one file for the checks; counts them for corpus statistics. */
final class Reporter implements CudaReport {
    /** Runs of white space (compiled once: every finding's fingerprint drops them). */
    private static final java.util.regex.Pattern WHITESPACE = java.util.regex.Pattern.compile("\\s+");

    final ScanContext ctx;
    final FindingSink sink;
    final Path file;
    final String rel;
    final BuildContext build;
    private final SourceDialect dialect;
    private final Set<String> seen = new HashSet<>();

    /** Lines whose findings are left to Clang while a function's uncompiled branch is read ({@link #onlyOutside}). */
    private java.util.BitSet leftToClang;

    /** Reports nothing on the lines of {@code compiled} (Clang's), until called with null. */
    void onlyOutside(java.util.BitSet compiled) {
        leftToClang = compiled;
    }

    private final Set<String> once = new HashSet<>();
    /** The first line of each key of {@link #firstLineInFile}. */
    private final java.util.Map<String, Integer> firstLines = new java.util.HashMap<>();
    /** The #error the analyzed configuration of the file reaches, or null. */
    String activeError;

    final java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
    /** The lines of the atomics the facts judged (floating, of unknown type or integral): {@link AtomicRecall}. */
    final Set<Integer> atomicLines = new HashSet<>();
    /** The file's lines nvcc compiles for one side only ({@link ArchBranches}), or null. */
    ArchBranches archBranches;
    /** The consequences without a decision that checks wrote for a site, in the order they stated them. */
    private final java.util.Map<Site, List<String>> undecided = new java.util.IdentityHashMap<>();
    /** The lines where each site's value is rounded continuously ({@link #continuousRoundings}). */
    private final java.util.Map<Site, List<Integer>> continuous = new java.util.IdentityHashMap<>();
    /** The function definitions of the file ({@link UnreachableCode}): first line, last line, property. */
    private final List<Definition> definitions = new java.util.ArrayList<>();

    /** A function definition's lines and the property its findings carry ({@link UnreachableCode#PROPERTY}). */
    record Definition(int startLine, int endLine, String property) {}

    /** The loop-carried sum a check stated for a site ({@link CudaReport#sum}), for the finding it reports next. */
    private final java.util.Map<Site, Identity.Sum> sums = new java.util.IdentityHashMap<>();

    /** The parameters the finding reported next at a site needs non-negative ({@link CudaReport#callerNeeds}). */
    private final java.util.Map<Site, List<String>> callerNeeds = new java.util.IdentityHashMap<>();

    /** The sites whose finding of a rule is about device code only ({@link #deviceOnly}), by rule. */
    private final java.util.Map<String, java.util.Set<Site>> deviceOnly = new java.util.HashMap<>();

    Reporter(ScanContext ctx, FindingSink sink, Path file, BuildContext build, SourceDialect dialect) {
        this.ctx = ctx;
        this.sink = sink;
        this.file = file;
        this.rel = ctx.relativize(file);
        this.build = build;
        this.dialect = dialect;
    }

    /** The branches of the file's functions that a constant test never takes ({@link NeverTakenNote}). */
    private final List<dev.numlint.cuda.clang.ClangNeverTaken.Branch> neverTaken = new java.util.ArrayList<>();

    /** Makes the findings in these branches notes that name them. */
    void neverTaken(List<dev.numlint.cuda.clang.ClangNeverTaken.Branch> in) {
        neverTaken.addAll(in);
    }

    /** Marks the findings in these definitions for the scan's decision ({@link UnreachableCode}). */
    void definitions(List<Definition> in) {
        definitions.addAll(in);
    }

    /** The property of the innermost definition holding {@code line}, or null. */
    private String definition(int line) {
        Definition best = null;
        for (Definition p : definitions) {
            if (line < p.startLine() || line > p.endLine()) continue;
            if (best == null || p.endLine() - p.startLine() < best.endLine() - best.startLine()) best = p;
        }
        return best == null ? null : best.property();
    }

    @Override
    public BuildContext build() {
        return build;
    }

    @Override
    public SourceDialect dialect() {
        return dialect;
    }

    @Override
    public boolean enabled(String rule) {
        return ctx.rules().enabled(rule);
    }

    @Override
    public int intOption(String rule, String option, int fallback) {
        try {
            return ctx.rules().intOption(rule, option);
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    @Override
    public FlagCitation flag(Predicate<String> which, String fallback) {
        var o = build.originOf(which);
        if (o.isPresent()) {
            return new FlagCitation(
                    o.get().flag() + " (set at " + o.get().location().shortText() + ")", o.get());
        }
        return new FlagCitation(fallback, null);
    }

    @Override
    public synchronized boolean firstInFile(String key) {
        return once.add(key);
    }

    @Override
    public synchronized int firstLineInFile(String key, int line) {
        return firstLines.computeIfAbsent(key, k -> line);
    }

    @Override
    public String activeError() {
        return activeError;
    }

    @Override
    public Location location(int line, int column) {
        return column > 0 ? Location.of(rel, line, column) : Location.line(rel, line);
    }

    /**
     * A source region: 1-based line and column (UTF-16 code units, as SARIF's {@code columnKind} utf16CodeUnits
     * declares; a tab is one unit), 0 where unknown. The end is exclusive (the column after the last character).
     * {@code condition} is the #if condition of an inactive branch analyzed with --all-configurations, or null.
     */
    record Pos(int line, int col, int endLine, int endCol, String condition, String macro) {
        Pos(int line, int col, int endLine, int endCol) {
            this(line, col, endLine, endCol, null, null);
        }

        Pos(int line, int col, int endLine, int endCol, String condition) {
            this(line, col, endLine, endCol, condition, null);
        }

        static Pos line(int line) {
            return new Pos(line, 0, line, 0);
        }

        /**
         * The region from token {@code a} to token {@code b}. Tokens produced by a macro expansion carry the
         * invocation's position; the region then covers the invocation's first token only when its end is unknown.
         */
        static Pos of(org.antlr.v4.runtime.Token a, org.antlr.v4.runtime.Token b) {
            int line = a.getLine();
            int col = a.getCharPositionInLine() + 1;
            if (b == null || b.getLine() < line) b = a;
            String text = b.getText() == null ? "" : b.getText();
            boolean macro = a instanceof PToken && ((PToken) a).fromMacro != null
                    || b instanceof PToken && ((PToken) b).fromMacro != null;
            String cond = a instanceof PToken ? ((PToken) a).condition : null;
            if (macro || text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) return new Pos(line, col, line, 0, cond);
            int endCol = b.getCharPositionInLine() + 1 + text.length();
            if (b.getLine() == line && endCol <= col) return new Pos(line, col, line, 0, cond);
            return new Pos(line, col, b.getLine(), endCol, cond);
        }

        /** The region of a site. */
        /** This region, for an expression written wholly in {@code macro}'s body (null: not). */
        Pos inMacro(String macro) {
            return new Pos(line, col, endLine, endCol, condition, macro);
        }

        static Pos of(Site at) {
            return new Pos(at.line(), at.column(), at.endLine(), at.endColumn(), at.condition(), at.macro());
        }

        /** A site at this region. */
        Site site(
                String text,
                boolean device,
                boolean host,
                java.util.function.Supplier<java.util.List<dev.numlint.cuda.facts.ValueUse>> flow) {
            return new Site(line, col, endLine, endCol, condition, text, device, host, flow).expandedFrom(macro);
        }

        /** A site at this region that knows whether its value is computed from a random draw. */
        Site site(
                String text,
                boolean device,
                boolean host,
                java.util.function.Supplier<java.util.List<dev.numlint.cuda.facts.ValueUse>> flow,
                java.util.function.BooleanSupplier drawn) {
            return new Site(line, col, endLine, endCol, condition, text, device, host, flow, drawn).expandedFrom(macro);
        }

        Location location(String file) {
            return new Location(file, line, col, endLine, endCol);
        }
    }

    @Override
    public void consequenceWithoutDecision(Site at, String text) {
        List<String> texts = undecided.computeIfAbsent(at, k -> new java.util.ArrayList<>());
        if (text != null && !texts.contains(text)) texts.add(text);
    }

    @Override
    public void continuousRoundings(Site at, List<Integer> lines) {
        if (!lines.isEmpty()) continuous.put(at, List.copyOf(lines));
    }

    @Override
    public void deviceOnly(String ruleId, Site at) {
        deviceOnly
                .computeIfAbsent(ruleId, k -> java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()))
                .add(at);
    }

    @Override
    public void callerNeeds(Site at, List<dev.numlint.cuda.facts.CallerNeed> needs) {
        if (needs != null && !needs.isEmpty()) callerNeeds.put(at, dev.numlint.cuda.facts.CallerNeed.encode(needs));
    }

    @Override
    public void sum(Site at, String type, int loopLine) {
        sums.put(at, new Identity.Sum(type, loopLine > 0 ? Location.line(rel, loopLine) : null));
    }

    @Override
    public void report(
            String rule, String function, Site at, String message, Confidence conf, Impact impact, FlagCitation flag) {
        report(rule, function, at, message, conf, impact, flag, null, null);
    }

    @Override
    public void reportDecision(
            String rule, String function, Site at, String message, Confidence conf, Impact impact, String decision) {
        report(rule, function, at, message, conf, impact, null, null, decision);
    }

    @Override
    public void reportProven(String rule, String function, Site at, String message, Confidence conf, Impact impact) {
        report(rule, function, at, message, conf, impact, null, "impactProven", null);
    }

    @Override
    public void reportCostOnly(String rule, String function, Site at, String message, Confidence conf, String why) {
        // what is at stake is speed, not the answer (a note)
        Impact cost = new Impact(Impact.Kind.BOUNDED, RuleCatalog.get().phrase(why), null, null);
        report(rule, function, at, message, conf, cost, null, "costOnly", null);
    }

    @Override
    public void reportPortOnly(String rule, String function, Site at, String message, Confidence conf, Impact impact) {
        report(rule, function, at, message, conf, impact, null, "portOnly", null);
    }

    @Override
    public void reportChosen(
            String rule, String function, Site at, String message, Confidence conf, Impact impact, FlagCitation flag) {
        report(rule, function, at, message, conf, impact, flag, "chosenApproximation", null);
    }

    @Override
    public void reportInDouble(
            String rule, String function, Site at, String message, Confidence conf, Impact impact, FlagCitation flag) {
        report(rule, function, at, message, conf, impact, flag, "doubleRounding", null);
    }

    @Override
    public void reportWithoutCancellation(
            NoCancellation why,
            String rule,
            String function,
            Site at,
            String message,
            Confidence conf,
            Impact impact,
            FlagCitation flag) {
        report(rule, function, at, message, conf, impact, flag, why.property, null);
    }

    @Override
    public void reportProven(
            String rule, String function, Site at, String message, Confidence conf, Impact impact, FlagCitation flag) {
        report(rule, function, at, message, conf, impact, flag, "impactProven", null);
    }

    /** The judgement a report's property stands for ({@code impactProven}: proven ...), or null. */
    private static Identity.Judgement judgement(String property) {
        if (property == null) return null;
        return switch (property) {
            case "impactProven" -> Identity.Judgement.PROVEN;
            case "pairedComponent" -> Identity.Judgement.PAIRED_COMPONENT;
            case "termsCannotCancel" -> Identity.Judgement.TERMS_CANNOT_CANCEL;
            case "inDouble" -> Identity.Judgement.IN_DOUBLE;
            case "costOnly" -> Identity.Judgement.COST;
            case "portOnly" -> Identity.Judgement.PORT;
            case "chosenApproximation" -> Identity.Judgement.CHOSEN_APPROXIMATION;
            case "doubleRounding" -> Identity.Judgement.DOUBLE_ROUNDING;
            default -> null;
        };
    }

    private void report(
            String rule,
            String function,
            Site at,
            String message,
            Confidence conf,
            Impact impact,
            FlagCitation flag,
            String property,
            String decision) {
        if (leftToClang != null && leftToClang.get(at.line())) return;
        String snippet = at.text();
        Pos pos = Pos.of(at);
        // one finding per location and rule (a macro expanding to several hazards reports its use once), and per
        // decision: a template's atomic add instantiated with float and with double is two sums, two choices
        String key = rule + "|" + at.line() + "|" + (at.column() > 0 ? "@" + at.column() : snippet)
                + (decision == null ? "" : "|" + decision);
        if (!seen.add(key)) return;
        if (pos.condition() != null) {
            // --all-configurations: code of a conditional branch the analyzed configuration does not compile
            message = dev.numlint.rules.RuleCatalog.get()
                    .phrase(
                            "configuration",
                            "message",
                            message,
                            "condition",
                            dev.numlint.rules.Quote.shorten(pos.condition(), dev.numlint.rules.Quote.TEXT));
        }
        Finding.Builder b = Finding.builder(rule)
                .location(pos.location(rel))
                .message(message)
                .layer(Layer.CUDA_SOURCE)
                .evidence(Evidence.source(snippet))
                .confidence(conf)
                .function(function)
                .fingerprintKey((function == null ? "" : function) + "|" + rule + "|"
                        + WHITESPACE.matcher(snippet).replaceAll(""));
        if (impact != null) b.impact(impact);
        b.identity(identity(snippet, pos.condition() == null ? decision : null)
                .withConsequence(undecided(at, message))
                .withMacro(pos.macro())
                // the statement goes on below the expression: the PTX layer may name a line of it (LayerMerge)
                .withStatementEnd(at.statementEnd() > at.endLine() ? at.statementEnd() : 0)
                .withSum(sums.remove(at))
                .withJudgement(judgement(property)));
        if (flag != null && flag.origin() != null) {
            b.evidence(new Evidence("flag", flag.origin().flag(), flag.origin().location()));
            b.related(flag.origin().location(), "set here: " + flag.origin().flag());
        }
        if (pos.condition() != null) b.property("configuration", pos.condition());
        if (pos.macro() != null) b.property("macro", pos.macro());
        if (property != null) b.property(property, true);
        if (continuous.containsKey(at)) b.property(Finding.CONTINUOUS_ROUNDINGS, continuous.get(at));
        List<String> needs = callerNeeds.remove(at);
        if (needs != null) b.property(dev.numlint.cuda.facts.CallerNeed.PROPERTY, needs);
        if (deviceOnly.getOrDefault(rule, java.util.Set.of()).contains(at)) b.property(Finding.DEVICE_CODE, true);
        String definition = definition(at.line());
        if (definition != null) b.property(UnreachableCode.PROPERTY, definition);
        for (var branch : neverTaken) {
            if (!branch.holds(at.line(), at.column())) continue;
            NeverTakenNote.apply(b, branch.why());
            break;
        }
        if (impact == null || impact.kind() != Impact.Kind.EXACT) counts.merge(rule, 1, Integer::sum);
        sink.report(b);
    }

    /** The first consequence without a decision stated for {@code at} that {@code message} holds, or null. */
    private String undecided(Site at, String message) {
        for (String t : undecided.getOrDefault(at, List.of())) {
            if (message.contains(t)) return t;
        }
        return null;
    }

    /**
     * The typed identity of a finding at {@code snippet}: the operation it starts with and the operations it spells
     * (to meet the PTX layer's instruction), the variable it updates, and the check's {@code decision} (null for a
     * finding of a configuration the analyzed build does not compile: it stands alone).
     */
    private static Identity identity(String snippet, String decision) {
        String expr = snippet == null ? null : dev.numlint.rules.Quote.expression(snippet);
        return Identity.NONE
                .withExpression(expr)
                .withWritten(WrittenCode.leadingOperation(expr))
                .withOperations(Operation.spelledIn(snippet))
                .withAccumulator(WrittenCode.updatedVariable(snippet))
                .withDecision(decision)
                .withCode(WrittenCode.tokens(snippet));
    }
}
