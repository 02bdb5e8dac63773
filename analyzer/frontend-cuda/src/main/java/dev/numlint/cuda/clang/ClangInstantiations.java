package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.cuda.clang.ClangUnit.Atomic;
import dev.numlint.cuda.clang.ClangUnit.Function;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@link ClangTemplates} needs beyond a template's own calls to follow its instantiations (session 32): the
 * arguments of a kernel launch without its configuration ({@code k<<<g, b>>>(out, in, n)} deduces {@code k}'s
 * parameters from {@code out, in, n}), the line of an explicit instantiation ({@code template void
 * run<float2>(...);}, which libclang shows no cursor for), and the type of a member of an instantiated struct
 * ({@code atomicAdd(&out[i].x, v)} with {@code T = float2} adds a {@code float}): CUDA's vector types, and the
 * structs this file defines.
 */
final class ClangInstantiations {
    private ClangInstantiations() {}

    /** CUDA's vector types: the element ("float") and the number of members (x, y, z, w). */
    private static final Pattern VECTOR =
            Pattern.compile("(u?char|u?short|u?int|u?long|u?longlong|float|double)([1-4])");

    /** The members of a vector type, in order. */
    private static final String MEMBERS = "xyzw";

    /**
     * The canonical spelling of a CUDA vector type written as an explicit template argument ({@code float2},
     * {@code __half2}), as a call's argument records it; null for another name.
     */
    static String vectorType(String written) {
        if (VECTOR.matcher(written).matches()) return written;
        return switch (written) {
            case "__half", "__half2", "__nv_bfloat16", "__nv_bfloat162" -> written;
            case "half" -> "__half";
            case "half2" -> "__half2";
            default -> null;
        };
    }

    /** A call's arguments without a kernel launch's configuration ({@code <<<g, b>>>}, a call Clang adds first). */
    static List<ClangNode> callArguments(ClangNode call) {
        List<ClangNode> args = arguments(call);
        if (!args.isEmpty()
                && args.get(0).kind == CXCursor_CallExpr
                && "__cudaPushCallConfiguration".equals(args.get(0).spelling)) return args.subList(1, args.size());
        return args;
    }

    /**
     * Records the line of each explicit instantiation of this file ({@code template void run<float2>(float2 *,
     * const float2 *, int);}, {@code extern template} too) as the line of the instantiations of {@code named}'s
     * templates it agrees with, where no call in code that is no template gave one; an explicit instantiation with a
     * struct or typedef this file declares ({@code run<Moments>}, which the parse's reading of the text leaves
     * unknown) is added to {@code inst}.
     */
    static void explicitLines(
            ClangUnit unit,
            Map<String, List<Function>> named,
            Map<ClangNode, List<List<String>>> inst,
            Map<ClangNode, Map<List<String>, Integer>> at) {
        byte[] text = unit.source();
        if (text == null) return;
        String src = new String(text, java.nio.charset.StandardCharsets.ISO_8859_1);
        int[] lines = {1, 0}; // the line of offset lines[1]
        Matcher m = ClangParser.EXPLICIT_INSTANTIATION.matcher(src);
        while (m.find()) {
            List<Function> templates = named.get(m.group(1));
            if (templates == null) continue;
            int line = lineOf(src, m.start(1), lines);
            List<String> args = new ArrayList<>();
            boolean declared = false;
            for (String a : m.group(2).split(",")) {
                String w = a.trim().replaceAll("\\s+", " ");
                String t = instantiationType(w);
                if (t == null && (t = declaredType(unit, w)) != null) declared = true;
                args.add(t);
            }
            for (Function g : templates) record(g, args, declared, line, inst, at);
        }
        // template void run(float2 *, const float2 *, int);: the arguments deduced from the parameters' types
        Matcher d = DEDUCED_INSTANTIATION.matcher(src);
        while (d.find()) {
            List<Function> templates = named.get(d.group(1));
            if (templates == null) continue;
            int line = lineOf(src, d.start(1), lines);
            for (Function g : templates) {
                List<String> args = deduced(unit, g, d.group(2));
                if (args != null) record(g, args, true, line, inst, at);
            }
        }
    }

    /**
     * An explicit instantiation that names no template arguments ({@code template void run(float2 *, const float2 *,
     * int);}, {@code extern} too): group 1 the name, group 2 the parameter types.
     */
    private static final Pattern DEDUCED_INSTANTIATION = Pattern.compile(
            "(?m)^\\s*(?:extern\\s+)?template\\s+(?!<)[^;{}()<>]{1,200}?\\b([A-Za-z_]\\w*)\\s*\\(([^;{}()]{0,400})\\)\\s*;");

    /** A parameter's type written as a template parameter's ("T", "const T *", "T &"), as Clang's canonical type. */
    private static final Pattern PARAM =
            Pattern.compile("^(?:const )?type-parameter-0-(\\d+)(?: const)?( \\*)?(?: const)?(?: &&?)?$");

    /**
     * The type arguments of {@code g} that the parameter types {@code written} of an explicit instantiation bind by
     * position ({@code float2 *} for {@code T *}), or null unless every type parameter is bound, consistently.
     */
    private static List<String> deduced(ClangUnit unit, Function g, String written) {
        List<ClangNode> params = new ArrayList<>();
        int types = 0;
        List<Integer> typeParams = new ArrayList<>();
        for (ClangNode c : g.node().children) {
            if (c.kind == CXCursor_ParmDecl) params.add(c);
            if (c.kind == CXCursor_TemplateTypeParameter) typeParams.add(types);
            if (c.kind == CXCursor_TemplateTypeParameter
                    || c.kind == CXCursor_NonTypeTemplateParameter
                    || c.kind == CXCursor_TemplateTemplateParameter) types++;
        }
        String[] parts = written.trim().isEmpty() ? new String[0] : written.split(",");
        if (parts.length != params.size() || typeParams.isEmpty()) return null;
        String[] bound = new String[types];
        for (int i = 0; i < parts.length; i++) {
            Matcher p = PARAM.matcher(params.get(i).canon == null ? "" : params.get(i).canon);
            if (!p.matches()) continue;
            String t = writtenType(unit, parts[i], p.group(2) != null);
            int k = Integer.parseInt(p.group(1));
            if (t == null || k >= types) return null;
            if (bound[k] != null && !bound[k].equals(t)) return null;
            bound[k] = t;
        }
        for (int k : typeParams) if (bound[k] == null) return null;
        return java.util.Arrays.asList(bound);
    }

    /** A written parameter: group 1 its type when it ends with a name ({@code float2 *out}). */
    private static final Pattern PARAMETER_NAME = Pattern.compile("^(.*?)\\s*\\b[A-Za-z_]\\w*$");

    /**
     * The canonical type a parameter's written type ({@code const float2 *in}) gives the template parameter of a
     * parameter of type {@code T} or ({@code pointer}) {@code T *}: without qualifiers, reference, pointer and name;
     * null when it is not a type {@link #instantiationType} or {@link #declaredType} knows.
     */
    private static String writtenType(ClangUnit unit, String written, boolean pointer) {
        String w = written.replaceAll("\\b(?:const|volatile|__restrict__|restrict)\\b", " ")
                .replaceAll("\\s+", " ")
                .trim();
        Matcher named = PARAMETER_NAME.matcher(w);
        List<String> candidates = new ArrayList<>(List.of(w));
        if (named.matches() && !named.group(1).isEmpty()) candidates.add(named.group(1));
        for (String c : candidates) {
            c = c.replaceAll("\\s*&+$", "").trim();
            if (pointer) {
                if (!c.endsWith("*")) continue;
                c = c.substring(0, c.length() - 1).trim();
            }
            String t = instantiationType(c);
            if (t == null) t = declaredType(unit, c);
            if (t != null) return t;
        }
        return null;
    }

    /**
     * Adds {@code args} to {@code g}'s instantiations when {@code add} (and it is new), and gives {@code line} to
     * those of them it agrees with that have none.
     */
    private static void record(
            Function g,
            List<String> args,
            boolean add,
            int line,
            Map<ClangNode, List<List<String>>> inst,
            Map<ClangNode, Map<List<String>, Integer>> at) {
        List<List<String>> theirs = inst.get(g.node());
        if (add && !theirs.contains(args) && theirs.size() < 64) theirs.add(args);
        for (List<String> i : theirs) {
            if (ClangTemplates.agrees(args, i)) at.get(g.node()).putIfAbsent(i, line);
        }
    }

    /** The line of {@code offset} in {@code src}, counting on from the last offset asked ({@code lines}). */
    private static int lineOf(String src, int offset, int[] lines) {
        if (offset < lines[1]) {
            lines[0] = 1;
            lines[1] = 0;
        }
        for (; lines[1] < offset; lines[1]++) if (src.charAt(lines[1]) == '\n') lines[0]++;
        return lines[0];
    }

    /**
     * The canonical type of a struct, class or typedef this file declares at its top level or in a namespace
     * ({@code Moments}, {@code ns::Moments}): the one declaration of that name; null when there is none or several.
     */
    private static String declaredType(ClangUnit unit, String written) {
        if (!written.matches("(?:[A-Za-z_]\\w*\\s*::\\s*)*[A-Za-z_]\\w*")) return null;
        String simple = written.substring(written.lastIndexOf(':') + 1);
        String found = null;
        List<ClangNode> todo = new ArrayList<>(unit.top());
        for (int depth = 0; depth < 4 && !todo.isEmpty(); depth++) {
            List<ClangNode> next = new ArrayList<>();
            for (ClangNode n : todo) {
                if (n.kind == CXCursor_Namespace) next.addAll(n.children);
                boolean decl = n.kind == CXCursor_StructDecl
                        || n.kind == CXCursor_ClassDecl
                        || n.kind == CXCursor_TypedefDecl
                        || n.kind == CXCursor_TypeAliasDecl;
                if (!decl || !simple.equals(n.spelling) || n.canon == null || n.canon.isEmpty()) continue;
                if (found != null && !found.equals(n.canon)) return null;
                found = n.canon;
            }
            todo = next;
        }
        return found == null || found.contains("type-parameter") ? null : found;
    }

    /** A member read of a value of a template parameter's type: {@code out[i].x}, {@code p->x} ({@code param}'s). */
    record Member(String param, String name) {}

    /** {@code name} after the last {@code .} or {@code ->} of a member expression's text. */
    private static final Pattern MEMBER_NAME = Pattern.compile("(?:\\.|->)\\s*([A-Za-z_]\\w*)\\s*$");

    /**
     * The member an atomic's pointer {@code &base.name} (in parentheses or not) takes of a value whose type is a
     * template parameter ("type-parameter-0-K", or a pointer to one for {@code ->}), or null.
     */
    static Member member(ClangUnit unit, ClangNode ptr) {
        ClangNode p = strip(ptr);
        if (p == null || p.kind != CXCursor_UnaryOperator || !"&".equals(p.spelling) || p.children.size() != 1)
            return null;
        ClangNode m = strip(p.children.get(0));
        if (m == null || m.kind != CXCursor_MemberRefExpr || m.children.size() != 1) return null;
        ClangNode base = strip(m.children.get(0));
        String t = base == null ? null : base.canon;
        if (t != null && t.matches("(const )?type-parameter-0-\\d+ \\*( const)?")) t = base.pointee;
        if (t == null || !t.matches("(const )?type-parameter-0-\\d+")) return null;
        Matcher name = MEMBER_NAME.matcher(unit.text(m));
        return name.find() ? new Member(t.replace("const ", ""), name.group(1)) : null;
    }

    /**
     * The type of member {@code name} of the type {@code record} an instantiation names: a CUDA vector type's
     * element, or the field's canonical type in a struct or class this file defines (at most three namespaces deep);
     * null when not known.
     */
    static String memberType(ClangUnit unit, String record, String name) {
        if (record == null) return null;
        String bare = record.replaceFirst("^(const |struct |class )+", "");
        Matcher v = VECTOR.matcher(bare);
        if (v.matches()) {
            int at = MEMBERS.indexOf(name);
            if (name.length() != 1 || at < 0 || at >= Integer.parseInt(v.group(2))) return null;
            String e = v.group(1).replace("longlong", "long long");
            return e.startsWith("u") ? "unsigned " + e.substring(1) : e;
        }
        if (bare.equals("__half2") || bare.equals("__nv_bfloat162"))
            return name.equals("x") || name.equals("y") ? bare.substring(0, bare.length() - 1) : null;
        String simple = bare.substring(bare.lastIndexOf(':') + 1);
        List<ClangNode> todo = new ArrayList<>(unit.top());
        for (int depth = 0; depth < 4 && !todo.isEmpty(); depth++) {
            List<ClangNode> next = new ArrayList<>();
            for (ClangNode n : todo) {
                if (n.kind == CXCursor_Namespace) next.addAll(n.children);
                if ((n.kind != CXCursor_StructDecl && n.kind != CXCursor_ClassDecl) || !simple.equals(n.spelling))
                    continue;
                for (ClangNode f : n.children) {
                    if (f.kind == CXCursor_FieldDecl && name.equals(f.spelling) && f.canon != null) return f.canon;
                }
            }
            todo = next;
        }
        return null;
    }

    /** Whether an added type is floating: float, double, long double, and CUDA's half and bfloat16. */
    static boolean floatingType(String t) {
        return t != null
                && (t.equals("float")
                        || t.equals("double")
                        || t.equals("long double")
                        || t.equals("__half")
                        || t.equals("__nv_bfloat16"));
    }

    /**
     * The atomic adds of {@code n} (an atomic of {@code name} at the member {@code m} of a template parameter's value)
     * in {@code fn}'s instantiations: one per floating member type, at the written line, named by the instantiations
     * that give it ("member x of T = float2") and the first line they come from; none when every instantiation adds
     * an integer; one of unknown type when an instantiation's member is not known and none is floating. Null when no
     * instantiation in view decides the parameter.
     */
    static List<Atomic> memberAtomics(ClangUnit unit, Function fn, ClangNode n, String name, Member m, Double addend) {
        int k = Integer.parseInt(m.param().substring(m.param().lastIndexOf('-') + 1));
        List<List<String>> all = ClangTemplates.instantiationsOf(unit, fn, m.param());
        Map<String, List<String>> records = new TreeMap<>();
        Map<String, Integer> first = new TreeMap<>();
        boolean unknown = false;
        boolean any = false;
        for (List<String> args : all) {
            if (k >= args.size() || args.get(k) == null) continue;
            any = true;
            String t = memberType(unit, args.get(k), m.name());
            if (t == null) {
                unknown = true;
                continue;
            }
            t = t.replace("const ", "").replace("volatile ", "").trim();
            if (!floatingType(t)) continue;
            List<String> rs = records.computeIfAbsent(t, x -> new ArrayList<>());
            if (!rs.contains(args.get(k))) rs.add(args.get(k));
            Integer line = fn.instantiatedAt().get(args);
            if (line != null) first.merge(t, line, Math::min);
        }
        if (!any) return null;
        String written = ClangTemplates.parameterName(fn, m.param());
        List<Atomic> out = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : records.entrySet()) {
            String with = "member " + m.name() + " of " + written + " = " + String.join(", ", e.getValue());
            out.add(new Atomic(n, name, e.getKey(), true, true, addend, fn, first.get(e.getKey()), with));
        }
        if (out.isEmpty() && unknown) out.add(new Atomic(n, name, written, false, true, null, fn));
        return out;
    }

    /**
     * Whether every instantiation in view of {@code fn} adds an integer at the pointer {@code ptr} (a template
     * parameter's value, or a member of one): no floating sum, so no atomic to judge. False when none is in view. A
     * pointer with no template parameter of its own (a member of an object of a dependent class) adds the type of the
     * value {@code value}, as every {@code atomicAdd(T *, T)} does.
     */
    static boolean integralInEvery(ClangUnit unit, Function fn, ClangNode ptr, ClangNode value) {
        if (!ClangTemplates.pattern(fn)) return false;
        Member m = member(unit, ptr);
        String param = m != null ? m.param() : null;
        if (param == null) {
            // a dependent pointer (&out[i] of T *out) has no canonical pointee: the parameter in it
            String type = pointee(ptr);
            param = type != null ? type.replace("const ", "") : ClangAtomicCalls.pointerParam(ptr);
            ClangNode v = strip(value);
            if (param == null && v != null && v.canon != null) param = v.canon.replace("const ", "");
            if (param == null || !param.matches("type-parameter-0-\\d+")) return false;
        }
        int k = Integer.parseInt(param.substring(param.lastIndexOf('-') + 1));
        boolean any = false;
        for (List<String> args : ClangTemplates.instantiationsOf(unit, fn, param)) {
            if (k >= args.size() || args.get(k) == null) return false;
            String t = m == null ? args.get(k) : memberType(unit, args.get(k), m.name());
            if (t == null || ClangTemplates.target(t.replace("const ", "")) == null) return false;
            any = true;
        }
        return any;
    }

    /**
     * The canonical spelling of an explicit instantiation's type argument as written, as a call's argument records it:
     * the floating types, the integer types and their standard typedefs ({@code uint8_t} is {@code unsigned char}, the
     * destination of {@code static_cast<Out>(x)} in {@code template uint8_t f<int16_t, uint8_t>(int16_t)}); null
     * for another name (a project's typedef stays unknown).
     */
    static String instantiationType(String written) {
        String t = written.replaceFirst("^std::", "");
        return switch (t) {
            case "float",
                    "double",
                    "long double",
                    "unsigned char",
                    "unsigned short",
                    "unsigned int",
                    "unsigned long",
                    "unsigned long long",
                    "signed char",
                    "char",
                    "short",
                    "int",
                    "long",
                    "long long" -> t;
            case "unsigned" -> "unsigned int";
            case "uint8_t" -> "unsigned char";
            case "uint16_t", "unsigned short int" -> "unsigned short";
            case "uint32_t" -> "unsigned int";
            case "uint64_t", "size_t", "unsigned long int" -> "unsigned long";
            case "int8_t" -> "signed char";
            case "int16_t", "short int" -> "short";
            case "int32_t", "signed", "signed int" -> "int";
            case "int64_t", "long int", "ptrdiff_t" -> "long";
            default -> vectorType(t);
        };
    }
}
