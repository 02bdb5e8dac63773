package dev.numlint.cuda.checks;

import dev.numlint.model.DeclaredFunction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The precision families of a project (NL004's review): a single-precision routine whose double twin the scanned
 * tree defines or declares ({@code sdot}/{@code ddot}, {@code arm_mean_f32}/{@code arm_mean_f64},
 * {@code kernel_sgemm_nt_4x4_lib4}/{@code kernel_dgemm_nt_4x4_lib4}). Its float accumulation is the routine's
 * contract: the caller chose float by calling it, and the double member is there for the callers who need it.
 *
 * <p>A twin's name equals the function's except one name token spelled the double way. Tokens are the parts of the
 * name between {@code _} and at lower-to-upper camel boundaries. Pairs: a token starting with {@code s} (double:
 * {@code d}) or {@code c} ({@code z}) whose rest, the same in both, is at least 3 letters (BLAS: sgemm/dgemm,
 * saxpy/daxpy, cgemv/zgemv), {@code f32}/{@code f64}, {@code fp32}/{@code fp64}, {@code f}/{@code d} as a whole
 * token, {@code float}/{@code double}, {@code Float}/{@code Double}, {@code single}/{@code double},
 * {@code sp}/{@code dp}, {@code r4}/{@code r8}; and a name ending in {@code f} whose name without it is declared in
 * the tree ({@code sumf}/{@code sum}, the C library's convention). A twin whose signature shows its floating type
 * must compute in double (its first floating parameter, else its return type); a twin whose signature shows none
 * (a template parameter, an unknown typedef) is accepted by its name.
 */
public final class PrecisionFamily {
    /** Whole-token spellings: single precision to double. */
    private static final Map<String, String> TOKENS = Map.of(
            "f32", "f64",
            "fp32", "fp64",
            "f", "d",
            "float", "double",
            "Float", "Double",
            "single", "double",
            "sp", "dp",
            "r4", "r8");

    /** The floating types the signatures of each declared name show (a null element: one shows none). */
    private final Map<String, Set<String>> declared = new HashMap<>();

    public PrecisionFamily(List<DeclaredFunction> functions) {
        for (DeclaredFunction f : functions) {
            if (f.template() != null) continue; // a template pattern's lines, not a signature
            declared.computeIfAbsent(f.name(), k -> new HashSet<>()).add(f.floating());
        }
    }

    /** The function's simple name: no class or namespace qualifier, no template arguments or parameters. */
    static String simpleName(String function) {
        if (function == null) return null;
        String n = function;
        int cut = n.length();
        for (char c : new char[] {'<', '('}) {
            int i = n.indexOf(c);
            if (i >= 0) cut = Math.min(cut, i);
        }
        n = n.substring(0, cut).strip();
        int q = n.lastIndexOf("::");
        if (q >= 0) n = n.substring(q + 2);
        return n.isEmpty() ? null : n;
    }

    /** The double twin of {@code function} that the tree declares, or null. */
    public String twin(String function) {
        String name = simpleName(function);
        if (name == null) return null;
        for (String candidate : candidates(name)) {
            if (!candidate.equals(name) && computesInDouble(candidate)) return candidate;
        }
        return null;
    }

    /**
     * The double twin of {@code function}, a long double routine by its name (NL005's review), that the tree declares,
     * or null: the name with a leading or trailing {@code l} dropped, the rest at least 3 characters and starting with
     * a letter ({@code lnaive_jacobi_moments}/{@code naive_jacobi_moments}, the C library's {@code expl}/{@code exp}),
     * or one name token spelled the double way: {@code ld} as {@code d} or dropped, {@code ldouble} and
     * {@code longdouble} as {@code double}, {@code f80}/{@code fp80} as {@code f64}/{@code fp64}; or the tokens
     * {@code long} and {@code double} as {@code double} or dropped ({@code stats_long_double_mean} beside
     * {@code stats_double_mean} or {@code stats_mean}, {@code LongDoubleSum} beside {@code DoubleSum}).
     */
    public String extendedTwin(String function) {
        String name = simpleName(function);
        if (name == null) return null;
        List<String> out = new ArrayList<>();
        if (name.length() > 3 && name.charAt(0) == 'l' && Character.isLetter(name.charAt(1)))
            out.add(name.substring(1));
        if (name.length() > 3 && name.endsWith("l")) out.add(name.substring(0, name.length() - 1));
        List<int[]> ts = tokens(name);
        for (int i = 0; i + 1 < ts.size(); i++) {
            // long_double / LongDouble as two tokens: cml_stats_long_double_mean beside cml_stats_double_mean
            String a = name.substring(ts.get(i)[0], ts.get(i)[1]);
            String b = name.substring(ts.get(i + 1)[0], ts.get(i + 1)[1]);
            if (!a.equalsIgnoreCase("long") || !b.equalsIgnoreCase("double")) continue;
            String head = name.substring(0, ts.get(i)[0]);
            String tail = name.substring(ts.get(i + 1)[1]);
            out.add(head + name.substring(ts.get(i + 1)[0]));
            // or dropped with the separator before it (stats_long_double_mean beside stats_mean, the generic
            // source's double instance taking the plain name)
            if (head.endsWith("_")) out.add(head.substring(0, head.length() - 1) + tail);
            else if (tail.startsWith("_")) out.add(head + tail.substring(1));
        }
        for (int[] t : ts) {
            String token = name.substring(t[0], t[1]);
            String head = name.substring(0, t[0]);
            String tail = name.substring(t[1]);
            String twin = EXTENDED_TOKENS.get(token);
            if (twin != null) out.add(head + twin + tail);
            if (token.equals("ld") || token.equals("LD") || token.equals("fl") || token.equals("cl")) {
                // dropped with the separator before it (moments_ld/moments, Fmin_NM_fl/Fmin_NM) or after it
                // (ld_moments/moments)
                if (head.endsWith("_")) out.add(head.substring(0, head.length() - 1) + tail);
                else if (tail.startsWith("_")) out.add(head + tail.substring(1));
            }
        }
        for (String candidate : out) {
            if (!candidate.equals(name) && computesInDouble(candidate)) return candidate;
        }
        return null;
    }

    /** Whole-token spellings: long double to double. */
    private static final Map<String, String> EXTENDED_TOKENS = Map.of(
            "ld",
            "d",
            "LD",
            "D",
            "ldouble",
            "double",
            "longdouble",
            "double",
            "f80",
            "f64",
            "fp80",
            "fp64",
            // a C library's suffixes (session 68 round F: Integrate_Trapeze_fl beside Integrate_Trapeze and
            // _f32, Norm1_cl beside Norm1_c64 and _c32)
            "fl",
            "f64",
            "cl",
            "c64");

    /** Whether the tree declares {@code name} and no declaration of it shows a floating type other than double. */
    private boolean computesInDouble(String name) {
        Set<String> types = declared.get(name);
        if (types == null) return false;
        for (String t : types) {
            if (t == null || t.equals("double") || t.equals("long double")) return true;
        }
        return false;
    }

    /** The names a double twin of {@code name} may have, in the order of its tokens. */
    static List<String> candidates(String name) {
        List<String> out = new ArrayList<>();
        List<int[]> tokens = tokens(name);
        for (int[] t : tokens) {
            String token = name.substring(t[0], t[1]);
            String head = name.substring(0, t[0]);
            String tail = name.substring(t[1]);
            String whole = TOKENS.get(token);
            if (whole != null) out.add(head + whole + tail);
            String blas = blasTwin(token);
            if (blas != null) out.add(head + blas + tail);
        }
        if (name.length() > 1 && name.endsWith("f")) out.add(name.substring(0, name.length() - 1));
        return out;
    }

    /** {@code sgemm} to {@code dgemm}, {@code cgemv} to {@code zgemv} (the rest at least 3 letters), else null. */
    static String blasTwin(String token) {
        if (token.length() < 4) return null;
        String rest = token.substring(1);
        for (int i = 0; i < rest.length(); i++) {
            if (!Character.isLetter(rest.charAt(i))) return null;
        }
        return switch (token.charAt(0)) {
            case 's' -> "d" + rest;
            case 'S' -> "D" + rest;
            case 'c' -> "z" + rest;
            case 'C' -> "Z" + rest;
            default -> null;
        };
    }

    /** The tokens of a name (start, end): split at {@code _} and where a lower-case letter is followed by an upper. */
    static List<int[]> tokens(String name) {
        List<int[]> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= name.length(); i++) {
            boolean end = i == name.length() || name.charAt(i) == '_';
            boolean camel = !end
                    && i > start
                    && Character.isUpperCase(name.charAt(i))
                    && Character.isLowerCase(name.charAt(i - 1));
            if (end || camel) {
                if (i > start) out.add(new int[] {start, i});
                start = end ? i + 1 : i;
            }
        }
        return out;
    }
}
