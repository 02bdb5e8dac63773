package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The instantiations of this file's templates that Clang shows, beyond the type arguments of calls and explicit
 * instantiations ({@link ClangParser}): a member function of a class template is instantiated with the type arguments
 * of the class's specializations in view, and a dependent call in a template whose instantiations are known
 * ({@code quantize(v, scale, out)} in {@code Quantizer<In, Scale, Out>::operator()}) instantiates the one function
 * template of that name with the arguments' types, deduced by position from the parameters' types (a parameter of type
 * {@code T}, {@code const T}, {@code T &} or {@code T *}). Nothing is guessed: a call whose callee is not one template
 * of this file, or whose parameters do not bind every type parameter, adds nothing.
 *
 * <p>Also the explicit conversions whose destination type is a template parameter ({@code Out(rint(x))},
 * {@code static_cast<Out>(x)}): the parameter, and the integer types it is instantiated with.
 */
final class ClangTemplates {
    private ClangTemplates() {}

    /** A dependent type: "type-parameter-0-K" (a function's or its class's own parameter), const or a reference. */
    private static final Pattern PARAM =
            Pattern.compile("^(?:const )?type-parameter-0-(\\d+)(?: const)?( \\*)?(?: const)?(?: &&?)?$");

    /** The type arguments a function is instantiated with: its own template's, or its class template's. */
    static List<List<String>> base(ClangNode fn, Map<String, List<List<String>>> templateArgs) {
        if (fn.kind == CXCursor_FunctionTemplate)
            return fn.usr == null ? List.of() : templateArgs.getOrDefault(fn.usr, List.of());
        for (ClangNode p = fn.parent; p != null; p = p.parent) {
            if (p.kind == CXCursor_ClassTemplate)
                return p.usr == null ? List.of() : templateArgs.getOrDefault(p.usr, List.of());
        }
        String cls = ClangMemberTemplates.outOfLine(fn);
        return cls == null ? List.of() : templateArgs.getOrDefault(cls, List.of());
    }

    /**
     * Records the type arguments of a class template's specialization {@code type} (a functor {@code Quantizer<float,
     * float, unsigned char>} passed to a function template, or a type non-template code names) under the class
     * template's USR: its member functions are instantiated with them. Once per type ({@code read}); the arguments'
     * own specializations too, three deep.
     */
    static void classArguments(
            org.bytedeco.llvm.clang.CXType type,
            int depth,
            java.util.Set<String> read,
            Map<String, List<List<String>>> templateArgs) {
        if (type.kind() != CXType_Record || depth > 3) return;
        int n = clang_Type_getNumTemplateArguments(type);
        if (n <= 0 || !read.add(clang_getTypeSpelling(type).getString())) return;
        org.bytedeco.llvm.clang.CXCursor decl = clang_getTypeDeclaration(type);
        org.bytedeco.llvm.clang.CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
        if (clang_Cursor_isNull(tmpl) != 0) return;
        boolean own = ClangSpecializations.explicit(decl, tmpl);
        List<String> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            org.bytedeco.llvm.clang.CXType at = clang_getCanonicalType(clang_Type_getTemplateArgumentAsType(type, i));
            args.add(
                    at.kind() == CXType_Invalid
                            ? null
                            : clang_getTypeSpelling(at).getString());
            classArguments(at, depth + 1, read, templateArgs);
        }
        if (own) return;
        List<List<String>> all =
                templateArgs.computeIfAbsent(clang_getCursorUSR(tmpl).getString(), k -> new ArrayList<>());
        if (!all.contains(args)) all.add(args);
    }

    /**
     * An explicit cast to an unsigned type of an operand of a template parameter's type that no instantiation in view
     * binds ({@code uint16_t((rel.Ek - Ek_min) / dEk)} in MOQUI's physics class templates over {@code R}, instantiated
     * through other templates): whether it is floating is not known here, so the cast is recorded as a conversion
     * whose operand's instantiations are not in view (its {@code unseen} names the parameter, its destination is the
     * cast's type), a note that says so.
     */
    static void operandUnseen(
            ClangUnit unit,
            ClangNode n,
            ClangNode op,
            ClangUnit.Function fn,
            String to,
            int bytes,
            List<ClangUnit.Conversion> out) {
        if (op == null || !pattern(fn) || ClangSyntax.folded(op) != null || ClangDependentTypes.integerRounding(op))
            return;
        ClangNode s = strip(op);
        String param = ClangMemberTemplates.param(unit, fn, s == null ? op : s);
        // an operand whose type Clang leaves dependent through another template (m.cell[1] * m.n of a Meta<T> m with
        // std::vector<T> cell): not resolved in the pattern, whatever the instantiations; a note that names T
        String through = param == null ? dependentOn(s == null ? op : s) : null;
        if (through == null && (param == null || instantiatedWith(fn, param, false) != null)) return;
        if (through != null) param = through;
        String name = parameterName(fn, param);
        String how = castSpelling(n, n.type);
        String guard = ClangGuards.of(unit, n, op, fn);
        String from = through == null ? name : "a value of a type that depends on " + name;
        out.add(new ClangUnit.Conversion(
                n, op, how, from, to, true, bytes, true, guard != null, guard, true, fn, name, null));
    }

    /** A template parameter's canonical name in a type's spelling ("type-parameter-0-1"). */
    private static final java.util.regex.Pattern TYPE_PARAMETER =
            java.util.regex.Pattern.compile("type-parameter-\\d+-\\d+");

    /**
     * The template parameter ("type-parameter-D-K") that a dependent operand's type comes from through another
     * template (a member of a {@code Meta<T>}, an element of a {@code std::vector<T>}): its own type left dependent
     * (unexposed), and a node in it of a type that names the parameter; null otherwise.
     */
    private static String dependentOn(ClangNode op) {
        if (op == null || op.canonKind != CXType_Unexposed && op.canonKind != CXType_Dependent) return null;
        String[] found = new String[1];
        op.forEach(n -> {
            if (found[0] != null || n.canon == null) return;
            java.util.regex.Matcher m = TYPE_PARAMETER.matcher(n.canon);
            if (m.find()) found[0] = m.group();
        });
        return found[0];
    }

    /**
     * The argument lists that bind {@code param} ("type-parameter-D-K") in {@code fn}: in a member template of a class
     * template, depth 0 is the class's parameters (its specializations in view), depth 1 the member's own; elsewhere
     * the function's (or its class's) instantiations.
     */
    static List<List<String>> instantiationsOf(ClangUnit unit, ClangUnit.Function fn, String param) {
        boolean member = fn.node().kind == CXCursor_FunctionTemplate && param.startsWith("type-parameter-");
        ClangNode cls = null;
        for (ClangNode p = fn.node().parent; member && p != null && cls == null; p = p.parent) {
            if (p.kind == CXCursor_ClassTemplate) cls = p;
        }
        if (cls == null) return fn.instantiations();
        if (param.startsWith("type-parameter-0-"))
            return cls.usr == null ? List.of() : unit.templateArguments().getOrDefault(cls.usr, List.of());
        return fn.instantiations();
    }

    /**
     * The written name of the template parameter {@code param} ("type-parameter-0-K") of {@code fn}: the K-th
     * parameter of its own template, or of its class template for a member; {@code param} itself when not found.
     */
    static String parameterName(ClangUnit.Function fn, String param) {
        int k;
        try {
            k = Integer.parseInt(param.substring(param.lastIndexOf('-') + 1));
        } catch (RuntimeException e) {
            return param;
        }
        List<String> names = templateParameterNames(fn);
        if (k < 0 || k >= names.size() || names.get(k).isEmpty()) return param;
        return names.get(k);
    }

    /** Whether {@code fn} is a template pattern: a function template or a member of a class template. */
    static boolean pattern(ClangUnit.Function fn) {
        if (fn.template()) return true;
        for (ClangNode p = fn.node().parent; p != null; p = p.parent) {
            if (p.kind == CXCursor_ClassTemplate || p.kind == CXCursor_ClassTemplatePartialSpecialization) return true;
        }
        return ClangMemberTemplates.outOfLine(fn.node()) != null;
    }

    /**
     * {@code functions} with the instantiations their dependent calls deduce added (to a fixed point, 8 rounds), and
     * the line each instantiation comes from. A call or kernel launch in a template that names its callee's template
     * arguments ({@code inner<HIST, N, unsigned char>(n)}, {@code build<BIN, HIST, N><<<g, b>>>(...)}: LightGBM's
     * chain of launchers from {@code inner<float, 128>(n)} down to the histogram kernel) instantiates the callee with
     * the written arguments, the caller's parameters replaced by the caller's instantiation. An instantiation's line
     * is where the chain starts: the call in code that is no template, or an explicit instantiation's line. A kernel
     * launch deduces as a call ({@code scatter<<<g, b>>>(out, in, n)} in {@code run<T>}, explicitly instantiated).
     */
    static List<ClangUnit.Function> deduce(List<ClangUnit.Function> functions, ClangUnit unit) {
        Map<ClangNode, List<List<String>>> inst = new IdentityHashMap<>();
        Map<ClangNode, Map<List<String>, Integer>> at = new IdentityHashMap<>();
        Map<String, List<ClangUnit.Function>> byName = new java.util.HashMap<>();
        for (ClangUnit.Function f : functions) {
            inst.put(f.node(), new ArrayList<>(f.instantiations()));
            at.put(f.node(), new java.util.HashMap<>());
            if (f.template())
                byName.computeIfAbsent(f.node().spelling, k -> new ArrayList<>())
                        .add(f);
        }
        if (byName.isEmpty()) return functions;
        origins(functions, unit, byName, inst, at);
        if (unit != null) ClangInstantiations.explicitLines(unit, byName, inst, at);
        boolean changed = true;
        for (int round = 0; round < 8 && changed; round++) {
            changed = false;
            for (ClangUnit.Function f : functions) {
                List<List<String>> mine = inst.get(f.node());
                if (mine.isEmpty()) continue;
                List<ClangNode> calls = new ArrayList<>();
                f.node().forEach(n -> {
                    if (n.kind == CXCursor_CallExpr && n.canonKind == CXType_Dependent && !n.children.isEmpty())
                        calls.add(n);
                });
                List<String> names = unit == null ? List.of() : templateParameterNames(f);
                for (ClangNode call : calls) {
                    Matcher written = unit == null ? null : WRITTEN_ARGUMENTS.matcher(unit.text(call));
                    ClangUnit.Function e = written != null && written.lookingAt()
                            ? explicitlyCalled(written.group(1), written.group(2), byName)
                            : null;
                    if (e != null) {
                        for (List<String> args : List.copyOf(mine)) {
                            List<String> bound = substitute(written.group(2), names, args, e);
                            if (bound == null) continue;
                            // the parameters not written deduced from the call's arguments (cast<OUT>(x * 2.0f - 1.0f)
                            // binds From = float: session 62 round A, an upscaler's kernels)
                            bound = deducedRest(e, ClangInstantiations.callArguments(call), args, bound);
                            if (bound == null) continue;
                            List<List<String>> theirs = inst.get(e.node());
                            if (!theirs.contains(bound) && theirs.size() < MAX_INSTANTIATIONS) {
                                theirs.add(bound);
                                Integer line = at.get(f.node()).get(args);
                                if (line != null) at.get(e.node()).put(bound, line);
                                changed = true;
                            }
                        }
                        continue;
                    }
                    ClangUnit.Function g = calledTemplate(call, byName);
                    if (g == null) continue;
                    for (List<String> args : List.copyOf(mine)) {
                        List<String> bound = bind(g, ClangInstantiations.callArguments(call), args);
                        List<List<String>> theirs = inst.get(g.node());
                        if (bound != null && !theirs.contains(bound) && theirs.size() < MAX_INSTANTIATIONS) {
                            theirs.add(bound);
                            Integer line = at.get(f.node()).get(args);
                            if (line != null) at.get(g.node()).put(bound, line);
                            changed = true;
                        }
                    }
                }
            }
        }
        List<ClangUnit.Function> out = new ArrayList<>(functions.size());
        for (ClangUnit.Function f : functions) {
            List<List<String>> all = inst.get(f.node());
            Map<List<String>, Integer> lines = at.get(f.node());
            out.add(
                    all.size() == f.instantiations().size() && lines.isEmpty()
                            ? f
                            : new ClangUnit.Function(
                                    f.name(),
                                    f.line(),
                                    f.startLine(),
                                    f.endLine(),
                                    f.template(),
                                    f.device(),
                                    f.host(),
                                    f.node(),
                                    List.copyOf(all),
                                    Map.copyOf(lines)));
        }
        return List.copyOf(out);
    }

    /** At most this many argument lists per template (a chain of launchers multiplies them). */
    private static final int MAX_INSTANTIATIONS = 64;

    /**
     * {@code name<arguments>(} or {@code name<arguments><<<} at the start of a call's text (after {@code this->} or
     * a qualifier): group 1 the name, group 2 the arguments as written.
     */
    private static final Pattern WRITTEN_ARGUMENTS = Pattern.compile(
            "\\s*(?:this\\s*->\\s*)?(?:[A-Za-z_]\\w*\\s*::\\s*)*([A-Za-z_]\\w*)\\s*<([^;{}()<>]{1,200})>\\s*(?:<<<|\\()");

    /** The one function template named {@code name} that takes at least as many parameters as written, or null. */
    private static ClangUnit.Function explicitlyCalled(
            String name, String written, Map<String, List<ClangUnit.Function>> byName) {
        List<ClangUnit.Function> named = byName.get(name);
        if (named == null) return null;
        int n = written.split(",").length;
        ClangUnit.Function found = null;
        for (ClangUnit.Function g : named) {
            if (templateParameterNames(g).size() < n) continue;
            if (found != null) return null; // overloads: not decided here
            found = g;
        }
        return found;
    }

    /**
     * The arguments {@code written} for the template {@code g}, in the caller's instantiation {@code caller}: a
     * caller's parameter named there is its argument in that instantiation, another type its canonical spelling
     * ({@link ClangInstantiations#instantiationType}), anything else (a constant) null; padded with nulls to {@code g}'s
     * parameters. Null when no argument is known.
     */
    private static List<String> substitute(
            String written, List<String> names, List<String> caller, ClangUnit.Function g) {
        String[] parts = written.split(",");
        int size = Math.max(parts.length, templateParameterNames(g).size());
        String[] out = new String[size];
        boolean any = false;
        for (int i = 0; i < parts.length; i++) {
            String w = parts[i].trim().replaceAll("\\s+", " ");
            int k = names.indexOf(w);
            out[i] = k >= 0 ? (k < caller.size() ? caller.get(k) : null) : ClangInstantiations.instantiationType(w);
            any |= out[i] != null;
        }
        return any ? java.util.Arrays.asList(out) : null;
    }

    /**
     * The written names of the template parameters of {@code fn}'s template (its own, or its class template's for a
     * member function of a class template), in order.
     */
    static List<String> templateParameterNames(ClangUnit.Function fn) {
        ClangNode owner = fn.node();
        if (owner.kind != CXCursor_FunctionTemplate) {
            for (ClangNode p = owner.parent; p != null; p = p.parent) {
                if (p.kind == CXCursor_ClassTemplate || p.kind == CXCursor_ClassTemplatePartialSpecialization) {
                    owner = p;
                    break;
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (ClangNode c : owner.children) {
            if (c.kind == CXCursor_TemplateTypeParameter
                    || c.kind == CXCursor_NonTypeTemplateParameter
                    || c.kind == CXCursor_TemplateTemplateParameter) out.add(c.spelling == null ? "" : c.spelling);
        }
        return out;
    }

    /**
     * The line of the call in code that is no template (a host function's call or kernel launch) each instantiation
     * of a template comes from: the first call of that name whose written arguments, or the types its arguments
     * bind, agree with it.
     */
    private static void origins(
            List<ClangUnit.Function> functions,
            ClangUnit unit,
            Map<String, List<ClangUnit.Function>> byName,
            Map<ClangNode, List<List<String>>> inst,
            Map<ClangNode, Map<List<String>, Integer>> at) {
        if (unit == null) return;
        for (ClangUnit.Function f : functions) {
            if (pattern(f)) continue;
            f.node().forEach(n -> {
                if (n.kind != CXCursor_CallExpr || n.children.isEmpty()) return;
                String name = callee(n);
                List<ClangUnit.Function> named = byName.get(name);
                if (named == null || named.size() != 1) return;
                ClangUnit.Function g = named.get(0);
                // a call with more arguments than the template has parameters calls something else of that name (a
                // plain call operator of another class, r(t), beside a member template operator() of four)
                if (ClangInstantiations.callArguments(n).size()
                        > parameters(g.node()).size()) return;
                Matcher written = WRITTEN_ARGUMENTS.matcher(unit.text(n));
                List<String> args = written.lookingAt() && written.group(1).equals(name)
                        ? substitute(written.group(2), List.of(), List.of(), g)
                        : bind(g, ClangInstantiations.callArguments(n), List.of());
                if (args == null) return;
                for (List<String> i : inst.get(g.node())) {
                    if (agrees(args, i)) at.get(g.node()).putIfAbsent(i, n.line);
                }
            });
        }
    }

    /** Whether the known arguments of {@code a} are those of {@code b} at the same positions. */
    static boolean agrees(List<String> a, List<String> b) {
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) == null) continue;
            if (i >= b.size() || b.get(i) == null || !a.get(i).equals(b.get(i))) return false;
        }
        return true;
    }

    /** The one function template of this file a dependent call names (by name and number of parameters), or null. */
    private static ClangUnit.Function calledTemplate(ClangNode call, Map<String, List<ClangUnit.Function>> byName) {
        ClangNode ref = call.children.get(0);
        if (ref.kind != CXCursor_DeclRefExpr && ref.kind != CXCursor_OverloadedDeclRef) return null;
        if (ref.canon == null || !ref.canon.contains("overloaded")) return null;
        String name = ref.ref != null && !ref.ref.isEmpty() ? ref.ref : ref.spelling;
        List<ClangUnit.Function> named = byName.get(name);
        if (named == null) return null;
        int n = ClangInstantiations.callArguments(call).size();
        ClangUnit.Function found = null;
        for (ClangUnit.Function g : named) {
            if (parameters(g.node()).size() != n) continue;
            if (found != null) return null; // overloads of the same arity: not decided here
            found = g;
        }
        return found;
    }

    /**
     * The type arguments of {@code g} that a call with {@code args} binds in the caller's instantiation {@code caller}
     * (its arguments' types are the caller's parameters or concrete types), or null unless every type parameter of
     * {@code g} is bound, consistently.
     */
    private static List<String> bind(ClangUnit.Function g, List<ClangNode> args, List<String> caller) {
        List<ClangNode> tparams = new ArrayList<>();
        for (ClangNode c : g.node().children) {
            if (c.kind == CXCursor_TemplateTypeParameter
                    || c.kind == CXCursor_NonTypeTemplateParameter
                    || c.kind == CXCursor_TemplateTemplateParameter) tparams.add(c);
        }
        String[] bound = new String[tparams.size()];
        if (!deduceInto(g, args, caller, bound)) return null;
        for (int k = 0; k < bound.length; k++) {
            if (tparams.get(k).kind == CXCursor_TemplateTypeParameter && bound[k] == null) return null;
        }
        return java.util.Arrays.asList(bound);
    }

    /**
     * {@code written}, the arguments a call writes for {@code g}, with the type parameters it leaves out deduced from
     * the call's arguments as {@link #bind} does; null when a deduction contradicts a written argument.
     */
    private static List<String> deducedRest(
            ClangUnit.Function g, List<ClangNode> args, List<String> caller, List<String> written) {
        if (!written.contains(null)) return written;
        String[] out = written.toArray(new String[0]);
        return deduceInto(g, args, caller, out) ? java.util.Arrays.asList(out) : null;
    }

    /**
     * Binds {@code bound[k]} for each parameter of {@code g} of a type parameter's type ({@code T}, {@code const T &},
     * {@code T *}) from the type of the call's argument in the caller's instantiation; false when an argument
     * contradicts a type already bound. Fewer arguments than parameters: the rest take their defaults, binding nothing.
     */
    private static boolean deduceInto(ClangUnit.Function g, List<ClangNode> args, List<String> caller, String[] bound) {
        List<ClangNode> params = parameters(g.node());
        for (int i = 0; i < Math.min(params.size(), args.size()); i++) {
            Matcher m = PARAM.matcher(params.get(i).canon);
            if (!m.matches()) {
                // Arr<T> *a given an Arr<float> *: T = float (session 65 round C: a kernel's device helpers)
                Matcher c = ClangClassArguments.CLASS_PARAM.matcher(params.get(i).canon);
                String t = c.matches() ? ClangClassArguments.of(args.get(i), c.group(1), caller) : null;
                if (t == null) continue;
                int k = Integer.parseInt(c.group(2));
                if (k >= bound.length) continue;
                if (bound[k] != null && !bound[k].equals(t)) return false;
                bound[k] = t;
                continue;
            }
            int k = Integer.parseInt(m.group(1));
            String t = argumentType(args.get(i), caller, m.group(2) != null);
            if (t == null || k >= bound.length) continue;
            if (bound[k] != null && !bound[k].equals(t)) return false;
            bound[k] = t;
        }
        return true;
    }

    /** The concrete type of an argument in the caller's instantiation (its pointee for a pointer parameter), or null. */
    private static String argumentType(ClangNode arg, List<String> caller, boolean pointer) {
        String t = arg.canon == null ? "" : arg.canon.trim();
        if (pointer) {
            if (!t.endsWith("*")) return null;
            t = t.substring(0, t.length() - 1).trim();
        }
        t = t.replaceFirst("^const ", "").replaceFirst(" const$", "").replaceFirst(" &&?$", "");
        Matcher m = Pattern.compile("^type-parameter-0-(\\d+)$").matcher(t);
        if (m.matches()) {
            int k = Integer.parseInt(m.group(1));
            return k < caller.size() ? caller.get(k) : null;
        }
        if (t.isEmpty() || t.contains("type-parameter") || t.startsWith("<")) return null;
        return t;
    }

    private static List<ClangNode> parameters(ClangNode fn) {
        List<ClangNode> out = new ArrayList<>();
        for (ClangNode c : fn.children) if (c.kind == CXCursor_ParmDecl) out.add(c);
        return out;
    }

    /**
     * The template parameter an explicit conversion converts to ({@code Out(x)}, {@code (Out)x}, {@code
     * static_cast<Out>(x)}), as "type-parameter-0-K", or null when its destination is no template parameter of the
     * function's own template or class.
     */
    static String destination(ClangNode n) {
        boolean cast = isExplicitCast(n);
        if (!cast && !construction(n)) return null;
        // a member template of a class template names its own parameters at depth 1 (operator vec2T<U>())
        return n.canon != null && n.canon.matches("type-parameter-[01]-\\d+") ? n.canon : null;
    }

    /**
     * Whether {@code n} is an unresolved construction {@code T(x)}: a call whose first child names the type, as
     * libclang shows {@code Out(x)} of a dependent {@code Out}, and {@code uint16_t(x)} of a dependent {@code x}.
     */
    static boolean construction(ClangNode n) {
        return n.kind == CXCursor_CallExpr
                && n.spelling.isEmpty()
                && n.children.size() == 2
                && n.children.get(0).kind == CXCursor_TypeRef;
    }

    /**
     * The conversion of a floating operand to the template parameter {@code param} (a cast {@link #destination} found):
     * one per kind of integer type it is instantiated with (unsigned, and narrow signed), named by them ("unsigned
     * char (Out)"); none when every instantiation in view is floating or a wide signed integer; one that says the
     * parameter's instantiations are not in view when there are none.
     */
    static void conversions(
            ClangUnit unit, ClangUnit.Function fn, ClangNode n, String param, List<ClangUnit.Conversion> out) {
        conversions(unit, fn, n, operandOf(n), param, null, out);
    }

    /**
     * {@link #conversions(ClangUnit, ClangUnit.Function, ClangNode, String, List)} of an explicit conversion ({@code
     * implicitTo} null) or of an implicit one to the parameter written {@code implicitTo} ({@link
     * ClangTemplateAssignments}).
     */
    static void conversions(
            ClangUnit unit,
            ClangUnit.Function fn,
            ClangNode n,
            ClangNode op,
            String param,
            String implicitTo,
            List<ClangUnit.Conversion> out) {
        boolean explicit = implicitTo == null;
        String from = op == null ? null : unit.floatingType(op, fn);
        if (op == null) return;
        int k = Integer.parseInt(param.substring(param.lastIndexOf('-') + 1));
        String written = !explicit ? implicitTo : n.type == null || n.type.isEmpty() ? "a template parameter" : n.type;
        boolean seen = false;
        java.util.Map<Boolean, java.util.TreeMap<Integer, java.util.Set<String>>> targets = new java.util.HashMap<>();
        // the arguments of the instantiations that convert, by the destination's signedness
        java.util.Map<Boolean, List<List<String>>> converting = new java.util.HashMap<>();
        int instantiated = 0;
        int discarded = 0;
        List<Integer> operandParams = from == null ? null : ClangTemplateConversions.operandParameters(op, param);
        for (List<String> args : instantiationsOf(unit, fn, param)) {
            instantiated++;
            // a branch of an if constexpr that this instantiation does not compile (ClangConstexprBranches)
            if (ClangConstexprBranches.discarded(unit, fn, n, args)) {
                discarded++;
                continue;
            }
            if (k >= args.size() || args.get(k) == null) continue;
            seen = true;
            // an instantiation whose operand is no floating value converts none: color_quad<uint8, int> converts
            // an int, color_quad<float, float> to float (session 76 round B: a texture library's class template
            // paired its floating parameter types with its integer component types, 8 false rows)
            if (operandParams != null
                    && operandParams.stream()
                            .noneMatch(j -> j < args.size() && ClangTemplateConversions.real(args.get(j)))) continue;
            Target t = target(args.get(k));
            if (t == null || !t.unsigned() && t.bytes() >= 4) continue;
            targets.computeIfAbsent(t.unsigned(), x -> new java.util.TreeMap<>())
                    .computeIfAbsent(t.bytes(), x -> new java.util.TreeSet<>())
                    .add(t.type());
            converting.computeIfAbsent(t.unsigned(), x -> new ArrayList<>()).add(args);
        }
        if (instantiated > 0 && discarded == instantiated) return; // compiled in no instantiation in view
        if (from == null && !explicit) return;
        if (from == null) {
            // the destination instantiated unsigned, the operand of a parameter's type no instantiation in view binds
            // (cast<OUT>(activeFunc(sum[n], n)): its From is the type of a dependent call): a note that says so
            java.util.TreeMap<Integer, java.util.Set<String>> unsigned = targets.get(true);
            if (unsigned != null) {
                List<String> names = new ArrayList<>();
                unsigned.values().forEach(names::addAll);
                operandUnseen(
                        unit, n, op, fn, String.join(", ", names) + " (" + written + ")", unsigned.firstKey(), out);
            }
            return;
        }
        String how = !explicit ? "implicit" : isExplicitCast(n) ? castSpelling(n, n.type) : written;
        String guard = ClangGuards.of(unit, n, op, fn);
        if (!seen) {
            // an implicit conversion to a parameter no instantiation in view binds: nothing known to convert
            if (explicit)
                out.add(new ClangUnit.Conversion(
                        n, op, how, from, written, true, 4, true, guard != null, guard, true, fn, written, null));
            return;
        }
        for (var e : targets.entrySet()) {
            List<String> names = new ArrayList<>();
            e.getValue().values().forEach(names::addAll);
            String to = String.join(", ", names) + " (" + written + ")";
            int bytes = e.getValue().firstKey();
            out.add(new ClangUnit.Conversion(
                    n,
                    op,
                    how,
                    from,
                    to,
                    e.getKey(),
                    bytes,
                    explicit,
                    guard != null,
                    guard,
                    true,
                    fn,
                    null,
                    List.copyOf(converting.get(e.getKey()))));
        }
    }

    /** The destination's integer instantiations, as (unsigned, bytes, canonical spelling); floating ones are left out. */
    record Target(boolean unsigned, int bytes, String type) {}

    /** What an instantiated type is as a conversion's destination: an integer type, or null (floating, a class). */
    static Target target(String t) {
        if (t == null) return null;
        return switch (t) {
            case "unsigned char" -> new Target(true, 1, t);
            case "unsigned short" -> new Target(true, 2, t);
            case "unsigned int" -> new Target(true, 4, t);
            case "unsigned long", "unsigned long long" -> new Target(true, 8, t);
            case "signed char", "char" -> new Target(false, 1, t);
            case "short" -> new Target(false, 2, t);
            case "int" -> new Target(false, 4, t);
            case "long", "long long" -> new Target(false, 8, t);
            default -> null;
        };
    }

    /**
     * The floating types a template parameter ("type-parameter-0-K") is instantiated with in this file
     * ("float, double"), or null when none is known or (with {@code floatingOnly}) none is floating.
     */
    static String instantiatedWith(ClangUnit.Function in, String param, boolean floatingOnly) {
        int k;
        try {
            k = Integer.parseInt(param.substring(param.lastIndexOf('-') + 1));
        } catch (RuntimeException e) {
            return null;
        }
        return instantiatedWith(in.instantiations(), k, floatingOnly);
    }

    /**
     * The first line of the instantiations of {@code fn} that bind its K-th parameter to {@code type}
     * ({@link ClangUnit.Function#instantiatedAt}), or null when none is known.
     */
    static Integer instantiatedAt(ClangUnit.Function fn, int k, String type) {
        Integer first = null;
        for (Map.Entry<List<String>, Integer> e : fn.instantiatedAt().entrySet()) {
            List<String> args = e.getKey();
            if (k >= args.size() || !type.equals(args.get(k))) continue;
            if (first == null || e.getValue() < first) first = e.getValue();
        }
        return first;
    }

    /** The floating types that bind {@code param} in {@code fn} ({@link #instantiationsOf}), or null. */
    static String floatingInstantiations(ClangUnit unit, ClangUnit.Function fn, String param, ClangNode at) {
        int k = Integer.parseInt(param.substring(param.lastIndexOf('-') + 1));
        List<List<String>> all = new ArrayList<>(instantiationsOf(unit, fn, param));
        // an instantiation whose branch around the operand never runs does not convert it there
        // (ClangConstexprBranches)
        all.removeIf(args -> at != null && ClangConstexprBranches.discarded(unit, fn, at, args));
        return instantiatedWith(all, k, true);
    }

    /** {@link #instantiatedWith(ClangUnit.Function, String, boolean)} over the argument lists {@code all}. */
    static String instantiatedWith(List<List<String>> all, int k, boolean floatingOnly) {
        java.util.Set<String> types = new java.util.TreeSet<>();
        for (List<String> args : all) {
            if (k >= args.size() || args.get(k) == null) continue;
            String t = args.get(k);
            if (!floatingOnly || t.equals("float") || t.equals("double") || t.equals("long double")) types.add(t);
        }
        return types.isEmpty() ? null : String.join(", ", types);
    }

    /**
     * "min" or "max" for a function of this unit or of a project header it includes (read in the same parse) whose
     * body returns the smaller or the larger of its two parameters: {@code return x < y ? x : y;} or
     * {@code if (x < y) { return x; } else { return (T) y; }} ({@code >}, {@code <=}, {@code >=} alike), or of another
     * project file the unit's calls name, as its parse summarised it ({@link ClangHeaderHelpers}); else null.
     */
    static String minMaxHelper(ClangUnit unit, String name) {
        if (name.isEmpty()) return null;
        List<ClangUnit> units = new ArrayList<>();
        units.add(unit);
        units.addAll(ClangIncludes.of(unit).values());
        for (ClangUnit u : units) {
            if (u.failure() != null) continue;
            for (ClangUnit.Function f : u.functions()) {
                if (!f.node().spelling.equals(name)) continue;
                String kind = minMaxOf(f.node());
                if (kind != null) return kind;
            }
        }
        // a helper of a file that is no unit here (a header the scan does not read), summarised in the unit's parse
        String kind = ClangHeaderHelpers.of(unit).get(name);
        return kind == null || kind.isEmpty() || kind.startsWith("clamp ") ? null : kind;
    }

    /**
     * A helper's returned expression under the casts written around it ({@code return T(b < a ? b : a);}, blend2d's
     * min and max): the cast to the helper's own type moves no value between its operands.
     */
    static ClangNode returnedValue(ClangNode n) {
        ClangNode e = strip(n);
        // T(x) of a template parameter T is an unresolved construction: libclang's call of the type's reference and x
        while (e != null
                && (e.kind == CXCursor_CXXFunctionalCastExpr
                        || e.kind == CXCursor_CStyleCastExpr
                        || (e.kind == CXCursor_UnexposedExpr || e.kind == CXCursor_CallExpr)
                                && e.children.size() == 2
                                && e.children.get(0).kind == CXCursor_TypeRef)
                && !e.children.isEmpty()
                && clang_isExpressionKind(e.children.get(e.children.size() - 1).kind)) {
            e = strip(e.children.get(e.children.size() - 1));
        }
        return e;
    }

    /** "min" or "max" for a function definition that returns the smaller or the larger of its two parameters. */
    static String minMaxOf(ClangNode fn) {
        List<ClangNode> ps = parameters(fn);
        if (ps.size() != 2 || ps.get(0).usr == null || ps.get(1).usr == null) return null;
        ClangNode body = null;
        for (ClangNode c : fn.children) if (c.kind == CXCursor_CompoundStmt) body = c;
        if (body == null || body.children.size() != 1) return null;
        ClangNode only = body.children.get(0);
        ClangNode test, then, otherwise;
        if (only.kind == CXCursor_ReturnStmt && only.children.size() == 1) {
            ClangNode c = returnedValue(only.children.get(0));
            if (c == null || c.kind != CXCursor_ConditionalOperator || c.children.size() != 3) return null;
            test = strip(c.children.get(0));
            then = c.children.get(1);
            otherwise = c.children.get(2);
        } else if (only.kind == CXCursor_IfStmt && only.children.size() == 3) {
            test = strip(only.children.get(0));
            then = returned(only.children.get(1));
            otherwise = returned(only.children.get(2));
        } else return null;
        return minOrMax(test, then, otherwise, ps.get(0).usr, ps.get(1).usr);
    }

    /** The value a branch returns ({@code return e;} alone or in braces), or null. */
    private static ClangNode returned(ClangNode branch) {
        ClangNode b = branch;
        if (b != null && b.kind == CXCursor_CompoundStmt && b.children.size() == 1) b = b.children.get(0);
        return b != null && b.kind == CXCursor_ReturnStmt && b.children.size() == 1 ? b.children.get(0) : null;
    }

    /** "min" or "max" for {@code a OP b ? ra : rb} over the parameters {@code x}, {@code y}; else null. */
    private static String minOrMax(ClangNode test, ClangNode ra, ClangNode rb, String x, String y) {
        if (test == null) return null;
        // x < y on template parameters with some operator< in scope is a call of it: (x, operator<, y)
        String op = test.kind == CXCursor_BinaryOperator ? test.spelling : null;
        List<ClangNode> operands = new ArrayList<>();
        for (ClangNode c : test.children) {
            String o = operatorName(c);
            if (test.kind == CXCursor_CallExpr && o != null) op = o;
            else operands.add(c);
        }
        if (op == null || operands.size() != 2) return null;
        String a = parameter(operands.get(0));
        String b = parameter(operands.get(1));
        String r1 = parameter(ra);
        String r2 = parameter(rb);
        if (a == null || b == null || a.equals(b) || r1 == null || r2 == null || r1.equals(r2)) return null;
        if (!java.util.Set.of(x, y).equals(java.util.Set.of(a, b))
                || !java.util.Set.of(a, b).equals(java.util.Set.of(r1, r2))) return null;
        Boolean less =
                switch (op) {
                    case "<", "<=" -> true;
                    case ">", ">=" -> false;
                    default -> null;
                };
        if (less == null) return null;
        // a < b ? a : b is the smaller; a < b ? b : a the larger
        boolean first = r1.equals(a);
        return less == first ? "min" : "max";
    }

    /** "<" for the callee reference of a call of {@code operator<} (or the operator itself), else null. */
    private static String operatorName(ClangNode c) {
        ClangNode n = c.spelling.isEmpty() && c.children.size() == 1 ? c.children.get(0) : c;
        return n.spelling.startsWith("operator") ? n.spelling.substring("operator".length()) : null;
    }

    /** The parameter an expression (under casts and wrappers) reads alone, by its symbol, or null. */
    private static String parameter(ClangNode e) {
        ClangNode n = strip(e);
        while (n != null && isExplicitCast(n)) n = strip(operandOf(n));
        return n != null && n.kind == CXCursor_DeclRefExpr ? n.refUsr : null;
    }
}
