package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The numeric constants a header's includer defines as object-like macros ({@code #define KNN_WINDOW_RADIUS 3},
 * {@code #define AREA ((2 * R + 1) * (2 * R + 1))}). A header the scan lists is analyzed on its own, but it is
 * compiled only as part of its includers: a name it uses without defining it, such as a window radius defined in
 * a sibling header its .cu includes first, has the value its first includer gave it. Only macros whose body is an
 * arithmetic expression of literals, casts to arithmetic types and other such macros count; anything else stays
 * unknown.
 */
final class IncluderConstants {
    /** How deep one macro may refer to others. */
    private static final int MAX_DEPTH = 8;

    private IncluderConstants() {}

    /** The constants among {@code macros}, by name, as file-level constants. */
    static Map<String, FileScope.Var> of(Map<String, Preprocessor.Macro> macros) {
        Map<String, FileScope.Var> out = new HashMap<>();
        for (Preprocessor.Macro m : macros.values()) {
            if (m.params() != null || m.body() == null || m.body().isEmpty()) continue;
            Value v = new Eval(m.body(), macros, 0).whole();
            if (v != null) out.put(m.name(), new FileScope.Var(m.name(), v.type, v.value, 0));
        }
        return out;
    }

    private record Value(double value, CType type) {}

    /** Recursive descent over + - * / ( ) casts, literals and constant macros; null for anything else. */
    private static final class Eval {
        private final List<PToken> t;
        private final Map<String, Preprocessor.Macro> macros;
        private final int depth;
        private int i;

        Eval(List<PToken> t, Map<String, Preprocessor.Macro> macros, int depth) {
            this.t = t;
            this.macros = macros;
            this.depth = depth;
        }

        Value whole() {
            Value v = sum();
            return v != null && i == t.size() ? v : null;
        }

        private int ty(int k) {
            return k < t.size() ? t.get(k).getType() : -1;
        }

        private Value sum() {
            Value a = product();
            while (a != null && (ty(i) == CudaLexer.PLUS || ty(i) == CudaLexer.MINUS)) {
                boolean plus = ty(i++) == CudaLexer.PLUS;
                Value b = product();
                if (b == null) return null;
                CType r = CType.arith(a.type, b.type);
                a = new Value(plus ? a.value + b.value : a.value - b.value, r);
            }
            return a;
        }

        private Value product() {
            Value a = unary();
            while (a != null && (ty(i) == CudaLexer.STAR || ty(i) == CudaLexer.DIV)) {
                boolean mul = ty(i++) == CudaLexer.STAR;
                Value b = unary();
                if (b == null) return null;
                CType r = CType.arith(a.type, b.type);
                if (mul) {
                    a = new Value(a.value * b.value, r);
                } else {
                    if (b.value == 0) return null;
                    a = new Value(r.isInteger() ? (double) ((long) a.value / (long) b.value) : a.value / b.value, r);
                }
            }
            return a;
        }

        private Value unary() {
            if (ty(i) == CudaLexer.MINUS || ty(i) == CudaLexer.PLUS) {
                boolean neg = ty(i++) == CudaLexer.MINUS;
                Value v = unary();
                return v == null ? null : new Value(neg ? -v.value : v.value, v.type);
            }
            if (ty(i) == CudaLexer.LPAREN) {
                CType cast = castType();
                if (cast != null) {
                    Value v = unary();
                    if (v == null) return null;
                    return new Value(cast.isInteger() ? (double) (long) v.value : v.value, cast);
                }
                i++;
                Value v = sum();
                if (v == null || ty(i) != CudaLexer.RPAREN) return null;
                i++;
                return v;
            }
            if (ty(i) == CudaLexer.INTEGER_LITERAL || ty(i) == CudaLexer.FLOATING_LITERAL) {
                String s = t.get(i).getText();
                boolean fl = ty(i) == CudaLexer.FLOATING_LITERAL;
                i++;
                Double v = Literals.value(s);
                return v == null ? null : new Value(v, Literals.type(s, fl));
            }
            if (ty(i) == CudaLexer.IDENTIFIER && depth < MAX_DEPTH) {
                Preprocessor.Macro m = macros.get(t.get(i).getText());
                i++;
                if (m == null
                        || m.params() != null
                        || m.body() == null
                        || m.body().isEmpty()) return null;
                return new Eval(m.body(), macros, depth + 1).whole();
            }
            return null;
        }

        /** {@code (float)}, {@code (unsigned int)} ... at {@code i}: the type, past the parenthesis; else null. */
        private CType castType() {
            int k = i + 1;
            StringBuilder words = new StringBuilder();
            while (k < t.size() && t.get(k).getType() != CudaLexer.RPAREN) {
                int y = t.get(k).getType();
                if (y != CudaLexer.FLOAT
                        && y != CudaLexer.DOUBLE
                        && y != CudaLexer.INT
                        && y != CudaLexer.LONG
                        && y != CudaLexer.UNSIGNED) return null;
                words.append(words.length() == 0 ? "" : " ").append(t.get(k).getText());
                k++;
            }
            if (k >= t.size() || words.length() == 0) return null;
            String w = words.toString();
            CType c = w.contains("float") ? CType.FLOAT : w.contains("double") ? CType.DOUBLE : CType.INT;
            i = k + 1;
            return c;
        }
    }
}
