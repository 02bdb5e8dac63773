package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Random state across the calls of one {@link ClangUnit} (the fact the hand-written front end's {@code
 * RandomDraws.propagate} computes from tokens): which parameters of a function of the unit hold a random variate at
 * every call site, whole ({@code ""}) or, for a pointer or struct passed on, by member ({@code "x"} for {@code v->x}
 * when every caller passes {@code &v} with {@code v.x} a variate). A device function {@code rotate(Dir *v, float st)}
 * called as {@code rotate(&v, curand_uniform(&s))} in a photon loop has {@code st} a draw and {@code v->x} the random
 * direction of the previous step. Only functions whose every call is seen count: not a kernel (launched from the
 * host), not a member function, not a name defined twice (which definition a call reaches is not decided here), and
 * not a function named otherwise than in a call (its address taken). A least fixed point from the draws, a few rounds
 * at most; a unit without any draw has no random state.
 */
final class ClangVariateParams {
    /** The most rounds of the fixed point. */
    private static final int MAX_ROUNDS = 6;

    private ClangVariateParams() {}

    /**
     * The keys each parameter of a function of {@code unit} holds as a variate at every call site, by the function's
     * simple name and parameter position; functions with none are left out.
     */
    static Map<String, List<Set<String>>> of(ClangUnit unit) {
        Map<String, ClangUnit.Function> defined = new HashMap<>();
        Set<String> twice = new HashSet<>();
        for (ClangUnit.Function f : unit.functions()) {
            if (member(f.node()) || kernel(unit, f)) continue;
            String name = simpleName(f);
            if (defined.put(name, f) != null) twice.add(name);
        }
        for (String t : twice) defined.remove(t);
        if (defined.isEmpty()) return Map.of();
        Set<String> opaque = new HashSet<>();
        for (ClangUnit.Function f : unit.functions()) {
            f.node().forEach(x -> {
                if ((x.kind == CXCursor_DeclRefExpr || x.kind == CXCursor_OverloadedDeclRef)
                        && defined.containsKey(x.spelling)
                        && !callee(x)) opaque.add(x.spelling);
            });
        }
        for (String o : opaque) defined.remove(o);
        if (defined.isEmpty()) return Map.of();
        Map<String, List<Set<String>>> seeds = Map.of();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            ClangRandom random = new ClangRandom(unit, seeds);
            if (round == 0 && !random.anyDraw()) return Map.of();
            Map<String, List<Set<String>>> params = new HashMap<>();
            for (ClangUnit.Function f : unit.functions()) {
                f.node().forEach(x -> {
                    if (x.kind != CXCursor_CallExpr || x.children.isEmpty()) return;
                    String g = ClangSyntax.callee(x);
                    if (!defined.containsKey(g)) return;
                    List<Set<String>> site = new ArrayList<>();
                    for (ClangNode a : arguments(x)) site.add(random.carried(a, x, f));
                    params.merge(g, site, dev.numlint.cuda.facts.CallSiteKeys::intersect);
                });
            }
            params.values().removeIf(l -> l.stream().allMatch(Set::isEmpty));
            if (params.equals(seeds)) break;
            seeds = params;
        }
        return seeds;
    }

    /** A function's name without its qualifiers: how its calls name it. */
    static String simpleName(ClangUnit.Function f) {
        return f.name().substring(f.name().lastIndexOf(':') + 1);
    }

    /** Whether the function {@code n} is a member of a class (its calls go through an object or the class). */
    private static boolean member(ClangNode n) {
        if (n.kind == CXCursor_CXXMethod
                || n.kind == CXCursor_Constructor
                || n.kind == CXCursor_Destructor
                || n.kind == CXCursor_ConversionFunction) return true;
        ClangNode p = n.parent;
        return p != null
                && (p.kind == CXCursor_StructDecl || p.kind == CXCursor_ClassDecl || p.kind == CXCursor_ClassTemplate);
    }

    /** Whether {@code f} is a kernel: launched from the host, its calls are not in view. */
    private static boolean kernel(ClangUnit unit, ClangUnit.Function f) {
        for (ClangNode c : f.node().children) if (c.kind == CXCursor_CUDAGlobalAttr) return true;
        String text = unit.text(f.node());
        int brace = text.indexOf('{');
        return (brace < 0 ? text : text.substring(0, brace)).matches("(?s).*\\b__global__\\b.*");
    }

    /**
     * Whether the reference {@code ref} is the callee of a call, through implicit conversions and, in a call Clang
     * could not resolve (an argument of an undeclared function), the unresolved lookup that holds it.
     */
    private static boolean callee(ClangNode ref) {
        ClangNode c = ref;
        ClangNode p = ref.parent;
        while (p != null
                && (p.kind == CXCursor_UnexposedExpr || p.kind == CXCursor_DeclRefExpr)
                && p.children.size() == 1) {
            c = p;
            p = p.parent;
        }
        return p != null
                && (p.kind == CXCursor_CallExpr || p.kind == CXCursor_UnexposedExpr)
                && !p.children.isEmpty()
                && p.children.get(0) == c;
    }
}
