package dev.numlint.validation;

import dev.numlint.validation.interp.PtxText;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The validator's own scan for hazard instructions in a kernel and the .func routines it calls, used to pick
 * kernels to validate when no analyzer findings are passed in, and to name the evidence of each rule.
 */
public final class PtxHazards {
    private PtxHazards() {}

    /** One rule's first evidence in a kernel. */
    public static final class Hit {
        public final String rule, text;
        public final int line;

        Hit(String rule, String text, int line) {
            this.rule = rule;
            this.text = text;
            this.line = line;
        }
    }

    public static Map<String, Hit> scan(PtxText.Module m, PtxText.Func kernel) {
        Map<String, Hit> hits = new LinkedHashMap<>();
        Deque<PtxText.Func> todo = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        todo.add(kernel);
        boolean toDouble = false, toFloat = false;
        PtxText.Insn promote = null;
        while (!todo.isEmpty()) {
            PtxText.Func f = todo.poll();
            if (!seen.add(f.name) || f.body == null) continue;
            for (PtxText.Stmt s : f.body) {
                if (!(s instanceof PtxText.Insn)) continue;
                PtxText.Insn in = (PtxText.Insn) s;
                String op = in.opcode;
                boolean f32 = in.has("f32"), f64 = in.has("f64");
                if ((op.equals("fma") || op.equals("mad")) && (f32 || f64)) put(hits, "NL003", in);
                if ((op.equals("div") && (in.has("approx") || in.has("full"))) || (op.equals("rcp") && in.has("approx"))) put(hits, "NL002", in);
                if (in.has("approx") && (op.equals("sqrt") || op.equals("rsqrt") || op.equals("sin") || op.equals("cos")
                        || op.equals("ex2") || op.equals("lg2") || op.equals("tanh"))) put(hits, "NL006", in);
                if (in.has("ftz")) put(hits, "NL007", in);
                if (op.equals("cvt") && in.mods.size() >= 3) {
                    String dt = null, st = null;
                    for (String md : in.mods) {
                        if (md.matches("[usfb](8|16|32|64)")) { if (dt == null) dt = md; else st = md; }
                    }
                    if (dt != null && st != null && dt.startsWith("u") && st.startsWith("f")) put(hits, "NL001", in);
                    if ("f64".equals(dt) && "f32".equals(st)) { toDouble = true; promote = in; }
                    if ("f32".equals(dt) && "f64".equals(st)) toFloat = true;
                }
                if ((op.equals("atom") || op.equals("red")) && in.has("add") && (f32 || f64)) put(hits, "NL009", in);
                if (op.equals("call")) {
                    for (String o : in.operands) {
                        PtxText.Func g = m.func(o.trim());
                        if (g != null) todo.add(g);
                    }
                }
            }
        }
        if (toDouble && toFloat && promote != null) put(hits, "NL008", promote);
        return hits;
    }

    private static void put(Map<String, Hit> hits, String rule, PtxText.Insn in) {
        hits.putIfAbsent(rule, new Hit(rule, in.text, in.line));
    }
}
