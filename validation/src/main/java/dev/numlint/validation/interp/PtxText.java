package dev.numlint.validation.interp;

import java.util.ArrayList;
import java.util.List;

/**
 * The statement list the {@link Decoder} compiles, as {@link PtxModelAdapter} builds it from ptx-inspector's PTX
 * model (the only PTX reader): module variables (.global/.const/.shared with initializers), functions with their
 * parameters, register/local/shared/param declarations, labels and instructions with guards, modifiers, operands,
 * PTX line and source position, and the contractions ptxas applies.
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
        /** ptx-inspector's model this was built from (for the scan's PTX rules and the contraction model). */
        public dev.numlint.ptx.model.PtxModule source;

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
    public record Fuse(String pa, String pb, String other, boolean negateProduct, boolean negateOther, int mulLine) {}

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
}
