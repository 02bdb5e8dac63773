package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The integer type a dependent member type names in a template pattern: {@code static_cast<size_type>(std::ceil(x))}
 * with {@code using size_type = typename spline_type::size_type;} and {@code spline_type} a {@code BSpline<T, D>}
 * whose {@code size_type} is {@code std::size_t}. libclang shows only the pattern of a template, where such a cast's
 * type stays {@code typename BSpline<type-parameter-0-0, ...>::size_type}; the class template it names is read in the
 * same parse (its member alias or typedef, followed through further member types of templates in view), and the
 * standard containers' {@code size_type} is an unsigned integer type by the standard (session 52: two explicit
 * conversions of floating values to such a {@code size_type} in an unseen B-spline library had no finding and no
 * notice).
 */
final class ClangDependentTypes {
    private ClangDependentTypes() {}

    /** {@code typename Name<args>::member}, the canonical spelling of a member type of a class template. */
    private static final Pattern MEMBER =
            Pattern.compile("^(?:const )?typename (?:[\\w:]*::)?(\\w+)(?:<.*>)?::(\\w+)$");

    /** The standard library's class templates whose {@code size_type} is an unsigned integer type (size_t). */
    private static final Set<String> STD_CONTAINERS = Set.of(
            "vector",
            "array",
            "deque",
            "list",
            "forward_list",
            "basic_string",
            "basic_string_view",
            "span",
            "valarray",
            "map",
            "multimap",
            "set",
            "multiset",
            "unordered_map",
            "unordered_multimap",
            "unordered_set",
            "unordered_multiset",
            "allocator_traits",
            "allocator");

    /** How far member types are followed through other templates. */
    private static final int DEPTH = 4;

    /**
     * Whether {@code canon} is the canonical spelling of a dependent member type ({@code typename X<T>::size_type},
     * {@code typename T::size_type}).
     */
    static boolean dependentMember(String canon) {
        return canon != null && canon.matches("^(?:const )?typename .*::\\w+$");
    }

    /** The dependent member types of one unit's parse, read once on first request. */
    static final class Resolver {
        private final ClangUnit unit;
        private Map<String, List<ClangNode>> members;

        Resolver(ClangUnit unit) {
            this.unit = unit;
        }

        /**
         * The integer type that the dependent member type {@code canon} names in every class template of that name in
         * view, or null when it is not resolved here (a member of a template parameter, a class not in view, a member
         * that is itself a parameter or no integer) or when two templates of the name disagree.
         */
        ClangTemplates.Target resolve(String canon) {
            if (!dependentMember(canon)) return null;
            if (members == null) members = members(unit);
            return ClangDependentTypes.resolve(members, canon, 0);
        }

        /**
         * The conversion of a floating operand that the explicit conversion {@code n} ({@code static_cast<size_type>},
         * {@code (size_type)}, {@code size_type(x)}) makes to a dependent member type: to the unsigned or narrow signed
         * integer type it resolves to, named with the written type ("unsigned long (size_type)"); a note whose
         * destination is not resolved here when it resolves to nothing; none when it resolves to a wide signed integer
         * or to no integer. An operand whose type no instantiation in view decides is recorded as such.
         */
        void conversions(ClangUnit.Function fn, ClangNode n, List<ClangUnit.Conversion> out) {
            if (!ClangSyntax.isExplicitCast(n) && !ClangTemplates.construction(n) || !dependentMember(n.canon)) return;
            ClangNode op = ClangSyntax.operandOf(n);
            if (op == null || ClangSyntax.inTemplateParameter(n, fn.node())) return;
            ClangTemplates.Target t = resolve(n.canon);
            String written = n.type == null || n.type.isEmpty() ? n.canon : n.type;
            if (t != null && !t.unsigned() && t.bytes() >= 4) return;
            String from = unit.floatingType(op, fn);
            if (from == null) {
                if (t != null && t.unsigned())
                    ClangTemplates.operandUnseen(unit, n, op, fn, t.type() + " (" + written + ")", t.bytes(), out);
                return;
            }
            String how = ClangSyntax.castSpelling(n, written);
            ClangNode bare = ClangSyntax.strip(op);
            boolean viaTemplate =
                    !ClangSyntax.floating(op.canonKind) && (bare == null || !ClangSyntax.floating(bare.canonKind));
            String guard = ClangGuards.of(unit, n, op, fn);
            String to = t == null ? written : t.type() + " (" + written + ")";
            out.add(new ClangUnit.Conversion(
                    n,
                    op,
                    how,
                    from,
                    to,
                    t == null || t.unsigned(),
                    t == null ? 4 : t.bytes(),
                    true,
                    guard != null,
                    guard,
                    viaTemplate,
                    fn,
                    t == null ? written : null,
                    null));
        }
    }

    private static ClangTemplates.Target resolve(Map<String, List<ClangNode>> members, String canon, int depth) {
        if (canon == null || depth > DEPTH) return null;
        ClangTemplates.Target direct = ClangTemplates.target(canon.replace("const ", ""));
        if (direct != null) return direct;
        Matcher m = MEMBER.matcher(canon);
        if (!m.matches() || m.group(1).startsWith("type-parameter-")) return null;
        List<ClangNode> found = members.get(m.group(1) + "::" + m.group(2));
        if (found == null) {
            if (!STD_CONTAINERS.contains(m.group(1))) return null;
            return switch (m.group(2)) {
                case "size_type" -> ClangTemplates.target("unsigned long");
                case "difference_type" -> ClangTemplates.target("long");
                default -> null;
            };
        }
        ClangTemplates.Target agreed = null;
        for (ClangNode alias : found) {
            ClangTemplates.Target t = resolve(members, alias.canon, depth + 1);
            if (t == null || agreed != null && !agreed.equals(t)) return null;
            agreed = t;
        }
        return agreed;
    }

    /**
     * The member aliases and typedefs of the classes and class templates of the unit's parse (the compiled unit and
     * its project headers), by "Class::member".
     */
    private static Map<String, List<ClangNode>> members(ClangUnit unit) {
        Map<String, List<ClangNode>> out = new HashMap<>();
        ClangIncludes.forEachNamespaceMember(unit, top -> {
            Deque<ClangNode> todo = new ArrayDeque<>(List.of(top));
            while (!todo.isEmpty()) {
                ClangNode n = todo.pop();
                if (!classLike(n.kind) || n.spelling == null || n.spelling.isEmpty()) continue;
                for (ClangNode c : n.children) {
                    if (c.kind == CXCursor_TypeAliasDecl || c.kind == CXCursor_TypedefDecl) {
                        out.computeIfAbsent(n.spelling + "::" + c.spelling, k -> new java.util.ArrayList<>())
                                .add(c);
                    } else if (classLike(c.kind)) {
                        todo.add(c);
                    }
                }
            }
        });
        return out;
    }

    private static boolean classLike(int kind) {
        return kind == CXCursor_ClassTemplate
                || kind == CXCursor_ClassTemplatePartialSpecialization
                || kind == CXCursor_StructDecl
                || kind == CXCursor_ClassDecl;
    }

    /** The rounding functions whose result is an integer type, for every argument type. */
    private static final java.util.Set<String> INTEGER_ROUNDING =
            java.util.Set.of("lround", "llround", "lrint", "llrint", "lroundf", "llroundf", "lrintf", "llrintf");

    /**
     * Whether {@code op} is a call of {@code std::llround(x)} (lround, lrint, llrint): a long or long long whatever x's
     * type, so no floating value and no template parameter's (session 69 round H: a Delaunay hash key).
     */
    static boolean integerRounding(ClangNode op) {
        ClangNode called = ClangSyntax.bare(op);
        return called != null
                && called.kind == CXCursor_CallExpr
                && INTEGER_ROUNDING.contains(ClangSyntax.callee(called));
    }
}
