package dev.numlint.cuda.clang;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A polynomial with integer coefficients in symbols (USRs): monomial (its sorted symbols, joined by a control
 * character no USR holds; C++ USRs hold '*') to coefficient.
 */
final class Poly {
    static final String SEP = "\u0001";

    final TreeMap<String, Long> terms = new TreeMap<>();

    static Poly constant(long c) {
        Poly p = new Poly();
        if (c != 0) p.terms.put("", c);
        return p;
    }

    static Poly symbol(String usr) {
        Poly p = new Poly();
        p.terms.put(usr, 1L);
        return p;
    }

    Poly plus(Poly o, long sign) {
        Poly r = new Poly();
        r.terms.putAll(terms);
        for (var e : o.terms.entrySet()) {
            long v = Math.addExact(r.terms.getOrDefault(e.getKey(), 0L), sign * e.getValue());
            if (v == 0) r.terms.remove(e.getKey());
            else r.terms.put(e.getKey(), v);
        }
        return r;
    }

    Poly times(Poly o) {
        Poly r = new Poly();
        for (var a : terms.entrySet()) {
            for (var c : o.terms.entrySet()) {
                String m = monomial(a.getKey(), c.getKey());
                long v = Math.addExact(r.terms.getOrDefault(m, 0L), Math.multiplyExact(a.getValue(), c.getValue()));
                if (v == 0) r.terms.remove(m);
                else r.terms.put(m, v);
            }
        }
        return r;
    }

    /** {@code a op b} for the operators a polynomial holds ({@code + - *}), or null (throws on overflow). */
    static Poly binary(String op, Poly a, Poly b) {
        return switch (op) {
            case "+" -> a.plus(b, 1);
            case "-" -> a.plus(b, -1);
            case "*" -> a.times(b);
            default -> null;
        };
    }

    /** {@code op a} for a unary {@code -} or {@code +}, or null. */
    static Poly unary(String op, Poly a) {
        return "-".equals(op) ? constant(0).plus(a, -1) : "+".equals(op) ? a : null;
    }

    /** The polynomial with each symbol of {@code bind} replaced by its polynomial (throws on overflow). */
    Poly substitute(Map<String, Poly> bind) {
        Poly r = constant(0);
        for (var e : terms.entrySet()) {
            Poly m = constant(e.getValue());
            for (String s : symbols(e.getKey())) m = m.times(bind.getOrDefault(s, symbol(s)));
            r = r.plus(m, 1);
        }
        return r;
    }

    boolean zero() {
        return terms.isEmpty();
    }

    private static String monomial(String a, String b) {
        if (a.isEmpty()) return b;
        if (b.isEmpty()) return a;
        List<String> s = new ArrayList<>(List.of(a.split(SEP, -1)));
        s.addAll(List.of(b.split(SEP, -1)));
        java.util.Collections.sort(s);
        return String.join(SEP, s);
    }

    static List<String> symbols(String monomial) {
        return monomial.isEmpty() ? List.of() : List.of(monomial.split(SEP, -1));
    }

    /** The source form of the polynomial with the symbols' names ({@code names}); null when one has none. */
    String render(Map<String, String> names) {
        StringBuilder b = new StringBuilder();
        for (var e : terms.entrySet()) {
            List<String> f = new ArrayList<>();
            for (String s : symbols(e.getKey())) {
                String n = names.get(s);
                if (n == null) return null;
                f.add(n);
            }
            long c = e.getValue();
            if (b.length() > 0) b.append(c < 0 ? " - " : " + ");
            else if (c < 0) b.append('-');
            if (Math.abs(c) != 1 || f.isEmpty()) f.add(0, Long.toString(Math.abs(c)));
            b.append(String.join("*", f));
        }
        return b.length() == 0 ? "0" : b.toString();
    }

    /** The one symbol of the polynomial when it is that symbol alone, coefficient 1; else null. */
    String single() {
        if (terms.size() != 1) return null;
        var e = terms.firstEntry();
        return e.getValue() == 1 && !e.getKey().isEmpty() && !e.getKey().contains(SEP) ? e.getKey() : null;
    }

    /** Every symbol the polynomial names. */
    java.util.Set<String> allSymbols() {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (String m : terms.keySet()) out.addAll(symbols(m));
        return out;
    }

    /** Whether the polynomial is one term, a constant times symbols. */
    boolean monomial() {
        return terms.size() == 1;
    }

    /** Whether the polynomial names a symbol. */
    boolean symbolic() {
        for (String m : terms.keySet()) if (!m.isEmpty()) return true;
        return false;
    }
}
