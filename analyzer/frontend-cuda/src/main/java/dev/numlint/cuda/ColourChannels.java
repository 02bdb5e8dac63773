package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.antlr.v4.runtime.ParserRuleContext;

/**
 * The colour-channel facts of {@link ValueFlow}: whether a conversion quantises a colour to one 8-bit display
 * channel (a [0,1] value times 255, or a value clamped to [0,255], packed into a word or stored as a byte), where a
 * one-ulp difference upstream changes the colour by at most one level.
 */
final class ColourChannels {
    // patterns compiled once (String.matches and replaceAll compile theirs on every call)
    private static final java.util.regex.Pattern WHITESPACE = java.util.regex.Pattern.compile("\\s+");

    private static final java.util.regex.Pattern MAKE_CHAR = java.util.regex.Pattern.compile("make_u?char[1-4]");

    private static final java.util.regex.Pattern MIN_MAX = java.util.regex.Pattern.compile("f?(min|max)f?");

    private final IdentityHashMap<ParserRuleContext, E> memo;
    private final Function<ParserRuleContext, String> text;
    /** The body's assignments (any operator) and declarations, in token order (indexed on first use). */
    private final Supplier<List<ParserRuleContext>> assignments;

    ColourChannels(
            IdentityHashMap<ParserRuleContext, E> memo,
            Function<ParserRuleContext, String> text,
            Supplier<List<ParserRuleContext>> assignments) {
        this.memo = memo;
        this.text = text;
        this.assignments = assignments;
    }

    /** Largest value of an 8-bit colour channel. */
    private static final double CHANNEL_MAX = 255;

    /**
     * The conversion {@code conv} (a cast to {@code type}) quantises a colour to one 8-bit display channel: it
     * converts a value scaled by 255 (a [0,1] colour; whether it stays in range is the conversion's own hazard,
     * reported by NL001/NL011 where unguarded) or a value clamped to [0,255], and its result
     * is only packed into a word (shifted by a multiple of 8, or-ed or added), returned or stored as such, or stored
     * into an 8-bit element. A one-ulp difference upstream changes the colour by at most one of 256 levels. Used as an
     * index, compared, or kept in a wider integer, the value is not a colour channel.
     */
    boolean colourChannel(ParserRuleContext conv, CType type) {
        ExpressionContext operand = castOperand(conv);
        if (operand == null || !channelRange(operand)) return false;
        boolean packed = false;
        ParserRuleContext cur = conv;
        for (int steps = 0; steps < 16; steps++) {
            ParserRuleContext p = cur.getParent();
            if (p instanceof PrimaryExprContext || p instanceof ParenPrimaryContext) {
                cur = p;
            } else if (p instanceof CommaExpressionContext
                    && ((CommaExpressionContext) p).expression().size() == 1) {
                cur = p;
            } else if (p instanceof CastExprContext
                    || p instanceof ParenCastExprContext
                    || p instanceof NamedCastExprContext) {
                E r = memo.get(p);
                if (r == null || !r.type.isInteger()) return false;
                cur = p;
            } else if (p instanceof ShiftExprContext) {
                ShiftExprContext sh = (ShiftExprContext) p;
                E n = memo.get(sh.expression(1));
                if (sh.SHL() == null || sh.expression(0) != cur || n == null || n.cval == null || n.cval % 8 != 0)
                    return false;
                packed = true;
                cur = p;
            } else if (p instanceof BitOrExprContext
                    || p instanceof BitXorExprContext
                    || p instanceof AddExprContext && ((AddExprContext) p).PLUS() != null) {
                packed = true;
                cur = p;
            } else if (p instanceof ReturnStmtContext) {
                return packed;
            } else if (p instanceof AssignExprContext) {
                AssignExprContext a = (AssignExprContext) p;
                if (a.expression(0) == cur || ParseTrees.simpleName(a.expression(0)) != null) return false;
                E lhs = memo.get(a.expression(0));
                if (lhs == null || !lhs.type.isInteger()) return false;
                return packed || lhs.type.size == 1;
            } else if (p instanceof ArgumentContext && p.getParent() instanceof ArgumentListContext) {
                ParserRuleContext call = p.getParent().getParent();
                if (!(call instanceof CallExprContext)) return false;
                String name = ParseTrees.calleeName(((CallExprContext) call).expression());
                return !packed && name != null && MAKE_CHAR.matcher(name).matches();
            } else {
                return false;
            }
        }
        return false;
    }

    /** The converted expression of a cast. */
    private static ExpressionContext castOperand(ParserRuleContext conv) {
        if (conv instanceof CastExprContext) return ((CastExprContext) conv).expression();
        if (conv instanceof NamedCastExprContext) return ((NamedCastExprContext) conv).expression();
        if (conv instanceof ParenCastExprContext) {
            List<ExpressionContext> es =
                    ((ParenCastExprContext) conv).commaExpression().expression();
            return es.size() == 1 ? es.get(0) : null;
        }
        return null;
    }

    /** {@code e} is a channel value: a [0,1] colour times 255, or a value clamped to [0,255]. */
    boolean channelRange(ExpressionContext e) {
        ExpressionContext p = ParseTrees.stripParens(e);
        if (p instanceof MulExprContext && ((MulExprContext) p).STAR() != null) {
            MulExprContext m = (MulExprContext) p;
            for (int k = 0; k < 2; k++) {
                E c = memo.get(m.expression(k));
                // x * 255 maps [0,1] to a channel; whether x stays in [0,1] is the conversion's own hazard
                // (NL001/NL011 report an unguarded one), not a consequence of an upstream ulp
                if (c != null && c.cval != null && c.cval == CHANNEL_MAX) return true;
            }
            return false;
        }
        return clampedTo(p, CHANNEL_MAX, 0);
    }

    /**
     * {@code e} is clamped to [0,{@code hi}]: {@code __saturatef(x)} or {@code saturate(x)} (hi 1), {@code clamp(x,
     * lo, up)} or a min of a max (or a max of a min) of constants within [0,hi], or a variable or member last
     * assigned such a value before {@code e}.
     */
    private boolean clampedTo(ExpressionContext e, double hi, int depth) {
        ExpressionContext p = ParseTrees.stripParens(e);
        if (p instanceof CallExprContext) {
            CallExprContext cc = (CallExprContext) p;
            String name = ParseTrees.calleeName(cc.expression());
            List<ArgumentContext> args =
                    cc.argumentList() == null ? List.of() : cc.argumentList().argument();
            if (name == null) return false;
            if (name.equals("__saturatef") || name.equals("saturate")) return hi == 1.0 && args.size() == 1;
            if (name.equals("clamp") && args.size() == 3) {
                Double lo = constant(args.get(1));
                Double up = constant(args.get(2));
                return lo != null && up != null && lo >= 0 && up <= hi;
            }
            String base = name.startsWith("std::") ? name.substring(5) : name;
            if (args.size() == 2 && MIN_MAX.matcher(base).matches()) {
                boolean min = base.contains("min");
                for (int k = 0; k < 2; k++) {
                    Double c = constant(args.get(k));
                    ExpressionContext inner = args.get(1 - k).expression();
                    if (c == null || inner == null) continue;
                    if (min ? c > hi : c < 0) return false;
                    ExpressionContext q = ParseTrees.stripParens(inner);
                    if (!(q instanceof CallExprContext)) return false;
                    CallExprContext ic = (CallExprContext) q;
                    String iname = ParseTrees.calleeName(ic.expression());
                    List<ArgumentContext> iargs = ic.argumentList() == null
                            ? List.of()
                            : ic.argumentList().argument();
                    if (iname == null || iargs.size() != 2) return false;
                    iname = iname.startsWith("std::") ? iname.substring(5) : iname;
                    if (!MIN_MAX.matcher(iname).matches() || iname.contains("min") == min) return false;
                    for (ArgumentContext ia : iargs) {
                        Double ic2 = constant(ia);
                        if (ic2 != null) return min ? ic2 >= 0 : ic2 <= hi;
                    }
                    return false;
                }
            }
            return false;
        }
        if (depth > 0) return false;
        // a variable or member: its last plain assignment before e is a clamp
        String target = WHITESPACE.matcher(text.apply(p)).replaceAll("");
        if (!(p instanceof PrimaryExprContext || p instanceof MemberExprContext)) return false;
        ParserRuleContext last = null;
        ExpressionContext value = null;
        int at = p.start.getTokenIndex();
        for (ParserRuleContext d : assignments.get()) {
            if (d.start.getTokenIndex() >= at) continue;
            if (last != null && d.start.getTokenIndex() < last.start.getTokenIndex()) continue;
            if (d instanceof AssignExprContext) {
                AssignExprContext a = (AssignExprContext) d;
                if (!WHITESPACE
                        .matcher(text.apply(a.expression(0)))
                        .replaceAll("")
                        .equals(target)) continue;
                last = d;
                value = a.assignOp().ASSIGN() != null && a.expression().size() == 2 ? a.expression(1) : null;
            } else if (d instanceof InitDeclaratorContext) {
                String n = ParseTrees.declName(((InitDeclaratorContext) d).declarator());
                if (n == null || !n.equals(target)) continue;
                last = d;
                InitializerContext init = ((InitDeclaratorContext) d).initializer();
                value = init == null ? null : initValue(init);
            }
        }
        return value != null && clampedTo(value, hi, depth + 1);
    }

    /** The expression of an initializer {@code = x}, or null. */
    private static ExpressionContext initValue(InitializerContext init) {
        InitializerClauseContext c = init.initializerClause();
        return c == null ? null : c.expression();
    }

    /** The constant value of a call argument, or null. */
    private Double constant(ArgumentContext a) {
        if (a.expression() == null) return null;
        E v = memo.get(a.expression());
        return v == null ? null : v.cval;
    }
}
