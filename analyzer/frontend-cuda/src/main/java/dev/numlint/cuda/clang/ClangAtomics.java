package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.cuda.clang.ClangUnit.Atomic;
import dev.numlint.cuda.clang.ClangUnit.Function;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The atomic adds of floating values in a unit's functions ({@link ClangUnit#atomics()}): the floating type each
 * adds, read from the pointer's pointee, or in a template pattern from the template's instantiations, the element
 * type of a complex type, or a pointer to a complex type of a template parameter; in a template no instantiation in
 * view decides, an add of unknown type ({@code floating} false).
 */
final class ClangAtomics {
    private ClangAtomics() {}

    /**
     * The floating add an {@code atomicCAS} loop emulates (the programming guide's double {@code atomicAdd} before
     * sm_60, and float adds on types atomicAdd lacks): the swapped-in value is the bits of a floating sum, {@code
     * __double_as_longlong(val + __longlong_as_double(assumed))} or {@code __float_as_int(...)}. Its sum depends on
     * the order the threads win the swap, as atomicAdd's. A maximum or minimum ({@code fmax(val, ...)}) is
     * order-independent and no add. Null for any other compare-and-swap.
     */
    private static Atomic compareAndSwapAdd(ClangNode n, String name, Function fn) {
        List<ClangNode> args = arguments(n);
        if (args.size() != 3) return null;
        ClangNode v = strip(args.get(2));
        if (v == null || v.kind != CXCursor_CallExpr) return null;
        String bits = callee(v);
        String type =
                switch (bits) {
                    case "__double_as_longlong" -> "double";
                    case "__float_as_int", "__float_as_uint" -> "float";
                    default -> null;
                };
        List<ClangNode> inner = arguments(v);
        if (type == null || inner.size() != 1) return null;
        ClangNode sum = strip(inner.get(0));
        while (sum != null && isExplicitCast(sum) && !sum.children.isEmpty())
            sum = strip(sum.children.get(sum.children.size() - 1));
        if (sum != null && sum.kind == CXCursor_DeclRefExpr && sum.refUsr != null && floating(sum.canonKind)) {
            // the new value kept in a local (do { old_v = *a; new_v = old_v + v; } while (atomicCAS(..., new_v) ...),
            // SKA-gpu-grid, session 54): an add when every value the function gives the local is a floating sum
            return localSum(fn, sum.refUsr) ? new Atomic(n, name, type, true, false, null, fn) : null;
        }
        if (!floatingSum(sum)) return null;
        return new Atomic(n, name, type, true, false, null, fn);
    }

    private static boolean floatingSum(ClangNode e) {
        ClangNode sum = strip(e);
        return sum != null
                && sum.kind == CXCursor_BinaryOperator
                && (sum.spelling.equals("+") || sum.spelling.equals("-"))
                && floating(sum.canonKind);
    }

    /** Whether the function gives the local {@code usr} values, and each is a floating sum or difference. */
    private static boolean localSum(Function fn, String usr) {
        int[] sums = {0};
        boolean[] other = {false};
        fn.node().forEach(x -> {
            ClangNode value = null;
            if (x.kind == CXCursor_VarDecl && usr.equals(x.usr)) {
                if (x.children.isEmpty()) return;
                value = x.children.get(x.children.size() - 1);
                if (x.children.size() == 1 && value.kind == CXCursor_TypeRef) return;
            } else if (assignment(x) && !x.children.isEmpty()) {
                ClangNode l = strip(x.children.get(0));
                if (l == null || l.kind != CXCursor_DeclRefExpr || !usr.equals(l.refUsr)) return;
                if (x.kind == CXCursor_CompoundAssignOperator && (x.spelling.equals("+=") || x.spelling.equals("-="))) {
                    sums[0]++;
                    return;
                }
                if (!(x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")) || x.children.size() != 2) {
                    other[0] = true; // *=, ++, a call's write: not a sum
                    return;
                }
                value = x.children.get(1);
            } else {
                return;
            }
            if (floatingSum(value)) sums[0]++;
            else other[0] = true;
        });
        return sums[0] > 0 && !other[0];
    }

    /** The floating atomic adds of {@code unit}, in source order. */
    static List<Atomic> compute(ClangUnit unit) {
        List<Atomic> out = new ArrayList<>();
        List<Atomic> overloadCalls = new ArrayList<>();
        unit.eachInFunctions((fn, n) -> {
            if (n.kind != CXCursor_CallExpr && !(n.kind == CXCursor_UnexposedExpr && !n.children.isEmpty())) return;
            if (n.kind == CXCursor_UnexposedExpr) return; // dependent calls show as CallExpr too
            String name = callee(n);
            if (name.startsWith("atomicCAS")) {
                Atomic cas = compareAndSwapAdd(n, name, fn);
                if (cas != null) out.add(cas);
                return;
            }
            if (!ClangUnit.ATOMIC_ADDS.contains(name)) return;
            List<ClangNode> args = arguments(n);
            if (args.size() < 2) return;
            ClangNode ptr = args.get(0);
            String type = pointee(ptr);
            int kind = pointeeKind(ptr);
            boolean viaTemplate = false;
            boolean fp =
                    floating(kind) || type != null && (type.startsWith("__half") || type.startsWith("__nv_bfloat"));
            if (!fp && fn.template()) {
                // a member of a template parameter's value (&out[i].x with T = float2): the member's type in each
                // instantiation in view
                ClangInstantiations.Member member = ClangInstantiations.member(unit, ptr);
                ClangNode a1 = args.get(1);
                List<Atomic> members = member == null
                        ? null
                        : ClangInstantiations.memberAtomics(
                                unit,
                                fn,
                                n,
                                name,
                                member,
                                a1.value != null || strip(a1) == null ? a1.value : strip(a1).value);
                if (members != null) {
                    out.addAll(members);
                    return;
                }
                // a dependent pointer (&grid[i] with REAL *grid) has no canonical pointee: the parameter in it
                String param = type != null ? type.replace("const ", "") : ClangAtomicCalls.pointerParam(ptr);
                if (param == null) param = autoInitialized(ptr, fn);
                // a pointer of a dependent call's type (&(*a)[i] of an Arr<T> *): atomicAdd(T *, T) adds the value's
                // type, a template parameter's (session 65 round C: a light-transport code's 14 float atomics)
                if (param == null && strip(args.get(1)) != null && strip(args.get(1)).canon != null) {
                    String v = strip(args.get(1)).canon.replace("const ", "");
                    if (v.matches("type-parameter-0-\\d+")) param = v;
                }
                if (param == null) param = containerElement(ptr);
                if (param == null) param = "";
                if (param.matches("type-parameter-0-\\d+")) {
                    String inst = ClangTemplates.instantiatedWith(fn, param, true);
                    if (inst != null) {
                        // one per floating type: float's sum is a warning, double's a note, each where it comes from
                        ClangNode addend = args.get(1);
                        Double v = addend.value != null
                                ? addend.value
                                : strip(addend) == null ? null : strip(addend).value;
                        int k = Integer.parseInt(param.substring(param.lastIndexOf('-') + 1));
                        for (String t : inst.split(", ")) {
                            out.add(new Atomic(
                                    n, name, t, true, true, v, fn, ClangTemplates.instantiatedAt(fn, k, t), null));
                        }
                        return;
                    } else if (ClangTemplates.instantiatedWith(fn, param, false) == null && complexElement(fn, param)) {
                        // instantiated in another file (a header's template): the parameter is the element type of
                        // a complex type in this function, so floating whatever it is instantiated with
                        type = "a complex number's part";
                        fp = true;
                        viaTemplate = true;
                    } else if (ClangTemplates.instantiatedWith(fn, param, false) == null) {
                        // no instantiation in view decides the type (its users are elsewhere): an add of unknown type,
                        // order-dependent if floating (the hand-written CallResults' unknown atomic); a floating
                        // value added (view.stresses[i].xx += s[i], View's members unknown) is that type's sum
                        String added = floatingValue(args.get(1));
                        out.add(
                                added != null
                                        ? new Atomic(n, name, added, true, true, null, fn)
                                        : new Atomic(n, name, written(fn, param, param), false, true, null, fn));
                        return;
                    }
                }
            }
            if (!fp && kind == CXType_Vector) fp = type != null && type.contains("float");
            if (!fp && fn.template()) {
                // a pointer to a complex type of a template parameter (cuda_complex<T> *, an alias whose canonical
                // type stays dependent): its parts are floating whatever the instantiation
                String written =
                        ptr.type != null && !ptr.type.isEmpty() ? ptr.type : strip(ptr) == null ? "" : strip(ptr).type;
                if (written.matches("(?i).*complex\\s*<[^>]*>\\s*\\*\\s*(const\\s*)?")) {
                    type = "a complex number";
                    fp = true;
                    viaTemplate = true;
                }
            }
            if (!fp && (kind == CXType_Invalid || kind == CXType_Dependent) && floatingValue(args.get(1)) != null) {
                // the pointer's type is not known (a member of a dependent object), the value's is floating
                type = floatingValue(args.get(1));
                fp = true;
                viaTemplate = true;
            }
            if (!fp && kind == CXType_Record && n.refUsr != null) {
                // a call of the project's own overload (atomicAdd(float3 *, float3)): judged below by its body's adds
                overloadCalls.add(new Atomic(n, name, type == null ? "" : type, false, false, null, fn));
                return;
            }
            if (!fp) return;
            ClangNode addend = args.get(1);
            Double v = addend.value != null ? addend.value : strip(addend) == null ? null : strip(addend).value;
            out.add(new Atomic(n, name, type == null ? "" : type.replace("const ", ""), true, viaTemplate, v, fn));
        });
        for (Atomic call : overloadCalls) {
            // the overload this file defines: its floating adds are this call's, named with the overload's line
            for (Atomic a : List.copyOf(out)) {
                Function callee = a.in();
                if (!a.floating() || !call.node().refUsr.equals(callee.node().usr)) continue;
                out.add(new Atomic(
                        call.node(),
                        call.name(),
                        a.type() + " (the overload at line " + callee.line() + " adds its parts)",
                        true,
                        a.viaTemplate(),
                        null,
                        call.in()));
                break;
            }
        }
        if (!overloadCalls.isEmpty())
            out.sort(java.util.Comparator.comparingInt((Atomic a) -> a.node().line)
                    .thenComparingInt(a -> a.node().column));
        return List.copyOf(out);
    }

    /**
     * The template parameter in the initializer of a local declared {@code auto} that the pointer {@code ptr} reads
     * ({@code const auto raw = reinterpret_cast<T *>(p); atomicAdd(raw + 1, v)}): in a template pattern the
     * variable's type stays undeduced, its initializer's does not. Null when there is none.
     */
    private static String autoInitialized(ClangNode ptr, Function fn) {
        Set<String> vars = new HashSet<>();
        ptr.forEach(n -> {
            if (n.kind == CXCursor_DeclRefExpr && n.refUsr != null) vars.add(n.refUsr);
        });
        if (vars.isEmpty()) return null;
        String[] found = new String[1];
        fn.node().forEach(n -> {
            if (found[0] != null || n.kind != CXCursor_VarDecl || !vars.contains(n.usr)) return;
            if (!n.type.contains("auto") || n.children.isEmpty()) return;
            found[0] = ClangUnit.templateParam(n.children.get(n.children.size() - 1));
        });
        return found[0];
    }

    /**
     * The floating type of the value {@code v} ("float", "double"), or null when it is not known to be floating or is
     * a constant.
     */
    private static String floatingValue(ClangNode v) {
        ClangNode s = strip(v);
        ClangNode n = v.canonKind != CXType_Invalid && v.canonKind != CXType_Unexposed ? v : s;
        if (n == null || !floating(n.canonKind) || n.canon == null) return null;
        // a constant's type is the literal's (1.0 is a double whatever it is added to): it decides nothing
        if (v.value != null || n.value != null) return null;
        return n.canon.replace("const ", "").replace("volatile ", "").trim();
    }

    /** A class of one template parameter, or a pointer to one: {@code Array<type-parameter-0-0> *}. */
    private static final java.util.regex.Pattern ONE_PARAMETER_CLASS =
            java.util.regex.Pattern.compile("(?:const )?(?:\\w+::)*\\w+<(type-parameter-0-\\d+)>(?: const)?(?: \\*)?");

    /**
     * The parameter of an element of a container of one template parameter the pointer indexes ({@code
     * &(*density)[cell]} of an {@code Array<dtype> *}, whose {@code operator[]} Clang leaves unresolved in the
     * pattern): its element type, as a container's subscript gives (session 65 round C: a light-transport code's 14
     * atomics of {@code (1.0 - exp(-mua * ds)) * phot->weight}), or null.
     */
    private static String containerElement(ClangNode ptr) {
        String[] found = new String[1];
        ptr.forEach(n -> {
            if (found[0] != null || n.kind != CXCursor_ArraySubscriptExpr || n.children.isEmpty()) return;
            ClangNode base = strip(n.children.get(0));
            java.util.regex.Matcher m =
                    ONE_PARAMETER_CLASS.matcher(base == null || base.canon == null ? "" : base.canon);
            if (m.matches()) found[0] = m.group(1);
        });
        return found[0];
    }

    /** The written name of the template parameter {@code param} ("type-parameter-0-K") of {@code fn}, or {@code or}. */
    private static String written(Function fn, String param, String or) {
        int k = Integer.parseInt(param.substring(param.lastIndexOf('-') + 1));
        int i = 0;
        for (ClangNode c : fn.node().children) {
            if (c.kind != CXCursor_TemplateTypeParameter) continue;
            if (i++ == k) return c.spelling == null || c.spelling.isEmpty() ? or : c.spelling;
        }
        return or;
    }

    /**
     * Whether the template parameter {@code param} ("type-parameter-0-K") is the element type of a complex type in
     * {@code fn}'s signature or body ({@code complex<T>}, {@code cuda_complex<T>}, {@code thrust::complex<T>}): the
     * element type of a complex number is floating.
     */
    private static boolean complexElement(Function fn, String param) {
        // the parameter's written name (the K-th type parameter of the template): alias templates of complex
        // types (cuda_complex<T> = conditional<...>) keep the name only in the written type
        String written = written(fn, param, null);
        String names = java.util.regex.Pattern.quote(param)
                + (written == null || written.isEmpty() ? "" : "|" + java.util.regex.Pattern.quote(written));
        java.util.regex.Pattern p =
                java.util.regex.Pattern.compile("(?i).*complex\\s*<\\s*(const\\s+)?(" + names + ")\\s*>.*");
        boolean[] hit = new boolean[1];
        fn.node().forEach(n -> {
            if (!hit[0] && n.canon != null && p.matcher(n.canon).matches()) hit[0] = true;
            if (!hit[0] && n.pointee != null && p.matcher(n.pointee).matches()) hit[0] = true;
            if (!hit[0] && n.type != null && p.matcher(n.type).matches()) hit[0] = true;
        });
        return hit[0];
    }
}
