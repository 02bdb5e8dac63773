package dev.numlint.java;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jdt.core.dom.*;

/**
 * The narrowing conversions of floating values to char, byte and short in a unit, with what is known about each:
 * the floating source (seen through int/long casts, Math.round and the project's own rounding helpers), its range
 * and guards, and whether the narrowed value is read back as unsigned. Computed once, shared by the checks for
 * NL001 (unsigned targets) and NL011 (signed targets).
 */
public final class Narrowings {
    /**
     * One narrowing.
     *
     * @param usedAs  how the value is read back as unsigned (e.g. "pixels[...] & 0xff"), or null
     * @param arrayStore the narrowed value is stored into a byte[]/short[] element (pixel data, where the values
     *                   are usually unsigned): the advice must not be to clamp to the signed range
     * @param documented a byte/short conversion of a setter's parameter whose documentation leaves the range to the
     *                   callers ({@link Contracts}): reported as a note
     */
    public record Cast(
            CastExpression cast,
            NumType target,
            Expression source,
            NumType sourceType,
            boolean unsigned,
            String usedAs,
            Range range,
            boolean lowOk,
            boolean highOk,
            boolean arrayStore,
            boolean guessed,
            boolean documented,
            MissingGuard missingGuard) {
        public boolean guarded() {
            return lowOk && highOk;
        }
    }

    /**
     * The one path that leaves the converted value open where the other paths bound it: the variable
     * {@code variable} is assigned on {@code paths} paths of an if/else chain before the conversion, and on all but
     * the path ending in {@code definition} the conversion would be in range. The fix belongs there, once, not at
     * each conversion: the checks report one finding at {@code definition} with the conversions as related
     * locations (issue 29: eight warnings for one missing clamp, none at its line).
     */
    public record MissingGuard(Statement definition, String variable, int paths, int guarded) {}

    private static final Object KEY = new Object();

    private Narrowings() {}

    /** The unit's narrowings (computed on first use). */
    public static List<Cast> of(JavaUnit unit) {
        return unit.memo(KEY, () -> compute(unit));
    }

    private static List<Cast> compute(JavaUnit unit) {
        List<Cast> out = new ArrayList<>();
        for (CastExpression c : unit.casts()) {
            NumType target = Types.typeNode(c.getType());
            if (target != NumType.CHAR && target != NumType.BYTE && target != NumType.SHORT) continue;
            if (isNumberNarrowingMethod(c, target)) continue;
            Cast n = narrowing(unit, c, target);
            if (n != null) out.add(n);
        }
        return out;
    }

    private static Cast narrowing(JavaUnit unit, CastExpression c, NumType target) {
        boolean[] guessed = {false};
        Expression src = floatingSource(unit, c.getExpression(), guessed, 0);
        if (src == null) return null;
        NumType srcType =
                src instanceof MethodInvocation && !unit.types().of(src).isFloating()
                        ? helperSourceType(unit, (MethodInvocation) src)
                        : unit.types().of(src);
        boolean unsigned = target == NumType.CHAR;
        String usedAs = null;
        if (target == NumType.BYTE || target == NumType.SHORT) {
            usedAs = unsignedUse(unit, c, target == NumType.BYTE ? 0xff : 0xffff);
            unsigned = usedAs != null;
        }
        Range r = unit.ranges().of(src);
        double min;
        double max;
        if (target == NumType.CHAR) {
            min = -1;
            max = 65536;
        } else if (target == NumType.BYTE) {
            min = unsigned ? -1 : -129;
            max = 256;
        } else {
            min = unsigned ? -1 : -32769;
            max = 65536;
        }
        boolean lowOk = r.lowSafe(min);
        boolean highOk = r.highSafe(max);
        if (r.isPoint() && !Double.isInfinite(r.lo())) {
            // a constant: flagged exactly when the conversion changes its integer part
            long res = Narrowing.narrow(r.lo(), srcType == NumType.DOUBLE ? NumType.DOUBLE : NumType.FLOAT, target);
            long seen = unsigned && target == NumType.BYTE
                    ? res & 0xff
                    : unsigned && target == NumType.SHORT ? res & 0xffff : res;
            long trunc = (long) r.lo();
            lowOk = highOk = seen == trunc;
        }
        // a value kept in 0..255 (0..65535) and narrowed to a byte (short) is the unsigned-store idiom of imaging
        // code: the bits are exactly the unsigned value, which readers take with & 0xff; the signed upper limits
        // above (256, 65536) accept it, so only values that can leave the unsigned range are reported
        boolean unsignedStore = !unsigned && target != NumType.CHAR && storedInArray(c);
        boolean documented = target != NumType.CHAR && !(lowOk && highOk) && parameterOfDocumentedSetter(unit, src);
        MissingGuard missing = lowOk && highOk || documented ? null : missingGuard(unit, src, min, max);
        return new Cast(
                c,
                target,
                src,
                srcType,
                unsigned,
                usedAs,
                r,
                lowOk,
                highOk,
                unsignedStore,
                guessed[0],
                documented,
                missing);
    }

    /** See {@link MissingGuard}: null unless exactly one path of a variable of {@code src} leaves it open. */
    private static MissingGuard missingGuard(JavaUnit unit, Expression src, double min, double max) {
        List<SimpleName> names = new ArrayList<>();
        src.accept(new ASTVisitor() {
            @Override
            public boolean visit(SimpleName n) {
                if (n.getLocationInParent() != MethodInvocation.NAME_PROPERTY
                        && Types.declarationOf(n) != null
                        && names.stream().noneMatch(x -> x.getIdentifier().equals(n.getIdentifier()))) names.add(n);
                return false;
            }
        });
        for (SimpleName n : names) {
            List<RangeGuards.PathDefinition> paths = unit.ranges().pathDefinitions(n);
            if (paths.size() < 2) continue;
            List<Statement> open = new ArrayList<>();
            int guarded = 0;
            for (RangeGuards.PathDefinition d : paths) {
                Range r = unit.ranges().of(src, java.util.Map.of(n.getIdentifier(), d.range()));
                if (r.lowSafe(min) && r.highSafe(max)) guarded++;
                else open.add(d.definition());
            }
            if (guarded > 0 && open.size() == 1)
                return new MissingGuard(open.get(0), n.getIdentifier(), paths.size(), guarded);
        }
        return null;
    }

    /**
     * Reports the conversions of {@code casts} that share a {@link MissingGuard} as one finding of {@code rule} at
     * the path that lacks the guard (message key {@code java-path}), the conversions as related locations; returns
     * the casts it reported (the check reports the others one by one).
     */
    public static java.util.Set<Cast> reportMissingGuards(JavaUnit unit, String rule, List<Cast> casts) {
        java.util.Map<Statement, List<Cast>> groups = new java.util.LinkedHashMap<>();
        for (Cast c : casts) {
            if (c.missingGuard() != null)
                groups.computeIfAbsent(c.missingGuard().definition(), k -> new ArrayList<>())
                        .add(c);
        }
        java.util.Set<Cast> done = new java.util.HashSet<>();
        for (java.util.Map.Entry<Statement, List<Cast>> g : groups.entrySet()) {
            List<Cast> group = g.getValue();
            Cast first = group.get(0);
            MissingGuard mg = first.missingGuard();
            NumType exType = first.sourceType() == NumType.DOUBLE ? NumType.DOUBLE : NumType.FLOAT;
            double example = example(first);
            long res = Narrowing.narrow(example, exType, first.target());
            if (first.unsigned()) res = first.target() == NumType.BYTE ? res & 0xff : res & 0xffff;
            int line = unit.line(first.cast());
            String where = group.size() == 1
                    ? "the conversion at line " + line
                    : group.size() + " conversions from line " + line;
            ASTNode at = g.getKey() instanceof ExpressionStatement
                    ? ((ExpressionStatement) g.getKey()).getExpression()
                    : g.getKey();
            String msg = JavaUnit.message(
                    rule,
                    "java-path",
                    "expr",
                    unit.shortText(at, 28),
                    "var",
                    mg.variable(),
                    "guarded",
                    mg.guarded(),
                    "paths",
                    mg.paths(),
                    "casts",
                    where,
                    "type",
                    first.target().javaName(),
                    "example",
                    Narrowing.literal(example, exType),
                    "result",
                    res);
            boolean guessed = group.stream().anyMatch(Cast::guessed);
            dev.numlint.model.Finding.Builder b = unit.report(rule, at, msg, guessed, null, null);
            if (b != null) {
                for (Cast c : group) {
                    b.related(unit.location(c.cast()), "converted here: " + unit.shortText(c.cast(), 40));
                    relateRead(unit, c, b);
                }
            }
            done.addAll(group);
        }
        return done;
    }

    /**
     * Whether {@code src} is a parameter of the enclosing method (possibly plus a constant, {@code value + 0.5f}) that
     * the method never reassigns, and the method's documentation says it does not clamp the value.
     */
    private static boolean parameterOfDocumentedSetter(JavaUnit unit, Expression src) {
        Expression e = JavaSyntax.unparen(src);
        if (e instanceof InfixExpression
                && ((InfixExpression) e).getOperator() == InfixExpression.Operator.PLUS
                && ((InfixExpression) e).extendedOperands().isEmpty()) {
            InfixExpression in = (InfixExpression) e;
            if (in.getRightOperand().resolveConstantExpressionValue() instanceof Number
                    || JavaSyntax.unparen(in.getRightOperand()) instanceof NumberLiteral) {
                e = JavaSyntax.unparen(in.getLeftOperand());
            }
        }
        if (!(e instanceof SimpleName)) return false;
        VariableDeclaration d = Types.declarationOf((SimpleName) e);
        if (!(d instanceof SingleVariableDeclaration) || !(d.getParent() instanceof MethodDeclaration)) return false;
        MethodDeclaration md = (MethodDeclaration) d.getParent();
        if (md.getBody() == null || JavaSyntax.assignedIn(md.getBody(), ((SimpleName) e).getIdentifier())) return false;
        return Contracts.documentedNoClamping(unit, md);
    }

    /**
     * The floating expression a narrowing conversion starts from: seen through (int)/(long) casts, Math.round and
     * calls of the unit's own methods that return an integer computed from a floating value ({@code round(x * c)}).
     */
    private static Expression floatingSource(JavaUnit unit, Expression e, boolean[] guessed, int depth) {
        e = JavaSyntax.unparen(e);
        Types.T t = unit.types().typeOf(e);
        if (t.guessed()) guessed[0] = true;
        if (t.type().isFloating()) return e;
        if (e instanceof CastExpression) {
            NumType ct = Types.typeNode(((CastExpression) e).getType());
            if (ct == NumType.INT || ct == NumType.LONG) {
                Expression inner = JavaSyntax.unparen(((CastExpression) e).getExpression());
                Types.T it = unit.types().typeOf(inner);
                if (it.type().isFloating()) {
                    if (it.guessed()) guessed[0] = true;
                    return inner;
                }
            }
        }
        if (e instanceof MethodInvocation) {
            MethodInvocation m = (MethodInvocation) e;
            String q = m.getExpression() == null ? "" : m.getExpression().toString();
            if (m.getName().getIdentifier().equals("round")
                    && (q.equals("Math") || q.equals("StrictMath"))
                    && m.arguments().size() == 1) {
                Expression inner = (Expression) m.arguments().get(0);
                if (unit.types().of(inner).isFloating()) return inner;
            }
            if (depth == 0 && helperSourceType(unit, m) != null) return m;
        }
        return null;
    }

    /**
     * For a call of a method of this unit (unqualified or this.) that returns an integer, the floating type every
     * return statement converts from, or null when some return is not a converted floating value.
     */
    static NumType helperSourceType(JavaUnit unit, MethodInvocation m) {
        if (m.getExpression() != null && !(m.getExpression() instanceof ThisExpression)) return null;
        MethodDeclaration d =
                Types.localMethod(m, m.getName().getIdentifier(), m.arguments().size());
        if (d == null || d.getBody() == null || d.getReturnType2() == null) return null;
        NumType rt = Types.typeNode(d.getReturnType2());
        if (rt != NumType.INT && rt != NumType.LONG) return null;
        NumType[] src = {null};
        boolean[] other = {false};
        d.getBody().accept(new ASTVisitor() {
            @Override
            public boolean visit(ReturnStatement rs) {
                Expression x = rs.getExpression();
                Expression f = x == null ? null : floatingSource(unit, x, new boolean[1], 1);
                if (f == null) {
                    other[0] = true;
                } else if (src[0] == null || unit.types().of(f) == NumType.DOUBLE) {
                    src[0] = unit.types().of(f);
                }
                return false;
            }

            @Override
            public boolean visit(LambdaExpression l) {
                return false;
            }

            @Override
            public boolean visit(TypeDeclaration t) {
                return false;
            }

            @Override
            public boolean visit(AnonymousClassDeclaration a) {
                return false;
            }
        });
        return other[0] || src[0] == null || !src[0].isFloating() ? null : src[0];
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
                return m.parameters().isEmpty()
                        && (name.equals("byteValue") && target == NumType.BYTE
                                || name.equals("shortValue") && target == NumType.SHORT);
            }
            if (p instanceof LambdaExpression || p instanceof AbstractTypeDeclaration) return false;
        }
        return false;
    }

    /** How a (byte) cast's value is read back as unsigned, e.g. "pixels[i] & 0xff", or null. */
    private static String unsignedUse(JavaUnit unit, CastExpression c, int maskValue) {
        ASTNode p = c.getParent();
        ASTNode child = c;
        while (p instanceof ParenthesizedExpression) {
            child = p;
            p = p.getParent();
        }
        if (p instanceof InfixExpression && ((InfixExpression) p).getOperator() == InfixExpression.Operator.AND) {
            InfixExpression in = (InfixExpression) p;
            Expression other = in.getLeftOperand() == child ? in.getRightOperand() : in.getLeftOperand();
            if (JavaUnit.isMask(JavaSyntax.unparen(other), maskValue)) return unit.text(in);
        }
        String name = null;
        Expression target = null;
        if (p instanceof Assignment && ((Assignment) p).getRightHandSide() == child) {
            Expression lhs = ((Assignment) p).getLeftHandSide();
            target = lhs;
            name = JavaUnit.simpleName(lhs instanceof ArrayAccess ? ((ArrayAccess) lhs).getArray() : lhs);
        } else if (p instanceof VariableDeclarationFragment) {
            target = ((VariableDeclarationFragment) p).getName();
            name = ((VariableDeclarationFragment) p).getName().getIdentifier();
        }
        if (name != null && unit.readAsUnsigned(target, maskValue))
            return name
                    + (p instanceof Assignment && ((Assignment) p).getLeftHandSide() instanceof ArrayAccess
                            ? "[...]"
                            : "")
                    + (maskValue == 0xff ? " & 0xff" : " & 0xffff");
        return null;
    }

    /**
     * Adds the reasoning of a finding on {@code n} as related locations: where the converted value comes from (the
     * last definition of the variable it converts, before the conversion) and, for a value stored and read back as
     * unsigned, the read that sees it.
     */
    public static void relate(JavaUnit unit, Cast n, dev.numlint.model.Finding.Builder b) {
        if (b == null) return;
        Expression src = JavaSyntax.unparen(n.source());
        if (src instanceof SimpleName) {
            ASTNode def = lastDefinition((SimpleName) src, n.cast());
            if (def != null) b.related(unit.location(def), "the value comes from here: " + unit.shortText(def, 40));
        }
        relateRead(unit, n, b);
    }

    /** For a value stored and read back as unsigned: the read that sees it, as a related location. */
    static void relateRead(JavaUnit unit, Cast n, dev.numlint.model.Finding.Builder b) {
        if (b == null || !n.unsigned() || n.target() == NumType.CHAR) return;
        ASTNode p = n.cast().getParent();
        ASTNode child = n.cast();
        while (p instanceof ParenthesizedExpression) {
            child = p;
            p = p.getParent();
        }
        Expression target = p instanceof Assignment && ((Assignment) p).getRightHandSide() == child
                ? ((Assignment) p).getLeftHandSide()
                : p instanceof VariableDeclarationFragment ? ((VariableDeclarationFragment) p).getName() : null;
        if (target == null) return;
        int mask = n.target() == NumType.BYTE ? 0xff : 0xffff;
        InfixExpression read = readOfStore(unit, n.cast(), target, mask);
        if (read != null) {
            b.related(
                    unit.location(read), "the stored value is read back as unsigned here: " + unit.shortText(read, 40));
        } else if (!unit.unsignedReads(target, mask).isEmpty()) {
            InfixExpression first = unit.unsignedReads(target, mask).get(0);
            b.related(unit.location(first), "the data is read as unsigned here: " + unit.shortText(first, 40));
        }
    }

    /** The last assignment or declaration of {@code name}'s variable before {@code use} in the same member. */
    private static ASTNode lastDefinition(SimpleName name, ASTNode use) {
        ASTNode member = member(use);
        if (member == null) return null;
        String id = name.getIdentifier();
        ASTNode[] last = {null};
        member.accept(new ASTVisitor() {
            @Override
            public boolean visit(Assignment a) {
                if (a.getStartPosition() < use.getStartPosition() && JavaSyntax.isName(a.getLeftHandSide(), id))
                    last[0] = a;
                return true;
            }

            @Override
            public boolean visit(VariableDeclarationFragment f) {
                if (f.getStartPosition() < use.getStartPosition()
                        && f.getName().getIdentifier().equals(id)
                        && f.getInitializer() != null) last[0] = f;
                return true;
            }
        });
        return last[0];
    }

    /**
     * The first {@code & mask} read of {@code target}'s variable that can see the value stored by {@code c}: a read
     * in another member (the data read elsewhere), after the store, or before it in a loop around both at another
     * index; a read of a fresh element before the store in the same pass reads the old value (issue 29: an error
     * whose reasoning cited such a read). Null when none can.
     */
    public static InfixExpression readOfStore(JavaUnit unit, CastExpression c, Expression target, int mask) {
        ASTNode member = member(c);
        Statement store = statementOf(c);
        for (InfixExpression read : unit.unsignedReads(target, mask)) {
            if (member(read) != member || store == null) return read;
            if (read.getStartPosition() >= store.getStartPosition() + store.getLength()) return read;
            if (JavaUnit.isAncestor(store, read)) continue;
            if (loopAround(read, store) && !sameIndex(read, target)) return read;
        }
        return null;
    }

    private static ASTNode member(ASTNode n) {
        for (ASTNode p = n.getParent(); p != null; p = p.getParent())
            if (p instanceof BodyDeclaration || p instanceof LambdaExpression) return p;
        return null;
    }

    private static Statement statementOf(ASTNode n) {
        for (ASTNode p = n.getParent(); p != null; p = p.getParent()) if (p instanceof Statement) return (Statement) p;
        return null;
    }

    private static boolean loopAround(ASTNode a, ASTNode b) {
        for (ASTNode p = b.getParent(); p != null && !(p instanceof BodyDeclaration); p = p.getParent()) {
            if ((p instanceof ForStatement
                            || p instanceof EnhancedForStatement
                            || p instanceof WhileStatement
                            || p instanceof DoStatement)
                    && JavaUnit.isAncestor(p, a)) return true;
        }
        return false;
    }

    /** The read {@code x[i] & 0xff} reads the element the store {@code x[i] = ...} writes (the same index text). */
    private static boolean sameIndex(InfixExpression read, Expression target) {
        if (!(JavaSyntax.unparen(target) instanceof ArrayAccess)) return true;
        Expression l = JavaSyntax.unparen(read.getLeftOperand());
        Expression r = JavaSyntax.unparen(read.getRightOperand());
        Expression arr = l instanceof ArrayAccess ? l : r instanceof ArrayAccess ? r : null;
        return arr != null
                && ((ArrayAccess) arr)
                        .getIndex()
                        .subtreeMatch(new ASTMatcher(), ((ArrayAccess) JavaSyntax.unparen(target)).getIndex());
    }

    private static boolean storedInArray(CastExpression c) {
        ASTNode p = c.getParent();
        ASTNode child = c;
        while (p instanceof ParenthesizedExpression) {
            child = p;
            p = p.getParent();
        }
        return p instanceof Assignment
                && ((Assignment) p).getRightHandSide() == child
                && JavaSyntax.unparen(((Assignment) p).getLeftHandSide()) instanceof ArrayAccess;
    }

    /**
     * The impact of an unguarded narrowing: null (the rule's level) unless the enclosing setter documents that it
     * does not clamp, then bounded (a note): the range is the callers' documented contract.
     */
    public static dev.numlint.model.Impact impact(Cast n) {
        return n.documented()
                ? dev.numlint.model.Impact.bounded(
                        "the setter's documentation says it does not clamp: the range is its callers' contract")
                : null;
    }

    /** The side of the range that is open, for messages. */
    public static String side(Cast n) {
        return n.range().isPoint()
                ? ""
                : !n.lowOk() && !n.highOk()
                        ? " without a range guard"
                        : !n.lowOk() ? " guarded only from above" : " guarded only from below";
    }

    /** A concrete out-of-range example on the open side (the value itself for a constant). */
    public static double example(Cast n) {
        if (n.range().isPoint()) return n.range().lo();
        if (!n.lowOk())
            return n.unsigned() ? (n.target() == NumType.BYTE ? -1.5 : -69.235) : Narrowing.exampleBelow(n.target());
        return Narrowing.exampleAbove(n.target(), n.unsigned());
    }
}
