package dev.numlint.cuda;

import static dev.numlint.cuda.HostValues.SIZES;

import dev.numlint.cuda.HostValues.Buf;
import dev.numlint.cuda.HostValues.Dim;
import dev.numlint.cuda.HostValues.Field;
import dev.numlint.cuda.HostValues.Num;
import dev.numlint.cuda.HostValues.Struct;
import dev.numlint.cuda.HostValues.StructType;
import dev.numlint.cuda.HostValues.Val;
import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.model.HostLaunch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads kernel launches from host code with the CUDA front end's lexer: {@code k<<<grid, block, shmem,
 * stream>>>(args)}, {@code cudaLaunchKernel((void*)k, grid, block, args, shmem, stream)},
 * {@code cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, stream, args, extra)} (C driver API and JCuda, with
 * {@code cuModuleGetFunction(f, module, "name")}). Values are resolved by a single pass over the file in program
 * order: {@code #define} constants, scalar declarations and assignments, {@code dim3} variables and their fields,
 * buffer sizes from {@code cudaMalloc}/{@code cudaMallocManaged}/{@code malloc}/{@code new T[n]}/
 * {@code std::vector<T>(n)}/{@code cudaMemcpy}/JCuda {@code cuMemAlloc}, and structs (declared in the file) filled
 * member by member or by a brace initializer. Arithmetic over + - * / % and shifts, parentheses, casts,
 * {@code sizeof} of a type, {@code min}/{@code max}/{@code ceil}/{@code floor} are evaluated; anything else is left
 * unresolved (validation then falls back to inference for that part and says so).
 */
public final class HostLaunchReader {
    final String fileName;
    final List<String> t = new ArrayList<>();
    private final List<Integer> ty = new ArrayList<>();
    private final List<Integer> ln = new ArrayList<>();
    final Map<String, Val> env = new HashMap<>();
    final Map<String, List<String>> macros = new HashMap<>();
    private final Map<String, StructType> structs = new HashMap<>();
    private final Map<String, String> functions = new HashMap<>(); // CUfunction variable -> kernel name
    private final Map<String, List<String>> argArrays = new HashMap<>(); // void* args[] = {&a, ...}
    private final List<HostLaunch> launches = new ArrayList<>();

    HostLaunchReader(String fileName, String text) {
        this.fileName = fileName;
        for (PToken p : FastLexer.lex(text)) {
            if (p.getType() == CudaLexer.DIRECTIVE) {
                define(p.getText());
                continue;
            }
            t.add(p.getText());
            ty.add(p.getType());
            ln.add(p.getLine());
        }
    }

    /** The launches in one host source file (CUDA, C++ or JCuda Java), in file order. */
    public static List<HostLaunch> read(String fileName, String text) {
        HostLaunchReader r = new HostLaunchReader(fileName, text);
        r.scan();
        return r.launches;
    }

    private void define(String directive) {
        String d = directive.substring(1).trim();
        if (!d.startsWith("define")) return;
        List<String> toks = new ArrayList<>();
        for (PToken p : FastLexer.lex(d.substring(6))) toks.add(p.getText());
        if (toks.size() < 2 || !isIdent(toks.get(0))) return;
        if (d.substring(6).trim().startsWith(toks.get(0) + "(")) return; // function-like
        macros.put(toks.get(0), toks.subList(1, toks.size()));
    }

    private String at(int i) {
        return fileName + ":" + ln.get(Math.min(i, ln.size() - 1));
    }

    private String tok(int i) {
        return i >= 0 && i < t.size() ? t.get(i) : "";
    }

    static boolean isIdent(String s) {
        return !s.isEmpty() && (Character.isLetter(s.charAt(0)) || s.charAt(0) == '_');
    }

    int close(int open) { // index of the bracket matching the one at open
        String o = tok(open), c = o.equals("(") ? ")" : o.equals("[") ? "]" : o.equals("{") ? "}" : ">";
        int depth = 0;
        for (int i = open; i < t.size(); i++) {
            if (t.get(i).equals(o)) depth++;
            else if (t.get(i).equals(c) && --depth == 0) return i;
        }
        return t.size() - 1;
    }

    /** Splits [from, to) at top-level commas. */
    List<int[]> split(int from, int to) {
        List<int[]> out = new ArrayList<>();
        int depth = 0, start = from;
        for (int i = from; i < to; i++) {
            String s = t.get(i);
            if (s.equals("(") || s.equals("[") || s.equals("{")) depth++;
            else if (s.equals(")") || s.equals("]") || s.equals("}")) depth--;
            else if (s.equals(",") && depth == 0) {
                out.add(new int[] {start, i});
                start = i + 1;
            }
        }
        if (to > start) out.add(new int[] {start, to});
        return out;
    }

    String text(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < to; i++) {
            String s = t.get(i);
            if (b.length() > 0 && (isIdent(s) || Character.isDigit(s.charAt(0))) && isWordEnd(b)) b.append(' ');
            b.append(s);
        }
        return b.toString();
    }

    private static boolean isWordEnd(StringBuilder b) {
        char c = b.charAt(b.length() - 1);
        return Character.isLetterOrDigit(c) || c == '_';
    }

    private int statementEnd(int i) {
        int depth = 0;
        for (int k = i; k < t.size(); k++) {
            String s = t.get(k);
            if (s.equals("(") || s.equals("[") || s.equals("{")) depth++;
            else if (s.equals(")") || s.equals("]") || s.equals("}")) {
                if (--depth < 0) return k;
            } else if (s.equals(";") && depth == 0) return k;
        }
        return t.size();
    }

    // ------------------------------------------------------------------ the pass

    private void scan() {
        Map<Integer, Integer> skip = new HashMap<>();
        for (int i = 0; i < t.size(); i++) {
            Integer jump = skip.remove(i);
            if (jump != null) {
                i = jump;
                continue;
            }
            String s = t.get(i);
            if (s.equals("for") && tok(i + 1).equals("(")) { // for (init; cond; step): step runs after the body
                int c = close(i + 1), semis = 0;
                for (int k = i + 2, depth = 0; k < c; k++) {
                    String x = t.get(k);
                    if (x.equals("(")) depth++;
                    else if (x.equals(")")) depth--;
                    else if (x.equals(";") && depth == 0 && ++semis == 2) skip.put(k, c);
                }
                continue;
            }
            if ((s.equals("struct") || s.equals("class"))
                    && isIdent(tok(i + 1))
                    && tok(i + 2).equals("{")) {
                i = struct(tok(i + 1), i + 2);
            } else if (s.equals("typedef")
                    && tok(i + 1).equals("struct")
                    && (tok(i + 2).equals("{") || tok(i + 3).equals("{"))) {
                int open = tok(i + 2).equals("{") ? i + 2 : i + 3;
                int end = close(open);
                if (isIdent(tok(end + 1))) struct(tok(end + 1), open);
                i = end;
            } else if (s.equals("dim3") && isIdent(tok(i + 1))) {
                dim3(i + 1);
            } else if (tok(i + 1).equals("<<<") && isIdent(s)) {
                chevron(i, i + 1);
            } else if (tok(i + 1).equals("<<<") && s.equals(">")) {
                // a template kernel: kernel<false><<<grid, block>>>(...) launches an instance of 'kernel'
                int name = templateName(i);
                if (name >= 0) chevron(name, i + 1);
            } else if (s.equals("cudaLaunchKernel") && tok(i + 1).equals("(")) {
                cudaLaunchKernel(i);
            } else if (s.equals("cuLaunchKernel") && tok(i + 1).equals("(")) {
                cuLaunchKernel(i);
            } else if (s.equals("cuModuleGetFunction") && tok(i + 1).equals("(")) {
                List<int[]> a = split(i + 2, close(i + 1));
                if (a.size() == 3) {
                    String name = t.get(a.get(2)[1] - 1);
                    String var = lastIdent(a.get(0));
                    if (name.startsWith("\"") && var != null) functions.put(var, name.substring(1, name.length() - 1));
                }
            } else if ((s.equals("cudaMalloc")
                            || s.equals("cudaMallocManaged")
                            || s.equals("cuMemAlloc")
                            || s.equals("cudaMallocHost")
                            || s.equals("cuMemAllocManaged"))
                    && tok(i + 1).equals("(")) {
                List<int[]> a = split(i + 2, close(i + 1));
                if (a.size() >= 2) {
                    String var = lastIdent(a.get(0));
                    Double bytes = eval(a.get(1)[0], a.get(1)[1]);
                    if (var != null && bytes != null) {
                        env.put(
                                var,
                                new Buf(
                                        bytes.longValue(),
                                        s + "(" + text(a.get(0)[0], a.get(0)[1]) + ", " + text(a.get(1)[0], a.get(1)[1])
                                                + ") at " + at(i)));
                    }
                }
            } else if (s.equals("fill") && tok(i + 1).equals("(")) {
                List<int[]> a = split(i + 2, close(i + 1));
                String var = a.size() == 3 ? firstIdent(a.get(0)) : null;
                Double x = a.size() == 3 ? eval(a.get(2)[0], a.get(2)[1]) : null;
                if (var != null && x != null && env.get(var) instanceof Buf b) {
                    env.put(var, new Buf(b.bytes(), b.from() + "; filled with " + x + " at " + at(i), x));
                }
            } else if ((s.equals("cudaMemcpy") || s.equals("cuMemcpyHtoD"))
                    && tok(i + 1).equals("(")) {
                List<int[]> a = split(i + 2, close(i + 1));
                if (a.size() >= 3) {
                    String var = lastIdent(a.get(0));
                    String src = firstIdent(a.get(1));
                    Double bytes = eval(a.get(2)[0], a.get(2)[1]);
                    Val old = var == null ? null : env.get(var);
                    if (var != null && bytes != null && !(old instanceof Buf)) {
                        old = new Buf(bytes.longValue(), s + " of " + bytes.longValue() + " bytes at " + at(i));
                        env.put(var, old);
                    }
                    if (old instanceof Buf b && src != null && env.get(src) instanceof Buf h && h.fill() != null) {
                        env.put(
                                var,
                                new Buf(
                                        b.bytes(),
                                        b.from() + "; every element " + h.fill() + " (copied from " + h.from() + ")",
                                        h.fill()));
                    }
                }
            } else if (SIZES.containsKey(s)
                    && isIdent(tok(i + 1))
                    && tok(i + 2).equals("[")
                    && !tok(i - 1).equals("(")) {
                Double n = eval(i + 3, close(i + 2));
                if (n != null)
                    env.put(
                            tok(i + 1),
                            new Buf(
                                    (long) (n * SIZES.get(s)),
                                    s + " " + tok(i + 1) + "[" + text(i + 3, close(i + 2)) + "] at " + at(i)));
                i = close(i + 2);
            } else if (isIdent(s)
                    && tok(i + 1).equals("=")
                    && !tok(i - 1).equals(".")
                    && !tok(i - 1).equals("->")) {
                assign(i);
            } else if (isIdent(s)
                    && tok(i + 1).equals(".")
                    && isIdent(tok(i + 2))
                    && tok(i + 3).equals("=")) {
                member(i);
            } else if (s.equals("void")
                    && tok(i + 1).equals("*")
                    && isIdent(tok(i + 2))
                    && tok(i + 3).equals("[")) {
                int rb = close(i + 3);
                if (tok(rb + 1).equals("=") && tok(rb + 2).equals("{")) {
                    List<String> items = new ArrayList<>();
                    for (int[] r : split(rb + 3, close(rb + 2))) items.add(text(r[0], r[1]));
                    argArrays.put(tok(i + 2), items);
                }
            } else if (structs.containsKey(s)
                    && isIdent(tok(i + 1))
                    && (tok(i + 2).equals(";")
                            || tok(i + 2).equals("=")
                            || tok(i + 2).equals("{"))) {
                Struct v = new Struct(structs.get(s));
                v.from = s + " " + tok(i + 1) + " at " + at(i);
                int open = tok(i + 2).equals("{") ? i + 2 : tok(i + 3).equals("{") ? i + 3 : -1;
                if (open > 0) {
                    List<int[]> items = split(open + 1, close(open));
                    for (int k = 0; k < items.size() && k < v.type.fields.size(); k++) {
                        Double x = eval(items.get(k)[0], items.get(k)[1]);
                        if (x != null) v.fields.put(v.type.fields.get(k).name(), x);
                    }
                }
                env.put(tok(i + 1), v);
            } else if ((s.equals("vector") && tok(i - 1).equals("::")
                            || s.equals("vector") && tok(i + 1).equals("<"))
                    && tok(i + 1).equals("<")) {
                int gt = close(i + 1);
                String et = text(i + 2, gt);
                if (isIdent(tok(gt + 1)) && tok(gt + 2).equals("(")) {
                    List<int[]> va = split(gt + 3, close(gt + 2));
                    Double n = va.isEmpty() ? null : eval(va.get(0)[0], va.get(0)[1]);
                    Double fill = va.size() == 2 ? eval(va.get(1)[0], va.get(1)[1]) : null;
                    Integer es = SIZES.get(et);
                    if (n != null && es != null) {
                        env.put(
                                tok(gt + 1),
                                new Buf(
                                        (long) (n * es),
                                        "std::vector<" + et + "> " + tok(gt + 1) + "(" + text(gt + 3, close(gt + 2))
                                                + ") at " + at(i),
                                        fill));
                    }
                }
            }
        }
    }

    private String firstIdent(int[] r) {
        for (int k = r[0]; k < r[1]; k++) {
            String x = t.get(k);
            if (isIdent(x) && !SIZES.containsKey(x) && !x.equals("const") && !x.equals("void")) return x;
        }
        return null;
    }

    private String lastIdent(int[] r) {
        for (int k = r[1] - 1; k >= r[0]; k--)
            if (isIdent(t.get(k)) && !t.get(k).equals("void")) return t.get(k);
        return null;
    }

    private int struct(String name, int open) {
        int end = close(open);
        StructType st = new StructType(name);
        int i = open + 1;
        while (i < end) {
            int semi = i;
            while (semi < end && !t.get(semi).equals(";")) semi++;
            // TYPE name [, name] [ [N] ] ;
            List<String> type = new ArrayList<>();
            int k = i;
            while (k < semi
                    && (isIdent(t.get(k))
                            && (k + 1 < semi && isIdent(t.get(k + 1))
                                    || SIZES.containsKey(t.get(k))
                                            && !(k + 1 < semi
                                                    && (t.get(k + 1).equals(";")
                                                            || t.get(k + 1).equals(",")))))) {
                type.add(t.get(k));
                k++;
            }
            String tn = String.join(" ", type).replace("const ", "");
            Integer size = SIZES.get(tn);
            boolean pointer = k < semi && t.get(k).equals("*");
            if (pointer) size = 8;
            while (k < semi && t.get(k).equals("*")) k++;
            for (int[] r : split(k, semi)) {
                if (r[1] <= r[0] || !isIdent(t.get(r[0]))) continue;
                int count = 1;
                if (r[1] - r[0] >= 4 && t.get(r[0] + 1).equals("[")) {
                    Double c = eval(r[0] + 2, close(r[0] + 1));
                    count = c == null ? 1 : c.intValue();
                }
                if (size == null) return end; // a member of unknown size: the layout cannot be computed
                st.fields.add(new Field(t.get(r[0]), pointer ? "pointer" : tn, size, count));
            }
            i = semi + 1;
        }
        structs.put(name, st);
        SIZES.putIfAbsent(name, st.size());
        return end;
    }

    private void dim3(int i) {
        String name = tok(i);
        Dim d = new Dim();
        int args = -1, end = -1;
        if (tok(i + 1).equals("(") || tok(i + 1).equals("{")) {
            args = i + 2;
            end = close(i + 1);
        } else if (tok(i + 1).equals("=")
                && tok(i + 2).equals("dim3")
                && tok(i + 3).equals("(")) {
            args = i + 4;
            end = close(i + 3);
        } else if (tok(i + 1).equals("=") && tok(i + 2).equals("{")) {
            args = i + 3;
            end = close(i + 2);
        } else if (!tok(i + 1).equals(";")) {
            return;
        }
        if (args > 0) {
            List<int[]> a = split(args, end);
            for (int k = 0; k < Math.min(3, a.size()); k++) {
                Double v = eval(a.get(k)[0], a.get(k)[1]);
                if (v == null) d.known[k] = false;
                else d.xyz[k] = v.longValue();
            }
            d.from = "dim3 " + name + "(" + text(args, end) + ") at " + at(i);
        } else {
            d.from = "dim3 " + name + " at " + at(i);
        }
        env.put(name, d);
    }

    private void assign(int i) {
        String name = t.get(i);
        int end = statementEnd(i + 2);
        for (int[] r : split(i + 2, end)) { // int a = 1, b = 2;  the initializer ends at the top-level comma
            end = r[1];
            break;
        }
        // T* p = new T[n];  T* p = (T*) malloc(bytes);
        if (tok(i + 2).equals("new") && isIdent(tok(i + 3))) {
            int k = i + 3;
            StringBuilder tn = new StringBuilder();
            while (k < end && isIdent(t.get(k)))
                tn.append(tn.length() > 0 ? " " : "").append(t.get(k++));
            Integer es = SIZES.get(tn.toString());
            if (tok(k).equals("[") && es != null) {
                Double n = eval(k + 1, close(k));
                if (n != null)
                    env.put(
                            name,
                            new Buf((long) (n * es), "new " + tn + "[" + text(k + 1, close(k)) + "] at " + at(i)));
            }
            return;
        }
        for (int k = i + 2; k < end; k++) {
            if ((t.get(k).equals("malloc") || t.get(k).equals("calloc"))
                    && tok(k + 1).equals("(")) {
                List<int[]> a = split(k + 2, close(k + 1));
                Double bytes = a.size() == 1
                        ? eval(a.get(0)[0], a.get(0)[1])
                        : a.size() == 2 ? mul(eval(a.get(0)[0], a.get(0)[1]), eval(a.get(1)[0], a.get(1)[1])) : null;
                if (bytes != null)
                    env.put(name, new Buf(bytes.longValue(), text(k, close(k + 1) + 1) + " at " + at(i)));
                return;
            }
        }
        if (env.get(name) instanceof Dim && tok(i + 2).equals("dim3")) {
            dim3(i);
            return;
        }
        if (tok(i + 2).equals("{") && (env.get(name) instanceof Struct || env.get(name) instanceof Dim)) return;
        HostExpressions.N nv = evalN(i + 2, end);
        Double v = nv == null ? null : nv.v();
        Boolean declared = declaredInteger(i);
        boolean integer = declared != null ? declared : nv != null && nv.integer();
        if (v != null) {
            if (integer) v = (double) v.longValue();
            env.put(name, new Num(v, integer, name + " = " + text(i + 2, end) + " at " + at(i)));
        } else if (!(env.get(name) instanceof Buf)) {
            env.remove(name); // assigned something unknown
        }
    }

    /** Whether the variable assigned at i is declared (or was earlier found) integer; null: unknown. */
    private Boolean declaredInteger(int i) {
        for (int k = i - 1; k >= 0 && k >= i - 12; k--) { // back over "const int a = 1, b = 2," to the type
            String s = t.get(k);
            if (s.equals("float") || s.equals("double")) return false;
            if (SIZES.containsKey(s) || s.equals("unsigned") || s.equals("long")) return true;
            if (s.equals(";") || s.equals("{") || s.equals("}") || s.equals("(") || s.equals(")")) break;
        }
        Val old = env.get(t.get(i));
        return old instanceof Num n ? n.integer() : null;
    }

    private void member(int i) {
        String name = t.get(i), field = t.get(i + 2);
        int end = statementEnd(i + 4);
        Val v = env.get(name);
        Double x = eval(i + 4, end);
        if (v instanceof Dim d) {
            int k = field.equals("x") ? 0 : field.equals("y") ? 1 : field.equals("z") ? 2 : -1;
            if (k < 0) return;
            if (x == null) d.known[k] = false;
            else {
                d.xyz[k] = x.longValue();
                d.known[k] = true;
            }
            d.from = (d.from == null ? "" : d.from + "; ") + name + "." + field + " = " + text(i + 4, end) + " at "
                    + at(i);
        } else if (v instanceof Struct st) {
            if (x == null) st.fields.remove(field);
            else st.fields.put(field, x);
        }
    }

    // ------------------------------------------------------------------ launches

    /** The index of the template name whose argument list closes at the '>' at {@code close}, or -1. */
    private int templateName(int close) {
        int depth = 0;
        for (int k = close; k >= 0 && k > close - 64; k--) {
            String s = tok(k);
            if (s.equals(")")) { // a parenthesised argument may hold comparisons: detector<(a > b)>
                int p = 0;
                for (; k >= 0; k--) {
                    if (tok(k).equals(")")) p++;
                    else if (tok(k).equals("(") && --p == 0) break;
                }
                continue;
            }
            if (s.equals(">")) depth++;
            else if (s.equals("<") && --depth == 0) return k > 0 && isIdent(tok(k - 1)) ? k - 1 : -1;
            else if (s.equals(";") || s.equals("{") || s.equals("}")) return -1;
        }
        return -1;
    }

    private void chevron(int i, int open) {
        int k = open + 1, depth = 0;
        int closeAt = -1;
        for (; k + 2 < t.size(); k++) {
            String s = t.get(k);
            if (s.equals("(") || s.equals("[") || s.equals("{")) depth++;
            else if (s.equals(")") || s.equals("]") || s.equals("}")) depth--;
            else if (depth == 0
                    && s.equals(">")
                    && t.get(k + 1).equals(">")
                    && t.get(k + 2).equals(">")) {
                closeAt = k;
                break;
            }
        }
        if (closeAt < 0 || !tok(closeAt + 3).equals("(")) return;
        List<int[]> cfg = split(open + 1, closeAt);
        HostLaunch l = new HostLaunch();
        l.kernel = t.get(i);
        l.at = at(i);
        if (cfg.size() >= 1) l.grid = dims(cfg.get(0), l, "grid");
        if (cfg.size() >= 2) l.block = dims(cfg.get(1), l, "block");
        shared(l, cfg.size() >= 3 ? cfg.get(2) : null);
        int argsEnd = close(closeAt + 3);
        for (int[] r : split(closeAt + 4, argsEnd)) l.args.add(arg(r[0], r[1]));
        launches.add(l);
    }

    private void shared(HostLaunch l, int[] r) {
        if (r == null) {
            l.sharedBytes = 0;
            l.provenance.put("shared", "none given at " + l.at);
            return;
        }
        Double v = eval(r[0], r[1]);
        if (v != null) {
            l.sharedBytes = v.intValue();
            l.provenance.put("shared", text(r[0], r[1]) + " at " + l.at);
        }
    }

    private int[] dims(int[] r, HostLaunch l, String what) {
        if (r[1] - r[0] == 1 && env.get(t.get(r[0])) instanceof Dim d) {
            if (!(d.known[0] && d.known[1] && d.known[2])) return null;
            l.provenance.put(what, d.from);
            return new int[] {(int) d.xyz[0], (int) d.xyz[1], (int) d.xyz[2]};
        }
        if (tok(r[0]).equals("dim3") && tok(r[0] + 1).equals("(")) {
            List<int[]> a = split(r[0] + 2, close(r[0] + 1));
            int[] out = {1, 1, 1};
            for (int k = 0; k < Math.min(3, a.size()); k++) {
                Double v = eval(a.get(k)[0], a.get(k)[1]);
                if (v == null) return null;
                out[k] = v.intValue();
            }
            l.provenance.put(what, text(r[0], r[1]) + " at " + l.at);
            return out;
        }
        Double v = eval(r[0], r[1]);
        if (v == null) return null;
        l.provenance.put(what, text(r[0], r[1]) + " at " + l.at);
        return new int[] {v.intValue(), 1, 1};
    }

    private HostLaunch.Arg arg(int from, int to) {
        HostLaunch.Arg a = new HostLaunch.Arg();
        a.expr = text(from, to);
        // strip casts and address-of: (float*)d_a, &x, thrust::raw_pointer_cast(...) is left unresolved
        int f = from;
        while (f < to && t.get(f).equals("(")) {
            int c = close(f);
            if (c + 1 < to && isTypeList(f + 1, c)) f = c + 1;
            else break;
        }
        if (f < to && t.get(f).equals("&")) f++;
        Val v0 = to - f == 1 ? env.get(t.get(f)) : null;
        if (v0 != null) {
            if (v0 instanceof Buf b) {
                a.bufferBytes = b.bytes();
                a.fill = b.fill();
                a.provenance = b.from() + " (" + b.bytes() + " bytes)";
                return a;
            }
            if (v0 instanceof Struct st) {
                a.bytes = st.type.bytes(st.fields);
                a.provenance = st.from + " (" + st.type.size() + " bytes; members set: " + st.fields.keySet() + ")";
                return a;
            }
        }
        Double x = eval(f, to);
        if (x != null) {
            a.value = x;
            Val v = to - f == 1 ? env.get(t.get(f)) : null;
            a.provenance = v instanceof Num n ? n.from() : "the literal " + a.expr;
        }
        return a;
    }

    boolean isTypeList(int from, int to) {
        for (int k = from; k < to; k++) {
            String s = t.get(k);
            if (!(s.equals("*")
                    || s.equals("const")
                    || s.equals("unsigned")
                    || SIZES.containsKey(s)
                    || s.equals("void")
                    || structs.containsKey(s))) return false;
        }
        return to > from;
    }

    private void cudaLaunchKernel(int i) {
        List<int[]> a = split(i + 2, close(i + 1));
        if (a.size() < 4) return;
        HostLaunch l = new HostLaunch();
        l.kernel = lastIdent(a.get(0));
        l.at = at(i);
        l.grid = dims(a.get(1), l, "grid");
        l.block = dims(a.get(2), l, "block");
        shared(l, a.size() > 4 ? a.get(4) : null);
        String argv = lastIdent(a.get(3));
        List<String> items = argArrays.get(argv);
        if (items != null) for (String s : items) l.args.add(argText(s));
        launches.add(l);
    }

    private void cuLaunchKernel(int i) {
        List<int[]> a = split(i + 2, close(i + 1));
        if (a.size() < 10) return;
        HostLaunch l = new HostLaunch();
        String fn = lastIdent(a.get(0));
        l.kernel = functions.getOrDefault(fn, fn);
        l.at = at(i);
        int[] g = new int[3], b = new int[3];
        boolean ok = true;
        for (int k = 0; k < 3; k++) {
            Double gv = eval(a.get(1 + k)[0], a.get(1 + k)[1]), bv = eval(a.get(4 + k)[0], a.get(4 + k)[1]);
            if (gv == null || bv == null) ok = false;
            else {
                g[k] = gv.intValue();
                b[k] = bv.intValue();
            }
        }
        if (ok) {
            l.grid = g;
            l.block = b;
            l.provenance.put("grid", text(a.get(1)[0], a.get(3)[1]) + " at " + l.at);
            l.provenance.put("block", text(a.get(4)[0], a.get(6)[1]) + " at " + l.at);
        }
        shared(l, a.get(7));
        // JCuda: Pointer kernelParameters = Pointer.to(Pointer.to(dA), Pointer.to(new int[]{n}), ...)
        String argv = lastIdent(a.get(9));
        List<String> items = argArrays.get(argv);
        if (items == null) items = jcudaParams(argv, i);
        if (items != null) for (String s : items) l.args.add(argText(s));
        launches.add(l);
    }

    /** JCuda's {@code Pointer NAME = Pointer.to(Pointer.to(x), Pointer.to(new int[]{n}))} before index limit. */
    private List<String> jcudaParams(String var, int limit) {
        if (var == null) return null;
        for (int k = limit; k >= 0; k--) {
            if (t.get(k).equals(var)
                    && tok(k + 1).equals("=")
                    && tok(k + 2).equals("Pointer")
                    && tok(k + 4).equals("to")
                    && tok(k + 5).equals("(")) {
                List<String> items = new ArrayList<>();
                for (int[] r : split(k + 6, close(k + 5))) {
                    // Pointer.to(x) or Pointer.to(new int[]{n})
                    int f = r[0];
                    if (tok(f).equals("Pointer")
                            && tok(f + 2).equals("to")
                            && tok(f + 3).equals("(")) {
                        int c = close(f + 3);
                        if (tok(f + 4).equals("new")) {
                            int ob = f + 4;
                            while (ob < c && !t.get(ob).equals("{")) ob++;
                            items.add(ob < c ? text(ob + 1, close(ob)) : text(f + 4, c));
                        } else items.add(text(f + 4, c));
                    } else items.add(text(r[0], r[1]));
                }
                return items;
            }
        }
        return null;
    }

    private HostLaunch.Arg argText(String s) {
        HostLaunch.Arg a = new HostLaunch.Arg();
        List<PToken> toks = FastLexer.lex(s);
        String name = toks.isEmpty() ? s : toks.get(toks.size() - 1).getText();
        Val v = env.get(name);
        a.expr = s;
        if (v instanceof Buf b) {
            a.bufferBytes = b.bytes();
            a.fill = b.fill();
            a.provenance = b.from() + " (" + b.bytes() + " bytes)";
        } else if (v instanceof Num n) {
            a.value = n.v();
            a.provenance = n.from();
        } else if (v instanceof Struct st) {
            a.bytes = st.type.bytes(st.fields);
            a.provenance = st.from + " (" + st.type.size() + " bytes)";
        } else if (toks.size() == 1) {
            Double x = HostExpressions.number(name);
            if (x != null) {
                a.value = x;
                a.provenance = "the literal " + s;
            }
        }
        return a;
    }

    /** The value of tokens [from, to), or null when it is not statically known ({@link HostExpressions}). */
    private Double eval(int from, int to) {
        return new HostExpressions(this).eval(from, to);
    }

    /** {@link #eval} with the value's type class. */
    private HostExpressions.N evalN(int from, int to) {
        return new HostExpressions(this).evalN(from, to);
    }

    private static Double mul(Double a, Double b) {
        return a == null || b == null ? null : a * b;
    }
}
