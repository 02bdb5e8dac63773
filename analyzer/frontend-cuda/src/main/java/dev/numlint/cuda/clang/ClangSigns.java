package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.NumericFacts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The locals of a function that are never negative: every value stored into them (their initializer, {@code =},
 * {@code +=}, {@code *=}, {@code /=}, {@code ++}) is non-negative when the never-negative locals it reads are. A
 * greatest fixed point: all locals start as never negative, and a local with a store that is not provably
 * non-negative (a negative constant, a subtraction, a parameter, an element, an unknown call) leaves the set, until
 * no store changes. A local whose address is taken or that a reference or by-reference argument binds is never in
 * it. {@code s = 0; for (...) { d = a / b; s += d * d; }} with {@code a = fabs(x[i])}, {@code b} a running maximum
 * of such values: {@code s} is never negative.
 *
 * <p>What it serves: a sum of non-negative terms is 0 only when every term is, in any order and with any rounding,
 * so its test against 0 cannot be flipped by rounding (the serial-sum rule's consequence).
 */
final class ClangSigns {
    private final ClangUnit unit;
    private final Map<ClangUnit.Function, Set<String>> cache = new HashMap<>();

    ClangSigns(ClangUnit unit) {
        this.unit = unit;
    }

    /** Whether the local whose declaration has the unified symbol name {@code usr} is never negative in {@code fn}. */
    synchronized boolean neverNegative(ClangUnit.Function fn, String usr) {
        return usr != null && cache.computeIfAbsent(fn, this::compute).contains(usr);
    }

    /** Whether the expression {@code e} of {@code fn} is never negative (its locals as {@link #neverNegative}). */
    synchronized boolean nonNegativeIn(ClangUnit.Function fn, ClangNode e) {
        return nonNegative(e, cache.computeIfAbsent(fn, this::compute), 0);
    }

    private Set<String> compute(ClangUnit.Function fn) {
        Map<String, List<ClangNode>> stores = new HashMap<>();
        Set<String> out = new HashSet<>();
        Set<String> declared = new HashSet<>();
        fn.node().forEach(n -> {
            if (n.kind == CXCursor_VarDecl && n.usr != null && (floating(n.canonKind) || integral(n.canonKind))) {
                if (!declared.add(n.usr)) out.add(n.usr); // declared twice: leave it out (below)
                stores.computeIfAbsent(n.usr, k -> new ArrayList<>());
                ClangNode init = n.children.isEmpty() ? null : n.children.get(n.children.size() - 1);
                if (init != null && clang_isExpressionKind(init.kind))
                    stores.get(n.usr).add(init);
            }
        });
        Set<String> never = new HashSet<>(stores.keySet());
        never.removeAll(out);
        fn.node().forEach(n -> {
            if (n.kind != CXCursor_DeclRefExpr || n.refUsr == null || !stores.containsKey(n.refUsr)) return;
            if (aliases(n)) { // its address taken, a reference bound to it: written where this walk cannot see
                never.remove(n.refUsr);
                return;
            }
            ClangNode c = n;
            ClangNode p = n.parent;
            while (p != null && p.kind == CXCursor_ParenExpr) {
                c = p;
                p = p.parent;
            }
            if (p == null) return;
            if (p.kind == CXCursor_UnaryOperator && (p.spelling.equals("--"))) {
                never.remove(n.refUsr);
            } else if (p.children.size() == 2 && p.children.get(0) == c) {
                if (p.kind == CXCursor_BinaryOperator && p.spelling.equals("=")) {
                    stores.get(n.refUsr).add(p.children.get(1));
                } else if (p.kind == CXCursor_CompoundAssignOperator) {
                    if (p.spelling.equals("+=") || p.spelling.equals("*=") || p.spelling.equals("/="))
                        stores.get(n.refUsr).add(p.children.get(1));
                    else never.remove(n.refUsr);
                }
            }
        });
        boolean changed = true;
        while (changed) {
            changed = false;
            for (String v : new ArrayList<>(never)) {
                for (ClangNode e : stores.get(v)) {
                    if (!nonNegative(e, never, 0)) {
                        never.remove(v);
                        changed = true;
                        break;
                    }
                }
            }
        }
        return never;
    }

    /** Whether {@code e} is never negative when the locals in {@code never} are not. */
    boolean nonNegative(ClangNode e, Set<String> never, int depth) {
        if (e == null || depth > 24) return false;
        if (e.value != null) return e.value >= 0;
        if (integral(e.canonKind) && unsignedKind(e.canonKind)) return true;
        switch (e.kind) {
            case CXCursor_ParenExpr, CXCursor_UnexposedExpr -> {
                return e.children.size() == 1 && nonNegative(e.children.get(0), never, depth + 1);
            }
            case CXCursor_CStyleCastExpr, CXCursor_CXXStaticCastExpr, CXCursor_CXXFunctionalCastExpr -> {
                return nonNegative(operandOf(e), never, depth + 1);
            }
            case CXCursor_DeclRefExpr -> {
                return e.refUsr != null && never.contains(e.refUsr);
            }
            case CXCursor_FloatingLiteral, CXCursor_IntegerLiteral -> {
                return true; // a literal is written without its sign; a negated one is a unary minus
            }
            case CXCursor_UnaryOperator -> {
                return e.spelling.equals("+")
                        && e.children.size() == 1
                        && nonNegative(e.children.get(0), never, depth + 1);
            }
            case CXCursor_BinaryOperator -> {
                if (e.children.size() != 2) return false;
                ClangNode a = e.children.get(0), b = e.children.get(1);
                return switch (e.spelling) {
                    case "*" -> square(a, b) || nonNegative(a, never, depth + 1) && nonNegative(b, never, depth + 1);
                    case "+", "/" -> nonNegative(a, never, depth + 1) && nonNegative(b, never, depth + 1);
                    case "=" -> nonNegative(b, never, depth + 1);
                    default -> false;
                };
            }
            case CXCursor_ConditionalOperator -> {
                int k = e.children.size();
                return k == 3
                        && nonNegative(e.children.get(1), never, depth + 1)
                        && nonNegative(e.children.get(2), never, depth + 1);
            }
            case CXCursor_CallExpr -> {
                String f = callee(e);
                if (f.startsWith("std::")) f = f.substring(5);
                if (NumericFacts.NON_NEGATIVE.contains(f)) return true;
                List<ClangNode> args = arguments(e);
                if (f.equals("fmax") || f.equals("fmaxf") || f.equals("max")) {
                    for (ClangNode a : args) if (nonNegative(a, never, depth + 1)) return true;
                    return false;
                }
                if (f.equals("fmin") || f.equals("fminf") || f.equals("min")) {
                    for (ClangNode a : args) if (!nonNegative(a, never, depth + 1)) return false;
                    return !args.isEmpty();
                }
                return false;
            }
            default -> {
                return false;
            }
        }
    }

    /** {@code x * x}: the same variable, member or element written twice, with no call (two calls differ). */
    private boolean square(ClangNode a, ClangNode b) {
        String x = squash(unit.text(strip(a)));
        if (x.isEmpty() || x.contains("(") || !x.equals(squash(unit.text(strip(b))))) return false;
        boolean[] call = new boolean[1];
        a.forEach(n -> call[0] |= n.kind == CXCursor_CallExpr);
        return !call[0];
    }

    /**
     * Whether the local {@code name} of the function spanning {@code line} is never negative
     * (false when the function declares two locals of that name, or none).
     */
    boolean neverNegativeLocal(int line, String name) {
        for (ClangUnit.Function fn : unit.functions()) {
            if (line < fn.startLine() || line > fn.endLine()) continue;
            String[] usr = new String[1];
            boolean[] twice = new boolean[1];
            fn.node().forEach(n -> {
                if (n.kind != CXCursor_VarDecl || !n.spelling.equals(name)) return;
                if (usr[0] != null) twice[0] = true;
                usr[0] = n.usr;
            });
            return !twice[0] && neverNegative(fn, usr[0]);
        }
        return false;
    }

    /**
     * The local that the floating addition or subtraction written {@code text} at {@code line} is stored into
     * straight away ({@code float r2 = dx*dx + dy*dy;}, {@code r2 = ...}), when that local is never negative
     * ({@link ClangSigns}: this value and every other stored into it); else null.
     */
    String storedIntoNeverNegative(int line, String text) {
        String want = squash(text);
        for (ClangUnit.Function fn : unit.functions()) {
            if (line < fn.startLine() || line > fn.endLine()) continue;
            String[] out = new String[1];
            fn.node().forEach(n -> {
                if (out[0] != null || n.line != line || n.kind != CXCursor_BinaryOperator) return;
                if (!n.spelling.equals("+") && !n.spelling.equals("-")
                        || !squash(unit.text(n)).equals(want)) return;
                ClangNode c = n;
                ClangNode p = n.parent;
                // through wrappers, and through further additions of non-negative terms (dx*dx + dy*dy is the
                // first partial sum of dx*dx + dy*dy + dz*dz): the stored sum is 0 only when this part is
                while (p != null
                        && (p.kind == CXCursor_ParenExpr
                                || p.kind == CXCursor_UnexposedExpr
                                || p.kind == CXCursor_BinaryOperator
                                        && p.spelling.equals("+")
                                        && p.children.size() == 2
                                        && nonNegativeIn(
                                                fn, p.children.get(0) == c ? p.children.get(1) : p.children.get(0)))) {
                    c = p;
                    p = p.parent;
                }
                if (p == null) return;
                String name = null, usr = null;
                if (p.kind == CXCursor_VarDecl) {
                    name = p.spelling;
                    usr = p.usr;
                } else if (p.kind == CXCursor_BinaryOperator
                        && p.spelling.equals("=")
                        && p.children.size() == 2
                        && p.children.get(1) == c) {
                    ClangNode l = strip(p.children.get(0));
                    if (l != null && l.kind == CXCursor_DeclRefExpr) {
                        name = l.spelling;
                        usr = l.refUsr;
                    }
                }
                if (name != null && neverNegative(fn, usr)) out[0] = name;
            });
            return out[0];
        }
        return null;
    }
}
