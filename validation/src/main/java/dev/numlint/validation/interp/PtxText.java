package dev.numlint.validation.interp;

import java.util.ArrayList;
import java.util.List;

/**
 * A small reader for the PTX that nvcc emits, producing the statement list the {@link Decoder} compiles. It keeps
 * only what execution needs: module variables (.global/.const/.shared with initializers), functions with their
 * parameters, register/local/shared/param declarations, labels and instructions with guards, modifiers and
 * operands. Debug directives (.loc, .file, .pragma, .section) are skipped.
 */
public final class PtxText {
    private PtxText() {}

    /** A parsed module. */
    public static final class Module {
        public final List<Var> vars = new ArrayList<>();
        public final List<Func> funcs = new ArrayList<>();
        /**
         * ptxas's contractions (dev.numlint.ptx.model.Contraction), keyed by the PTX line of the add/sub that
         * becomes a fused multiply-add in the machine code.
         */
        public final java.util.Map<Integer, Fuse> contractions = new java.util.HashMap<>();

        /** The function of that name, preferring a definition over a prototype. */
        public Func func(String name) {
            Func proto = null;
            for (Func f : funcs) {
                if (!f.name.equals(name)) continue;
                if (f.body != null) return f;
                proto = f;
            }
            return proto;
        }

        public List<Func> entries() {
            List<Func> r = new ArrayList<>();
            for (Func f : funcs) if (f.entry && f.body != null) r.add(f);
            return r;
        }
    }

    /**
     * One mul + add/sub pair that ptxas fuses: the add/sub at its line computes round(pa * pb + other) with the
     * product and/or the other operand negated.
     */
    public record Fuse(String pa, String pb, String other, boolean negateProduct, boolean negateOther, int mulLine) {
    }

    /** A variable declaration in some state space. */
    public static final class Var {
        public final String space, type, name;
        public final int elemSize, count, align;
        public final byte[] init; // may be null
        /** An extern array declared with [] (dynamic shared memory): no size of its own. */
        public boolean unsized;

        Var(String space, String type, String name, int count, int align, byte[] init) {
            this.space = space;
            this.type = type;
            this.name = name;
            this.elemSize = Types.size(type);
            this.count = count;
            this.align = align <= 0 ? elemSize : align;
            this.init = init;
        }

        public int bytes() {
            return elemSize * Math.max(count, 1);
        }
    }

    /** An .entry or .func. */
    public static final class Func {
        public final String name;
        public final boolean entry;
        public final List<Var> params = new ArrayList<>();
        public final List<Var> rets = new ArrayList<>();
        public List<Stmt> body; // null for a prototype
        public int line;
        /** .maxntid / .reqntid x-dimension, 0 when absent. */
        public int maxThreads;

        Func(String name, boolean entry) {
            this.name = name;
            this.entry = entry;
        }
    }

    /** A body statement: a label, a declaration or an instruction. */
    public abstract static class Stmt {
        public int line;
    }

    public static final class Label extends Stmt {
        public final String name;

        Label(String name) {
            this.name = name;
        }
    }

    public static final class RegDecl extends Stmt {
        public final String type, name;
        public final int count; // -1: a single register called name; else name0..name(count-1)

        public RegDecl(String type, String name, int count) {
            this.type = type;
            this.name = name;
            this.count = count;
        }
    }

    public static final class VarDecl extends Stmt {
        public final Var var;

        VarDecl(Var var) {
            this.var = var;
        }
    }

    public static final class Insn extends Stmt {
        public String guard; // predicate register or null
        public boolean guardNeg;
        public String opcode; // e.g. "add"
        public List<String> mods = new ArrayList<>(); // e.g. ["rn", "f32"]
        public List<String> operands = new ArrayList<>(); // raw operand texts
        public String text;
        /** The source position from the .loc before it (file:line:column, the user's code when inlined), or null. */
        public String src;

        public boolean has(String m) {
            return mods.contains(m);
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** Thrown for PTX this reader does not understand. */
    public static final class PtxSyntaxException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public PtxSyntaxException(String msg) {
            super(msg);
        }
    }

    public static Module parse(String src) {
        return new Reader(stripComments(src)).module();
    }

    static String stripComments(String s) {
        StringBuilder b = new StringBuilder(s.length());
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == '"') { // keep strings (.file names, .pragma) intact
                int j = s.indexOf('"', i + 1);
                if (j < 0) j = n - 1;
                b.append(s, i, j + 1);
                i = j;
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
                while (i < n && s.charAt(i) != '\n') i++;
                b.append('\n');
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int j = s.indexOf("*/", i + 2);
                if (j < 0) j = n - 2;
                for (int k = i; k < j + 2; k++) if (s.charAt(k) == '\n') b.append('\n');
                i = j + 1;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static final class Reader {
        final String s;
        int p, line = 1;

        Reader(String s) {
            this.s = s;
        }

        void ws() {
            while (p < s.length()) {
                char c = s.charAt(p);
                if (c == '\n') line++;
                else if (!Character.isWhitespace(c)) break;
                p++;
            }
        }

        boolean eof() {
            ws();
            return p >= s.length();
        }

        /** The next token: an identifier-like word (with dots, %, $, _), or a single punctuation char. */
        String peekWord() {
            ws();
            int q = p;
            while (q < s.length() && isWordChar(s.charAt(q))) q++;
            return q == p ? (p < s.length() ? String.valueOf(s.charAt(p)) : "") : s.substring(p, q);
        }

        String word() {
            String w = peekWord();
            p += w.length();
            return w;
        }

        static boolean isWordChar(char c) {
            return Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '$' || c == '%';
        }

        void expect(String t) {
            String w = word();
            if (!w.equals(t)) throw new PtxSyntaxException("line " + line + ": expected '" + t + "' but found '" + w + "'");
        }

        /** Text up to (not including) the next top-level ';', tracking braces for initializers. */
        String untilSemicolon() {
            int depth = 0, q = p;
            while (q < s.length()) {
                char c = s.charAt(q);
                if (c == '{') depth++;
                else if (c == '}') depth--;
                else if (c == ';' && depth <= 0) break;
                q++;
            }
            String t = s.substring(p, q);
            for (int i = 0; i < t.length(); i++) if (t.charAt(i) == '\n') line++;
            p = Math.min(q + 1, s.length());
            return t.trim();
        }

        Module module() {
            Module m = new Module();
            while (!eof()) {
                int start = p;
                String w = peekWord();
                if (w.equals(".version") || w.equals(".target") || w.equals(".address_size")) {
                    word();
                    restOfLine();
                } else if (w.equals(".file") || w.equals(".section") || w.equals(".loc")) {
                    skipDirective();
                } else if (w.equals(".entry") || w.equals(".func") || w.equals(".visible") || w.equals(".extern")
                        || w.equals(".weak") || w.equals(".global") || w.equals(".const") || w.equals(".shared")
                        || w.equals(".common") || w.equals(".local")) {
                    topLevel(m);
                } else {
                    throw new PtxSyntaxException("line " + line + ": unexpected '" + w + "' at module level");
                }
                if (p == start) throw new PtxSyntaxException("line " + line + ": no progress");
            }
            return m;
        }

        void restOfLine() {
            while (p < s.length() && s.charAt(p) != '\n') p++;
        }

        void skipDirective() {
            String w = word();
            if (w.equals(".section")) { // .section .debug_str { ... } with the brace on a later line
                while (p < s.length() && s.charAt(p) != '\n' && s.charAt(p) != '{') p++;
            }
            ws();
            if (p < s.length() && s.charAt(p) == '{') { // .section { ... }
                int d = 0;
                while (p < s.length()) {
                    char c = s.charAt(p++);
                    if (c == '\n') line++;
                    if (c == '{') d++;
                    else if (c == '}' && --d == 0) break;
                }
            } else {
                restOfLine();
            }
        }

        void topLevel(Module m) {
            int l = line;
            List<String> linkage = new ArrayList<>();
            while (true) {
                String w = peekWord();
                if (w.equals(".visible") || w.equals(".extern") || w.equals(".weak") || w.equals(".common")) linkage.add(word());
                else break;
            }
            String w = peekWord();
            if (w.equals(".entry") || w.equals(".func")) {
                word();
                Func f = function(w.equals(".entry"));
                f.line = l;
                m.funcs.add(f);
            } else {
                String decl = untilSemicolon();
                m.vars.add(parseVar(decl));
            }
        }

        Func function(boolean entry) {
            ws();
            List<Var> rets = new ArrayList<>();
            if (s.charAt(p) == '(') rets = paramList();
            String name = word();
            Func f = new Func(name, entry);
            f.rets.addAll(rets);
            ws();
            if (p < s.length() && s.charAt(p) == '(') f.params.addAll(paramList());
            // performance directives (.maxntid 256, 1, 1 ...) up to the body or ';'
            int dstart = p;
            while (true) {
                ws();
                char c = s.charAt(p);
                if (c == '{') break;
                if (c == ';') { p++; return f; }
                p++;
            }
            java.util.regex.Matcher mt = java.util.regex.Pattern.compile("\\.(?:maxntid|reqntid)\\s+(\\d+)(?:\\s*,\\s*(\\d+))?(?:\\s*,\\s*(\\d+))?")
                    .matcher(s.substring(dstart, p));
            if (mt.find()) {
                int t = Integer.parseInt(mt.group(1));
                if (mt.group(2) != null) t *= Integer.parseInt(mt.group(2));
                if (mt.group(3) != null) t *= Integer.parseInt(mt.group(3));
                f.maxThreads = t;
            }
            f.body = body();
            return f;
        }

        List<Var> paramList() {
            expect("(");
            List<Var> r = new ArrayList<>();
            int q = p, depth = 1;
            while (q < s.length() && depth > 0) {
                char c = s.charAt(q);
                if (c == '(') depth++;
                else if (c == ')') depth--;
                q++;
            }
            String inside = s.substring(p, q - 1);
            for (int i = 0; i < inside.length(); i++) if (inside.charAt(i) == '\n') line++;
            p = q;
            for (String part : splitTop(inside, ',')) {
                part = part.trim();
                if (!part.isEmpty()) r.add(parseVar(part));
            }
            return r;
        }

        List<Stmt> body() {
            expect("{");
            List<Stmt> out = new ArrayList<>();
            int depth = 1;
            while (true) {
                if (eof()) throw new PtxSyntaxException("unterminated function body");
                ws();
                char c = s.charAt(p);
                if (c == '{') { p++; depth++; continue; }
                if (c == '}') { p++; if (--depth == 0) break; continue; }
                int l = line;
                String w = peekWord();
                if (w.startsWith(".")) {
                    if (w.equals(".loc") || w.equals(".pragma") || w.equals(".file") || w.equals(".section")) {
                        if (w.equals(".pragma")) untilSemicolon(); else skipDirective();
                        continue;
                    }
                    String decl = untilSemicolon();
                    if (decl.startsWith(".reg")) out.add(parseReg(decl, l));
                    else if (decl.startsWith(".maxnreg") || decl.startsWith(".maxntid") || decl.startsWith(".reqntid")
                            || decl.startsWith(".minnctapersm") || decl.startsWith(".noreturn")) continue;
                    else {
                        VarDecl vd = new VarDecl(parseVar(decl));
                        vd.line = l;
                        out.add(vd);
                    }
                    continue;
                }
                // label?
                int save = p, saveLine = line;
                String lw = word();
                ws();
                if (p < s.length() && s.charAt(p) == ':' && !lw.startsWith("@")) {
                    p++;
                    Label lab = new Label(lw);
                    lab.line = l;
                    out.add(lab);
                    continue;
                }
                p = save;
                line = saveLine;
                String text = untilSemicolon();
                if (text.isEmpty()) continue;
                Insn in = parseInsn(text);
                in.line = l;
                out.add(in);
            }
            return out;
        }
    }

    static List<String> splitTop(String t, char sep) {
        List<String> r = new ArrayList<>();
        int depth = 0, start = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '{' || c == '[' || c == '(') depth++;
            else if (c == '}' || c == ']' || c == ')') depth--;
            else if (c == sep && depth == 0) {
                r.add(t.substring(start, i));
                start = i + 1;
            }
        }
        r.add(t.substring(start));
        return r;
    }

    static RegDecl parseReg(String decl, int line) {
        // .reg .f32 %f<6>  |  .reg .b64 %SP  |  .reg .b32 %r1, %r2
        String[] w = decl.split("\\s+", 3);
        String type = w[1].substring(1);
        String rest = w.length > 2 ? w[2].trim() : "";
        if (rest.contains(",")) {
            // several names: represent as the first; callers handle by re-splitting
            RegDecl d = new RegDecl(type, rest, -2);
            d.line = line;
            return d;
        }
        int lt = rest.indexOf('<');
        RegDecl d = lt >= 0 ? new RegDecl(type, rest.substring(0, lt), Integer.parseInt(rest.substring(lt + 1, rest.indexOf('>')).trim()))
                : new RegDecl(type, rest, -1);
        d.line = line;
        return d;
    }

    /** ".param .u64 name", ".shared .align 4 .b8 name[1024]", ".global .align 4 .b8 t[3] = {1,2,3}". */
    static Var parseVar(String decl) {
        String init = null;
        int eq = decl.indexOf('=');
        if (eq >= 0) {
            init = decl.substring(eq + 1).trim();
            decl = decl.substring(0, eq).trim();
        }
        String[] w = decl.trim().split("\\s+");
        String space = null, type = null, name = null;
        int align = 0, vec = 1;
        for (int i = 0; i < w.length; i++) {
            String t = w[i];
            if (t.equals(".align")) align = Integer.parseInt(w[++i]);
            else if (t.equals(".ptr")) continue;
            else if (t.equals(".v2") || t.equals(".v4") || t.equals(".v8")) vec = Integer.parseInt(t.substring(2));
            else if (t.startsWith(".") && Types.isType(t.substring(1))) type = t.substring(1);
            else if (t.startsWith(".")) { if (space == null) space = t.substring(1); }
            else name = name == null ? t : name + t;
        }
        if (name == null || type == null) throw new PtxSyntaxException("cannot read declaration '" + decl + "'");
        int count = 0;
        int br = name.indexOf('[');
        boolean open = false;
        if (br >= 0) {
            String dims = name.substring(br);
            name = name.substring(0, br);
            count = 1;
            for (String d : dims.split("\\]")) {
                String x = d.replace("[", "").trim();
                if (x.isEmpty()) { open = true; continue; }
                count *= Integer.parseInt(x);
            }
        }
        if (vec > 1) count = Math.max(count, 1) * vec;
        byte[] bytes = null;
        if (init != null) bytes = Initializers.parse(init, type);
        if (open && bytes != null) count = bytes.length / Types.size(type);
        else if (open) count = 0; // extern array without a size (dynamic shared memory)
        Var result = new Var(space, type, name, count, align, bytes);
        result.unsized = open && bytes == null;
        return result;
    }

    static Insn parseInsn(String text) {
        Insn in = new Insn();
        in.text = text.replaceAll("\\s+", " ");
        String t = text.trim();
        if (t.startsWith("@")) {
            int sp = firstSpace(t);
            String g = t.substring(1, sp);
            if (g.startsWith("!")) { in.guardNeg = true; g = g.substring(1); }
            in.guard = g;
            t = t.substring(sp).trim();
        }
        int sp = firstSpace(t);
        String op = sp < 0 ? t : t.substring(0, sp);
        String rest = sp < 0 ? "" : t.substring(sp).trim();
        String[] parts = op.split("\\.");
        in.opcode = parts[0];
        for (int i = 1; i < parts.length; i++) in.mods.add(parts[i]);
        if (!rest.isEmpty()) {
            for (String o : splitTop(rest, ',')) in.operands.add(o.trim());
        }
        return in;
    }

    private static int firstSpace(String t) {
        for (int i = 0; i < t.length(); i++) if (Character.isWhitespace(t.charAt(i))) return i;
        return -1;
    }
}
