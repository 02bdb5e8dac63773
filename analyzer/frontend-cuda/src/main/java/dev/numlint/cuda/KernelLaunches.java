package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.model.KernelLaunch;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The kernel launches of one file ({@link KernelLaunch}), read from its preprocessed tokens (macros expanded as the
 * build defines them): each {@code k<<<grid, block, ...>>>} with whether its grid and block provably hold one thread,
 * and each other use of a kernel's name (its address taken, {@code cudaLaunchKernel((void*)k, ...)}, a function
 * pointer, the name a {@code cuModuleGetFunction} loads), a launch numlint cannot read.
 *
 * <p>One thread is proven, never guessed: an integer literal 1, {@code dim3()}, {@code dim3(1)}, {@code dim3(1, 1)},
 * {@code dim3(1, 1, 1)} (parentheses or braces), a macro that expands to one of them, and a name declared once in the
 * launching function with such an initializer ({@code const int one = 1;}, {@code dim3 grid(1, 1, 1);}) or a
 * file-level constant that is 1, where the launching function names it nowhere but in launch configurations (no
 * assignment, no other declaration, no parameter of that name). Anything else (a parameter, a loop variable, a value
 * read from input, a template argument) is not one thread.
 */
final class KernelLaunches {
    /** How deep names are followed through initializers ({@code const int a = b;}). */
    private static final int MAX_DEPTH = 8;

    private final String rel;
    private final List<PToken> t;
    private final List<TopLevelSplitter.FunctionDef> functions;
    private final FileScope scope;
    /** A name a function names more than once outside launch configurations ({@link #declaration}). */
    private static final int TWICE = -2;
    /** {@link #declaration} by function and name. */
    private final java.util.Map<String, Integer> declarations = new java.util.HashMap<>();
    /** The tokens inside a launch configuration (between {@code <<<} and the last {@code >}). */
    private final java.util.BitSet configs = new java.util.BitSet();

    private KernelLaunches(String rel, List<PToken> t, List<TopLevelSplitter.FunctionDef> functions, FileScope scope) {
        this.rel = rel;
        this.t = t;
        this.functions = functions;
        this.scope = scope;
    }

    /** The launches and the other uses of kernel names in {@code toks}, in file order. */
    static List<KernelLaunch> of(
            String rel, List<PToken> toks, List<TopLevelSplitter.FunctionDef> functions, FileScope scope) {
        return new KernelLaunches(rel, toks, functions, scope).read();
    }

    private List<KernelLaunch> read() {
        Set<String> kernels = new HashSet<>();
        for (List<FileScope.FuncSig> sigs : scope.functions.values()) {
            for (FileScope.FuncSig f : sigs) if (f.global()) kernels.add(unqualified(f.name()));
        }
        for (TopLevelSplitter.FunctionDef f : functions) if (f.global) kernels.add(f.name);
        Set<Integer> callees = new HashSet<>();
        List<int[]> launches = new ArrayList<>(); // callee, <<<, last >
        for (int i = 0; i < t.size(); i++) {
            if (t.get(i).getType() != CudaLexer.LAUNCH_OPEN) continue;
            int end = configEnd(i);
            if (end < 0) continue;
            configs.set(i + 1, end);
            int callee = callee(i - 1);
            if (callee < 0) continue;
            callees.add(callee);
            launches.add(new int[] {callee, i, end});
        }
        List<KernelLaunch> out = new ArrayList<>();
        for (int[] l : launches) {
            List<int[]> args = arguments(l[1] + 1, l[2] - 3);
            boolean one = args.size() >= 2 && one(args.get(0), l[1], 0) && one(args.get(1), l[1], 0);
            out.add(new KernelLaunch(
                    rel, t.get(l[0]).getLine(), t.get(l[0]).getText(), "<<<" + text(l[1] + 1, l[2] - 3) + ">>>", one));
        }
        // the driver API loads a kernel by its name (cuModuleGetFunction(&f, module, "k")) and launches it with a
        // configuration this reader does not follow
        for (int i = 0; i + 1 < t.size(); i++) {
            if (!tok(i).equals("cuModuleGetFunction") || !tok(i + 1).equals("(")) continue;
            int close = matching(i + 1);
            PToken last = close > 0 ? t.get(close - 1) : null;
            if (last != null
                    && last.getType() == CudaLexer.STRING_LITERAL
                    && last.getText().startsWith("\"")) {
                String name = last.getText().substring(1, last.getText().length() - 1);
                out.add(new KernelLaunch(rel, t.get(i).getLine(), name, null, false));
            }
        }
        if (!kernels.isEmpty()) {
            for (int i = 0; i < t.size(); i++) {
                PToken p = t.get(i);
                if (p.getType() != CudaLexer.IDENTIFIER || !kernels.contains(p.getText()) || callees.contains(i))
                    continue;
                if (declared(i)) continue;
                out.add(new KernelLaunch(rel, p.getLine(), p.getText(), null, false));
            }
        }
        out.sort(java.util.Comparator.comparingInt(KernelLaunch::line));
        return out;
    }

    private static String unqualified(String name) {
        int q = name.lastIndexOf("::");
        return q >= 0 ? name.substring(q + 2) : name;
    }

    private String tok(int i) {
        return i >= 0 && i < t.size() ? t.get(i).getText() : "";
    }

    /** The index of the last of the three {@code >} closing the configuration opened at {@code open}, or -1. */
    private int configEnd(int open) {
        int depth = 0;
        for (int i = open + 1; i + 2 < t.size(); i++) {
            String s = tok(i);
            if (s.equals("(") || s.equals("[") || s.equals("{")) depth++;
            else if (s.equals(")") || s.equals("]") || s.equals("}")) {
                if (--depth < 0) return -1;
            } else if (s.equals(";")) return -1;
            else if (depth == 0
                    && s.equals(">")
                    && tok(i + 1).equals(">")
                    && tok(i + 2).equals(">")) return i + 2;
        }
        return -1;
    }

    /** The kernel's name token before {@code <<<} at {@code i + 1} (past template arguments), or -1. */
    private int callee(int i) {
        if (tok(i).equals(">")) {
            int depth = 0;
            for (; i >= 0; i--) {
                String s = tok(i);
                if (s.equals(">")) depth++;
                else if (s.equals("<") && --depth == 0) break;
                else if (s.equals(";") || s.equals("{") || s.equals("}")) return -1;
            }
            i--;
        }
        return i >= 0 && t.get(i).getType() == CudaLexer.IDENTIFIER ? i : -1;
    }

    /**
     * Whether the kernel's name at {@code i} declares or defines it: {@code k(} or {@code k<...>(} (a call is no use
     * of a kernel: it must be launched).
     */
    private boolean declared(int i) {
        int next = i + 1;
        if (tok(next).equals("<")) {
            int depth = 0;
            for (; next < t.size(); next++) {
                String s = tok(next);
                if (s.equals("<")) depth++;
                else if (s.equals(">") && --depth == 0) break;
                else if (s.equals(";") || s.equals("{") || s.equals("}")) return false;
            }
            next++;
        }
        return tok(next).equals("(");
    }

    /** The top-level comma-separated parts of [from, to]. */
    private List<int[]> arguments(int from, int to) {
        List<int[]> out = new ArrayList<>();
        int depth = 0;
        int start = from;
        for (int i = from; i <= to; i++) {
            String s = tok(i);
            if (s.equals("(") || s.equals("[") || s.equals("{")) depth++;
            else if (s.equals(")") || s.equals("]") || s.equals("}")) depth--;
            else if (s.equals(",") && depth == 0) {
                out.add(new int[] {start, i - 1});
                start = i + 1;
            }
        }
        if (to >= start) out.add(new int[] {start, to});
        return out;
    }

    private String text(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i <= to; i++) {
            String s = tok(i);
            if (!b.isEmpty() && word(s.charAt(0)) && word(b.charAt(b.length() - 1))) b.append(' ');
            b.append(s);
        }
        return b.toString();
    }

    private static boolean word(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /** Whether the expression [r[0], r[1]] at the launch {@code at} is provably one (a count or a dim3 of ones). */
    private boolean one(int[] r, int at, int depth) {
        int from = r[0];
        int to = r[1];
        if (depth > MAX_DEPTH || from > to) return false;
        while (tok(from).equals("(") && matching(from) == to) {
            from++;
            to--;
        }
        if (from > to) return false;
        if (from == to) {
            PToken p = t.get(from);
            if (p.getType() == CudaLexer.INTEGER_LITERAL) return p.getText().matches("0*1[uUlL]*");
            return p.getType() == CudaLexer.IDENTIFIER && name(from, at, depth);
        }
        // dim3(...), dim3{...}: every given extent one, the others default to one
        if (tok(from).equals("dim3")
                && (tok(from + 1).equals("(") || tok(from + 1).equals("{"))
                && matching(from + 1) == to) {
            return ones(arguments(from + 2, to - 1), at, depth);
        }
        return false;
    }

    private boolean ones(List<int[]> args, int at, int depth) {
        if (args.size() > 3) return false;
        for (int[] a : args) if (!one(a, at, depth + 1)) return false;
        return true;
    }

    /** The index of the bracket closing the one at {@code open}, or -1. */
    private int matching(int open) {
        String o = tok(open);
        String c = o.equals("(") ? ")" : o.equals("{") ? "}" : o.equals("[") ? "]" : null;
        if (c == null) return -1;
        int depth = 0;
        for (int i = open; i < t.size(); i++) {
            if (tok(i).equals(o)) depth++;
            else if (tok(i).equals(c) && --depth == 0) return i;
        }
        return -1;
    }

    /**
     * Whether the name at {@code i}, in the configuration of the launch at {@code at}, is provably one: declared once
     * in the launching function, in a block around the launch, with an initializer that is one, or else a file-level
     * constant that is 1; and named nowhere else in the function but in launch configurations.
     */
    private boolean name(int i, int at, int depth) {
        String n = tok(i);
        TopLevelSplitter.FunctionDef f = enclosing(at);
        if (f == null || f.paramNames.contains(n)) return false;
        int decl = declarations.computeIfAbsent(f.bodyStart + ":" + n, k -> declaration(f, n));
        if (decl == TWICE) return false; // named twice outside launches: assigned, or declared again
        if (decl < 0) {
            FileScope.Var v = scope.globals.get(n);
            // a constant of this file or its headers (line 0: an includer's constant, given to a header read alone)
            return v != null && v.line() > 0 && v.constValue() != null && v.constValue() == 1.0;
        }
        if (decl > at || !around(decl, at)) return false;
        // the declaration: a type before the name, an initializer after it
        PToken before = t.get(decl - 1);
        if (before.getType() != CudaLexer.IDENTIFIER && !typeKeyword(before.getText())) return false;
        boolean dim3 = false;
        for (int k = decl - 1;
                k > f.bodyStart && !tok(k).equals(";") && !tok(k).equals("{") && !tok(k).equals("}");
                k--) {
            if (tok(k).equals("dim3")) dim3 = true;
        }
        String next = tok(decl + 1);
        if (dim3 && next.equals(";")) return true; // dim3 g; is (1, 1, 1)
        int end;
        if (next.equals("=")) {
            end = decl + 2;
            int d = 0;
            while (end < f.bodyEnd) {
                String s = tok(end);
                if (s.equals("(") || s.equals("{") || s.equals("[")) d++;
                else if (s.equals(")") || s.equals("}") || s.equals("]")) d--;
                else if (d == 0 && (s.equals(";") || s.equals(","))) break;
                end++;
            }
            if (!tok(end).equals(";")) return false;
            return one(new int[] {decl + 2, end - 1}, at, depth + 1);
        }
        if (!next.equals("(") && !next.equals("{")) return false;
        end = matching(decl + 1);
        if (end < 0 || !tok(end + 1).equals(";")) return false;
        List<int[]> args = arguments(decl + 2, end - 1);
        return dim3 ? ones(args, at, depth) : args.size() == 1 && one(args.get(0), at, depth + 1);
    }

    /** The one place the function names {@code n} outside launch configurations, -1 for none, or {@link #TWICE}. */
    private int declaration(TopLevelSplitter.FunctionDef f, String n) {
        int decl = -1;
        for (int k = f.bodyStart + 1; k < f.bodyEnd; k++) {
            if (!tok(k).equals(n) || inConfiguration(k)) continue;
            if (decl >= 0) return TWICE;
            decl = k;
        }
        return decl;
    }

    private static boolean typeKeyword(String s) {
        return switch (s) {
            case "int", "unsigned", "signed", "long", "short", "char", "auto", "const", "constexpr", "static" -> true;
            default -> false;
        };
    }

    /** The function whose body holds token {@code i}, or null. */
    private TopLevelSplitter.FunctionDef enclosing(int i) {
        TopLevelSplitter.FunctionDef best = null;
        for (TopLevelSplitter.FunctionDef f : functions) {
            if (f.bodyStart < i && i < f.bodyEnd && (best == null || f.bodyStart > best.bodyStart)) best = f;
        }
        return best;
    }

    private boolean inConfiguration(int k) {
        return configs.get(k);
    }

    /** Whether the innermost block open at {@code decl} is still open at {@code at}. */
    private boolean around(int decl, int at) {
        int depth = 0;
        for (int k = decl - 1; k >= 0; k--) {
            String s = tok(k);
            if (s.equals("}")) depth++;
            else if (s.equals("{") && depth-- == 0) {
                int close = matching(k);
                return close > at;
            }
        }
        return false;
    }
}
