package dev.numlint.cuda;

import static dev.numlint.cuda.ParseTrees.declName;
import static dev.numlint.cuda.ParseTrees.simpleName;
import static dev.numlint.cuda.ParseTrees.stripParens;
import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Questions about the parse tree of a function body that the fact builders (the function analyzer and its
 * accumulation sites) ask: which names an expression reads, which a loop modifies or overwrites in every
 * iteration, which variable a store writes.
 */
final class SyntaxQueries {
    private SyntaxQueries() {}

    @SafeVarargs
    static boolean containsAny(ParseTree t, Class<? extends ParseTree>... kinds) {
        for (Class<? extends ParseTree> k : kinds) if (k.isInstance(t)) return true;
        for (int i = 0; i < t.getChildCount(); i++) if (containsAny(t.getChild(i), kinds)) return true;
        return false;
    }

    static boolean containsDeref(ParseTree t) {
        if (t instanceof UnaryExprContext && ((UnaryExprContext) t).STAR() != null) return true;
        for (int i = 0; i < t.getChildCount(); i++) if (containsDeref(t.getChild(i))) return true;
        return false;
    }

    /** The variable a store writes: the base name of x, x[i], x.f, x->f, *x. */
    static String storedName(ExpressionContext e) {
        ExpressionContext b = stripParens(e);
        while (true) {
            if (b instanceof IndexExprContext) b = stripParens(((IndexExprContext) b).expression());
            else if (b instanceof MemberExprContext) b = stripParens(((MemberExprContext) b).expression());
            else if (b instanceof UnaryExprContext && ((UnaryExprContext) b).STAR() != null) {
                b = stripParens(((UnaryExprContext) b).expression());
            } else break;
        }
        return simpleName(b);
    }

    /**
     * Names given a value that does not read them by a statement that runs in every iteration of a loop whose body is
     * {@code s}: expression statements of the body and of plain nested blocks, not of branches or inner loops; and
     * variables whose address is passed, in such a statement, a declaration or an if condition's first operand, to
     * a function that defines its pointer parameter before reading it ({@code intersectBox(ray, &tnear, &tfar)}).
     */
    static void collectOverwritten(StatementContext s, Set<String> out, Map<String, BitSet> outParams) {
        if (s instanceof BlockStmtContext) {
            for (StatementContext x : ((BlockStmtContext) s).compoundStatement().statement())
                collectOverwritten(x, out, outParams);
        } else if (s instanceof ExprStmtContext) {
            for (ExpressionContext e : ((ExprStmtContext) s).commaExpression().expression()) {
                if (e instanceof AssignExprContext
                        && ((AssignExprContext) e).assignOp().ASSIGN() != null
                        && ((AssignExprContext) e).expression().size() > 1) {
                    AssignExprContext a = (AssignExprContext) e;
                    String n = simpleName(a.expression(0));
                    if (n != null && !mentions(a.expression(1), n)) out.add(n);
                }
                outArguments(e, out, outParams);
            }
        } else if (s instanceof DeclStmtContext) {
            outArguments(s, out, outParams);
        } else if (s instanceof IfStmtContext) {
            ConditionContext c = ((IfStmtContext) s).condition();
            if (c.commaExpression() != null && c.commaExpression().expression().size() == 1) {
                ExpressionContext e = c.commaExpression().expression(0);
                // the first operand of && and || is evaluated whatever the others give
                while (true) {
                    ExpressionContext x = stripParens(e);
                    if (x instanceof AndExprContext) e = ((AndExprContext) x).expression(0);
                    else if (x instanceof OrExprContext) e = ((OrExprContext) x).expression(0);
                    else if (x instanceof UnaryExprContext && ((UnaryExprContext) x).BANG() != null)
                        e = ((UnaryExprContext) x).expression();
                    else break;
                }
                outArguments(e, out, outParams);
            }
        }
    }

    /** The names {@code v} of {@code &v} arguments the callees in {@code t} define (see {@link FileScope#outParams}). */
    private static void outArguments(ParseTree t, Set<String> out, Map<String, BitSet> outParams) {
        if (outParams.isEmpty()) return;
        if (t instanceof CallExprContext) {
            CallExprContext cc = (CallExprContext) t;
            String name = ParseTrees.calleeName(cc.expression());
            BitSet defs = name == null ? null : outParams.get(name);
            if (defs != null && cc.argumentList() != null) {
                List<ArgumentContext> args = cc.argumentList().argument();
                for (int i = 0; i < args.size(); i++) {
                    if (!defs.get(i) || args.get(i).expression() == null) continue;
                    ExpressionContext a = stripParens(args.get(i).expression());
                    if (a instanceof UnaryExprContext && ((UnaryExprContext) a).AMP() != null) {
                        String n = simpleName(((UnaryExprContext) a).expression());
                        if (n != null) out.add(n);
                    }
                }
            }
        }
        if (t instanceof StatementContext && !(t instanceof DeclStmtContext) && !(t instanceof ExprStmtContext)) return;
        for (int i = 0; i < t.getChildCount(); i++) {
            ParseTree c = t.getChild(i);
            if (c instanceof LambdaContext || c instanceof CondExprContext) continue;
            if (c instanceof AndExprContext || c instanceof OrExprContext) {
                outArguments(((ParserRuleContext) c).getChild(0), out, outParams);
                continue;
            }
            outArguments(c, out, outParams);
        }
    }

    static void collectModified(ParseTree t, Set<String> out) {
        forEachDefinition(t, out::add);
    }

    /**
     * How many times {@code t} may give {@code name} a value: declarations, assignments, increments, its address
     * taken, or the name passed to a call (which may change it through a reference parameter).
     */
    static int definitions(ParseTree t, String name) {
        int[] n = {0};
        forEachDefinition(t, x -> {
            if (x.equals(name)) n[0]++;
        });
        return n[0];
    }

    /**
     * Where in {@code t} each name may be given a value (see {@link #definitions}): for each name, the start token
     * indexes of the defining nodes, ascending. One walk answers {@link #definitions} for every subtree of {@code t}.
     * {@code marks}: {@link #definitionMarks} of the tokens {@code t} was parsed from, or null; an expression (or a
     * part of a declaration) whose tokens hold none of them defines nothing and is not walked.
     */
    static Map<String, int[]> definitionPositions(ParseTree t, int[] marks) {
        Map<String, Positions> at = new HashMap<>();
        if (t instanceof ParserRuleContext) definitionPositions((ParserRuleContext) t, marks, at);
        Map<String, int[]> out = new HashMap<>(Math.max(16, at.size() * 2));
        at.forEach((k, v) -> {
            int[] a = java.util.Arrays.copyOf(v.at, v.n);
            java.util.Arrays.sort(a);
            out.put(k, a);
        });
        return out;
    }

    /**
     * How many tokens before each index (a prefix count) could belong to a defining node: an assignment operator
     * (GE being the end of {@code >>=}), {@code ++}, {@code --}, {@code &}, {@code (} (a call) and <code>{</code> (a
     * lambda or statement expression, the only places an expression holds a declaration). Every node that
     * {@link #definitions} counts has one of them among its tokens. Null when a token's index is not its position
     * in {@code toks}.
     */
    static int[] definitionMarks(List<? extends Token> toks) {
        int[] marks = new int[toks.size() + 1];
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (t.getTokenIndex() != i) return null; // not the parser's indexes: walk everything
            marks[i + 1] = marks[i] + (definitionMark(t.getType()) ? 1 : 0);
        }
        return marks;
    }

    private static boolean definitionMark(int type) {
        // '>>=' is lexed as '>' '>='
        return assignsOrSteps(type)
                || type == CudaLexer.GE
                || type == CudaLexer.AMP
                || type == CudaLexer.LPAREN
                || type == CudaLexer.LBRACE;
    }

    /** An assignment operator, simple or compound (but '>>=', lexed as '>' '>='), or an increment or decrement. */
    static boolean assignsOrSteps(int type) {
        switch (type) {
            case CudaLexer.ASSIGN:
            case CudaLexer.STAR_ASSIGN:
            case CudaLexer.DIV_ASSIGN:
            case CudaLexer.MOD_ASSIGN:
            case CudaLexer.PLUS_ASSIGN:
            case CudaLexer.MINUS_ASSIGN:
            case CudaLexer.SHL_ASSIGN:
            case CudaLexer.AND_ASSIGN:
            case CudaLexer.XOR_ASSIGN:
            case CudaLexer.OR_ASSIGN:
            case CudaLexer.PLUS_PLUS:
            case CudaLexer.MINUS_MINUS:
                return true;
            default:
                return false;
        }
    }

    /** A growable list of token indexes. */
    private static final class Positions {
        int[] at = new int[4];
        int n;

        void add(int i) {
            if (n == at.length) at = java.util.Arrays.copyOf(at, n * 2);
            at[n++] = i;
        }
    }

    /**
     * {@link #forEachDefinition} specialised to recording start token indexes: the same defining nodes, found
     * without a callback and without descending into tokens (the whole body is walked once per function).
     */
    private static void definitionPositions(ParserRuleContext t, int[] marks, Map<String, Positions> at) {
        if (marks != null && t.stop != null) {
            int from = t.start.getTokenIndex();
            int to = t.stop.getTokenIndex() + 1;
            if (from >= 0 && from < to && to < marks.length && marks[to] == marks[from] && declarationFree(t)) return;
        }
        String n = null;
        if (t instanceof ExpressionContext) {
            if (t instanceof AssignExprContext) {
                n = storedName(((AssignExprContext) t).expression(0));
            } else if (t instanceof PostIncExprContext) {
                n = storedName(((PostIncExprContext) t).expression());
            } else if (t instanceof UnaryExprContext) {
                UnaryExprContext u = (UnaryExprContext) t;
                if (u.PLUS_PLUS() != null || u.MINUS_MINUS() != null || u.AMP() != null) n = storedName(u.expression());
            } else if (t instanceof CallExprContext) {
                // a name passed to a call may be changed through a reference parameter
                ArgumentListContext args = ((CallExprContext) t).argumentList();
                if (args != null && args.children != null) {
                    int start = t.start.getTokenIndex();
                    for (ParseTree a : args.children) {
                        if (a instanceof ArgumentContext && ((ArgumentContext) a).expression() != null) {
                            String x = simpleName(((ArgumentContext) a).expression());
                            if (x != null)
                                at.computeIfAbsent(x, k -> new Positions()).add(start);
                        }
                    }
                }
            }
        } else if (t instanceof SimpleDeclarationContext) {
            int start = t.start.getTokenIndex();
            for (InitDeclaratorContext d : ((SimpleDeclarationContext) t).initDeclarator()) {
                String x = declName(d.declarator());
                if (x != null) at.computeIfAbsent(x, k -> new Positions()).add(start);
            }
        }
        if (n != null) at.computeIfAbsent(n, k -> new Positions()).add(t.start.getTokenIndex());
        List<ParseTree> cs = t.children;
        if (cs == null) return;
        for (int i = 0, size = cs.size(); i < size; i++) {
            ParseTree c = cs.get(i);
            if (c instanceof ParserRuleContext) definitionPositions((ParserRuleContext) c, marks, at);
        }
    }

    /**
     * A node that can hold a declaration only inside braces (a lambda, a statement expression, a class body): an
     * expression or a part of one, or of a declaration. Statements and for-init clauses can hold one without any
     * {@link #definitionMarks mark} ({@code int k;}).
     */
    private static boolean declarationFree(ParserRuleContext t) {
        return t instanceof ExpressionContext
                || t instanceof CommaExpressionContext
                || t instanceof ArgumentListContext
                || t instanceof ArgumentContext
                || t instanceof PrimaryContext
                || t instanceof QualifiedNameContext
                || t instanceof InitDeclaratorContext
                || t instanceof DeclaratorContext
                || t instanceof DeclSpecifierSeqContext
                || t instanceof InitializerContext
                || t instanceof InitializerClauseContext
                || t instanceof TypeIdContext
                || t instanceof ConditionContext;
    }

    /** Every name {@code t} may give a value, once per place (see {@link #definitions}). */
    private static void forEachDefinition(ParseTree t, java.util.function.Consumer<String> out) {
        forEachDefinition(t, (x, node) -> out.accept(x));
    }

    /** As above, with the defining node. */
    private static void forEachDefinition(ParseTree t, java.util.function.BiConsumer<String, ParseTree> out) {
        if (t instanceof TerminalNode) return; // a token defines nothing and has no children
        if (t instanceof AssignExprContext) {
            String n = storedName(((AssignExprContext) t).expression(0));
            if (n != null) out.accept(n, t);
        } else if (t instanceof PostIncExprContext) {
            String n = storedName(((PostIncExprContext) t).expression());
            if (n != null) out.accept(n, t);
        } else if (t instanceof UnaryExprContext) {
            UnaryExprContext u = (UnaryExprContext) t;
            if (u.PLUS_PLUS() != null || u.MINUS_MINUS() != null || u.AMP() != null) {
                String n = storedName(u.expression());
                if (n != null) out.accept(n, t);
            }
        } else if (t instanceof CallExprContext) {
            // a name passed to a call may be changed through a reference parameter
            ParseTree args = ((CallExprContext) t).argumentList();
            if (args != null) {
                for (int i = 0; i < args.getChildCount(); i++) {
                    ParseTree a = args.getChild(i);
                    if (a instanceof ArgumentContext && ((ArgumentContext) a).expression() != null) {
                        String n = simpleName(((ArgumentContext) a).expression());
                        if (n != null) out.accept(n, t);
                    }
                }
            }
        } else if (t instanceof SimpleDeclarationContext) {
            for (InitDeclaratorContext d : ((SimpleDeclarationContext) t).initDeclarator()) {
                String n = declName(d.declarator());
                if (n != null) out.accept(n, t);
            }
        }
        for (int i = 0; i < t.getChildCount(); i++) forEachDefinition(t.getChild(i), out);
    }

    static boolean mentions(ParseTree t, String name) {
        if (t instanceof TerminalNode) {
            Token s = ((TerminalNode) t).getSymbol();
            return s.getType() == CudaLexer.IDENTIFIER && s.getText().equals(name);
        }
        for (int i = 0; i < t.getChildCount(); i++) if (mentions(t.getChild(i), name)) return true;
        return false;
    }

    static void names(ParseTree t, Set<String> out) {
        if (t instanceof TerminalNode) {
            Token s = ((TerminalNode) t).getSymbol();
            if (s.getType() == CudaLexer.IDENTIFIER) out.add(s.getText());
            return;
        }
        for (int i = 0; i < t.getChildCount(); i++) names(t.getChild(i), out);
    }
}
