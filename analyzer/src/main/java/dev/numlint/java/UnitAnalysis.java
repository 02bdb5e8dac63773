package dev.numlint.java;

import dev.numlint.model.Confidence;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.model.Suppression;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jdt.core.dom.*;

/** The java-source rules on one compilation unit. Create, {@link #run()}, drop. */
final class UnitAnalysis extends ASTVisitor {
    private static final Set<String> TRANSCENDENTAL = Set.of("sin", "cos", "tan", "asin", "acos", "atan", "atan2",
            "exp", "log", "log10", "pow", "sinh", "cosh", "tanh", "cbrt", "expm1", "log1p", "hypot");

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

    /** Names read back as unsigned bytes: {@code name[i] & 0xff} / {@code name & 0xff}. */
    private final Set<String> unsignedByteNames = new HashSet<>();
    /** Names read back as unsigned shorts: {@code name[i] & 0xffff}. */
    private final Set<String> unsignedShortNames = new HashSet<>();
    /** @SuppressWarnings("numlint:...") regions. */
    private final List<SuppressRegion> suppressions = new ArrayList<>();
    /** NL005: float arithmetic per type declaration. */
    private final Map<ASTNode, int[]> fpOps = new LinkedHashMap<>();
    /** NL010: transcendental calls per method. */
    private final Map<ASTNode, List<MethodInvocation>> mathCalls = new LinkedHashMap<>();
    /** NL004: one finding per (accumulator, loop). */
    private final Set<String> accumulationsReported = new HashSet<>();
    private final Map<ASTNode, Boolean> compensated = new IdentityHashMap<>();

    private record SuppressRegion(int start, int end, Set<String> ids, String justification, Location where) {
    }

    UnitAnalysis(ScanContext ctx, FindingSink sink, Path file, String source, CompilationUnit cu, int release,
                 boolean bindings) {
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
        this.jcuda = JCudaLinker.mayLink(cu, source) ? new JCudaLinker(ctx, sink, file, cu, source) : null;
    }

    void run() {
        collectUnsignedUses();
        cu.accept(this);
        reportNl005();
        reportNl010();
        if (jcuda != null) jcuda.link();
    }

    // ---- pre-pass ------------------------------------------------------------------------------------------

    private void collectUnsignedUses() {
        cu.accept(new ASTVisitor() {
            @Override
            public boolean visit(InfixExpression in) {
                if (in.getOperator() == InfixExpression.Operator.AND && in.extendedOperands().isEmpty()) {
                    Expression l = RangeAnalysis.unparen(in.getLeftOperand());
                    Expression r = RangeAnalysis.unparen(in.getRightOperand());
                    if (isMask(r, 0xff)) addName(l, unsignedByteNames);
                    else if (isMask(l, 0xff)) addName(r, unsignedByteNames);
                    else if (isMask(r, 0xffff)) addName(l, unsignedShortNames);
                    else if (isMask(l, 0xffff)) addName(r, unsignedShortNames);
                }
                return true;
            }
        });
    }

    private static boolean isMask(Expression e, int mask) {
        return e instanceof NumberLiteral && Types.literalValue(((NumberLiteral) e).getToken()) == mask;
    }

    private static void addName(Expression e, Set<String> into) {
        e = RangeAnalysis.unparen(e);
        if (e instanceof ArrayAccess) e = ((ArrayAccess) e).getArray();
        String n = simpleName(e);
        if (n != null) into.add(n);
    }

    private static String simpleName(Expression e) {
        e = RangeAnalysis.unparen(e);
        if (e instanceof SimpleName) return ((SimpleName) e).getIdentifier();
        if (e instanceof FieldAccess) return ((FieldAccess) e).getName().getIdentifier();
        if (e instanceof QualifiedName) return ((QualifiedName) e).getName().getIdentifier();
        return null;
    }

    // ---- suppression annotations ---------------------------------------------------------------------------

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

    private void suppressAnnotation(Annotation a) {
        String tn = a.getTypeName().getFullyQualifiedName();
        if (!tn.equals("SuppressWarnings") && !tn.equals("java.lang.SuppressWarnings")) return;
        Expression value = null;
        if (a instanceof SingleMemberAnnotation) value = ((SingleMemberAnnotation) a).getValue();
        else for (Object o : ((NormalAnnotation) a).values()) {
            MemberValuePair p = (MemberValuePair) o;
            if (p.getName().getIdentifier().equals("value")) value = p.getValue();
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
            if (t.equalsIgnoreCase("numlint") || t.equalsIgnoreCase("numlint:all")) ids.add("*");
            else if (t.regionMatches(true, 0, "numlint:", 0, 8)) ids.add(t.substring(8).trim().toUpperCase(java.util.Locale.ROOT));
        }
        if (ids.isEmpty()) return;
        ASTNode decl = a.getParent();
        int line = cu.getLineNumber(a.getStartPosition());
        Location where = ctx.location(file, line);
        String just = justification(a);
        if (just == null) {
            sink.notify(new Notification(rel, line, Level.WARNING, "unjustified-suppression",
                    a + " has no justification: add a comment on the same line or the line above (e.g. "
                            + a + " // values clamped by the caller); findings are not suppressed"));
            return;
        }
        suppressions.add(new SuppressRegion(decl.getStartPosition(), decl.getStartPosition() + decl.getLength(), ids,
                just, where));
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
        String t = source.substring(c.getStartPosition(), Math.min(source.length(), c.getStartPosition() + c.getLength()));
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

    private void report(String rule, ASTNode n, String message, ASTNode evidence, boolean guessed, Level level) {
        if (!ctx.rules().enabled(rule)) return;
        int start = n.getStartPosition();
        int end = start + n.getLength();
        int line = cu.getLineNumber(start);
        int col = cu.getColumnNumber(start) + 1;
        int endLine = Math.max(line, cu.getLineNumber(Math.max(start, end - 1)));
        int endCol = cu.getColumnNumber(end) + 1;
        String snippet = snippet(evidence == null ? n : evidence);
        String fn = functionName(n);
        Finding.Builder b = Finding.builder(rule)
                .location(new Location(rel, line, col, endLine, endLine == line ? endCol : 0))
                .message(message)
                .layer(Layer.JAVA_SOURCE)
                .evidence(Evidence.source(snippet))
                .confidence(guessed ? Confidence.LOW : Confidence.HIGH)
                .function(fn)
                .fingerprintKey(rule + "|" + fn + "|" + snippet);
        if (level != null) b.level(level);
        if (guessed) b.property("bindings", bindings ? "missing" : "off");
        SuppressRegion s = suppression(n, rule);
        if (s != null) b.suppression(new Suppression("inSource", s.justification, s.where));
        sink.report(b);
    }

    String snippet(ASTNode n) {
        int s = n.getStartPosition();
        int e = Math.min(source.length(), s + n.getLength());
        if (s < 0 || s >= source.length()) return n.toString();
        String t = source.substring(s, e).replaceAll("\\s+", " ").trim();
        return t.length() > 160 ? t.substring(0, 157) + "..." : t;
    }

    static String functionName(ASTNode n) {
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

    private String text(ASTNode n) {
        return snippet(n);
    }

    // ---- conversions: NL001, NL011, NL008 ------------------------------------------------------------------

    @Override
    public boolean visit(CastExpression c) {
        NumType target = Types.typeNode(c.getType());
        if (target == NumType.CHAR || target == NumType.BYTE || target == NumType.SHORT) {
            narrowing(c, target);
        } else if (target == NumType.FLOAT) {
            Types.T t = types.typeOf(c.getExpression());
            if (t.type() == NumType.DOUBLE) doublePromotion(c, c.getExpression(), null, t.guessed());
        }
        countFp(c);
        return true;
    }

    /** The floating expression a narrowing conversion starts from: seen through (int)/(long) casts and Math.round. */
    private Expression floatingSource(Expression e, boolean[] guessed) {
        e = RangeAnalysis.unparen(e);
        Types.T t = types.typeOf(e);
        if (t.guessed()) guessed[0] = true;
        if (t.type().isFloating()) return e;
        if (e instanceof CastExpression) {
            NumType ct = Types.typeNode(((CastExpression) e).getType());
            if (ct == NumType.INT || ct == NumType.LONG) {
                Expression inner = RangeAnalysis.unparen(((CastExpression) e).getExpression());
                Types.T it = types.typeOf(inner);
                if (it.type().isFloating()) {
                    if (it.guessed()) guessed[0] = true;
                    return inner;
                }
            }
        }
        if (e instanceof MethodInvocation) {
            MethodInvocation m = (MethodInvocation) e;
            String q = m.getExpression() == null ? "" : m.getExpression().toString();
            if (m.getName().getIdentifier().equals("round") && (q.equals("Math") || q.equals("StrictMath"))
                    && m.arguments().size() == 1) {
                Expression inner = (Expression) m.arguments().get(0);
                if (types.of(inner).isFloating()) return inner;
            }
        }
        return null;
    }

    private void narrowing(CastExpression c, NumType target) {
        if (isNumberNarrowingMethod(c, target)) return;
        boolean[] guessed = {false};
        Expression src = floatingSource(c.getExpression(), guessed);
        if (src == null) return;
        NumType srcType = types.of(src);
        boolean unsigned = target == NumType.CHAR;
        String usedAs = null;
        if (target == NumType.BYTE || target == NumType.SHORT) {
            usedAs = unsignedUse(c, target == NumType.BYTE ? 0xff : 0xffff,
                    target == NumType.BYTE ? unsignedByteNames : unsignedShortNames);
            unsigned = usedAs != null;
        }
        Range r = ranges.of(src);
        double min, max;
        if (target == NumType.CHAR) { min = -1; max = 65536; }
        else if (target == NumType.BYTE) { min = unsigned ? -1 : -129; max = 256; }
        else { min = unsigned ? -1 : -32769; max = 65536; }
        boolean lowOk = r.lowSafe(min);
        boolean highOk = r.highSafe(max);
        if (r.isPoint() && !Double.isInfinite(r.lo())) {
            // a constant: flagged exactly when the conversion changes its integer part
            long res = Narrowing.narrow(r.lo(), srcType == NumType.DOUBLE ? NumType.DOUBLE : NumType.FLOAT, target);
            long seen = unsigned && target == NumType.BYTE ? res & 0xff : unsigned && target == NumType.SHORT ? res & 0xffff : res;
            long trunc = (long) r.lo();
            lowOk = highOk = seen == trunc;
        }
        if (lowOk && highOk) return;
        String rule = unsigned ? "NL001" : "NL011";
        String cast = "(" + target.javaName() + ")";
        String expr = text(c);
        // the concrete consequence: the value itself when it is a constant, otherwise an example on the open side
        double example;
        if (r.isPoint()) example = r.lo();
        else if (!lowOk) example = unsigned ? (target == NumType.BYTE ? -1.5 : -69.235) : Narrowing.exampleBelow(target);
        else example = Narrowing.exampleAbove(target, unsigned);
        NumType exType = srcType == NumType.DOUBLE ? NumType.DOUBLE : NumType.FLOAT;
        long res = Narrowing.narrow(example, exType, target);
        String lit = Narrowing.literal(example, exType);
        String side = r.isPoint() ? "" : !lowOk && !highOk ? " without a range guard" : !lowOk
                ? " guarded only from above (negative values are not clamped)" : " guarded only from below (large values are not clamped)";
        String msg;
        if (target == NumType.CHAR) {
            msg = expr + " converts a " + srcType.javaName() + " to the unsigned 16-bit char" + side
                    + ": Java narrows through int and wraps, so (char) " + lit + " is " + res
                    + ", while C/C++ leave it undefined and the GPU's cvt saturates (0)";
        } else if (unsigned) {
            boolean b8 = target == NumType.BYTE;
            String mask = b8 ? "0xff" : "0xffff";
            msg = expr + " stores a " + srcType.javaName() + " into a " + target.javaName()
                    + " that is read back as unsigned (" + usedAs + ")" + side + ": Java narrows through int and wraps, so "
                    + cast + " " + lit + " & " + mask + " is " + (b8 ? res & 0xff : res & 0xffff)
                    + ", while a GPU port (cvt.rzi." + (b8 ? "u8" : "u16") + ", saturating) gives "
                    + (example < 0 ? 0 : b8 ? 255 : 65535) + "; clamp to 0.." + (b8 ? 255 : 65535) + " first";
        } else {
            msg = expr + " narrows a " + srcType.javaName() + " to " + target.javaName() + side
                    + ": Java narrows through int and wraps, so " + cast + " " + lit + " is " + res
                    + "; clamp to the " + target.javaName() + " range first";
        }
        report(rule, c, msg, c, guessed[0], null);
    }

    /**
     * {@code byteValue()}/{@code shortValue()} of a Number subclass: java.lang.Number specifies exactly this
     * narrowing primitive conversion, so it is the contract, not a hazard.
     */
    private static boolean isNumberNarrowingMethod(ASTNode n, NumType target) {
        for (ASTNode p = n.getParent(); p != null; p = p.getParent()) {
            if (p instanceof MethodDeclaration) {
                MethodDeclaration m = (MethodDeclaration) p;
                String name = m.getName().getIdentifier();
                return m.parameters().isEmpty() && (name.equals("byteValue") && target == NumType.BYTE
                        || name.equals("shortValue") && target == NumType.SHORT);
            }
            if (p instanceof LambdaExpression || p instanceof AbstractTypeDeclaration) return false;
        }
        return false;
    }

    /** How a (byte) cast's value is read back as unsigned, e.g. "pixels[i] & 0xff", or null. */
    private String unsignedUse(CastExpression c, int maskValue, Set<String> names) {
        ASTNode p = c.getParent();
        ASTNode child = c;
        while (p instanceof ParenthesizedExpression) {
            child = p;
            p = p.getParent();
        }
        if (p instanceof InfixExpression && ((InfixExpression) p).getOperator() == InfixExpression.Operator.AND) {
            InfixExpression in = (InfixExpression) p;
            Expression other = in.getLeftOperand() == child ? in.getRightOperand() : in.getLeftOperand();
            if (isMask(RangeAnalysis.unparen(other), maskValue)) return text(in);
        }
        String name = null;
        if (p instanceof Assignment && ((Assignment) p).getRightHandSide() == child) {
            Expression lhs = ((Assignment) p).getLeftHandSide();
            name = simpleName(lhs instanceof ArrayAccess ? ((ArrayAccess) lhs).getArray() : lhs);
        } else if (p instanceof VariableDeclarationFragment) {
            name = ((VariableDeclarationFragment) p).getName().getIdentifier();
        }
        if (name != null && names.contains(name)) return name + (p instanceof Assignment
                && ((Assignment) p).getLeftHandSide() instanceof ArrayAccess ? "[...]" : "") + (maskValue == 0xff ? " & 0xff" : " & 0xffff");
        return null;
    }

    /** NL008 on (float)(E) with double E, or on f op= E with float f and double E. */
    private void doublePromotion(ASTNode site, Expression e, Expression compoundTarget, boolean guessed) {
        Promotion p = new Promotion();
        scanPromotion(e, p);
        if (compoundTarget != null) {
            p.floatLeaves++;
            p.ops++;
        }
        if (p.floatLeaves == 0 || p.doubleVars > 0 || p.unknown > 0) return;
        if (p.inexact == null && p.ops < 2) return;
        if (p.inexact == null && p.literal == null && p.mathCall == null) return;
        String what = p.inexact != null ? "the literal " + p.inexact : p.literal != null ? "the literal " + p.literal : p.mathCall;
        String expr = text(site);
        StringBuilder msg = new StringBuilder(expr).append(" evaluates float operands in double because of ").append(what)
                .append(" and rounds the result back to float");
        if (p.inexact != null) {
            double v = p.inexactValue;
            msg.append(": ").append(p.inexact).append(" is ").append(Narrowing.exact(v, 20)).append(" in double but ")
                    .append(Narrowing.exact((float) v, 20)).append(" as a float literal, so the result can differ from the float computation");
        } else {
            msg.append(": the ").append(p.ops).append(" operations keep double intermediates (double rounding), so the result can differ from the float computation");
        }
        msg.append(" by an ulp; a GPU port in float (or double, much slower) gives a different value");
        report("NL008", site, msg.toString(), site, guessed, null);
    }

    private static final class Promotion {
        int floatLeaves;
        int doubleVars;
        int unknown;
        int ops;
        String inexact;
        double inexactValue;
        String literal;
        String mathCall;
    }

    private void scanPromotion(Expression e, Promotion p) {
        e = RangeAnalysis.unparen(e);
        NumType t = types.of(e);
        if (t == NumType.DOUBLE && !(e instanceof NumberLiteral) && !(e instanceof Name) && isConstant(e)) {
            // a constant subexpression such as -1.0/3.0 acts as one literal
            double v = ((Number) e.resolveConstantExpressionValue()).doubleValue();
            if ((double) (float) v != v) {
                if (p.inexact == null) {
                    p.inexact = text(e);
                    p.inexactValue = v;
                }
            } else if (p.literal == null) p.literal = text(e);
            return;
        }
        switch (e.getNodeType()) {
            case ASTNode.NUMBER_LITERAL: {
                String tok = ((NumberLiteral) e).getToken();
                if (Types.literalType(tok) == NumType.DOUBLE) {
                    double v = Types.literalValue(tok);
                    if (!Double.isNaN(v) && (double) (float) v != v) {
                        if (p.inexact == null) {
                            p.inexact = tok;
                            p.inexactValue = v;
                        }
                    } else if (p.literal == null) p.literal = tok;
                }
                return;
            }
            case ASTNode.INFIX_EXPRESSION: {
                InfixExpression in = (InfixExpression) e;
                InfixExpression.Operator op = in.getOperator();
                boolean arith = op == InfixExpression.Operator.PLUS || op == InfixExpression.Operator.MINUS
                        || op == InfixExpression.Operator.TIMES || op == InfixExpression.Operator.DIVIDE
                        || op == InfixExpression.Operator.REMAINDER;
                if (!arith) {
                    p.unknown++;
                    return;
                }
                List<Expression> operands = new ArrayList<>();
                operands.add(in.getLeftOperand());
                operands.add(in.getRightOperand());
                for (Object o : in.extendedOperands()) operands.add((Expression) o);
                if (t == NumType.DOUBLE) {
                    int exactScale = 0;
                    if (op == InfixExpression.Operator.TIMES) {
                        for (Expression o : operands) if (isPowerOfTwoLiteral(o)) exactScale++;
                    } else if (op == InfixExpression.Operator.DIVIDE) {
                        // x / 2.0 is exact; 4.0 / x is not
                        for (int k = 1; k < operands.size(); k++) if (isPowerOfTwoLiteral(operands.get(k))) exactScale++;
                    }
                    p.ops += operands.size() - 1 - exactScale;
                }
                for (Expression o : operands) scanPromotion(o, p);
                return;
            }
            case ASTNode.PREFIX_EXPRESSION:
                scanPromotion(((PrefixExpression) e).getOperand(), p);
                return;
            case ASTNode.METHOD_INVOCATION: {
                MethodInvocation m = (MethodInvocation) e;
                String q = m.getExpression() == null ? "" : m.getExpression().toString();
                if ((q.equals("Math") || q.equals("StrictMath")) && t == NumType.DOUBLE) {
                    p.ops++;
                    if (p.mathCall == null) p.mathCall = q + "." + m.getName().getIdentifier();
                    for (Object a : m.arguments()) scanPromotion((Expression) a, p);
                    return;
                }
                break;
            }
            default:
                break;
        }
        if (t == NumType.FLOAT || t.isIntegral()) {
            if (t == NumType.FLOAT) p.floatLeaves++;
        } else if (t == NumType.DOUBLE) {
            p.doubleVars++;
        } else {
            p.unknown++;
        }
    }

    private static boolean isConstant(Expression e) {
        return e.resolveConstantExpressionValue() instanceof Number;
    }

    private static boolean isPowerOfTwoLiteral(Expression e) {
        e = RangeAnalysis.unparen(e);
        if (!(e instanceof NumberLiteral)) return false;
        double v = Math.abs(Types.literalValue(((NumberLiteral) e).getToken()));
        if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) return false;
        return Math.getExponent(v) >= -120 && v == Math.scalb(1.0, Math.getExponent(v));
    }

    // ---- assignments: NL004, NL008 (compound) --------------------------------------------------------------

    @Override
    public boolean visit(Assignment a) {
        countFp(a);
        Assignment.Operator op = a.getOperator();
        Expression lhs = a.getLeftHandSide();
        if (op != Assignment.Operator.ASSIGN) {
            Types.T lt = types.typeOf(lhs);
            if (lt.type() == NumType.FLOAT && (op == Assignment.Operator.PLUS_ASSIGN || op == Assignment.Operator.MINUS_ASSIGN
                    || op == Assignment.Operator.TIMES_ASSIGN || op == Assignment.Operator.DIVIDE_ASSIGN)) {
                Types.T rt = types.typeOf(a.getRightHandSide());
                if (rt.type() == NumType.DOUBLE) doublePromotion(a, a.getRightHandSide(), lhs, lt.guessed() || rt.guessed());
            }
        }
        accumulation(a);
        return true;
    }

    private void accumulation(Assignment a) {
        Expression lhs = RangeAnalysis.unparen(a.getLeftHandSide());
        String name;
        if (lhs instanceof SimpleName) name = ((SimpleName) lhs).getIdentifier();
        else if (lhs instanceof FieldAccess && ((FieldAccess) lhs).getExpression() instanceof ThisExpression)
            name = ((FieldAccess) lhs).getName().getIdentifier();
        else return;
        Assignment.Operator op = a.getOperator();
        Expression increment;
        if (op == Assignment.Operator.PLUS_ASSIGN || op == Assignment.Operator.MINUS_ASSIGN) {
            increment = a.getRightHandSide();
        } else if (op == Assignment.Operator.ASSIGN) {
            Expression r = RangeAnalysis.unparen(a.getRightHandSide());
            if (!(r instanceof InfixExpression)) return;
            InfixExpression in = (InfixExpression) r;
            if (!in.extendedOperands().isEmpty()) return;
            if (in.getOperator() == InfixExpression.Operator.PLUS && RangeAnalysis.isName(in.getRightOperand(), name)) {
                increment = in.getLeftOperand();
            } else if ((in.getOperator() == InfixExpression.Operator.PLUS || in.getOperator() == InfixExpression.Operator.MINUS)
                    && RangeAnalysis.isName(in.getLeftOperand(), name)) {
                increment = in.getRightOperand();
            } else {
                return;
            }
        } else {
            return;
        }
        Types.T t = types.typeOf(lhs);
        if (!t.type().isFloating()) return;
        if (RangeAnalysis.unparen(increment) instanceof NumberLiteral) {
            double v = Types.literalValue(((NumberLiteral) RangeAnalysis.unparen(increment)).getToken());
            if (v == Math.rint(v)) return; // counting in whole steps is exact up to 2^24 (float) / 2^53
        }
        VariableDeclaration decl = lhs instanceof SimpleName ? Types.declarationOf((SimpleName) lhs) : null;
        // loops that carry the accumulator: ancestors of the update that do not contain its declaration
        List<Statement> loops = new ArrayList<>();
        for (ASTNode p = a.getParent(); p != null; p = p.getParent()) {
            if (p instanceof MethodDeclaration || p instanceof LambdaExpression || p instanceof AbstractTypeDeclaration
                    || p instanceof AnonymousClassDeclaration || p instanceof Initializer) break;
            if (decl != null && isAncestor(p, decl)) break;
            if (p instanceof ForStatement || p instanceof WhileStatement || p instanceof DoStatement
                    || p instanceof EnhancedForStatement) loops.add((Statement) p);
        }
        if (loops.isEmpty()) return;
        long trips = 1;
        for (Statement l : loops) {
            long n = tripCount(l);
            if (n < 0) {
                trips = -1;
                break;
            }
            trips *= n;
        }
        int min = ctx.rules().intOption("NL004", "min-trip-count");
        if (trips >= 0 && trips < min) return;
        Statement outer = loops.get(loops.size() - 1);
        for (Statement l : loops) if (isCompensated(l)) return;
        String key = name + "@" + (decl != null ? decl.getStartPosition() : -1) + "@" + outer.getStartPosition();
        if (!accumulationsReported.add(key)) return;
        boolean isDouble = t.type() == NumType.DOUBLE;
        String tripText = trips < 0 ? "a loop with an unknown trip count" : "loops running " + trips + " times";
        String msg = t.type().javaName() + " accumulator '" + name + "' is updated serially in " + tripText + " ("
                + text(a) + "): the rounding error grows with the number of terms and depends on the summation order, "
                + "so a parallel GPU reduction gives a different result"
                + (isDouble ? " (double keeps ~16 digits; a float port of this loop loses far more)"
                        : "; accumulate in double or use pairwise/Kahan summation");
        report("NL004", a, msg, a, t.guessed(), isDouble ? Level.NOTE : null);
    }

    private static boolean isAncestor(ASTNode anc, ASTNode n) {
        for (ASTNode p = n; p != null; p = p.getParent()) if (p == anc) return true;
        return false;
    }

    /** Kahan/Neumaier: the loop computes a compensation term like c = (t - sum) - y. */
    private boolean isCompensated(Statement loop) {
        return compensated.computeIfAbsent(loop, l -> {
            boolean[] hit = {false};
            l.accept(new ASTVisitor() {
                @Override
                public boolean visit(InfixExpression in) {
                    if (in.getOperator() == InfixExpression.Operator.MINUS || in.getOperator() == InfixExpression.Operator.PLUS) {
                        Expression left = RangeAnalysis.unparen(in.getLeftOperand());
                        if (in.getLeftOperand() instanceof ParenthesizedExpression && left instanceof InfixExpression
                                && ((InfixExpression) left).getOperator() == InfixExpression.Operator.MINUS
                                && types.isFloating(left)) {
                            hit[0] = true;
                        }
                    }
                    return !hit[0];
                }
            });
            return hit[0];
        });
    }

    /** Constant trip count of a loop, or -1. */
    private long tripCount(Statement l) {
        if (!(l instanceof ForStatement)) {
            if (l instanceof EnhancedForStatement) {
                Expression it = RangeAnalysis.unparen(((EnhancedForStatement) l).getExpression());
                if (it instanceof ArrayCreation && ((ArrayCreation) it).getInitializer() != null)
                    return ((ArrayCreation) it).getInitializer().expressions().size();
            }
            return -1;
        }
        ForStatement f = (ForStatement) l;
        if (f.initializers().size() != 1 || f.updaters().size() != 1 || f.getExpression() == null) return -1;
        String var;
        Expression init;
        Object i0 = f.initializers().get(0);
        if (i0 instanceof VariableDeclarationExpression && ((VariableDeclarationExpression) i0).fragments().size() == 1) {
            VariableDeclarationFragment vf = (VariableDeclarationFragment) ((VariableDeclarationExpression) i0).fragments().get(0);
            var = vf.getName().getIdentifier();
            init = vf.getInitializer();
        } else if (i0 instanceof Assignment && ((Assignment) i0).getLeftHandSide() instanceof SimpleName) {
            var = ((SimpleName) ((Assignment) i0).getLeftHandSide()).getIdentifier();
            init = ((Assignment) i0).getRightHandSide();
        } else {
            return -1;
        }
        Range start = ranges.of(init);
        if (!start.isPoint()) return -1;
        Expression cond = RangeAnalysis.unparen(f.getExpression());
        if (!(cond instanceof InfixExpression)) return -1;
        InfixExpression c = (InfixExpression) cond;
        Expression bound;
        InfixExpression.Operator op = c.getOperator();
        if (RangeAnalysis.isName(c.getLeftOperand(), var)) bound = c.getRightOperand();
        else if (RangeAnalysis.isName(c.getRightOperand(), var)) {
            bound = c.getLeftOperand();
            if (op == InfixExpression.Operator.LESS) op = InfixExpression.Operator.GREATER;
            else if (op == InfixExpression.Operator.GREATER) op = InfixExpression.Operator.LESS;
            else if (op == InfixExpression.Operator.LESS_EQUALS) op = InfixExpression.Operator.GREATER_EQUALS;
            else if (op == InfixExpression.Operator.GREATER_EQUALS) op = InfixExpression.Operator.LESS_EQUALS;
        } else return -1;
        Range end = ranges.of(bound);
        if (!end.isPoint()) return -1;
        double step = step((Expression) f.updaters().get(0), var);
        if (step == 0 || Double.isNaN(step)) return -1;
        double s = start.lo(), e = end.lo();
        double n;
        if (op == InfixExpression.Operator.LESS) n = Math.ceil((e - s) / step);
        else if (op == InfixExpression.Operator.LESS_EQUALS) n = Math.floor((e - s) / step) + 1;
        else if (op == InfixExpression.Operator.GREATER) n = Math.ceil((s - e) / -step);
        else if (op == InfixExpression.Operator.GREATER_EQUALS) n = Math.floor((s - e) / -step) + 1;
        else if (op == InfixExpression.Operator.NOT_EQUALS) n = (e - s) / step;
        else return -1;
        return n < 0 || Double.isNaN(n) || Double.isInfinite(n) ? -1 : (long) Math.max(0, n);
    }

    private double step(Expression u, String var) {
        if (u instanceof PostfixExpression && RangeAnalysis.isName(((PostfixExpression) u).getOperand(), var)) {
            return ((PostfixExpression) u).getOperator() == PostfixExpression.Operator.INCREMENT ? 1 : -1;
        }
        if (u instanceof PrefixExpression && RangeAnalysis.isName(((PrefixExpression) u).getOperand(), var)) {
            PrefixExpression.Operator o = ((PrefixExpression) u).getOperator();
            return o == PrefixExpression.Operator.INCREMENT ? 1 : o == PrefixExpression.Operator.DECREMENT ? -1 : Double.NaN;
        }
        if (u instanceof Assignment && RangeAnalysis.isName(((Assignment) u).getLeftHandSide(), var)) {
            Assignment a = (Assignment) u;
            Range r = ranges.of(a.getRightHandSide());
            if (!r.isPoint()) return Double.NaN;
            if (a.getOperator() == Assignment.Operator.PLUS_ASSIGN) return r.lo();
            if (a.getOperator() == Assignment.Operator.MINUS_ASSIGN) return -r.lo();
        }
        return Double.NaN;
    }

    // ---- NL002 reciprocal idiom ----------------------------------------------------------------------------

    @Override
    public boolean visit(InfixExpression in) {
        countFp(in);
        if (in.getOperator() == InfixExpression.Operator.TIMES && types.isFloating(in)) {
            List<Expression> ops = new ArrayList<>();
            ops.add(in.getLeftOperand());
            ops.add(in.getRightOperand());
            for (Object o : in.extendedOperands()) ops.add((Expression) o);
            for (Expression o : ops) {
                InfixExpression rec = reciprocal(o);
                if (rec != null) {
                    report("NL002", in, text(in) + " multiplies by a rounded reciprocal (" + text(rec)
                            + "): two roundings instead of one, so the result can be 1 ulp off the correctly rounded "
                            + "division and differs from x / y on CPU and GPU (where rcp.approx is used under fast math)",
                            in, types.typeOf(in).guessed(), Level.NOTE);
                    break;
                }
            }
        }
        return true;
    }

    /** 1 / y (1, 1.0, 1f ...) with a non-constant floating y, or null. */
    private InfixExpression reciprocal(Expression e) {
        e = RangeAnalysis.unparen(e);
        if (!(e instanceof InfixExpression)) return null;
        InfixExpression d = (InfixExpression) e;
        if (d.getOperator() != InfixExpression.Operator.DIVIDE || !d.extendedOperands().isEmpty()) return null;
        Expression num = RangeAnalysis.unparen(d.getLeftOperand());
        if (!(num instanceof NumberLiteral) || Types.literalValue(((NumberLiteral) num).getToken()) != 1.0) return null;
        if (!types.isFloating(d)) return null;
        if (d.getRightOperand().resolveConstantExpressionValue() != null) return null;
        if (RangeAnalysis.unparen(d.getRightOperand()) instanceof NumberLiteral) return null;
        return d;
    }

    @Override
    public boolean visit(VariableDeclarationFragment vf) {
        Expression init = vf.getInitializer();
        InfixExpression rec = init == null ? null : reciprocal(init);
        if (rec != null) {
            // hoisted reciprocal: r = 1.0f / y; ... x * r inside a loop that does not contain the declaration
            String id = vf.getName().getIdentifier();
            ASTNode scope = vf.getParent().getParent();
            InfixExpression use = findLoopMultiply(scope, id, vf);
            if (use != null) {
                int useLine = cu.getLineNumber(use.getStartPosition());
                report("NL002", vf, id + " = " + text(rec) + " is a rounded reciprocal that is multiplied in a loop ("
                        + text(use) + ", line " + useLine + "): two roundings instead of one, so each product can be "
                        + "1 ulp off the correctly rounded division x / " + text(rec.getRightOperand()), vf,
                        types.typeOf(init).guessed(), Level.NOTE);
            }
        }
        return true;
    }

    private InfixExpression findLoopMultiply(ASTNode scope, String id, ASTNode decl) {
        InfixExpression[] found = {null};
        scope.accept(new ASTVisitor() {
            @Override
            public boolean visit(InfixExpression in) {
                if (found[0] != null) return false;
                if (in.getOperator() != InfixExpression.Operator.TIMES || in.getStartPosition() < decl.getStartPosition()) return true;
                boolean uses = RangeAnalysis.isName(in.getLeftOperand(), id) || RangeAnalysis.isName(in.getRightOperand(), id);
                for (Object o : in.extendedOperands()) uses |= RangeAnalysis.isName((Expression) o, id);
                if (uses && inLoopNotContaining(in, decl)) found[0] = in;
                return true;
            }
        });
        return found[0];
    }

    private static boolean inLoopNotContaining(ASTNode n, ASTNode decl) {
        for (ASTNode p = n.getParent(); p != null; p = p.getParent()) {
            if (p instanceof MethodDeclaration || p instanceof LambdaExpression) return false;
            if (isAncestor(p, decl)) return false;
            if (p instanceof ForStatement || p instanceof WhileStatement || p instanceof DoStatement
                    || p instanceof EnhancedForStatement) return true;
        }
        return false;
    }

    // ---- NL005 non-strictfp float arithmetic (release < 17) ------------------------------------------------

    @Override
    public boolean visit(PrefixExpression p) {
        if (p.getOperator() == PrefixExpression.Operator.INCREMENT || p.getOperator() == PrefixExpression.Operator.DECREMENT) countFp(p);
        return true;
    }

    @Override
    public boolean visit(PostfixExpression p) {
        countFp(p);
        return true;
    }

    private void countFp(Expression e) {
        if (release >= 17) return;
        boolean arith;
        if (e instanceof InfixExpression) {
            InfixExpression.Operator op = ((InfixExpression) e).getOperator();
            arith = op == InfixExpression.Operator.PLUS || op == InfixExpression.Operator.MINUS
                    || op == InfixExpression.Operator.TIMES || op == InfixExpression.Operator.DIVIDE
                    || op == InfixExpression.Operator.REMAINDER;
        } else if (e instanceof Assignment) {
            arith = ((Assignment) e).getOperator() != Assignment.Operator.ASSIGN;
        } else if (e instanceof CastExpression) {
            return;
        } else {
            arith = true;
        }
        if (!arith || !types.isFloating(e instanceof Assignment ? ((Assignment) e).getLeftHandSide() : e)) return;
        ASTNode type = null;
        for (ASTNode p = e.getParent(); p != null; p = p.getParent()) {
            if (p instanceof MethodDeclaration && Modifier.isStrictfp(((MethodDeclaration) p).getModifiers())) return;
            if (p instanceof AbstractTypeDeclaration) {
                if (Modifier.isStrictfp(((AbstractTypeDeclaration) p).getModifiers())) return;
                if (type == null) type = p;
            }
        }
        if (type == null) return;
        // strictfp on an enclosing type covers nested ones: checked above for every ancestor
        int[] c = fpOps.computeIfAbsent(type, k -> new int[] {0, e.getStartPosition()});
        c[0]++;
    }

    private void reportNl005() {
        for (Map.Entry<ASTNode, int[]> en : fpOps.entrySet()) {
            AbstractTypeDeclaration t = (AbstractTypeDeclaration) en.getKey();
            int n = en.getValue()[0];
            int firstLine = cu.getLineNumber(en.getValue()[1]);
            String kind = t instanceof EnumDeclaration ? "enum" : t instanceof RecordDeclaration ? "record"
                    : t instanceof TypeDeclaration && ((TypeDeclaration) t).isInterface() ? "interface" : "class";
            report("NL005", t.getName(), kind + " " + t.getName().getIdentifier() + " has " + n
                    + " float/double operation" + (n == 1 ? "" : "s") + " (first at line " + firstLine
                    + ") in code that is not strictfp, compiled for Java " + release
                    + ": before Java 17 (JEP 306) the JVM may evaluate them with an extended exponent range (x87), "
                    + "so overflow, underflow and results can differ from strict IEEE 754 (SSE, GPU, Java 17+); "
                    + "declare the " + kind + " strictfp or target Java 17", t.getName(), false, null);
        }
    }

    // ---- NL010 Math transcendental functions ---------------------------------------------------------------

    @Override
    public boolean visit(MethodInvocation m) {
        if (jcuda != null) jcuda.visit(m);
        String n = m.getName().getIdentifier();
        if (!TRANSCENDENTAL.contains(n)) return true;
        if (!isJavaLangMath(m)) return true;
        ASTNode owner = null;
        for (ASTNode p = m.getParent(); p != null; p = p.getParent()) {
            if (p instanceof MethodDeclaration || p instanceof Initializer || p instanceof AbstractTypeDeclaration) {
                owner = p;
                break;
            }
        }
        if (owner != null) mathCalls.computeIfAbsent(owner, k -> new ArrayList<>()).add(m);
        return true;
    }

    private boolean isJavaLangMath(MethodInvocation m) {
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
            if (i.isOnDemand() ? s.equals("java.lang.Math") : s.equals("java.lang.Math." + m.getName().getIdentifier())) return true;
        }
        return false;
    }

    private void reportNl010() {
        for (List<MethodInvocation> calls : mathCalls.values()) {
            MethodInvocation first = calls.get(0);
            Set<String> names = new java.util.TreeSet<>();
            for (MethodInvocation c : calls) names.add("Math." + c.getName().getIdentifier());
            int more = calls.size() - 1;
            String fn = functionName(first);
            String msg = text(first) + (more > 0 ? " and " + more + " more call" + (more == 1 ? "" : "s") + " to "
                    + String.join("/", names) : "") + " in " + fn + ": java.lang.Math transcendental functions are "
                    + "not correctly rounded and may use platform intrinsics (results can differ by 1 ulp between JVMs "
                    + "and CPUs), and CUDA's math library has its own error bounds (sinf: 2 ulp); use StrictMath where "
                    + "results must be reproducible";
            report("NL010", first, msg, first, !bindings || first.resolveMethodBinding() == null, null);
        }
    }
}
