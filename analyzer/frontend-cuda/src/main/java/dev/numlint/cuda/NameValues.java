package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import java.util.List;
import java.util.Map;

/**
 * The value a name denotes at the point of a function body's walk: a local or parameter (its type, constant, the
 * interval of its reaching definition or of its only definition, its whole-number bound), a field of the function's
 * class, a global (a constant where it is one), a CUDA built-in variable (its interval only); a qualified name only as
 * a global.
 */
final class NameValues {
    private final FunctionBody body;
    private final ReachingDefinitions reach;
    /** Range-guarded variables ({@link TokenFacts#guardedVars}). */
    private final Map<String, String> guardedVars;

    NameValues(FunctionBody body, ReachingDefinitions reach, Map<String, String> guardedVars) {
        this.body = body;
        this.reach = reach;
        this.guardedVars = guardedVars;
    }

    E value(QualifiedNameContext q) {
        FileScope scope = body.scope;
        List<NameComponentContext> cs = q.nameComponent();
        if (cs.size() != 1 || q.SCOPE().size() > 0) {
            String last = cs.get(cs.size() - 1).IDENTIFIER().getText();
            FileScope.Var g = scope.globals.get(last);
            if (g != null && cs.size() > 1) {
                E r = ValueModel.leaf(g.type(), last, guardedVars);
                r.cval = g.constValue();
                return r;
            }
            return E.UNKNOWN;
        }
        String n = cs.get(0).IDENTIFIER().getText();
        Local l = body.lookup(n);
        if (l != null) {
            E r = ValueModel.leaf(l.type, n, guardedVars);
            double[] reaching = reach.interval(l);
            r.lo = reaching != null ? reaching[0] : l.lo;
            r.hi = reaching != null ? reaching[1] : l.hi;
            r.intMag = l.intBound;
            double[] values = reach.values(l);
            r.set = values != null ? values : l.values;
            if (l.cval != null) {
                r.cval = l.cval;
                r.fpLeaf = false;
                r.f32Leaf = false;
                r.dblVar = false;
                r.nonNeg = l.cval >= 0;
            }
            return r;
        }
        if (body.cls != null) {
            CType ft = body.cls.fields.get(n);
            if (ft != null) return ValueModel.leaf(ft, n, guardedVars);
        }
        FileScope.Var g = scope.globals.get(n);
        if (g != null) {
            E r = ValueModel.leaf(g.type(), n, guardedVars);
            if (g.constValue() != null) {
                r.cval = g.constValue();
                r.fpLeaf = r.f32Leaf = r.dblVar = false;
            }
            return r;
        }
        CType b = Builtins.builtinVariable(n);
        if (b != null) {
            E r = E.of(b);
            Double value = Builtins.builtinValue(n);
            if (value != null) Intervals.set(r, value, value); // the interval only: other rules see no constant
            return r;
        }
        return E.UNKNOWN;
    }
}
