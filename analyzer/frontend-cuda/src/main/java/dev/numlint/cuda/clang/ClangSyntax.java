package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.List;

/**
 * The syntax questions every analysis of a {@link ClangUnit} asks of the copied cursors: canonical type kinds, the
 * operand under implicit wrappers, a call's callee and arguments, a constant written in the source, a loop's variable,
 * whether a statement runs on every path to another. Stateless.
 */
final class ClangSyntax {
    private ClangSyntax() {}

    static boolean floating(int canonKind) {
        return canonKind == CXType_Float
                || canonKind == CXType_Double
                || canonKind == CXType_LongDouble
                || canonKind == CXType_Half
                || canonKind == CXType_Float16
                || canonKind == CXType_Float128;
    }

    static boolean integral(int canonKind) {
        return canonKind >= CXType_Bool && canonKind <= CXType_Int128 && canonKind != CXType_Bool
                || canonKind == CXType_Char_S;
    }

    /** A pointer, array or member pointer: a conversion of it to an integer converts an address, not a value. */
    static boolean address(int canonKind) {
        return canonKind == CXType_Pointer || canonKind == CXType_MemberPointer || ClangElements.array(canonKind);
    }

    static boolean unsignedKind(int k) {
        return k >= CXType_Char_U && k <= CXType_UInt128;
    }

    static int bytes(int k) {
        if (k == CXType_Char_U || k == CXType_UChar || k == CXType_Char_S || k == CXType_SChar) return 1;
        if (k == CXType_UShort || k == CXType_Short || k == CXType_Char16) return 2;
        if (k == CXType_UInt || k == CXType_Int || k == CXType_Char32 || k == CXType_WChar) return 4;
        if (k == CXType_UInt128 || k == CXType_Int128) return 16;
        return 8;
    }

    /** The expression under casts' type references and unexposed wrappers (an implicit conversion's operand). */
    static ClangNode operandOf(ClangNode cast) {
        ClangNode op = null;
        for (ClangNode c : cast.children) {
            if (c.kind == CXCursor_TypeRef || c.kind == CXCursor_TemplateRef || c.kind == CXCursor_NamespaceRef)
                continue;
            op = c;
        }
        return op;
    }

    /** Whether {@code n} is (a comma operand of) the header of the for statement around it, not its body. */
    static boolean inForHeader(ClangNode n) {
        ClangNode c = n;
        ClangNode p = n.parent;
        while (p != null
                && (p.kind == CXCursor_ParenExpr
                        || p.kind == CXCursor_UnexposedExpr
                        || p.kind == CXCursor_BinaryOperator && p.spelling.equals(","))) {
            c = p;
            p = p.parent;
        }
        return p != null && p.kind == CXCursor_ForStmt && c != p.children.get(p.children.size() - 1);
    }

    /**
     * {@code s += x} or {@code s -= x} through an overloaded operator ({@code float &operator+=(float &, const Term &)}):
     * a call that holds the updated operand first and the added one last.
     */
    static boolean overloadedUpdate(ClangNode n) {
        return n.kind == CXCursor_CallExpr
                && (n.spelling.equals("operator+=") || n.spelling.equals("operator-="))
                && n.children.size() >= 2;
    }

    /**
     * Whether {@code call} is a call of a double function whose floating arguments are all float data converted to
     * double ({@code nextafter(f, -std::numeric_limits<float>::infinity())} resolved to C's {@code nextafter}).
     */
    static boolean doubleFunctionOfFloats(ClangNode call) {
        if (call.kind != CXCursor_CallExpr || call.canonKind != CXType_Double) return false;
        List<ClangNode> args = arguments(call);
        boolean floats = false;
        for (ClangNode a : args) {
            ClangNode x = a;
            while (x.kind == CXCursor_ParenExpr && x.children.size() == 1) x = x.children.get(0);
            if (x.canonKind != CXType_Double) continue;
            if (x.kind != CXCursor_UnexposedExpr || x.children.size() != 1) return false;
            if (x.children.get(0).canonKind != CXType_Float) return false;
            floats = true;
        }
        return floats;
    }

    /** Skips implicit-conversion and paren wrappers that keep the operand's type. */
    /**
     * Whether {@code a} and {@code b} are the same expression by their trees: the same kinds, operators, referenced
     * declarations and constants, parentheses and implicit conversions aside. For nodes a macro expanded, whose text
     * is the whole expansion ({@code MAP(0)} for each of {@code diff[0] = obs[0] - mean[0]}'s nodes), where comparing
     * texts would take any two of them for one.
     */
    static boolean sameTree(ClangNode a, ClangNode b) {
        a = strip(a);
        b = strip(b);
        if (a == null || b == null) return a == b;
        if (a.kind != b.kind || a.children.size() != b.children.size()) return false;
        if (!java.util.Objects.equals(a.refUsr, b.refUsr) || !java.util.Objects.equals(a.value, b.value)) return false;
        if ((a.kind == CXCursor_BinaryOperator
                        || a.kind == CXCursor_UnaryOperator
                        || a.kind == CXCursor_CompoundAssignOperator
                        || a.kind == CXCursor_MemberRefExpr)
                && !a.spelling.equals(b.spelling)) return false;
        for (int i = 0; i < a.children.size(); i++) if (!sameTree(a.children.get(i), b.children.get(i))) return false;
        return true;
    }

    static ClangNode strip(ClangNode n) {
        while (n != null
                && (n.kind == CXCursor_UnexposedExpr || n.kind == CXCursor_ParenExpr)
                && n.children.size() == 1) {
            n = n.children.get(0);
        }
        return n;
    }

    /**
     * The value of the GNU statement expression {@code n} ({@code ({ typeof (x) _x = (x); _x < 0 ? 0 : _x; })}, the
     * clamp and min/max macros of C libraries): its last statement, an expression; null for anything else.
     */
    static ClangNode stmtExprValue(ClangNode n) {
        if (n == null || n.kind != CXCursor_StmtExpr || n.children.size() != 1) return null;
        ClangNode body = n.children.get(0);
        if (body.kind != CXCursor_CompoundStmt || body.children.isEmpty()) return null;
        ClangNode last = body.children.get(body.children.size() - 1);
        return clang_isExpressionKind(last.kind) ? last : null;
    }

    /** {@code e} without parentheses and implicit conversions (an int flag tested as a bool, a float widened). */
    static ClangNode bare(ClangNode e) {
        ClangNode n = strip(e);
        for (int d = 0; d < 8 && n != null && n.kind == CXCursor_ParenExpr && n.children.size() == 1; d++)
            n = strip(n.children.get(0));
        return n;
    }

    /** The one statement of a branch or loop body ({@code x = -x;} or {@code { x = -x; }}), or null. */
    static ClangNode soleStatement(ClangNode body) {
        if (body.kind != CXCursor_CompoundStmt) return body;
        return body.children.size() == 1 ? body.children.get(0) : null;
    }

    /** Whether {@code n} writes its first child: an assignment, a compound assignment, an increment or decrement. */
    static boolean assignment(ClangNode n) {
        return n.kind == CXCursor_BinaryOperator && n.spelling.equals("=")
                || n.kind == CXCursor_CompoundAssignOperator
                || n.kind == CXCursor_UnaryOperator && (n.spelling.equals("++") || n.spelling.equals("--"));
    }

    /**
     * Whether an explicit cast whose source text is {@code t} names a reference type: {@code (T&)x}, {@code
     * static_cast<T&&>(x)}.
     */
    static boolean referenceCast(ClangNode cast, String t) {
        int open = cast.kind == CXCursor_CStyleCastExpr ? t.indexOf('(') : t.indexOf('<');
        int close = cast.kind == CXCursor_CStyleCastExpr ? t.indexOf(')') : t.indexOf('>');
        return open >= 0 && close > open && t.substring(open, close).contains("&");
    }

    /**
     * How an explicit conversion to {@code type} is written, for messages: {@code (type)}, {@code static_cast<type>},
     * else {@code type} (a functional cast or a construction).
     */
    static String castSpelling(ClangNode cast, String type) {
        return switch (cast.kind) {
            case CXCursor_CStyleCastExpr -> "(" + type + ")";
            case CXCursor_CXXStaticCastExpr -> "static_cast<" + type + ">";
            default -> type;
        };
    }

    static boolean isExplicitCast(ClangNode n) {
        return n.kind == CXCursor_CStyleCastExpr
                || n.kind == CXCursor_CXXStaticCastExpr
                || n.kind == CXCursor_CXXFunctionalCastExpr;
    }

    /** The callee's name of a call: its spelling, or the name its (overloaded, dependent) reference spells. */
    static String callee(ClangNode call) {
        if (call.spelling != null && !call.spelling.isEmpty()) return call.spelling;
        String[] name = new String[1];
        call.forEach(n -> {
            if (name[0] == null
                    && (n.kind == CXCursor_OverloadedDeclRef || n.kind == CXCursor_DeclRefExpr)
                    && !n.spelling.isEmpty()) {
                name[0] = n.spelling;
            }
        });
        return name[0] == null ? "" : name[0];
    }

    /**
     * The operands of a chain of the binary operator {@code op} ({@code a * b * c}, {@code (w1 + w2) + w3}), however
     * parenthesized, each stripped of parentheses and implicit conversions, in order; {@code e} itself when it is none.
     */
    static void operands(ClangNode e, String op, List<ClangNode> out, int depth) {
        ClangNode x = strip(e);
        if (x != null
                && depth < 16
                && x.kind == CXCursor_BinaryOperator
                && x.spelling.equals(op)
                && x.children.size() == 2) {
            operands(x.children.get(0), op, out, depth + 1);
            operands(x.children.get(1), op, out, depth + 1);
        } else if (x != null) out.add(x);
    }

    /** Whether {@code n} lies in a {@code sizeof} or {@code alignof} within {@code top}: its type, not its value. */
    static boolean inSizeof(ClangNode n, ClangNode top) {
        for (ClangNode c = n; c != null && c != top; c = c.parent) if (c.kind == CXCursor_UnaryExpr) return true;
        return false;
    }

    /** Whether {@code n} lies in an argument of a call within {@code top} (not in its callee). */
    static boolean callArgument(ClangNode n, ClangNode top) {
        for (ClangNode c = n, p = n.parent; p != null && c != top; c = p, p = p.parent) {
            if (p.kind == CXCursor_CallExpr && !p.children.isEmpty() && p.children.get(0) != c) return true;
        }
        return false;
    }

    /** The call's arguments: its children after the callee reference. */
    /**
     * Whether an argument of a double call is itself computed in double (an operation, a call or a selection of
     * type double, not a value converted to double): {@code exp(d * s / (1.0 + t * 0.4))}.
     */
    static boolean argumentComputedInDouble(ClangNode call) {
        for (ClangNode a : arguments(call)) {
            ClangNode x = strip(a);
            if (x != null
                    && x.canonKind == CXType_Double
                    && x.value == null
                    && (x.kind == CXCursor_BinaryOperator
                            || x.kind == CXCursor_UnaryOperator
                            || x.kind == CXCursor_CallExpr
                            || x.kind == CXCursor_ConditionalOperator)) return true;
        }
        return false;
    }

    static List<ClangNode> arguments(ClangNode call) {
        List<ClangNode> ch = call.children;
        return ch.isEmpty() ? List.of() : ch.subList(1, ch.size());
    }

    /**
     * The constant value of a loop bound: Clang's evaluation, or, in a template pattern (which is not evaluated), a
     * literal, a negated literal ({@code -1}) or either in parentheses or an implicit conversion.
     */
    static Double constant(ClangNode n) {
        for (int depth = 0; n != null && depth < 8; depth++) {
            if (n.value != null) return n.value;
            if ((n.kind == CXCursor_UnexposedExpr || n.kind == CXCursor_ParenExpr) && n.children.size() == 1) {
                n = n.children.get(0);
            } else if (n.kind == CXCursor_UnaryOperator
                    && n.children.size() == 1
                    && ("-".equals(n.spelling) || "+".equals(n.spelling))) {
                Double v = constant(n.children.get(0));
                return v == null ? null : "-".equals(n.spelling) ? -v : v;
            } else {
                return null;
            }
        }
        return null;
    }

    /**
     * The value of an operand Clang does not evaluate because it calls a math function: {@code pow(2, 21)},
     * {@code sqrt(2.0)}, {@code ceil(7.0 / 2)} of constant arguments (in double, as the hand-written front end folds
     * them); Clang's own value first; null when any argument is not constant or the function is another.
     */
    static Double folded(ClangNode n) {
        ClangNode s = strip(n);
        if (s == null) return null;
        if (s.value != null) return s.value;
        if (isExplicitCast(s)) return folded(operandOf(s));
        if (s.kind != CXCursor_CallExpr) return constant(s);
        String f = callee(s).replace("std::", "");
        List<ClangNode> args = arguments(s);
        double[] v = new double[args.size()];
        for (int i = 0; i < v.length; i++) {
            Double a = folded(args.get(i));
            if (a == null) return null;
            v[i] = a;
        }
        return switch (f) {
            case "pow", "powf" -> v.length == 2 ? Math.pow(v[0], v[1]) : null;
            case "sqrt", "sqrtf" -> v.length == 1 ? Math.sqrt(v[0]) : null;
            case "exp2", "exp2f" -> v.length == 1 ? Math.pow(2, v[0]) : null;
            case "floor", "floorf" -> v.length == 1 ? Math.floor(v[0]) : null;
            case "ceil", "ceilf" -> v.length == 1 ? Math.ceil(v[0]) : null;
            case "fabs", "fabsf" -> v.length == 1 ? Math.abs(v[0]) : null;
            default -> null;
        };
    }

    /** The comparison {@code k op v} written as {@code v op' k}: {@code <} is {@code >}, {@code <=} is {@code >=}. */
    static String mirrored(String op) {
        return switch (op) {
            case "<" -> ">";
            case "<=" -> ">=";
            case ">" -> "<";
            case ">=" -> "<=";
            default -> op;
        };
    }

    /** The comparison that holds where {@code op} does not ({@code <} and {@code >=}, {@code ==} and {@code !=}), else "". */
    static String negatedComparison(String op) {
        return switch (op) {
            case "<" -> ">=";
            case "<=" -> ">";
            case ">" -> "<=";
            case ">=" -> "<";
            case "==" -> "!=";
            case "!=" -> "==";
            default -> "";
        };
    }

    static boolean isComparison(String op) {
        return op.equals("<") || op.equals("<=") || op.equals("!=") || op.equals(">") || op.equals(">=");
    }

    /** The variable a {@code for} loop declares or assigns in its initialization, by its USR, or null. */
    static String loopVariable(ClangNode loop) {
        if (loop.kind != CXCursor_ForStmt || loop.children.isEmpty()) return null;
        ClangNode init = loop.children.get(0);
        if (init.kind == CXCursor_DeclStmt && !init.children.isEmpty()) return init.children.get(0).usr;
        if (init.kind == CXCursor_BinaryOperator && init.spelling.equals("=") && !init.children.isEmpty()) {
            ClangNode l = strip(init.children.get(0));
            return l == null ? null : l.refUsr;
        }
        return null;
    }

    /**
     * The counters of a {@code for} loop, by USR: the variable its initialization declares or assigns ({@link
     * #loopVariable}) and every variable its increment steps ({@code for (i = 1, j = 1; i < n; i += 2, j++)}: i and
     * j), as the hand-written front end's induction variables ({@code ForLoopTrips}). Empty for other loops.
     */
    static java.util.Set<String> loopVariables(ClangNode loop) {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        if (loop.kind != CXCursor_ForStmt) return out;
        String v = loopVariable(loop);
        if (v != null) out.add(v);
        // init, condition, increment, body: the increment is known only when all four are there
        if (loop.children.size() != 4) return out;
        loop.children.get(2).forEach(x -> {
            boolean step = x.kind == CXCursor_UnaryOperator && (x.spelling.equals("++") || x.spelling.equals("--"))
                    || x.kind == CXCursor_CompoundAssignOperator
                    || x.kind == CXCursor_BinaryOperator && x.spelling.equals("=");
            if (!step || x.children.isEmpty()) return;
            ClangNode target = strip(x.children.get(0));
            if (target != null && target.kind == CXCursor_DeclRefExpr && target.refUsr != null) out.add(target.refUsr);
        });
        return out;
    }

    /**
     * Whether an assignment whose innermost loop is {@code outer} (null: none) is in {@code loop} or around it: after a
     * sum's loop, {@code uu = 0} starts another value that the reads after it see (session 73 round D: an image
     * registration's first sum of entropies was said to flip the test of the second, 'uyvar > 0').
     */
    static boolean loopAround(ClangNode outer, ClangNode loop) {
        if (outer == null || outer == loop) return true;
        for (ClangNode p = loop.parent; p != null; p = p.parent) if (p == outer) return true;
        return false;
    }

    static ClangNode innermostLoop(ClangNode n) {
        for (ClangNode p = n.parent; p != null; p = p.parent) {
            if (isLoop(p)) return p;
        }
        return null;
    }

    /**
     * Whether {@code n} is a loop: a for, while or do loop, or a range {@code for} ({@code for (float x : {a, b})},
     * {@code for (auto &v : vec)}), whose trips Clang's facts do not count.
     */
    static boolean isLoop(ClangNode n) {
        return n.kind == CXCursor_ForStmt
                || n.kind == CXCursor_WhileStmt
                || n.kind == CXCursor_DoStmt
                || n.kind == CXCursor_CXXForRangeStmt;
    }

    static boolean clang_isExpressionKind(int kind) {
        return kind >= CXCursor_FirstExpr && kind <= CXCursor_LastExpr;
    }

    /**
     * Whether {@code k} runs on every path that reaches {@code u}: for every branch, loop or short circuit around
     * {@code k} (inside the function), {@code u} lies in the same branch or body as {@code k}. A case label holds only
     * its first statement in Clang's tree: the statements after it up to the next label run after it, so {@code k}
     * under a label dominates them (session 70 round B: {@code default: re = 1.f - h[0] * c[0]; for (...) re -= ...}).
     */
    static boolean dominates(ClangNode k, ClangNode u, ClangNode function) {
        ClangNode c = k;
        for (ClangNode p = k.parent; p != null && p != function; c = p, p = p.parent) {
            if ((p.kind == CXCursor_CaseStmt || p.kind == CXCursor_DefaultStmt) && !c.contains(u)) {
                ClangNode top = p;
                while (top.parent != null
                        && (top.parent.kind == CXCursor_CaseStmt || top.parent.kind == CXCursor_DefaultStmt))
                    top = top.parent;
                if (!labelledRun(top, u)) return false;
                c = top;
                p = top.parent; // the switch's block, which holds u: the walk goes on above it
            }
            boolean conditional = p.kind == CXCursor_IfStmt
                    || p.kind == CXCursor_SwitchStmt
                    || p.kind == CXCursor_CaseStmt
                    || p.kind == CXCursor_DefaultStmt
                    || p.kind == CXCursor_ConditionalOperator
                    || p.kind == CXCursor_LambdaExpr
                    || p.kind == CXCursor_ForStmt
                    || p.kind == CXCursor_WhileStmt
                    || p.kind == CXCursor_DoStmt
                    || p.kind == CXCursor_CXXForRangeStmt
                    || p.kind == CXCursor_BinaryOperator && (p.spelling.equals("&&") || p.spelling.equals("||"));
            if (conditional && !c.contains(u)) return false;
        }
        return true;
    }

    /**
     * Whether {@code u} lies in a statement after the labelled statement {@code top} in the block that holds it, with
     * no other label between them (a jump to a later label would reach {@code u} without {@code top}).
     */
    private static boolean labelledRun(ClangNode top, ClangNode u) {
        ClangNode block = top.parent;
        if (block == null || block.kind != CXCursor_CompoundStmt) return false;
        int from = block.children.indexOf(top);
        for (int i = from + 1; i >= 1 && i < block.children.size(); i++) {
            ClangNode s = block.children.get(i);
            if (s.kind == CXCursor_CaseStmt || s.kind == CXCursor_DefaultStmt || s.kind == CXCursor_LabelStmt)
                return false;
            if (s.contains(u)) return true;
        }
        return false;
    }

    /**
     * The loops that carry an update of {@code lhs} at {@code at} in {@code fn}, innermost first: every for, while and
     * do loop around it inside the function, up to the first that declares the accumulator (a loop outside its
     * declaration does not carry it).
     */
    static List<ClangNode> carryingLoops(ClangNode lhs, ClangNode at, ClangUnit.Function fn) {
        String root = rootUsr(lhs);
        List<ClangNode> loops = new java.util.ArrayList<>();
        for (ClangNode p = at.parent; p != null && p != fn.node(); p = p.parent) {
            if (!isLoop(p)) continue;
            if (root != null && declares(p, root) && !(throughPointer(lhs) && repointed(p, root))) break;
            loops.add(p);
        }
        return loops;
    }

    /**
     * Whether {@code n}, a declaration or assignment in {@code loop}'s body of the pointer {@code usr} that an
     * accumulator {@code *p} or {@code p[i]} is reached through (not the pointer itself), points it at the same
     * buffer in every iteration of {@code loop}: its value is a plain reference to another pointer or array, and
     * nothing else of the body writes the pointer but the loops inside it ({@code float *dp = d;} in the channel
     * loop, then {@code *dp += *sp} in a loop that steps {@code dp}): the memory summed into is the same in every
     * iteration, no fresh start (session 60, a frame buffer's channel mix-down had cited the loop that steps the
     * pointer).
     */
    static boolean repoints(ClangNode n, ClangNode loop, String usr) {
        if (loop == null || n.children.isEmpty()) return false;
        ClangNode pointer = n.kind == CXCursor_VarDecl ? n : strip(n.children.get(0));
        if (pointer == null || pointer.canonKind != CXType_Pointer) return false;
        ClangNode v = bare(n.children.get(n.children.size() - 1));
        // another pointer or array variable, or a member of the object the method runs on that the loop does not
        // change (dptr = data_;)
        boolean named = v != null
                && (v.kind == CXCursor_DeclRefExpr && v.refUsr != null || ClangElementBases.thisMemberIn(v, loop));
        if (!named || !(v.canonKind == CXType_Pointer || ClangElements.array(v.canonKind))) return false;
        boolean[] other = new boolean[1];
        loop.forEach(x -> {
            if (x == n || other[0]) return;
            boolean write = x.kind == CXCursor_VarDecl && usr.equals(x.usr) || ClangLoops.writes(x, usr);
            if (write && innermostLoop(x) == loop) other[0] = true;
        });
        return !other[0];
    }

    /** Whether {@code lhs} is reached through a pointer or array variable, not that variable itself. */
    static boolean throughPointer(ClangNode lhs) {
        ClangNode l = strip(lhs);
        return l != null && l.kind != CXCursor_DeclRefExpr;
    }

    /** Whether the one declaration of {@code usr} inside {@code loop} {@link #repoints} it. */
    private static boolean repointed(ClangNode loop, String usr) {
        ClangNode[] decl = new ClangNode[1];
        int[] count = new int[1];
        loop.forEach(x -> {
            if (x.kind == CXCursor_VarDecl && usr.equals(x.usr)) {
                decl[0] = x;
                count[0]++;
            }
        });
        return count[0] == 1 && innermostLoop(decl[0]) == loop && repoints(decl[0], loop, usr);
    }

    /** Whether a variable with the unified symbol name {@code usr} is declared inside {@code n}. */
    static boolean declares(ClangNode n, String usr) {
        boolean[] hit = new boolean[1];
        n.forEach(x -> {
            if (x.kind == CXCursor_VarDecl && usr.equals(x.usr)) hit[0] = true;
        });
        return hit[0];
    }

    /** The variable an lvalue or address expression is rooted in (m for m.a[i][j], &m, p->x), by its USR. */
    static String rootUsr(ClangNode n) {
        ClangNode x = n;
        for (int guard = 0; x != null && guard < 64; guard++) {
            if (x.kind == CXCursor_DeclRefExpr) return x.refUsr;
            if (x.children.isEmpty()) return null;
            x = x.children.get(0);
        }
        return null;
    }

    /** {@code s} without blanks and parentheses (null for null): two spellings of one expression compare equal. */
    static String bare(String s) {
        return s == null ? null : s.replaceAll("[\\s()]", "");
    }

    static String squash(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) if (!Character.isWhitespace(s.charAt(i))) b.append(s.charAt(i));
        return b.toString();
    }

    /** Whether the reference takes the variable's address or binds a reference or a by-reference argument to it. */
    /** The type an atomic's pointer argument points to, through parentheses and implicit casts, or null. */
    static String pointee(ClangNode ptr) {
        ClangNode s = strip(ptr);
        return ptr.pointee != null ? ptr.pointee : s == null ? null : s.pointee;
    }

    /** The kind of {@link #pointee}'s type (0 when unknown). */
    static int pointeeKind(ClangNode ptr) {
        ClangNode s = strip(ptr);
        return ptr.pointee != null ? ptr.pointeeKind : s == null ? 0 : s.pointeeKind;
    }

    /** {@code x} with the parentheses around it ({@code ((x))}): its parent is what uses it. */
    static ClangNode outermost(ClangNode x) {
        ClangNode c = x;
        while (c.parent != null && c.parent.kind == CXCursor_ParenExpr) c = c.parent;
        return c;
    }

    /** Whether {@code n} lies in the subtree of {@code ancestor}, by the tree (a macro's nodes share one offset). */
    static boolean within(ClangNode n, ClangNode ancestor) {
        for (ClangNode p = n; p != null; p = p.parent) if (p == ancestor) return true;
        return false;
    }

    /** Whether {@code n} or a node below it refers to the declaration {@code usr}. */
    static boolean mentions(ClangNode n, String usr) {
        boolean[] hit = new boolean[1];
        n.forEach(x -> hit[0] |= usr.equals(x.refUsr));
        return hit[0];
    }

    /** The statement under the labels of {@code st} ({@code case K: default: v = ...;}), or {@code st} itself. */
    static ClangNode labelled(ClangNode st) {
        ClangNode s = st;
        for (int i = 0; i < 16 && s != null && !s.children.isEmpty(); i++) {
            if (s.kind != CXCursor_CaseStmt && s.kind != CXCursor_DefaultStmt && s.kind != CXCursor_LabelStmt) break;
            s = s.children.get(s.children.size() - 1);
        }
        return s == null ? st : s;
    }

    /** Whether the reference {@code x} is written: the left side of an assignment, a compound assignment, ++ or --. */
    static boolean written(ClangNode x) {
        ClangNode c = outermost(x);
        ClangNode p = c.parent;
        if (p == null) return false;
        if ((p.kind == CXCursor_BinaryOperator && p.spelling.equals("=") || p.kind == CXCursor_CompoundAssignOperator)
                && !p.children.isEmpty()
                && p.children.get(0) == c) return true;
        return p.kind == CXCursor_UnaryOperator && (p.spelling.equals("++") || p.spelling.equals("--"));
    }

    /** Whether {@code n}'s subtree writes the variable (an assignment to it, an increment, a compound assignment). */
    static boolean writesIn(ClangNode n, String usr) {
        boolean[] w = new boolean[1];
        n.forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr) && written(x)) w[0] = true;
        });
        return w[0];
    }

    static boolean aliases(ClangNode x) {
        ClangNode c = outermost(x);
        ClangNode p = c.parent;
        if (p == null) return false;
        if (p.kind == CXCursor_UnaryOperator && p.spelling.equals("&")) return !ClangReadOnlyArguments.readOnly(p);
        if (p.kind == CXCursor_VarDecl && p.type.contains("&")) return true;
        return p.kind == CXCursor_CallExpr && p.children.indexOf(c) > 0;
    }

    /**
     * Whether the value of {@code e} holds floating data: a floating variable, parameter, member or element read, a
     * floating call of such data, of no argument or of memory it reads through a pointer, array, reference or
     * structure ({@code cmaes_Get(&evo, "dimension")} returns a double read from {@code evo}), or a random draw; not a
     * constant, and not integers converted to a
     * floating type ({@code (float)n / 256.0f} is integer data in float), as the hand-written front end's
     * {@code fpLeaf}.
     */
    /** Math functions that write through their pointer arguments. */
    private static final java.util.Set<String> OUT_PARAM_MATH = java.util.Set.of(
            "frexp",
            "frexpf",
            "frexpl",
            "modf",
            "modff",
            "modfl",
            "remquo",
            "remquof",
            "remquol",
            "sincos",
            "sincosf",
            "sincospi",
            "sincospif",
            "lgamma_r",
            "lgammaf_r");

    /**
     * Whether a call's argument hands it memory to read: a pointer (not a string literal), an array, a reference, a
     * structure, or a texture or surface object (an integer handle of the memory {@code tex2D<float>(t, u, v)} and
     * {@code surf3Dread<float>(s, x, y, z)} read).
     */
    private static boolean readsMemory(ClangNode a) {
        ClangNode x = a;
        while (x != null && x.kind == CXCursor_UnexposedExpr && x.children.size() == 1) {
            if (memoryHandle(x)) return true;
            x = x.children.get(0);
        }
        if (x == null || x.kind == CXCursor_StringLiteral) return false;
        if (memoryHandle(x)) return true;
        int k = a.canonKind;
        return k == CXType_Pointer
                || k == CXType_ConstantArray
                || k == CXType_IncompleteArray
                || k == CXType_LValueReference
                || k == CXType_RValueReference
                || k == CXType_Record;
    }

    /** Whether {@code e}'s type is CUDA's texture or surface object (as written: its canonical type is an integer). */
    private static boolean memoryHandle(ClangNode e) {
        if (e.type == null) return false;
        String t = e.type.startsWith("const ") ? e.type.substring(6) : e.type;
        return t.equals("cudaTextureObject_t") || t.equals("cudaSurfaceObject_t");
    }

    /**
     * Whether the call {@code e} reads an object: its subscript or call operator ({@code v[k]}, {@code f(x)} of a
     * functor) or one of its methods ({@code m.at(j, i)}, {@code p->value()}): the result is the object's data,
     * whatever the arguments.
     */
    static boolean objectCall(ClangNode e) {
        if (e.kind != CXCursor_CallExpr) return false;
        if (e.spelling.equals("operator[]") || e.spelling.equals("operator()")) return true;
        ClangNode f = e.children.isEmpty() ? null : strip(e.children.get(0));
        return f != null && f.kind == CXCursor_MemberRefExpr && !f.children.isEmpty();
    }

    static boolean floatData(ClangNode e) {
        if (e == null || e.value != null) return false;
        boolean fp = floating(e.canonKind) || e.canonKind == CXType_Complex;
        if (e.kind == CXCursor_CallExpr) {
            if (!fp) return false;
            // an element or a call of an object (v[k] of a std::vector, f(x) of a functor, m.at(j, i)) is read data
            if (objectCall(e)) return true;
            List<ClangNode> args = arguments(e);
            if (args.isEmpty() || dev.numlint.knowledge.RandomGenerators.isGenerator(callee(e))) return true;
            // a math function's out-parameter (frexp's exponent, sincos's results) is written, not read
            boolean outParams = OUT_PARAM_MATH.contains(callee(e).replace("std::", ""));
            for (ClangNode a : args) if (floatData(a) || !outParams && readsMemory(a)) return true;
            return false;
        }
        if (e.kind == CXCursor_DeclRefExpr
                || e.kind == CXCursor_MemberRefExpr
                || e.kind == CXCursor_ArraySubscriptExpr
                // *p, a value read through a pointer, is data as p[0] is
                || e.kind == CXCursor_UnaryOperator && e.spelling.equals("*") && e.children.size() == 1) {
            return fp;
        }
        for (ClangNode c : e.children) if (floatData(c)) return true;
        return false;
    }

    /** A comparison node and the function it is written in. */
    record Comparison(ClangNode node, ClangUnit.Function fn) {}

    /**
     * The comparison ({@code < <= > >= == !=}) spelled {@code text} at {@code line} of {@code unit} (a hand-written
     * front end's use, matched by its squashed text), or null.
     */
    static Comparison comparisonAt(ClangUnit unit, int line, String text) {
        String want = squash(text);
        for (ClangUnit.Function f : unit.functions()) {
            if (line < f.startLine() || line > f.endLine()) continue;
            ClangNode[] hit = new ClangNode[1];
            f.node().forEach(n -> {
                if (hit[0] == null
                        && n.line == line
                        && n.kind == CXCursor_BinaryOperator
                        && (isComparison(n.spelling) || n.spelling.equals("=="))
                        && squash(unit.text(n)).equals(want)) hit[0] = n;
            });
            if (hit[0] != null) return new Comparison(hit[0], f);
        }
        return null;
    }

    /**
     * Whether {@code n} lies in a template parameter's declaration of {@code fn} (an {@code enable_if} condition, a
     * default argument): a constant expression the compiler evaluates, no conversion of a value at run time.
     */
    static boolean inTemplateParameter(ClangNode n, ClangNode fn) {
        for (ClangNode p = n.parent; p != null && p != fn; p = p.parent) {
            if (p.kind == CXCursor_TemplateTypeParameter
                    || p.kind == CXCursor_NonTypeTemplateParameter
                    || p.kind == CXCursor_TemplateTemplateParameter) return true;
        }
        return false;
    }

    /** Whether {@code x} is the operand of an address-of ({@code &x}). */
    static boolean addressOf(ClangNode x) {
        ClangNode p = x.parent;
        while (p != null && p.kind == CXCursor_ParenExpr) p = p.parent;
        return p != null && p.kind == CXCursor_UnaryOperator && p.spelling.equals("&");
    }

    /** Whether {@code x} sits under a conversion to double inside {@code top} (then it is float or integer data). */
    static boolean underFloatConversion(ClangNode x, ClangNode top) {
        for (ClangNode p = x.parent; p != null && p != top.parent; p = p.parent) {
            if (p.kind == CXCursor_UnexposedExpr && p.canonKind == CXType_Double && p.children.size() == 1) {
                int k = p.children.get(0).canonKind;
                if (k == CXType_Float || integral(k)) return true;
            }
        }
        return false;
    }

    /** {@code n} without parentheses, implicit conversions and explicit casts. */
    static ClangNode withoutCasts(ClangNode n) {
        ClangNode x = strip(n);
        while (x != null && isExplicitCast(x) && !x.children.isEmpty())
            x = strip(x.children.get(x.children.size() - 1));
        return x;
    }

    /** {@code n} without parentheses, implicit conversions and casts. */
    static ClangNode uncastAll(ClangNode n) {
        ClangNode x = strip(n);
        for (int i = 0; i < 8 && x != null && !x.children.isEmpty(); i++) {
            if (x.kind != CXCursor_CStyleCastExpr
                    && x.kind != CXCursor_CXXStaticCastExpr
                    && x.kind != CXCursor_CXXFunctionalCastExpr
                    && x.kind != CXCursor_UnexposedExpr
                    && x.kind != CXCursor_ParenExpr) break;
            x = strip(x.children.get(x.children.size() - 1));
        }
        return x;
    }

    /** An addition, subtraction or multiplication computed in a signed type of int's width or more. */
    static boolean signedArithmetic(ClangNode n) {
        return n.kind == CXCursor_BinaryOperator
                && ("+".equals(n.spelling) || "-".equals(n.spelling) || "*".equals(n.spelling))
                && !unsignedKind(n.canonKind)
                && bytes(n.canonKind) >= 4;
    }
}
