package dev.numlint.java;

import dev.numlint.knowledge.WrittenCode;
import dev.numlint.model.Confidence;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.model.Suppression;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eclipse.jdt.core.dom.*;

/**
 * The facts of one Java compilation unit, computed once and shared by every {@link JavaCheck}: the nodes the rules
 * look at (collected in one pass), expression types ({@link #types()}), value ranges and guards ({@link #ranges()}),
 * loops with their trip counts and compensated (Kahan) sums ({@link #loops()}), where a value goes
 * ({@link #impacts()}), unsigned read-backs, and suppression annotations. Checks report through
 * {@link #report}; findings are released when the unit finished within its time budget.
 */
public final class JavaUnit {
    /** Analysis time one compilation unit may take before it is reported as not analyzed. */
    static final long DEFAULT_BUDGET_MS = 20_000;

    private final ScanContext ctx;
    private final FindingSink sink;
    private final Path file;
    private final String rel;
    private final String source;
    private final CompilationUnit cu;
    private final Types types;
    private final RangeAnalysis ranges;
    private final int release;
    private final boolean bindings;
    private final JCudaLinker jcuda;
    private final LoopFacts loops;
    private final ValueImpacts impacts;
    private final long deadline;

    private final List<CastExpression> casts = new ArrayList<>();
    private final List<InfixExpression> infixes = new ArrayList<>();
    private final List<Assignment> assignments = new ArrayList<>();
    private final List<VariableDeclarationFragment> fragments = new ArrayList<>();
    private final List<MethodInvocation> invocations = new ArrayList<>();
    private final List<Expression> arithmetic = new ArrayList<>();
    /** Names read back as unsigned bytes ({@code name[i] & 0xff}) and shorts ({@code & 0xffff}). */
    private final Set<String> unsignedByteNames = new HashSet<>();

    private final Set<String> unsignedShortNames = new HashSet<>();
    /** The {@code & 0xff}/{@code & 0xffff} reads themselves, by variable key and mask. */
    private final java.util.Map<String, List<InfixExpression>> unsignedReads = new java.util.HashMap<>();

    private final List<SuppressRegion> suppressions = new ArrayList<>();
    private final List<Finding.Builder> findings = new ArrayList<>();
    private final Map<Object, Object> memo = new IdentityHashMap<>();
    private PerElementCalls perElement;

    private record SuppressRegion(int start, int end, Set<String> ids, String justification, Location where) {}

    /** Thrown when the unit's analysis ran past its budget. */
    static final class BudgetExceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BudgetExceeded(String m) {
            super(m, null, false, false);
        }
    }

    JavaUnit(
            ScanContext ctx,
            FindingSink sink,
            Path file,
            String source,
            CompilationUnit cu,
            int release,
            boolean bindings,
            long budgetMs) {
        this.ctx = ctx;
        this.sink = sink;
        this.file = file;
        this.rel = ctx.relativize(file);
        this.source = source;
        this.cu = cu;
        this.release = release;
        this.bindings = bindings;
        this.types = new Types(bindings);
        this.ranges = new RangeAnalysis(types);
        this.loops = new LoopFacts(this);
        this.impacts = new ValueImpacts(this);
        this.deadline = dev.numlint.model.CpuClock.now() + budgetMs * 1_000_000L;
        this.jcuda = JCudaLinker.mayLink(cu, source) ? new JCudaLinker(ctx, sink, file, cu, source) : null;
    }

    /** Collects the facts, runs {@code checks}, links JCuda launches, then releases the findings. */
    void run(List<JavaCheck> checks) {
        collect();
        for (JavaCheck c : checks) {
            if (!ctx.rules().enabled(c.ruleId())) continue;
            checkBudget();
            c.check(this);
        }
        if (jcuda != null) {
            for (MethodInvocation m : invocations) jcuda.visit(m);
            jcuda.link();
        }
        for (Finding.Builder b : findings) sink.report(b);
    }

    /** Throws {@link BudgetExceeded} once the unit's time budget is spent; long-running checks call it. */
    public void checkBudget() {
        if (dev.numlint.model.CpuClock.now() > deadline)
            throw new BudgetExceeded("analysis took longer than the per-file budget");
    }

    // ---- facts ---------------------------------------------------------------------------------------------

    public CompilationUnit cu() {
        return cu;
    }

    public String source() {
        return source;
    }

    public int release() {
        return release;
    }

    public boolean bindings() {
        return bindings;
    }

    public Types types() {
        return types;
    }

    public RangeAnalysis ranges() {
        return ranges;
    }

    public LoopFacts loops() {
        return loops;
    }

    public ValueImpacts impacts() {
        return impacts;
    }

    /** Which methods of the unit run once per element of a caller's loop (built on first use). */
    public PerElementCalls perElement() {
        if (perElement == null) perElement = new PerElementCalls(this);
        return perElement;
    }

    /** The source text of {@code n}, as written. */
    public String source(ASTNode n) {
        int st = n.getStartPosition();
        int e = Math.min(source.length(), st + n.getLength());
        return st < 0 || st >= e ? "" : source.substring(st, e);
    }

    /**
     * The documentation comment right before declaration {@code d} (the parser does not attach doc comments: their
     * support is off for speed), or null.
     */
    public String docComment(BodyDeclaration d) {
        if (d.getJavadoc() != null) return source(d.getJavadoc());
        int at = Math.min(source.length(), d.getStartPosition());
        if (source.startsWith("/**", at)) {
            // the declaration's range starts with its (unparsed) doc comment
            int close = source.indexOf("*/", at);
            return close < 0 ? null : source.substring(at, close + 2);
        }
        int end = source.lastIndexOf("*/", at);
        if (end < 0 || !source.substring(end + 2, at).isBlank()) return null;
        int start = source.lastIndexOf("/**", end);
        return start < 0 ? null : source.substring(start, end + 2);
    }

    /** The analyzed file. */
    public Path file() {
        return file;
    }

    public ScanContext context() {
        return ctx;
    }
    /** Every cast expression, in source order. */
    public List<CastExpression> casts() {
        return casts;
    }
    /** Every infix expression, in source order. */
    public List<InfixExpression> infixes() {
        return infixes;
    }

    public List<Assignment> assignments() {
        return assignments;
    }

    public List<VariableDeclarationFragment> fragments() {
        return fragments;
    }

    public List<MethodInvocation> invocations() {
        return invocations;
    }
    /** Arithmetic on floating values (+ - * / %, compound assignments, ++/--), in source order. */
    public List<Expression> arithmetic() {
        return arithmetic;
    }

    /** A per-unit memo for facts a check derives once (key: a constant object of the check). */
    @SuppressWarnings("unchecked")
    public <V> V memo(Object key, java.util.function.Supplier<V> compute) {
        Object v = memo.get(key);
        if (v == null) {
            v = compute.get();
            memo.put(key, v);
        }
        return (V) v;
    }

    /**
     * Whether the variable {@code e} names (a local, a field or an array) is read back as unsigned with
     * {@code & 0xff}/{@code & 0xffff}: the same local (same declaration) or the same field anywhere in the unit.
     */
    public boolean readAsUnsigned(Expression e, int mask) {
        String key = variableKey(e);
        return key != null && (mask == 0xff ? unsignedByteNames : unsignedShortNames).contains(key);
    }

    /**
     * A key for the variable {@code e} names: a local variable by its declaration; parameters and fields by name
     * (an array parameter named like one read as unsigned elsewhere in the unit usually holds the same data); null
     * when {@code e} names no variable.
     */
    private static String variableKey(Expression e) {
        e = JavaSyntax.unparen(e);
        if (e instanceof ArrayAccess) e = JavaSyntax.unparen(((ArrayAccess) e).getArray());
        if (e instanceof SimpleName) {
            SimpleName n = (SimpleName) e;
            VariableDeclaration d =
                    n.getParent() instanceof VariableDeclaration && ((VariableDeclaration) n.getParent()).getName() == n
                            ? (VariableDeclaration) n.getParent()
                            : Types.declarationOf(n);
            if (d instanceof VariableDeclarationFragment && !(d.getParent() instanceof FieldDeclaration)) {
                return "L:" + d.getStartPosition();
            }
            return "N:" + n.getIdentifier();
        }
        String n = simpleName(e);
        return n == null ? null : "N:" + n;
    }

    private void collect() {
        int[] visited = {0};
        cu.accept(new ASTVisitor() {
            @Override
            public void preVisit(ASTNode node) {
                if ((++visited[0] & 0xfff) == 0) checkBudget();
            }

            @Override
            public boolean visit(CastExpression c) {
                casts.add(c);
                return true;
            }

            @Override
            public boolean visit(InfixExpression in) {
                infixes.add(in);
                InfixExpression.Operator op = in.getOperator();
                if ((op == InfixExpression.Operator.PLUS
                                || op == InfixExpression.Operator.MINUS
                                || op == InfixExpression.Operator.TIMES
                                || op == InfixExpression.Operator.DIVIDE
                                || op == InfixExpression.Operator.REMAINDER)
                        && types.isFloating(in)) arithmetic.add(in);
                if (op == InfixExpression.Operator.AND && in.extendedOperands().isEmpty()) {
                    Expression l = JavaSyntax.unparen(in.getLeftOperand());
                    Expression r = JavaSyntax.unparen(in.getRightOperand());
                    if (isMask(r, 0xff)) addRead(in, l, 0xff, unsignedByteNames);
                    else if (isMask(l, 0xff)) addRead(in, r, 0xff, unsignedByteNames);
                    else if (isMask(r, 0xffff)) addRead(in, l, 0xffff, unsignedShortNames);
                    else if (isMask(l, 0xffff)) addRead(in, r, 0xffff, unsignedShortNames);
                }
                return true;
            }

            @Override
            public boolean visit(Assignment a) {
                assignments.add(a);
                if (a.getOperator() != Assignment.Operator.ASSIGN && types.isFloating(a.getLeftHandSide())) {
                    arithmetic.add(a);
                }
                return true;
            }

            @Override
            public boolean visit(PrefixExpression p) {
                if ((p.getOperator() == PrefixExpression.Operator.INCREMENT
                                || p.getOperator() == PrefixExpression.Operator.DECREMENT)
                        && types.isFloating(p)) {
                    arithmetic.add(p);
                }
                return true;
            }

            @Override
            public boolean visit(PostfixExpression p) {
                if (types.isFloating(p)) arithmetic.add(p);
                return true;
            }

            @Override
            public boolean visit(VariableDeclarationFragment vf) {
                fragments.add(vf);
                return true;
            }

            @Override
            public boolean visit(MethodInvocation m) {
                invocations.add(m);
                return true;
            }

            @Override
            public boolean visit(SingleMemberAnnotation a) {
                suppressAnnotation(a);
                return false;
            }

            @Override
            public boolean visit(NormalAnnotation a) {
                suppressAnnotation(a);
                return false;
            }
        });
    }

    public static boolean isMask(Expression e, int mask) {
        return e instanceof NumberLiteral && Types.literalValue(((NumberLiteral) e).getToken()) == mask;
    }

    private void addRead(InfixExpression read, Expression e, int mask, Set<String> into) {
        addName(e, into);
        String key = variableKey(e);
        if (key != null)
            unsignedReads.computeIfAbsent(mask + key, k -> new ArrayList<>()).add(read);
    }

    /**
     * The reads {@code name[...] & mask} (or {@code name & mask}) of the variable {@code e} names, in source order.
     */
    public List<InfixExpression> unsignedReads(Expression e, int mask) {
        String key = variableKey(e);
        return key == null ? List.of() : unsignedReads.getOrDefault(mask + key, List.of());
    }

    private static void addName(Expression e, Set<String> into) {
        String key = variableKey(e);
        if (key != null) into.add(key);
    }

    /** The identifier of a simple name, field access or qualified name, or null. */
    public static String simpleName(Expression e) {
        e = JavaSyntax.unparen(e);
        if (e instanceof SimpleName) return ((SimpleName) e).getIdentifier();
        if (e instanceof FieldAccess) return ((FieldAccess) e).getName().getIdentifier();
        if (e instanceof QualifiedName) return ((QualifiedName) e).getName().getIdentifier();
        return null;
    }

    /** Whether {@code m} calls java.lang.Math (by binding, qualifier or static import). */
    public boolean isJavaLangMath(MethodInvocation m) {
        if (bindings) {
            IMethodBinding b = m.resolveMethodBinding();
            if (b != null && b.getDeclaringClass() != null) {
                return b.getDeclaringClass().getQualifiedName().equals("java.lang.Math");
            }
        }
        Expression q = m.getExpression();
        if (q != null) {
            String s = q.toString();
            return s.equals("Math") || s.equals("java.lang.Math");
        }
        for (Object o : cu.imports()) {
            ImportDeclaration i = (ImportDeclaration) o;
            if (!i.isStatic()) continue;
            String s = i.getName().getFullyQualifiedName();
            if (i.isOnDemand()
                    ? s.equals("java.lang.Math")
                    : s.equals("java.lang.Math." + m.getName().getIdentifier())) return true;
        }
        return false;
    }

    // ---- suppression annotations ---------------------------------------------------------------------------

    private void suppressAnnotation(Annotation a) {
        String tn = a.getTypeName().getFullyQualifiedName();
        boolean fb = tn.equals("SuppressFBWarnings") || tn.endsWith(".SuppressFBWarnings");
        if (!fb && !tn.equals("SuppressWarnings") && !tn.equals("java.lang.SuppressWarnings")) return;
        Expression value = null;
        String fbJustification = null;
        if (a instanceof SingleMemberAnnotation) value = ((SingleMemberAnnotation) a).getValue();
        else
            for (Object o : ((NormalAnnotation) a).values()) {
                MemberValuePair p = (MemberValuePair) o;
                if (p.getName().getIdentifier().equals("value")) value = p.getValue();
                if (p.getName().getIdentifier().equals("justification") && p.getValue() instanceof StringLiteral) {
                    fbJustification =
                            ((StringLiteral) p.getValue()).getLiteralValue().trim();
                }
            }
        List<String> vals = new ArrayList<>();
        if (value instanceof StringLiteral) vals.add(((StringLiteral) value).getLiteralValue());
        else if (value instanceof ArrayInitializer) {
            for (Object o : ((ArrayInitializer) value).expressions()) {
                if (o instanceof StringLiteral) vals.add(((StringLiteral) o).getLiteralValue());
            }
        }
        Set<String> ids = new HashSet<>();
        for (String v : vals) {
            String t = v.trim();
            if (fb) {
                ids.addAll(spotBugsIds(t));
            } else if (t.equalsIgnoreCase("numlint") || t.equalsIgnoreCase("numlint:all")) {
                ids.add("*");
            } else if (t.regionMatches(true, 0, "numlint:", 0, 8)) {
                ids.add(t.substring(8).trim().toUpperCase(Locale.ROOT));
            }
        }
        if (ids.isEmpty()) return;
        ASTNode decl = a.getParent();
        int line = cu.getLineNumber(a.getStartPosition());
        Location where = ctx.location(file, line);
        String just = fbJustification != null && !fbJustification.isEmpty() ? fbJustification : justification(a);
        if (just == null) {
            sink.notify(new Notification(
                    rel,
                    line,
                    Level.WARNING,
                    "unjustified-suppression",
                    a + " has no justification: "
                            + (fb
                                    ? "add justification = \"...\" or a comment"
                                    : "add a comment on the same line or the line above (e.g. " + a
                                            + " // values clamped by the caller)")
                            + "; findings are not suppressed"));
            return;
        }
        suppressions.add(new SuppressRegion(
                decl.getStartPosition(), decl.getStartPosition() + decl.getLength(), ids, just, where));
    }

    /**
     * The numlint rules a {@code @SuppressFBWarnings} value names, matched as SpotBugs matches it: the rule id (bug
     * code), the bug pattern type or a prefix of it, or the category NUMLINT.
     */
    static Set<String> spotBugsIds(String v) {
        Set<String> ids = new HashSet<>();
        if (v.isEmpty()) return ids;
        if (v.equals("NUMLINT")) {
            ids.add("*");
            return ids;
        }
        for (dev.numlint.rules.Rule r : RuleCatalog.get().all()) {
            if (!r.appliesTo(Layer.JAVA_BYTECODE) && !r.appliesTo(Layer.JAVA_SOURCE)) continue;
            if (v.equals(r.id()) || r.bugPattern().startsWith(v) && v.length() > 5) ids.add(r.id());
        }
        return ids;
    }

    /** Text of a line or block comment after the annotation on its line, or alone on the line before it. */
    private String justification(Annotation a) {
        int end = a.getStartPosition() + a.getLength();
        int line = cu.getLineNumber(a.getStartPosition());
        int endLine = cu.getLineNumber(end);
        for (Object o : cu.getCommentList()) {
            Comment c = (Comment) o;
            if (c.isDocComment()) continue;
            int cs = c.getStartPosition();
            int cl = cu.getLineNumber(cs);
            if (cl == endLine && cs >= end || cl == line - 1 && lineStartsWithComment(cs)) {
                String t = commentText(c);
                if (!t.isEmpty()) return t;
            }
        }
        return null;
    }

    private boolean lineStartsWithComment(int pos) {
        int i = pos - 1;
        while (i >= 0 && source.charAt(i) != '\n') {
            if (!Character.isWhitespace(source.charAt(i))) return false;
            i--;
        }
        return true;
    }

    private String commentText(Comment c) {
        String t =
                source.substring(c.getStartPosition(), Math.min(source.length(), c.getStartPosition() + c.getLength()));
        if (t.startsWith("//")) t = t.substring(2);
        else if (t.startsWith("/*")) t = t.substring(2, Math.max(2, t.length() - 2));
        return t.replaceAll("\\s+", " ").trim();
    }

    private SuppressRegion suppression(ASTNode n, String rule) {
        SuppressRegion best = null;
        int p = n.getStartPosition();
        for (SuppressRegion r : suppressions) {
            if (p >= r.start && p < r.end && (r.ids.contains(rule) || r.ids.contains("*"))) {
                if (best == null || r.start >= best.start) best = r;
            }
        }
        return best;
    }

    // ---- reporting -----------------------------------------------------------------------------------------

    /**
     * Reports {@code rule} at {@code n}. {@code level} (may be null: the rule's level) is the ceiling; {@code impact}
     * (may be null) lowers it (bounded: note) or drops the finding (exact).
     */
    /** Reports a finding at {@code n}; returns its builder (to add related locations), or null for a disabled rule. */
    public Finding.Builder report(String rule, ASTNode n, String message, boolean guessed, Level level, Impact impact) {
        if (!ctx.rules().enabled(rule)) return null;
        int start = n.getStartPosition();
        int end = start + n.getLength();
        int line = cu.getLineNumber(start);
        int col = cu.getColumnNumber(start) + 1;
        int endLine = Math.max(line, cu.getLineNumber(Math.max(start, end - 1)));
        int endCol = cu.getColumnNumber(end) + 1;
        String snippet = text(n);
        String fn = functionName(n);
        Finding.Builder b = Finding.builder(rule)
                .location(new Location(rel, line, col, endLine, endLine == line ? endCol : 0))
                .message(message)
                .layer(Layer.JAVA_SOURCE)
                .evidence(Evidence.source(snippet))
                .confidence(guessed ? Confidence.LOW : Confidence.HIGH)
                .function(fn)
                .fingerprintKey(rule + "|" + fn + "|" + snippet)
                .identity(Identity.NONE.withCode(WrittenCode.tokens(snippet)));
        if (level != null) b.level(level);
        if (impact != null) b.impact(impact);
        if (guessed) b.property("bindings", bindings ? "missing" : "off");
        SuppressRegion s = suppression(n, rule);
        if (s != null) b.suppression(new Suppression("inSource", s.justification, s.where));
        findings.add(b);
        return b;
    }

    /** The source text of {@code n} on one line (whitespace collapsed), at most 160 characters. */
    public String text(ASTNode n) {
        int s = n.getStartPosition();
        int e = Math.min(source.length(), s + n.getLength());
        if (s < 0 || s >= source.length()) return n.toString();
        String t = source.substring(s, e).replaceAll("\\s+", " ").trim();
        return t.length() > 160 ? t.substring(0, 157) + "..." : t;
    }

    /** {@code text(n)} shortened to {@code max} characters for a message. */
    /**
     * The code of {@code n} as a message quotes it: on one line, at most {@code max} characters and never more than
     * {@link dev.numlint.rules.Quote#EXPRESSION}, as in every layer (the whole text is the finding's evidence).
     */
    public String shortText(ASTNode n, int max) {
        return dev.numlint.rules.Quote.shorten(text(n), Math.min(max, dev.numlint.rules.Quote.EXPRESSION));
    }

    public int line(ASTNode n) {
        return cu.getLineNumber(n.getStartPosition());
    }

    public Location location(ASTNode n) {
        int start = n.getStartPosition();
        return new Location(rel, cu.getLineNumber(start), cu.getColumnNumber(start) + 1, cu.getLineNumber(start), 0);
    }

    /** Type.method of the declaration enclosing {@code n}. */
    public static String functionName(ASTNode n) {
        String method = null;
        for (ASTNode p = n; p != null; p = p.getParent()) {
            if (method == null && p instanceof MethodDeclaration) {
                method = ((MethodDeclaration) p).getName().getIdentifier();
            }
            if (p instanceof AbstractTypeDeclaration) {
                String t = ((AbstractTypeDeclaration) p).getName().getIdentifier();
                return method == null ? t : t + "." + method;
            }
        }
        return method;
    }

    public static boolean isAncestor(ASTNode anc, ASTNode n) {
        for (ASTNode p = n; p != null; p = p.getParent()) if (p == anc) return true;
        return false;
    }

    /** The catalog message {@code key} of {@code rule} with its placeholders filled (name, value pairs). */
    public static String message(String rule, String key, Object... args) {
        return RuleCatalog.get().rule(rule).message(key, args);
    }
}
