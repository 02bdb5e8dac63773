package dev.numlint.validation.interp;

import dev.numlint.validation.interp.Decoder.Options;
import dev.numlint.validation.interp.Decoder.Unsupported;
import dev.numlint.validation.interp.PtxText.Func;
import dev.numlint.validation.interp.PtxText.Insn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decodes the instructions that reach outside the thread's registers: loads and stores in each state space (with
 * reference mode's wide f32 accesses), atomics, calls of .func routines with their parameters, warp shuffles and
 * votes, and texture fetches.
 */
abstract class MemoryDecoder extends ArithmeticDecoder {
    MemoryDecoder(PtxText.Module m, Func k, Options o) {
        super(m, k, o);
    }

    int space(Insn in) {
        if (in.has("global")) return Op.SP_GLOBAL;
        if (in.has("shared")) return Op.SP_SHARED;
        if (in.has("local")) return Op.SP_LOCAL;
        if (in.has("const")) return Op.SP_CONST;
        if (in.has("param")) return -1; // resolved by symbol
        return Op.SP_GENERIC;
    }

    void ldst(Insn in, boolean load) {
        List<String> o = in.operands;
        String t = type(in);
        int vec = in.has("v2") ? 2 : in.has("v4") ? 4 : in.has("v8") ? 8 : 1;
        int size = Types.size(t);
        if (size > 8) throw new Unsupported((load ? "ld" : "st") + " ." + t);
        int sp = space(in);
        String addrOp = load ? o.get(1) : o.get(0);
        String valOp = load ? o.get(0) : o.get(1);
        if (sp == -1) {
            String inner =
                    addrOp.trim().substring(1, addrOp.trim().length() - 1).trim();
            String base = inner.split("\\+")[0].trim();
            Sym s = syms.get(base);
            if (s == null) {
                if (base.startsWith("%")) sp = Op.SP_KPARAM; // address of a kernel parameter in a register
                else throw new Unsupported("unknown parameter " + base);
            } else sp = s.space;
        }
        long[] ad = address(addrOp, sp);
        int[] regsList;
        String vo = valOp.trim();
        if (vo.startsWith("{")) {
            String[] parts = vo.substring(1, vo.length() - 1).split(",");
            regsList = new int[parts.length];
            for (int i = 0; i < parts.length; i++) {
                String pt = parts[i].trim();
                regsList[i] = pt.equals("_") ? -1 : load ? reg(pt) : src(pt, t);
            }
        } else {
            regsList = new int[] {load ? reg(vo) : (t.equals("f32") && ref ? -2 : src(vo, t))};
        }
        boolean f32 = t.equals("f32");
        if (ref && f32 && (sp == Op.SP_GLOBAL || sp == Op.SP_SHARED || sp == Op.SP_LOCAL || sp == Op.SP_GENERIC)) {
            // element-wise through the double shadow for wide registers
            for (int i = 0; i < regsList.length; i++) {
                String pt = vo.startsWith("{")
                        ? vo.substring(1, vo.length() - 1).split(",")[i].trim()
                        : vo;
                if (pt.equals("_")) continue;
                if (load) {
                    int r = reg(pt);
                    emit(wide(r) ? Op.LD_W : Op.LD, r, (int) ad[0], 0, sp, ad[1] + 4L * i, 4, null);
                } else {
                    boolean isR = isReg(pt);
                    int r = isR ? reg(pt) : src(pt, t);
                    emit(isR && wide(r) ? Op.ST_W : Op.ST, 0, (int) ad[0], r, sp, ad[1] + 4L * i, 4, null);
                }
            }
            return;
        }
        if (regsList.length == 1 && regsList[0] == -2) regsList[0] = src(vo, t);
        int[] widenAfter = null; // reference mode, param/const space: f32 bits in and out of wide registers
        if (ref && f32) {
            String[] parts =
                    vo.startsWith("{") ? vo.substring(1, vo.length() - 1).split(",") : new String[] {vo};
            for (int i = 0; i < regsList.length; i++) {
                String pt = parts[i].trim();
                if (regsList[i] < 0 || !isReg(pt)) continue;
                if (!load) regsList[i] = srcNarrow(pt);
                else if (wide(regsList[i])) {
                    if (widenAfter == null) widenAfter = regsList.clone();
                    regsList[i] = scratch();
                }
            }
        }
        if (ref
                && t.equals("f64")
                && vec == 1
                && isReg(vo)
                && wideD(reg(vo))
                && (sp == Op.SP_GLOBAL || sp == Op.SP_SHARED || sp == Op.SP_LOCAL || sp == Op.SP_GENERIC)) {
            if (load) emit(Op.LD_DD, reg(vo), (int) ad[0], 0, sp, ad[1], 8, null);
            else emit(Op.ST_DD, 0, (int) ad[0], reg(vo), sp, ad[1], 8, null);
            return;
        }
        boolean signed = Types.isSigned(t);
        int y = size | (signed ? 16 : 0);
        if (vec == 1 && regsList.length == 1) {
            if (load)
                emit(
                        sp == Op.SP_GLOBAL && size == 4 ? Op.LD_G32 : Op.LD,
                        regsList[0],
                        (int) ad[0],
                        0,
                        sp,
                        ad[1],
                        y,
                        null);
            else
                emit(
                        sp == Op.SP_GLOBAL && size == 4 ? Op.ST_G32 : Op.ST,
                        0,
                        (int) ad[0],
                        regsList[0],
                        sp,
                        ad[1],
                        y,
                        null);
        } else {
            for (int i = 0; i < regsList.length; i++) {
                if (regsList[i] < 0) continue;
                if (load) emit(Op.LD, regsList[i], (int) ad[0], 0, sp, ad[1] + (long) size * i, y, null);
                else emit(Op.ST, 0, (int) ad[0], regsList[i], sp, ad[1] + (long) size * i, y, null);
            }
        }
        if (widenAfter != null)
            for (int i = 0; i < regsList.length; i++)
                if (regsList[i] >= 0 && regsList[i] != widenAfter[i])
                    emitPost(false, Op.WIDEN, widenAfter[i], regsList[i]);
    }

    static final List<String> ATOMS = List.of("add", "min", "max", "inc", "dec", "exch", "cas", "and", "or", "xor");

    void atom(Insn in) {
        List<String> o = in.operands;
        String t = type(in);
        boolean red = in.opcode.equals("red");
        int aop = -1;
        for (String m : in.mods) if (ATOMS.contains(m)) aop = ATOMS.indexOf(m);
        if (aop < 0) throw new Unsupported(in.opcode + "." + String.join(".", in.mods));
        int sp = space(in);
        if (sp < 0) throw new Unsupported("atom on param space");
        int k = Op.kind(t);
        if (k == Op.K_F16) throw new Unsupported("atom .f16");
        int d = red ? -1 : reg(o.get(0));
        int base = red ? 0 : 1;
        long[] ad = address(o.get(base), sp);
        String ft = t.equals("f32") ? "f32" : t;
        int b = t.equals("f32") ? srcNarrow(o.get(base + 1)) : src(o.get(base + 1), ft);
        int c = aop == 6 ? (t.equals("f32") ? srcNarrow(o.get(base + 2)) : src(o.get(base + 2), t)) : 0;
        int tmp = d;
        if (d >= 0 && wide(d)) tmp = scratch();
        emit(Op.ATOM, tmp, (int) ad[0], b, c, ad[1], sp | (aop << 4) | (k << 12), null);
        if (tmp != d) emitPost(false, Op.WIDEN, d, tmp);
    }

    void call(Insn in) {
        List<String> o = in.operands;
        String callee = calleeName(in);
        List<String> rets = new ArrayList<>(), args = new ArrayList<>();
        boolean seenName = false;
        for (String s : o) {
            String t = s.trim();
            if (t.startsWith("(")) {
                List<String> into = seenName ? args : rets;
                for (String x : t.substring(1, t.length() - 1).split(","))
                    if (!x.trim().isEmpty()) into.add(x.trim());
            } else if (t.equals(callee)) seenName = true;
        }
        Func f = mod.func(callee);
        Map<String, Sym> ps = funcParamSyms.get(callee);
        if (f.params.size() != args.size() || f.rets.size() != rets.size())
            throw new Unsupported("call argument count for " + callee);
        int[] site = new int[2 + 3 * args.size() + 1 + 3 * rets.size()];
        int i = 1;
        site[i++] = args.size();
        for (int j = 0; j < args.size(); j++) {
            Sym from = syms.get(args.get(j));
            if (from == null) throw new Unsupported("call argument " + args.get(j));
            Sym to = ps.get(f.params.get(j).name);
            site[i++] = (int) from.offset;
            site[i++] = (int) to.offset;
            site[i++] = Math.min(from.size, to.size);
        }
        site[i++] = rets.size();
        for (int j = 0; j < rets.size(); j++) {
            Sym to = syms.get(rets.get(j));
            if (to == null) throw new Unsupported("call result " + rets.get(j));
            Sym from = ps.get(f.rets.get(j).name);
            site[i++] = (int) from.offset;
            site[i++] = (int) to.offset;
            site[i++] = Math.min(from.size, to.size);
        }
        callSites.add(site);
        callFixups.add(new Object[] {callSites.size() - 1, callee});
        emit(Op.CALL, 0, 0, 0, 0, 0, callSites.size() - 1, null);
    }

    void shfl(Insn in) {
        List<String> o = in.operands;
        String mode = null;
        for (String m : in.mods)
            if (m.equals("up") || m.equals("down") || m.equals("bfly") || m.equals("idx")) mode = m;
        if (mode == null) throw new Unsupported("shfl mode");
        String dd = o.get(0).trim();
        int d, pq = -1;
        if (dd.contains("|")) {
            String[] two = dd.split("\\|");
            d = reg(two[0]);
            pq = reg(two[1]);
        } else d = reg(dd);
        int modeCode = List.of("up", "down", "bfly", "idx").indexOf(mode);
        int[] v = {src(o.get(3), "b32"), pq, o.size() > 4 ? src(o.get(4), "b32") : constant(-1)};
        emit(Op.SHFL, d, src(o.get(1), "b32"), src(o.get(2), "b32"), 0, modeCode, 0, v);
    }

    static final java.util.regex.Pattern TEX_OPERANDS = java.util.regex.Pattern.compile(
            "^\\{([^}]*)\\}\\s*,\\s*\\[\\s*([^,\\s]+)\\s*,\\s*\\[?\\s*\\{([^}]*)\\}\\s*\\]?\\s*\\]$");
    static final List<String> TEX_GEOMETRIES = List.of("1d", "2d", "3d", "a1d", "a2d");

    /**
     * tex.{1d,2d,3d,a1d,a2d}.v4.{f32,s32,u32}.{f32,s32} of a texture object (its 64-bit handle in a register): the
     * sample of {@link Texture}; v holds the four destinations then the four coordinates (-1 where absent).
     */
    void tex(Insn in) {
        for (String m : in.mods)
            if (m.equals("level")
                    || m.equals("grad")
                    || m.equals("base")
                    || m.equals("cube")
                    || m.equals("acube")
                    || m.equals("2dms")
                    || m.equals("a2dms"))
                throw new Unsupported("texture access tex." + String.join(".", in.mods) + " (only tex.1d/2d/3d and"
                        + " the layered a1d/a2d forms without level, gradient or depth compare)");
        String geom = null;
        for (String m : in.mods) if (TEX_GEOMETRIES.contains(m)) geom = m;
        List<String> ts = types(in);
        if (geom == null || !in.has("v4") || ts.size() != 2)
            throw new Unsupported("texture access tex." + String.join(".", in.mods));
        String dt = ts.get(0), ct = ts.get(1);
        if (!List.of("f32", "s32", "u32").contains(dt) || !List.of("f32", "s32").contains(ct))
            throw new Unsupported("texture access tex." + String.join(".", in.mods));
        java.util.regex.Matcher mt =
                TEX_OPERANDS.matcher(String.join(", ", in.operands).trim());
        if (!mt.matches()) throw new Unsupported("texture access with operands " + in.operands);
        String handle = mt.group(2);
        if (!isReg(handle))
            throw new Unsupported("texture reference " + handle + " (a .texref bound by host code; texture objects are"
                    + " read from recordings)");
        String[] ds = mt.group(1).split(","), cs = mt.group(3).split(",");
        int[] v = new int[8];
        java.util.Arrays.fill(v, -1);
        List<int[]> widen = new ArrayList<>();
        for (int k = 0; k < 4 && k < ds.length; k++) {
            String r = ds[k].trim();
            if (r.equals("_") || r.isEmpty()) continue;
            int d = reg(r);
            if (dt.equals("f32") && wide(d)) {
                int tmp = scratch();
                widen.add(new int[] {d, tmp});
                d = tmp;
            }
            v[k] = d;
        }
        for (int k = 0; k < 4 && k < cs.length; k++) {
            String c = cs[k].trim();
            if (c.equals("_") || c.isEmpty()) continue;
            boolean layerIndex = geom.startsWith("a") && k == 0;
            v[4 + k] = !layerIndex && ct.equals("f32") ? srcNarrow(c) : src(c, "b32");
        }
        long x = TEX_GEOMETRIES.indexOf(geom) | (dt.equals("f32") ? 16 : 0) | (ct.equals("f32") ? 32 : 0);
        emit(Op.TEX, 0, reg(handle), 0, 0, x, 0, v);
        for (int[] w : widen) emitPost(false, Op.WIDEN, w[0], w[1]);
    }

    void vote(Insn in) {
        List<String> o = in.operands;
        String mode = null;
        for (String m : in.mods)
            if (m.equals("all") || m.equals("any") || m.equals("uni") || m.equals("ballot")) mode = m;
        if (mode == null) throw new Unsupported("vote mode");
        int code = List.of("all", "any", "uni", "ballot").indexOf(mode);
        String s = o.get(1).trim();
        boolean neg = s.startsWith("!");
        int a = reg(neg ? s.substring(1) : s);
        emit(Op.VOTE, reg(o.get(0)), a, 0, 0, code | (neg ? 8 : 0), 0, null);
    }

    static String calleeName(Insn in) {
        for (String o : in.operands) {
            String t = o.trim();
            if (!t.startsWith("(") && !t.isEmpty()) {
                if (t.startsWith("%")) throw new Unsupported("indirect call: " + in.text);
                return t;
            }
        }
        throw new Unsupported("cannot read call: " + in.text);
    }
}
