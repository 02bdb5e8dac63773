package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import java.util.List;
import org.antlr.v4.runtime.ParserRuleContext;

/**
 * Names and shapes read off the CUDA/C++ parse tree, shared by the function analyzer and the fact builders split out
 * of it ({@link SyntaxQueries}, {@link ValueFlow}, ...): the declared name of a declarator, an expression without
 * its parentheses, the simple or qualified name an expression or a callee is.
 */
final class ParseTrees {
    private ParseTrees() {}

    static String declName(DeclaratorContext d) {
        if (d == null) return null;
        NoPtrDeclaratorContext n = d.noPtrDeclarator();
        if (n.declaratorId() != null) {
            QualifiedNameContext q = n.declaratorId().qualifiedName();
            if (q == null) return null;
            List<NameComponentContext> cs = q.nameComponent();
            return cs.get(cs.size() - 1).IDENTIFIER().getText();
        }
        return declName(n.declarator());
    }

    static ExpressionContext stripParens(ExpressionContext e) {
        while (e instanceof PrimaryExprContext && ((PrimaryExprContext) e).primary() instanceof ParenPrimaryContext) {
            CommaExpressionContext ce = ((ParenPrimaryContext) ((PrimaryExprContext) e).primary()).commaExpression();
            if (ce.expression().size() != 1) return e;
            e = ce.expression(0);
        }
        return e;
    }

    static String simpleName(ExpressionContext e) {
        e = stripParens(e);
        if (e instanceof PrimaryExprContext && ((PrimaryExprContext) e).primary() instanceof NamePrimaryContext) {
            QualifiedNameContext q = ((NamePrimaryContext) ((PrimaryExprContext) e).primary()).qualifiedName();
            if (q.nameComponent().size() == 1 && q.SCOPE().isEmpty())
                return q.nameComponent(0).IDENTIFIER().getText();
        }
        return null;
    }

    /**
     * The type argument written in a callee {@code std::numeric_limits<T>::member} ({@code T}'s text), or null: the
     * call's value is a {@code T} ({@code max()}, {@code infinity()}, ...), which {@link #calleeName} leaves out.
     */
    static String numericLimitsArgument(ExpressionContext e) {
        e = stripParens(e);
        if (!(e instanceof PrimaryExprContext && ((PrimaryExprContext) e).primary() instanceof NamePrimaryContext))
            return null;
        QualifiedNameContext q = ((NamePrimaryContext) ((PrimaryExprContext) e).primary()).qualifiedName();
        for (NameComponentContext n : q.nameComponent()) {
            if (n.IDENTIFIER().getText().equals("numeric_limits")
                    && n.templateArgumentList() != null
                    && n.templateArgumentList().templateArgument().size() == 1)
                return n.templateArgumentList().templateArgument(0).getText();
        }
        return null;
    }

    static String calleeName(ExpressionContext e) {
        e = stripParens(e);
        if (e instanceof PrimaryExprContext && ((PrimaryExprContext) e).primary() instanceof NamePrimaryContext) {
            QualifiedNameContext q = ((NamePrimaryContext) ((PrimaryExprContext) e).primary()).qualifiedName();
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < q.nameComponent().size(); i++) {
                if (i > 0) sb.append("::");
                sb.append(q.nameComponent(i).IDENTIFIER().getText());
            }
            return sb.toString();
        }
        return null;
    }

    /** The operand of a cast of one operand (C, named, parenthesized or functional), or null. */
    static ExpressionContext castOperand(ParserRuleContext cast) {
        if (cast instanceof CastExprContext c) return c.expression();
        if (cast instanceof NamedCastExprContext n) return n.expression();
        if (cast instanceof ParenCastExprContext pc
                && pc.commaExpression().expression().size() == 1)
            return pc.commaExpression().expression(0);
        if (cast instanceof FunctionalCastExprContext f
                && f.argumentList() != null
                && f.argumentList().argument().size() == 1)
            return f.argumentList().argument(0).expression();
        return null;
    }
}
