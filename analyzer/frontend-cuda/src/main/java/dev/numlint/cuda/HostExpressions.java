package dev.numlint.cuda;

import static dev.numlint.cuda.HostValues.SIZES;

import dev.numlint.cuda.HostValues.Buf;
import dev.numlint.cuda.HostValues.Dim;
import dev.numlint.cuda.HostValues.Num;
import dev.numlint.cuda.HostValues.Struct;
import dev.numlint.cuda.HostValues.Val;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Evaluates a constant expression of host code over {@link HostLaunchReader}'s tokens and what it knows at that
 * point: + - * / % and shifts, comparisons and the conditional operator, parentheses, casts, {@code sizeof} of a
 * type, {@code min}/{@code max}/{@code ceil}/{@code floor}/{@code sqrt}, variables, {@code dim3} and struct fields,
 * and {@code #define} constants. Anything else is not statically known (null).
 */
final class HostExpressions {

    /** A value with its C type class: integer (integer division, truncating casts) or floating. */
    record N(double v, boolean integer) {}

    private final HostLaunchReader r;
    private final List<String> t;
    private final Map<String, Val> env;
    private final Map<String, List<String>> macros;
    private int pos, lim;

    HostExpressions(HostLaunchReader r) {
        this.r = r;
        this.t = r.t;
        this.env = r.env;
        this.macros = r.macros;
    }

    /** The value of tokens [from, to), or null when it is not statically known. */
    Double eval(int from, int to) {
        N n = evalN(from, to);
        return n == null ? null : n.v();
    }

    N evalN(int from, int to) {
        if (from >= to) return null;
        int sp = pos, sl = lim;
        pos = from;
        lim = to;
        try {
            N v = ternary(0);
            return pos == lim ? v : null;
        } catch (RuntimeException e) {
            return null;
        } finally {
            pos = sp;
            lim = sl;
        }
    }

    private String peek() {
        return pos < lim ? t.get(pos) : "";
    }

    private N ternary(int depth) {
        int condStart = pos;
        N c = binary(0, depth);
        if (c == null && peek().equals("?")) {
            for (int k = condStart; k < pos; k++) {
                if (t.get(k).equals("argc")) { // the program run without command-line arguments
                    c = new N(0, true);
                    break;
                }
            }
        }
        if (peek().equals("?")) {
            pos++;
            N a = ternary(depth);
            if (!peek().equals(":")) return null;
            pos++;
            N b = ternary(depth);
            return c == null ? null : c.v() != 0 ? a : b;
        }
        return c;
    }

    private static final String[][] LEVELS = {
        {"||"}, {"&&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}
    };

    private N binary(int level, int depth) {
        if (depth > 64) throw new IllegalStateException("too deep");
        if (level == LEVELS.length) return unary(depth);
        N a = binary(level + 1, depth);
        while (true) {
            String op = peek();
            if (op.equals(">") && pos + 1 < lim && t.get(pos + 1).equals(">")) op = ">>";
            boolean match = false;
            for (String o : LEVELS[level]) match |= o.equals(op);
            if (!match) return a;
            pos += op.equals(">>") ? 2 : 1;
            N b = binary(level + 1, depth);
            if (a == null || b == null) {
                a = null;
                continue;
            }
            boolean in = a.integer() && b.integer();
            double x = a.v(), y = b.v();
            a = switch (op) {
                case "+" -> new N(x + y, in);
                case "-" -> new N(x - y, in);
                case "*" -> new N(x * y, in);
                case "/" -> y == 0 ? null : new N(in ? (double) ((long) x / (long) y) : x / y, in);
                case "%" -> y == 0 || !in ? null : new N((double) ((long) x % (long) y), true);
                case "<<" -> new N((double) ((long) x << (long) y), true);
                case ">>" -> new N((double) ((long) x >> (long) y), true);
                case "<" -> bool(x < y);
                case ">" -> bool(x > y);
                case "<=" -> bool(x <= y);
                case ">=" -> bool(x >= y);
                case "==" -> bool(x == y);
                case "!=" -> bool(x != y);
                case "&&" -> bool(x != 0 && y != 0);
                default -> bool(x != 0 || y != 0);
            };
        }
    }

    private static N bool(boolean b) {
        return new N(b ? 1 : 0, true);
    }

    private static N cast(N v, boolean toInt) {
        return v == null ? null : toInt ? new N((double) (long) v.v(), true) : new N(v.v(), false);
    }

    private N unary(int depth) {
        String s = peek();
        if (s.equals("-")) {
            pos++;
            N v = unary(depth + 1);
            return v == null ? null : new N(-v.v(), v.integer());
        }
        if (s.equals("+")) {
            pos++;
            return unary(depth + 1);
        }
        if (s.equals("(")) {
            int c = r.close(pos);
            if (c >= lim) return null;
            if (r.isTypeList(pos + 1, c)) { // a cast
                boolean toInt = !(t.get(c - 1).equals("float") || t.get(c - 1).equals("double"));
                pos = c + 1;
                return cast(unary(depth + 1), toInt);
            }
            pos++;
            N v = ternary(depth + 1);
            if (!peek().equals(")")) return null;
            pos++;
            return v;
        }
        if (s.equals("sizeof")) {
            pos++;
            boolean paren = peek().equals("(");
            int c = paren ? r.close(pos) : pos + 1;
            String tn = paren ? r.text(pos + 1, c).replace("const ", "") : peek();
            pos = c + (paren ? 1 : 0);
            Integer size = SIZES.get(tn);
            if (size == null && tn.endsWith("*")) size = 8;
            if (size == null && env.get(tn) instanceof Num) size = 4;
            if (size == null && env.get(tn) instanceof Buf b) return new N(b.bytes(), true);
            return size == null ? null : new N(size, true);
        }
        pos++;
        Double n = number(s);
        if (n != null) return new N(n, isIntegerLiteral(s));
        if (!HostLaunchReader.isIdent(s)) return null;
        // qualified names: std::min, Sizeof.FLOAT, static_cast<int>(x)
        StringBuilder q = new StringBuilder(s);
        while ((peek().equals("::") || peek().equals("."))
                && pos + 1 < lim
                && HostLaunchReader.isIdent(t.get(pos + 1))) {
            q.append(peek()).append(t.get(pos + 1));
            pos += 2;
        }
        String name = q.toString();
        if (SIZES.containsKey(name) && name.startsWith("Sizeof.")) return new N(SIZES.get(name), true);
        if ((name.equals("static_cast") || name.equals("reinterpret_cast")) && peek().equals("<")) {
            int gt = r.close(pos);
            boolean toInt = !(t.get(gt - 1).equals("float") || t.get(gt - 1).equals("double"));
            pos = gt + 1;
            return cast(unary(depth + 1), toInt);
        }
        if (peek().equals("(")) { // a call
            int c = r.close(pos);
            List<int[]> a = r.split(pos + 1, c);
            pos = c + 1;
            List<N> v = new ArrayList<>();
            for (int[] r : a) v.add(evalN(r[0], r[1]));
            if (v.contains(null)) return null;
            String f = name.replaceFirst("^(std::|Math\\.)", "");
            boolean allInt = v.stream().allMatch(N::integer);
            return switch (f) {
                case "min", "fmin", "fminf", "MIN" -> v.size() == 2
                        ? new N(Math.min(v.get(0).v(), v.get(1).v()), allInt)
                        : null;
                case "max", "fmax", "fmaxf", "MAX" -> v.size() == 2
                        ? new N(Math.max(v.get(0).v(), v.get(1).v()), allInt)
                        : null;
                case "ceil", "ceilf" -> v.size() == 1 ? new N(Math.ceil(v.get(0).v()), false) : null;
                case "floor", "floorf" -> v.size() == 1
                        ? new N(Math.floor(v.get(0).v()), false)
                        : null;
                case "sqrt", "sqrtf" -> v.size() == 1 ? new N(Math.sqrt(v.get(0).v()), false) : null;
                case "int", "unsigned", "size_t", "long" -> v.size() == 1 ? cast(v.get(0), true) : null;
                case "float", "double" -> v.size() == 1 ? cast(v.get(0), false) : null;
                default -> null;
            };
        }
        Val v = env.get(name);
        if (v instanceof Num num) return new N(num.v(), num.integer());
        int dot = name.indexOf('.');
        if (dot > 0 && name.indexOf('.', dot + 1) < 0) { // g.nx, grid.x
            Val o = env.get(name.substring(0, dot));
            String field = name.substring(dot + 1);
            if (o instanceof Struct st) {
                Double x = st.fields.get(field);
                return x == null ? null : new N(x, x == Math.rint(x));
            }
            if (o instanceof Dim d) {
                int k = field.equals("x") ? 0 : field.equals("y") ? 1 : field.equals("z") ? 2 : -1;
                return k >= 0 && d.known[k] ? new N(d.xyz[k], true) : null;
            }
        }
        List<String> m = macros.get(name);
        if (m != null && depth < 16) {
            // evaluate the macro body by lexing it into a scratch reader that shares our environment
            HostLaunchReader sub = new HostLaunchReader(r.fileName, String.join(" ", m));
            sub.env.putAll(env);
            sub.macros.putAll(macros);
            sub.macros.remove(name);
            return new HostExpressions(sub).evalN(0, sub.t.size());
        }
        return null;
    }

    static boolean isIntegerLiteral(String s) {
        String x = s.toLowerCase(Locale.ROOT);
        return x.startsWith("0x") || !(x.contains(".") || x.contains("e") || x.endsWith("f"));
    }

    static Double number(String s) {
        if (s.isEmpty() || !(Character.isDigit(s.charAt(0)) || s.charAt(0) == '.')) return null;
        String x = s.toLowerCase(Locale.ROOT).replace("'", "");
        try {
            if (x.startsWith("0x"))
                return (double) Long.parseLong(x.substring(2).replaceAll("[ul]+$", ""), 16);
            if (x.matches("[0-9]+[ul]*")) return (double) Long.parseLong(x.replaceAll("[ul]+$", ""));
            return Double.parseDouble(x.replaceAll("[fl]$", ""));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
