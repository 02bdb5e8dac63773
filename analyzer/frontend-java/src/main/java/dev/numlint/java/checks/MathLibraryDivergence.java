package dev.numlint.java.checks;

import com.google.auto.service.AutoService;
import dev.numlint.java.JavaCheck;
import dev.numlint.java.JavaUnit;
import dev.numlint.java.NumType;
import dev.numlint.java.Range;
import dev.numlint.knowledge.FloatExactness;
import dev.numlint.knowledge.JavaMathFunctions;
import dev.numlint.model.Impact;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jdt.core.dom.*;

/**
 * NL010 in Java source: java.lang.Math transcendental functions, one note per method with the count of calls.
 * Calls the specification makes exact ({@code Math.pow(2, k)} and other integer powers, {@code Math.exp(0)}) are
 * not counted. The note says where the most consequential result goes.
 */
@AutoService(JavaCheck.class)
public final class MathLibraryDivergence implements JavaCheck {
    @Override
    public String ruleId() {
        return "NL010";
    }

    @Override
    public void check(JavaUnit unit) {
        Map<ASTNode, List<MethodInvocation>> perMethod = new LinkedHashMap<>();
        for (MethodInvocation m : unit.invocations()) {
            String n = m.getName().getIdentifier();
            if (!JavaMathFunctions.TRANSCENDENTAL.contains(n) || !unit.isJavaLangMath(m)) continue;
            if (exact(unit, m)) continue;
            ASTNode owner = null;
            for (ASTNode p = m.getParent(); p != null; p = p.getParent()) {
                if (p instanceof MethodDeclaration
                        || p instanceof Initializer
                        || p instanceof AbstractTypeDeclaration) {
                    owner = p;
                    break;
                }
            }
            if (owner != null)
                perMethod.computeIfAbsent(owner, k -> new ArrayList<>()).add(m);
        }
        for (List<MethodInvocation> calls : perMethod.values()) {
            MethodInvocation first = calls.get(0);
            Impact impact = null;
            MethodInvocation worst = first;
            for (MethodInvocation c : calls) {
                Impact i = unit.impacts().of(c);
                if (impact == null || i.kind().ordinal() < impact.kind().ordinal()) {
                    impact = i;
                    worst = c;
                }
            }
            int more = calls.size() - 1;
            String msg = JavaUnit.message(
                    "NL010",
                    "java-calls",
                    "call",
                    unit.shortText(first, 30),
                    "more",
                    more == 0 ? "" : " and " + more + " more Math call" + (more == 1 ? "" : "s"),
                    "consequence",
                    worst == first ? impact.consequence() : "one is " + impact.consequence());
            unit.report(ruleId(), first, msg, !unit.bindings() || first.resolveMethodBinding() == null, null, impact);
        }
    }

    /** Calls whose result the specification makes exact: integer powers, exp(0), log(1) ... */
    private static boolean exact(JavaUnit unit, MethodInvocation m) {
        String n = m.getName().getIdentifier();
        List<?> args = m.arguments();
        if (n.equals("pow") && args.size() == 2) {
            Expression b = (Expression) args.get(0);
            Expression e = (Expression) args.get(1);
            Double bv = constant(unit, b);
            Double ev = constant(unit, e);
            return JavaMathFunctions.powIsExact(integral(unit, b, bv), bv, integral(unit, e, ev), ev);
        }
        if (args.size() == 1) return JavaMathFunctions.exactAt(n, constant(unit, (Expression) args.get(0)));
        return false;
    }

    private static Double constant(JavaUnit unit, Expression e) {
        Range r = unit.ranges().of(e);
        return r.isPoint() && !Double.isInfinite(r.lo()) ? r.lo() : null;
    }

    private static boolean integral(JavaUnit unit, Expression e, Double value) {
        NumType t = unit.types().of(e);
        if (t.isIntegral() || t == NumType.CHAR) return true;
        if (value != null) return FloatExactness.isInteger(value);
        if (e instanceof CastExpression) {
            NumType it = unit.types().of(((CastExpression) e).getExpression());
            return it.isIntegral() || it == NumType.CHAR;
        }
        return false;
    }
}
