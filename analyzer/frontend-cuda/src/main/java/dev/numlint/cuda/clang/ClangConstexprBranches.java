package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The branches of an {@code if constexpr} that an instantiation of a function template discards: a conversion in a
 * discarded branch is not compiled in that instantiation (nor run, in the branch a plain {@code if} of such a test
 * leaves) ({@code if constexpr (std::is_same_v<To, From>) return v;
 * else if constexpr (std::is_floating_point_v<From> && std::is_unsigned_v<To>) return static_cast<To>(v * 255 +
 * 0.5f); else return static_cast<To>(v);}: with To = unsigned char and From = float only the second branch is; session
 * 62 round A, an upscaler's {@code cast<To, From>}). The test is read from its text, when it is made of the standard
 * type traits {@code is_same}, {@code is_floating_point}, {@code is_integral}, {@code is_unsigned}, {@code is_signed},
 * {@code is_arithmetic} (as {@code _v<...>} or {@code <...>::value}, in {@code std::} or {@code cuda::std::}), {@code
 * sizeof} of a type or of a value parameter compared with a constant (LP64 sizes), {@code
 * true}, {@code false}, {@code !}, {@code &&}, {@code ||} and parentheses, over the template's own type parameters and
 * fundamental types; anything else leaves the branch as compiled. Function templates of no class template only.
 */
final class ClangConstexprBranches {
    private ClangConstexprBranches() {}

    /** Whether {@code n} of {@code fn} lies in a branch that the instantiation with {@code args} discards. */
    static boolean discarded(ClangUnit unit, ClangUnit.Function fn, ClangNode n, List<String> args) {
        if (fn.node().kind != CXCursor_FunctionTemplate) return false;
        for (ClangNode p = fn.node().parent; p != null; p = p.parent)
            if (p.kind == CXCursor_ClassTemplate || p.kind == CXCursor_ClassTemplatePartialSpecialization) return false;
        List<String> names = ClangTemplates.templateParameterNames(fn);
        Map<String, String> params = new java.util.HashMap<>();
        for (ClangNode q : ClangCallSites.parameters(fn.node()))
            if (q.spelling != null && q.type != null) params.put(q.spelling, q.type);
        ClangNode c = n;
        for (ClangNode p = n.parent; p != null && p != fn.node(); c = p, p = p.parent) {
            if (p.kind != CXCursor_IfStmt || p.children.size() < 2) continue;
            int branch = p.children.indexOf(c);
            // a plain if's test of the same traits is a constant of the instantiation too: the branch it leaves is
            // compiled but never runs (if (sizeof (val) == 1 && ...) { ... uint8_t (val) ... } of a float val:
            // session 71 round D, a video filter's fill_block<T>)
            if (branch < 1 || !IF.matcher(unit.text(p)).lookingAt()) continue;
            Boolean holds = new Reader(unit.text(p.children.get(0)), names, args, params).read();
            if (holds != null && (branch == 1 ? !holds : holds)) return true;
        }
        return false;
    }

    private static final Pattern IF = Pattern.compile("if\\b");

    /** {@code sizeof (x) == 1}, {@code sizeof(T) != 4}: the size of a parameter or a type against a constant. */
    private static final Pattern SIZEOF = Pattern.compile(
            "sizeof\\s*\\(\\s*([A-Za-z_][\\w:]*(?:\\s+[A-Za-z_]\\w*)*)\\s*\\)\\s*(==|!=|<=|>=|<|>)\\s*(\\d+)\\b");

    /** The sizes of the fundamental types on LP64 (x86-64, AArch64, and the GPU's compilation of host types). */
    private static final Map<String, Integer> SIZES = Map.ofEntries(
            Map.entry("bool", 1),
            Map.entry("char", 1),
            Map.entry("signed char", 1),
            Map.entry("unsigned char", 1),
            Map.entry("short", 2),
            Map.entry("unsigned short", 2),
            Map.entry("int", 4),
            Map.entry("unsigned int", 4),
            Map.entry("long", 8),
            Map.entry("unsigned long", 8),
            Map.entry("long long", 8),
            Map.entry("unsigned long long", 8),
            Map.entry("float", 4),
            Map.entry("double", 8));

    private static final Pattern TRAIT = Pattern.compile("(?:::\\s*)?(?:cuda\\s*::\\s*)?(?:std\\s*::\\s*)?"
            + "(is_same|is_floating_point|is_integral|is_unsigned|is_signed|is_arithmetic)\\s*(_v)?\\s*<");

    /** The fundamental types by their spellings, and the fixed-width names of an LP64 system. */
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("uint8_t", "unsigned char"),
            Map.entry("int8_t", "signed char"),
            Map.entry("uint16_t", "unsigned short"),
            Map.entry("int16_t", "short"),
            Map.entry("uint32_t", "unsigned int"),
            Map.entry("int32_t", "int"),
            Map.entry("uint64_t", "unsigned long"),
            Map.entry("int64_t", "long"),
            Map.entry("size_t", "unsigned long"));

    private static final List<String> UNSIGNED =
            List.of("bool", "unsigned char", "unsigned short", "unsigned int", "unsigned long", "unsigned long long");
    private static final List<String> SIGNED = List.of("signed char", "short", "int", "long", "long long");
    private static final List<String> FLOATING = List.of("float", "double", "long double");

    /** A recursive-descent reading of a test's text; null for what it cannot read. */
    private static final class Reader {
        private final String s;
        private final List<String> names;
        private final List<String> args;
        private final Map<String, String> params;
        private int i;

        Reader(String s, List<String> names, List<String> args, Map<String, String> params) {
            this.s = s == null ? "" : s;
            this.names = names;
            this.args = args;
            this.params = params;
        }

        Boolean read() {
            Boolean v = or();
            skip();
            return i == s.length() ? v : null;
        }

        private Boolean or() {
            Boolean v = and();
            while (eat("||")) {
                Boolean w = and();
                v = either(v, w);
            }
            return v;
        }

        private Boolean and() {
            Boolean v = not();
            while (eat("&&")) {
                Boolean w = not();
                v = both(v, w);
            }
            return v;
        }

        /** v || w, where null is unknown: true when either is true. */
        private static Boolean either(Boolean v, Boolean w) {
            if (Boolean.TRUE.equals(v) || Boolean.TRUE.equals(w)) return Boolean.TRUE;
            return v == null || w == null ? null : Boolean.FALSE;
        }

        /** v && w, where null is unknown: false when either is false. */
        private static Boolean both(Boolean v, Boolean w) {
            if (Boolean.FALSE.equals(v) || Boolean.FALSE.equals(w)) return Boolean.FALSE;
            return v == null || w == null ? null : Boolean.TRUE;
        }

        private Boolean not() {
            if (eat("!")) {
                Boolean v = not();
                return v == null ? null : Boolean.valueOf(!v);
            }
            if (eat("(")) {
                Boolean v = or();
                return eat(")") ? v : null;
            }
            if (word("true")) return Boolean.TRUE;
            if (word("false")) return Boolean.FALSE;
            skip();
            Matcher z = SIZEOF.matcher(s).region(i, s.length());
            if (z.lookingAt()) {
                i = z.end();
                return sized(z.group(1), z.group(2), Long.parseLong(z.group(3)));
            }
            Matcher m = TRAIT.matcher(s).region(i, s.length());
            if (!m.lookingAt()) {
                i = s.length(); // unread: the whole test is unknown
                return null;
            }
            i = m.end();
            List<String> types = new ArrayList<>();
            int depth = 0;
            int start = i;
            for (; i < s.length(); i++) {
                char ch = s.charAt(i);
                if (ch == '<' || ch == '(') depth++;
                else if ((ch == '>' || ch == ')') && depth > 0) depth--;
                else if (ch == ',' && depth == 0) {
                    types.add(type(s.substring(start, i)));
                    start = i + 1;
                } else if (ch == '>' && depth == 0) break;
            }
            if (i >= s.length()) return null;
            types.add(type(s.substring(start, i)));
            i++;
            if (m.group(2) == null && !(eat("::") && word("value"))) return null;
            return trait(m.group(1), types);
        }

        /** {@code sizeof (x) op k} of a value parameter or a type; null when its size is unknown. */
        private Boolean sized(String of, String op, long k) {
            String declared = params.get(of.trim());
            String t = declared != null
                    ? type(declared.replaceAll("\\bconst\\b|&", "").trim())
                    : type(of);
            Integer size = t == null ? null : SIZES.get(t); // of a reference: the referred type's
            if (size == null) return null;
            return switch (op) {
                case "==" -> size == k;
                case "!=" -> size != k;
                case "<" -> size < k;
                case "<=" -> size <= k;
                case ">" -> size > k;
                default -> size >= k;
            };
        }

        /** A type argument as a fundamental type's spelling, a template parameter's argument; null when unknown. */
        private String type(String t) {
            String w = t.trim().replaceAll("\\s+", " ").replaceFirst("^(::)?(std::)?", "");
            int k = names.indexOf(w);
            if (k >= 0) return k < args.size() ? args.get(k) : null;
            return TYPES.getOrDefault(w, w);
        }

        private boolean eat(String tok) {
            skip();
            if (!s.startsWith(tok, i)) return false;
            if (tok.equals("!") && s.startsWith("!=", i)) return false;
            i += tok.length();
            return true;
        }

        private boolean word(String w) {
            skip();
            int e = i + w.length();
            if (!s.startsWith(w, i) || e < s.length() && Character.isJavaIdentifierPart(s.charAt(e))) return false;
            i = e;
            return true;
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        }
    }

    /** The trait's value for fundamental types; null when a type is unknown or not fundamental. */
    private static Boolean trait(String name, List<String> types) {
        for (String t : types) if (t == null) return null;
        if (name.equals("is_same")) {
            if (types.size() != 2) return null;
            if (types.get(0).equals(types.get(1))) return true;
            return known(types.get(0)) && known(types.get(1)) ? false : null;
        }
        if (types.size() != 1 || !known(types.get(0))) return null;
        String t = types.get(0);
        return switch (name) {
            case "is_floating_point" -> FLOATING.contains(t);
            case "is_unsigned" -> UNSIGNED.contains(t);
            case "is_signed" -> SIGNED.contains(t) || FLOATING.contains(t) || t.equals("char");
            case "is_integral" -> UNSIGNED.contains(t) || SIGNED.contains(t) || t.equals("char");
            default -> !t.equals("void"); // is_arithmetic
        };
    }

    private static boolean known(String t) {
        return UNSIGNED.contains(t)
                || SIGNED.contains(t)
                || FLOATING.contains(t)
                || t.equals("char")
                || t.equals("void");
    }
}
