package dev.numlint.cuda.facts;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Expressions (their source text, from either front end) as sums of monomials with rational coefficients, to decide
 * that two differently written expressions are algebraically equal: products are expanded over sums, a division by a
 * monomial is a product with its inverse ({@code x/v} is {@code x * v^-1}), a division by anything else is a product
 * with an opaque atom, conversions to a floating type are the value itself, and calls, subscripts and members are
 * atoms named by their text. What it cannot read makes no form (null): such an expression is never judged equal.
 */
public final class LinearForms {
    private LinearForms() {}

    private static final int MAX_TERMS = 64;
    private static final Pattern TOKEN = Pattern.compile(
            "\\s*(?:(\\d+\\.?\\d*(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?)[fFlLuU]*|([A-Za-z_]\\w*)|(->|::|.))");
    private static final Pattern FLOAT_TYPE =
            Pattern.compile("(?:const\\s*)?(?:float|double|long\\s*double|half|real|Real|real_t|scalar_t|T)\\s*");

    /**
     * Whether {@code expr} is the fractional part of {@code operand} over the index {@code index}, up to a sign and a
     * constant: {@code operand - index}, {@code index + 1 - operand}, {@code 1 - (operand - index)}, in any written
     * form. {@code definitions} gives the text of a variable the function defines once (or null): such variables are
     * read as their value when the texts alone differ.
     */
    public static boolean fraction(String expr, String operand, String index, Function<String, String> definitions) {
        if (expr == null || operand == null || index == null) return false;
        if (!containsWord(expr, index) && definitions == null) return false;
        for (int depth = 0; depth <= 2; depth++) {
            Function<String, String> defs = depth == 0 || definitions == null ? null : definitions;
            if (depth > 0 && defs == null) break;
            Map<String, Q> e = form(expr, defs, index, depth);
            Map<String, Q> x = form(operand, defs, index, depth);
            if (e == null || x == null) continue;
            try {
                Map<String, Q> d = add(x, Map.of(atom(index) + "^1", Q.ONE.neg()), Q.ONE);
                if (!d.containsKey(atom(index) + "^1")) return false;
                if (constant(add(e, d, Q.ONE.neg())) || constant(add(e, d, Q.ONE))) return true;
            } catch (IllegalStateException | ArithmeticException ex) {
                // the two forms together hold more terms than a form may (tinker9's tortor.h, session 43): a
                // difference that large is no fractional part
                return false;
            }
        }
        return false;
    }

    /** The form of {@code text}, or null when it holds what the form cannot read. */
    public static Map<String, Q> form(String text) {
        return form(text, null, null, 0);
    }

    private static Map<String, Q> form(String text, Function<String, String> defs, String keep, int depth) {
        if (text.contains("...")) return null; // shortened text
        try {
            Parser p = new Parser(text.replaceAll("(?s)/\\*.*?\\*/|//[^\n]*", " "), defs, keep, depth);
            Map<String, Q> f = p.sum();
            return p.at < p.tokens.size() ? null : f;
        } catch (IllegalStateException | ArithmeticException e) {
            return null;
        }
    }

    private static boolean containsWord(String text, String w) {
        return Pattern.compile("\\b" + Pattern.quote(w) + "\\b").matcher(text).find();
    }

    private static boolean constant(Map<String, Q> f) {
        for (String k : f.keySet()) if (!k.isEmpty()) return false;
        return true;
    }

    /** a + s*b, zero terms dropped. */
    private static Map<String, Q> add(Map<String, Q> a, Map<String, Q> b, Q s) {
        Map<String, Q> out = new TreeMap<>(a);
        b.forEach((k, v) -> out.merge(k, v.mul(s), Q::add));
        out.values().removeIf(Q::isZero);
        if (out.size() > MAX_TERMS) throw new IllegalStateException("too many terms");
        return out;
    }

    private static Map<String, Q> mul(Map<String, Q> a, Map<String, Q> b) {
        Map<String, Q> out = new TreeMap<>();
        a.forEach((ka, va) -> b.forEach((kb, vb) -> out.merge(monomial(ka, kb, 1), va.mul(vb), Q::add)));
        out.values().removeIf(Q::isZero);
        if (out.size() > MAX_TERMS) throw new IllegalStateException("too many terms");
        return out;
    }

    /** The monomial key a * b^sign: atoms with exponents, sorted ("o^1*v^-1"); "" is the constant monomial. */
    private static String monomial(String a, String b, int sign) {
        TreeMap<String, Integer> m = new TreeMap<>();
        String[] keys = {a, b};
        for (int n = 0; n < 2; n++) {
            String k = keys[n];
            if (k.isEmpty()) continue;
            int s = n == 1 ? sign : 1;
            for (String part : k.split("\\*")) {
                int hat = part.lastIndexOf('^');
                m.merge(part.substring(0, hat), s * Integer.parseInt(part.substring(hat + 1)), Integer::sum);
            }
        }
        m.values().removeIf(v -> v == 0);
        StringBuilder sb = new StringBuilder();
        m.forEach((k, v) ->
                sb.append(sb.length() == 0 ? "" : "*").append(k).append('^').append(v));
        return sb.toString();
    }

    /** An atom's name in a monomial key: its own products and powers written apart. */
    private static String atom(String text) {
        return text.replace('*', '\u00b7').replace('^', '\u02c6');
    }

    private static final class Parser {
        final java.util.List<String> tokens = new java.util.ArrayList<>();
        final Function<String, String> defs;
        final String keep;
        final int depth;
        int at;

        Parser(String text, Function<String, String> defs, String keep, int depth) {
            this.defs = defs;
            this.keep = keep;
            this.depth = depth;
            Matcher m = TOKEN.matcher(text);
            int pos = 0;
            while (pos < text.length()) {
                if (!m.find(pos) || m.start() != pos) {
                    if (text.substring(pos).isBlank()) break;
                    throw new IllegalStateException("token");
                }
                String t = m.group(1) != null ? "#" + m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
                if (!t.isBlank()) tokens.add(t);
                pos = m.end();
            }
        }

        String peek() {
            return at < tokens.size() ? tokens.get(at) : "";
        }

        String next() {
            if (at >= tokens.size()) throw new IllegalStateException("end");
            return tokens.get(at++);
        }

        void expect(String t) {
            if (!next().equals(t)) throw new IllegalStateException("expected " + t);
        }

        Map<String, Q> sum() {
            Map<String, Q> f = product();
            while (peek().equals("+") || peek().equals("-")) {
                Q s = next().equals("+") ? Q.ONE : Q.ONE.neg();
                f = add(f, product(), s);
            }
            return f;
        }

        Map<String, Q> product() {
            Map<String, Q> f = unary();
            while (peek().equals("*") || peek().equals("/")) {
                boolean div = next().equals("/");
                Map<String, Q> g = unary();
                f = div ? mul(f, inverse(g)) : mul(f, g);
            }
            return f;
        }

        Map<String, Q> inverse(Map<String, Q> g) {
            if (g.isEmpty()) throw new IllegalStateException("division by zero");
            if (g.size() == 1) {
                Map.Entry<String, Q> e = g.entrySet().iterator().next();
                return Map.of(monomial("", e.getKey(), -1), Q.ONE.div(e.getValue()));
            }
            return Map.of(atom("{" + g + "}") + "^-1", Q.ONE);
        }

        Map<String, Q> unary() {
            if (peek().equals("-")) {
                next();
                return add(Map.of(), unary(), Q.ONE.neg());
            }
            if (peek().equals("+")) {
                next();
                return unary();
            }
            if (peek().equals("(")) {
                // a conversion: (float)x is x, (int)x is an atom; else a parenthesized sum
                int close = tokens.subList(at, tokens.size()).indexOf(")") + at;
                if (close > at + 1
                        && tokens.subList(at + 1, close).stream().allMatch(t -> t.matches("[A-Za-z_]\\w*"))
                        && close + 1 < tokens.size()
                        && tokens.get(close + 1).matches("[A-Za-z_(#].*")) {
                    String type = String.join(" ", tokens.subList(at + 1, close));
                    at = close + 1;
                    Map<String, Q> v = unary();
                    return FLOAT_TYPE.matcher(type).matches() ? v : Map.of(atom("(" + type + ")" + v) + "^1", Q.ONE);
                }
                next();
                Map<String, Q> f = sum();
                expect(")");
                return postfix(f, null);
            }
            String t = next();
            if (t.startsWith("#")) return Map.of("", Q.of(t.substring(1)));
            if (!t.matches("[A-Za-z_]\\w*")) throw new IllegalStateException("operand " + t);
            if (t.equals("static_cast") && peek().equals("<")) {
                next();
                StringBuilder type = new StringBuilder();
                while (!peek().equals(">")) type.append(next()).append(' ');
                next();
                expect("(");
                Map<String, Q> v = sum();
                expect(")");
                return FLOAT_TYPE.matcher(type.toString().trim()).matches()
                        ? v
                        : Map.of(atom("(" + type.toString().trim() + ")" + v) + "^1", Q.ONE);
            }
            if (peek().equals("(")) {
                next();
                java.util.List<Map<String, Q>> args = new java.util.ArrayList<>();
                if (!peek().equals(")")) {
                    args.add(sum());
                    while (peek().equals(",")) {
                        next();
                        args.add(sum());
                    }
                }
                expect(")");
                if (args.size() == 1 && (FLOAT_TYPE.matcher(t).matches() || t.matches("__int2(float|double)_rn")))
                    return args.get(0);
                return postfix(null, t + args);
            }
            return postfix(null, t);
        }

        /** Subscripts and members after an operand make an atom of it. */
        Map<String, Q> postfix(Map<String, Q> f, String name) {
            StringBuilder atom = new StringBuilder(name != null ? name : String.valueOf(f));
            boolean more = false;
            while (peek().equals("[") || peek().equals(".") || peek().equals("->")) {
                more = true;
                String t = next();
                if (t.equals("[")) {
                    atom.append('[').append(sum()).append(']');
                    expect("]");
                } else {
                    atom.append(t).append(next());
                }
            }
            if (!more && f != null) return f;
            String a = atom.toString();
            if (!more && a.matches("[A-Za-z_]\\w*") && depth > 0 && defs != null && !a.equals(keep)) {
                String d = defs.apply(a);
                if (d != null) {
                    Map<String, Q> v = form(d, defs, keep, depth - 1);
                    if (v != null) return v;
                }
            }
            return Map.of(atom(a) + "^1", Q.ONE);
        }
    }

    /** A rational number. */
    public record Q(BigInteger num, BigInteger den) {
        static final Q ONE = new Q(BigInteger.ONE, BigInteger.ONE);

        static Q of(String decimal) {
            BigDecimal d = new BigDecimal(decimal.endsWith(".") ? decimal + "0" : decimal);
            BigInteger den = d.scale() > 0 ? BigInteger.TEN.pow(d.scale()) : BigInteger.ONE;
            BigInteger num = d.scale() > 0 ? d.unscaledValue() : d.toBigIntegerExact();
            return norm(num, den);
        }

        static Q norm(BigInteger n, BigInteger d) {
            if (d.signum() == 0) throw new ArithmeticException("zero denominator");
            if (d.signum() < 0) {
                n = n.negate();
                d = d.negate();
            }
            BigInteger g = n.gcd(d);
            return g.signum() == 0 ? new Q(BigInteger.ZERO, BigInteger.ONE) : new Q(n.divide(g), d.divide(g));
        }

        Q add(Q o) {
            return norm(num.multiply(o.den).add(o.num.multiply(den)), den.multiply(o.den));
        }

        Q mul(Q o) {
            return norm(num.multiply(o.num), den.multiply(o.den));
        }

        Q div(Q o) {
            return norm(num.multiply(o.den), den.multiply(o.num));
        }

        Q neg() {
            return new Q(num.negate(), den);
        }

        boolean isZero() {
            return num.signum() == 0;
        }

        @Override
        public String toString() {
            return den.equals(BigInteger.ONE) ? num.toString() : num + "/" + den;
        }
    }
}
