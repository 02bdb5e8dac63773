package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.parser.CudaLexer;
import java.util.function.Supplier;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * The conversion facts of a function body: floating values converted to an integer type, implicitly or by a cast
 * ({@link FunctionFacts.Conversion}: to every integer type; the unsigned and narrow signed ones read by the
 * unsigned and narrowing checks, all of them by the rounding check), and long double types on the host
 * ({@link FunctionFacts.LongDouble}). {@link FunctionAnalyzer} calls it with the typed values it computed.
 */
final class ConversionSites {
    private final FunctionBody b;

    ConversionSites(FunctionBody b) {
        this.b = b;
    }

    /** A cast of {@code v} to {@code target}: its conversion and long-double facts, and its value. */
    E cast(CType target, E v, ParserRuleContext whole, ExpressionContext operand, Supplier<String> castText) {
        if (target == null) target = CType.UNKNOWN;
        convert(target, v, operand, castText, true, whole);
        if (target.kind == CType.Kind.LONG_DOUBLE && b.host) {
            longDouble(FunctionBody.pos(whole), "cast " + b.text(whole), b.text(whole));
        }
        return ValueModel.castResult(target, v);
    }

    void convert(CType target, E v, ExpressionContext src, Supplier<String> how, boolean explicit) {
        convert(target, v, src, how, explicit, src);
    }

    void convert(
            CType target, E v, ExpressionContext src, Supplier<String> howS, boolean explicit, ParserRuleContext at) {
        if (target == null || v == null || !v.type.isFpScalar() || target.kind != CType.Kind.INT) return;
        boolean unsigned = target.unsigned;
        // a clamp or a bounded function keeps the value range-limited, but scaled past the target's range it guards
        // nothing: (short)(fmaxf(fminf(x, 1), -1) * 40000.0f). Only the interval sees that, and only when no
        // comparison it does not see narrows the value further
        boolean guarded = v.guarded;
        double[] range = Intervals.ofType(target);
        if (guarded
                && !v.compared
                && range != null
                && !Double.isInfinite(v.lo)
                && !Double.isInfinite(v.hi)
                && !FunctionFacts.Conversion.within(v.lo, v.hi, range[0], range[1])) {
            guarded = false;
        }
        b.facts.conversions.add(new FunctionFacts.Conversion(
                b.site(at),
                howS.get(),
                b.text(src),
                v.type.toString(),
                target.name,
                unsigned,
                target.size,
                v.cval,
                guarded,
                v.fpLeaf,
                v.nonNeg || v.lo >= 0,
                v.lo,
                v.hi,
                explicit,
                guarded ? (v.guard != null ? v.guard : "a range guard") : null));
    }

    void longDouble(Reporter.Pos pos, String what, String snippet) {
        longDouble(pos, what, snippet, null);
    }

    void longDouble(Reporter.Pos pos, String what, String snippet, String origin) {
        b.facts.longDoubles.add(new FunctionFacts.LongDouble(
                pos.site(snippet, b.device, b.host, null),
                what,
                origin,
                b.f.longDoubleSpecialisation
                        ? "a specialisation for long double"
                        : b.f.longDoubleInterface ? FunctionFacts.LongDouble.INTERFACE : null));
    }

    /** The macro that the {@code long} of a declaration's specifiers comes from, or null. */
    private static String longMacro(ParseTree t) {
        if (t instanceof TerminalNode n) {
            org.antlr.v4.runtime.Token tk = n.getSymbol();
            return tk.getType() == CudaLexer.LONG && tk instanceof PToken p ? p.fromMacro : null;
        }
        for (int i = 0; i < t.getChildCount(); i++) {
            String m = longMacro(t.getChild(i));
            if (m != null) return m;
        }
        return null;
    }

    /**
     * What introduces the long double type of a declaration: the macro its specifiers come from ("macro REALXP"),
     * the typedef name ("typedef real"), or the declaration itself (its variables are one finding).
     */
    static String longDoubleOrigin(DeclSpecifierSeqContext specs, CType base) {
        org.antlr.v4.runtime.Token first = specs.start;
        String macro = longMacro(specs);
        if (macro != null) return "macro " + macro;
        if (base != null && base.name != null && !base.name.equals(CType.LONG_DOUBLE.name)) {
            return "typedef " + base.name;
        }
        return "declaration " + first.getLine() + ":" + first.getCharPositionInLine();
    }
}
