package dev.numlint.validation.interp;

import dev.numlint.ptx.model.Contraction;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.model.Param;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.model.PtxModule;
import dev.numlint.ptx.model.RegisterDecl;
import dev.numlint.ptx.model.Variable;
import dev.numlint.ptx.parser.PtxReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Feeds the interpreter from ptx-inspector's program model ({@link PtxReader}): module variables with their
 * initial bytes, functions with parameters, register and local declarations, labels and instructions (guard,
 * opcode, modifiers, operands) become the statement list the {@link Decoder} pre-decodes.
 */
public final class PtxModelAdapter {
    private PtxModelAdapter() {}

    /** Reads PTX with ptx-inspector's reader; throws when it reports problems. */
    public static PtxText.Module read(String ptx) {
        PtxReader.Result r = PtxReader.read(ptx);
        if (r.failed()) {
            String first = r.problems().isEmpty()
                    ? "unreadable"
                    : "line " + r.problems().get(0).line() + ": "
                            + r.problems().get(0).message();
            throw new PtxText.PtxSyntaxException(first);
        }
        return from(r.module());
    }

    public static PtxText.Module from(PtxModule m) {
        PtxText.Module out = new PtxText.Module();
        out.source = m;
        for (Variable v : m.variables()) {
            if (v.elementSize() <= 0 || !Types.isType(v.type())) continue; // .texref/.samplerref: tex is not executed
            out.vars.add(var(v));
        }
        for (PtxFunction f : m.functions()) out.funcs.add(func(f));
        for (PtxFunction f : m.definedFunctions()) contractions(f, out.contractions);
        return out;
    }

    /**
     * The contractions of {@link Contraction} that the interpreter can apply exactly: the mul's source registers
     * are not redefined between the mul and the add/sub (same basic block, so the fused operation sees the values
     * the mul saw).
     */
    private static void contractions(PtxFunction f, Map<Integer, PtxText.Fuse> out) {
        for (Contraction.Fusion fu : Contraction.of(f).fusions()) {
            Instruction mul = f.instruction(fu.mul()), add = f.instruction(fu.add());
            if (!mul.opcode().equals("mul")) continue; // a div.approx product: a * rcp(b), not modelled here yet
            boolean clobbered = false;
            for (int i = fu.mul() + 1; i < fu.add() && !clobbered; i++) {
                for (String d : f.instruction(i).defs()) {
                    for (int k = 1; k <= 2; k++) {
                        if (mul.operand(k) instanceof Operand.Reg r && r.name().equals(d)) clobbered = true;
                    }
                }
            }
            if (clobbered) continue;
            out.put(
                    add.ptxLine(),
                    new PtxText.Fuse(
                            mul.operand(1).toString(),
                            mul.operand(2).toString(),
                            add.operand(3 - fu.operand()).toString(),
                            fu.negated(),
                            fu.addendNegated(),
                            mul.ptxLine()));
        }
    }

    private static PtxText.Var var(Variable v) {
        int count = v.length() < 0 ? 0 : (int) v.length();
        PtxText.Var r = new PtxText.Var(
                v.space(), v.type(), v.name(), count == 1 && v.init() == null ? 0 : count, v.align(), v.init());
        r.unsized = v.length() < 0;
        return r;
    }

    private static PtxText.Var param(Param p) {
        return new PtxText.Var("param", p.type(), p.name(), p.length() == 1 ? 0 : p.length(), p.align(), null);
    }

    private static PtxText.Func func(PtxFunction f) {
        PtxText.Func g = new PtxText.Func(f.name(), f.isEntry());
        g.line = f.ptxLine();
        for (Param p : f.params()) g.params.add(param(p));
        for (Param p : f.returnParams()) g.rets.add(param(p));
        for (String d : new String[] {"reqntid", "maxntid"}) {
            List<Long> v = f.directives().get(d);
            if (v != null && !v.isEmpty() && g.maxThreads == 0) {
                long t = 1;
                for (long x : v) t *= x;
                g.maxThreads = (int) t;
            }
        }
        if (f.isDeclarationOnly()) return g;
        List<PtxText.Stmt> body = new ArrayList<>();
        for (RegisterDecl r : f.registers()) {
            PtxText.RegDecl d = new PtxText.RegDecl(r.type(), r.prefix(), r.count() == 0 ? -1 : r.count());
            body.add(d);
        }
        List<Variable> locals = new ArrayList<>(f.locals());
        locals.sort(Comparator.comparingInt(Variable::ptxLine));
        List<List<String>> labelsAt = new ArrayList<>();
        List<Instruction> ins = f.instructions();
        for (int i = 0; i <= ins.size(); i++) labelsAt.add(new ArrayList<>());
        for (Map.Entry<String, Integer> e : f.labels().entrySet()) {
            int t = e.getValue();
            if (t >= 0 && t <= ins.size()) labelsAt.get(t).add(e.getKey());
        }
        int li = 0;
        for (int i = 0; i <= ins.size(); i++) {
            int line = i < ins.size() ? ins.get(i).ptxLine() : Integer.MAX_VALUE;
            while (li < locals.size() && locals.get(li).ptxLine() <= line) {
                PtxText.VarDecl vd = new PtxText.VarDecl(var(locals.get(li)));
                vd.line = locals.get(li).ptxLine();
                body.add(vd);
                li++;
            }
            for (String l : labelsAt.get(i)) body.add(new PtxText.Label(l));
            if (i < ins.size()) body.add(insn(ins.get(i)));
        }
        g.body = body;
        return g;
    }

    private static PtxText.Insn insn(Instruction x) {
        PtxText.Insn in = new PtxText.Insn();
        if (x.guard() != null) {
            in.guard = x.guard().toString();
            in.guardNeg = x.guardNegated();
        }
        in.opcode = x.opcode();
        in.mods = new ArrayList<>(x.modifiers());
        for (Operand o : x.operands()) in.operands.add(o.toString());
        in.text =
                x.text() == null ? x.opcode() : x.text().replaceAll("\\s+", " ").trim();
        in.line = x.ptxLine();
        if (x.loc() != null && x.loc().userPos() != null && x.loc().userPos().line() > 0)
            in.src = x.loc().userPos().toString();
        return in;
    }
}
