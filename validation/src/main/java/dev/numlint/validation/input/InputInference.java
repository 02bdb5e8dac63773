package dev.numlint.validation.input;

import dev.numlint.validation.interp.PtxText;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Infers a launch spec from a kernel's PTX: a .u64 parameter that is loaded (ld.param), converted
 * (cvta.to.global) and offset (add) into the address of ld/st/atom is an array whose element type is the access
 * type (stored-to makes it an output); an integer scalar compared (setp) with a value derived from
 * %tid/%ctaid/%ntid is the length; other integer scalars get a small value, float scalars a draw from the
 * distribution. The launch is 1-D with 256-thread blocks.
 */
public final class InputInference {
    /** Value of integer scalars that are not the length. */
    public static final int DEFAULT_INT_SCALAR = 8;

    private InputInference() {}

    /** Element type of a memory access from its modifiers (last type modifier; b32 read as u32). */
    private static String accessType(PtxText.Insn in) {
        String t = null;
        for (String m : in.mods) {
            if (m.matches("[bsuf](8|16|32|64)")) t = m;
        }
        if (t == null) return null;
        if (t.startsWith("b")) t = "u" + t.substring(1);
        return t;
    }

    private static String baseReg(String addr) {
        String a = addr.trim();
        if (!a.startsWith("[")) return null;
        a = a.substring(1, a.length() - 1).trim();
        int plus = a.indexOf('+');
        if (plus > 0) a = a.substring(0, plus).trim();
        return a.startsWith("%") ? a : null;
    }

    private static String paramName(String addr) {
        String a = addr.trim();
        if (!a.startsWith("[")) return null;
        a = a.substring(1, a.length() - 1).trim();
        int plus = a.indexOf('+');
        return plus > 0 ? a.substring(0, plus).trim() : a;
    }

    public static KernelSpec infer(PtxText.Func f) {
        Map<String, Integer> paramIx = new HashMap<>();
        for (int i = 0; i < f.params.size(); i++) paramIx.put(f.params.get(i).name, i);
        Map<String, Integer> ptr = new HashMap<>(), scalar = new HashMap<>();
        Set<String> idx = new HashSet<>();
        Map<Integer, String> elemType = new LinkedHashMap<>();
        Set<Integer> written = new HashSet<>(),
                read = new HashSet<>(),
                lengths = new HashSet<>(),
                deref = new HashSet<>();
        for (int pass = 0; pass < 3; pass++) {
            for (PtxText.Stmt s : f.body) {
                if (!(s instanceof PtxText.Insn)) continue;
                PtxText.Insn in = (PtxText.Insn) s;
                List<String> o = in.operands;
                String op = in.opcode;
                if (o.isEmpty()) continue;
                String d = o.get(0).trim();
                if (op.equals("ld") && in.has("param") && o.size() == 2) {
                    Integer pi = paramIx.get(paramName(o.get(1)));
                    if (pi != null) {
                        String t = f.params.get(pi).type;
                        if (t.equals("u64") || t.equals("b64") || t.equals("s64")) ptr.put(d, pi);
                        scalar.put(d, pi);
                    }
                    continue;
                }
                if ((op.equals("ld") || op.equals("ldu") || op.equals("st") || op.equals("atom") || op.equals("red"))
                        && !in.has("param")
                        && !in.has("shared")
                        && !in.has("local")
                        && !in.has("const")) {
                    int ai = op.equals("ld") || op.equals("ldu") || op.equals("atom") ? 1 : 0;
                    if (ai >= o.size()) continue;
                    String b = baseReg(o.get(ai));
                    Integer pi = b == null ? null : ptr.get(b);
                    if (pi != null) {
                        deref.add(pi);
                        String t = accessType(in);
                        if (t != null) {
                            String prev = elemType.get(pi);
                            if (prev == null || (!prev.startsWith("f") && t.startsWith("f"))) elemType.put(pi, t);
                        }
                        if (op.equals("st") || op.equals("atom") || op.equals("red")) written.add(pi);
                        if (!op.equals("st")) read.add(pi);
                    }
                    continue;
                }
                // propagation through moves, conversions and integer arithmetic
                if (op.equals("mov")
                        || op.equals("cvta")
                        || op.equals("add")
                        || op.equals("sub")
                        || op.equals("cvt")
                        || op.equals("mad")
                        || op.equals("mul")
                        || op.equals("shl")
                        || op.equals("and")
                        || op.equals("or")
                        || op.equals("rem")
                        || op.equals("div")
                        || op.equals("shr")
                        || op.equals("max")
                        || op.equals("min")) {
                    Integer pp = null;
                    int nptr = 0;
                    boolean anyIdx = false;
                    Integer sc = null;
                    for (int k = 1; k < o.size(); k++) {
                        String a = o.get(k).trim();
                        if (ptr.containsKey(a)) {
                            pp = ptr.get(a);
                            nptr++;
                        }
                        if (idx.contains(a) || a.startsWith("%tid") || a.startsWith("%ctaid") || a.startsWith("%ntid"))
                            anyIdx = true;
                        if (scalar.containsKey(a)) sc = scalar.get(a);
                    }
                    if (nptr == 1 && (op.equals("mov") || op.equals("cvta") || op.equals("add") || op.equals("sub")))
                        ptr.put(d, pp);
                    if (nptr == 1 && op.equals("cvta")) deref.add(pp);
                    if (anyIdx) idx.add(d);
                    else if (sc != null && (op.equals("mov") || op.equals("cvt"))) scalar.put(d, sc);
                    continue;
                }
                if (op.equals("setp") && o.size() >= 3) {
                    String a = o.get(1).trim(), b = o.get(2).trim();
                    if (idx.contains(a) && scalar.containsKey(b)) lengths.add(scalar.get(b));
                    if (idx.contains(b) && scalar.containsKey(a)) lengths.add(scalar.get(a));
                }
            }
        }
        KernelSpec k = new KernelSpec();
        k.kernel = f.name;
        k.source = "inferred from the PTX";
        if (f.maxThreads > 0 && f.maxThreads < 256) k.block = new int[] {f.maxThreads, 1, 1};
        for (int i = 0; i < f.params.size(); i++) {
            PtxText.Var v = f.params.get(i);
            ParamSpec ps = new ParamSpec();
            ps.name = v.name;
            boolean pointer = v.type.equals("u64") || v.type.equals("b64") || v.type.equals("s64");
            if (v.count > 1 || v.type.equals("b8") && v.count >= 1) {
                ps.kind = "bytes"; // an aggregate passed by value: zero-filled unless a spec gives its bytes
                ps.type = "b8";
                ps.length = v.bytes();
            } else if (pointer && deref.contains(i)) {
                ps.kind = "array";
                ps.type = elemType.getOrDefault(i, "f32");
                ps.direction = written.contains(i) ? (read.contains(i) ? "inout" : "out") : "in";
            } else {
                ps.kind = "scalar";
                ps.type = v.type.startsWith("b") ? "u" + v.type.substring(1) : v.type;
                if (!ps.type.startsWith("f")) ps.value = lengths.contains(i) ? null : (double) DEFAULT_INT_SCALAR;
            }
            k.params.add(ps);
        }
        return k;
    }
}
