package dev.numlint.ptx.facts;

import dev.numlint.ptx.model.BasicBlock;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.model.PtxFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * The bounds the branches every path to an instruction takes put on a register: a block that ends in
 * {@code @%p bra} and whose fall-through (or target) is entered only from it and dominates the instruction tells
 * whether {@code %p} holds there. The predicate is a comparison with a constant ({@code setp.lt.f32 %p, %f18, 0f0}),
 * or several joined by {@code or.pred} (all false on the way), {@code and.pred} (all true) or {@code not.pred}: an
 * early return under {@code x < 0 || y < 0 || x >= 16}.
 *
 * <p>The compared register need not be the value asked about: a comparison bounds the value it was converted from
 * or to ({@code cvt.rzi.s32.f32}, {@code cvt.rn.f32.s32}: {@code float3(int3(p))} tested as a float, or tested on
 * the int after the compiler folded {@code (float) i < 0} into {@code i < 0}), and the operands of an {@code or.b32}
 * whose result is tested non-negative ({@code (a | b | c) < 0}, the compiler's form of {@code a < 0 || b < 0 || c <
 * 0}) or of a {@code min}/{@code max} it bounds. Every link is the same value (one definition reaching both the
 * comparison and the instruction). A NaN passes such tests, as the source layer's guards take it.
 */
final class BranchGuards {
    private static final double INF = Double.POSITIVE_INFINITY;
    /** The most dominating blocks a branch guard is looked for in. */
    private static final int MAX_GUARDS = 32;
    /** How far a predicate, a compared register or the asked value is followed through its definitions. */
    private static final int MAX_LINKS = 6;

    private final PtxFacts facts;

    BranchGuards(PtxFacts facts) {
        this.facts = facts;
    }

    /** A register with its one reaching definition, the values it is read as ({@code f}, {@code s32}, {@code u32}). */
    private record Node(String reg, int def, String space) {}

    /** A value the asked register is computed from through {@code path} (its conversions, the asked register's first). */
    private record Origin(Node node, List<Instruction> path) {}

    /** A bound on a register's value, read as {@code space}. */
    private record Bound(Node node, double lo, double hi) {}

    /**
     * {@code r} narrowed by the branches every path to instruction {@code at} takes; {@code r} unchanged when the
     * register has more than one reaching definition or the bounds found contradict it.
     */
    double[] narrow(int at, String reg, double[] r) {
        PtxFunction fn = facts.function();
        int def = facts.defUse().uniqueDef(at, reg);
        if (def < 0) {
            return r;
        }
        String rootSpace = space(fn.instruction(def).type());
        List<Origin> origins = origins(new Node(reg, def, rootSpace == null ? "f" : rootSpace));
        int target = fn.blockOf(at).index();
        int[] idom = fn.immediateDominators();
        double lo = r[0];
        double hi = r[1];
        int d = target < idom.length ? idom[target] : -1;
        for (int n = 0; d >= 0 && n < MAX_GUARDS; d = idom[d], n++) {
            BasicBlock b = fn.blocks().get(d);
            Instruction br = fn.instruction(b.last());
            if (!br.opcode().equals("bra")
                    || br.guard() == null
                    || b.successors().size() != 2) {
                continue;
            }
            int taken = -1;
            for (Operand o : br.operands()) {
                if (o instanceof Operand.Label l && l.target() >= 0) {
                    taken = fn.blockOf(l.target()).index();
                }
            }
            Boolean holds = null; // whether the guard predicate is true on the way to at
            for (int s : b.successors()) {
                if (fn.blocks().get(s).predecessors().size() == 1 && fn.dominates(s, target)) {
                    holds = (s == taken) != br.guardNegated();
                }
            }
            if (holds == null) {
                continue;
            }
            List<Bound> bounds = new ArrayList<>();
            comparisons(br.index(), br.guard().name(), holds, 0, bounds);
            for (Bound g : bounds) {
                for (Origin o : origins) {
                    if (!o.node().reg().equals(g.node().reg())
                            || o.node().def() != g.node().def()) {
                        continue;
                    }
                    double[] x = reinterpret(
                            new double[] {g.lo(), g.hi()},
                            g.node().space(),
                            o.node().space());
                    String space = o.node().space();
                    for (int k = o.path().size() - 1; k >= 0 && x != null; k--) {
                        Instruction cvt = o.path().get(k);
                        x = Conversions.forward(cvt, reinterpret(x, space, space(cvt.sourceType())));
                        space = space(cvt.type());
                    }
                    if (x != null) {
                        lo = Math.max(lo, x[0]);
                        hi = Math.min(hi, x[1]);
                    }
                }
            }
        }
        return lo <= hi ? new double[] {lo, hi} : r;
    }

    /** The asked register and what it is converted or copied from, each with its one reaching definition. */
    private List<Origin> origins(Node root) {
        List<Origin> out = new ArrayList<>();
        out.add(new Origin(root, List.of()));
        Origin o = out.get(0);
        for (int n = 0; n < MAX_LINKS; n++) {
            Instruction d = facts.function().instruction(o.node().def());
            if (d.operands().size() != 2 || !(d.operand(1) instanceof Operand.Reg src)) {
                break;
            }
            int sd = facts.defUse().uniqueDef(d.index(), src.name());
            if (sd < 0) {
                break;
            }
            if (d.opcode().equals("mov") && d.types().size() == 1 && space(d.type()) != null) {
                o = new Origin(new Node(src.name(), sd, o.node().space()), o.path());
            } else if (d.opcode().equals("cvt") && d.types().size() == 2 && space(d.sourceType()) != null) {
                List<Instruction> path = new ArrayList<>(o.path());
                path.add(d);
                o = new Origin(new Node(src.name(), sd, space(d.sourceType())), List.copyOf(path));
            } else {
                break;
            }
            out.add(o);
        }
        return out;
    }

    /** The comparisons that predicate {@code pred}, read at {@code at}, being {@code holds} implies, as bounds. */
    private void comparisons(int at, String pred, boolean holds, int depth, List<Bound> out) {
        int p = facts.defUse().uniqueDef(at, pred);
        if (p < 0 || depth > MAX_LINKS) {
            return;
        }
        Instruction d = facts.function().instruction(p);
        switch (d.opcode()) {
            case "setp" -> compared(d, holds, out);
            case "not" -> {
                if (d.operand(1) instanceof Operand.Reg a) {
                    comparisons(p, a.name(), !holds, depth + 1, out);
                }
            }
            case "or", "and" -> {
                // a disjunction that is false, a conjunction that is true: each of its terms is
                if (d.operands().size() == 3 && holds == d.opcode().equals("and")) {
                    for (int k = 1; k <= 2; k++) {
                        if (d.operand(k) instanceof Operand.Reg a) {
                            comparisons(p, a.name(), holds, depth + 1, out);
                        }
                    }
                }
            }
            default -> {}
        }
    }

    /** The bounds {@code setp} being {@code holds} puts on its register operands compared with a constant. */
    private void compared(Instruction setp, boolean holds, List<Bound> out) {
        String space = space(setp.sourceType());
        if (setp.operands().size() != 3 || setp.compare() == null || space == null) {
            return;
        }
        boolean integer = !space.equals("f");
        for (int k = 1; k <= 2; k++) {
            if (!(setp.operand(k) instanceof Operand.Reg x)) {
                continue;
            }
            double c = facts.constantValue(setp, setp.operand(3 - k));
            int def = facts.defUse().uniqueDef(setp.index(), x.name());
            if (Double.isNaN(c) || def < 0) {
                continue;
            }
            String cmp = relation(setp.compare(), k == 2, holds);
            double lo = -INF;
            double hi = INF;
            switch (cmp) {
                case "lt" -> hi = integer ? c - 1 : c;
                case "le" -> hi = c;
                case "gt" -> lo = integer ? c + 1 : c;
                case "ge" -> lo = c;
                case "eq" -> {
                    lo = c;
                    hi = c;
                }
                default -> {
                    continue;
                }
            }
            split(new Bound(new Node(x.name(), def, space), lo, hi), 0, out);
        }
    }

    /**
     * The relation that holds with the register (operand {@code right ? 2 : 1}) on the left: {@code 0 < r} is
     * {@code r > 0}; a predicate that is false gives the negated relation. The unordered forms ({@code ltu}) are
     * taken as the ordered ones, the unsigned ones ({@code lo}, {@code hs}) as the plain ones (the space says how
     * the register is read); {@code ne} holding and {@code eq} failing give no bound.
     */
    private static String relation(String compare, boolean right, boolean holds) {
        String cmp =
                switch (compare) {
                    case "ltu", "lo" -> "lt";
                    case "leu", "ls" -> "le";
                    case "gtu", "hi" -> "gt";
                    case "geu", "hs" -> "ge";
                    case "equ" -> "eq";
                    case "neu" -> "ne";
                    default -> compare;
                };
        if (right) {
            cmp = switch (cmp) {
                case "lt" -> "gt";
                case "le" -> "ge";
                case "gt" -> "lt";
                case "ge" -> "le";
                default -> cmp;
            };
        }
        if (!holds) {
            cmp = switch (cmp) {
                case "lt" -> "ge";
                case "le" -> "gt";
                case "gt" -> "le";
                case "ge" -> "lt";
                case "eq" -> "ne";
                case "ne" -> "eq";
                default -> "";
            };
        }
        return cmp;
    }

    /**
     * A bound on a register, and the bounds it implies on what the register is computed from: the operands of an
     * {@code or} (a non-negative result has non-negative operands, none above it), of a {@code min} bounded below or
     * a {@code max} bounded above, and the operand of a conversion (through the conversion's inverse) or a copy.
     */
    private void split(Bound b, int depth, List<Bound> out) {
        out.add(b);
        if (depth >= MAX_LINKS) {
            return;
        }
        Instruction d = facts.function().instruction(b.node().def());
        String op = d.opcode();
        if ((op.equals("or") || op.equals("min") || op.equals("max"))
                && d.operands().size() == 3) {
            String space = op.equals("or") ? b.node().space() : space(d.type());
            double[] x;
            if (op.equals("or")) {
                // the bits of a non-negative result: each operand is non-negative and no greater (a | b >= a)
                boolean signed = space.startsWith("s");
                x = space.equals("f") || bits(d.type()) != Integer.parseInt(space.substring(1)) || signed && b.lo() < 0
                        ? null
                        : new double[] {0, b.hi()};
            } else {
                x = op.equals("min") ? new double[] {b.lo(), INF} : new double[] {-INF, b.hi()};
                x = reinterpret(x, b.node().space(), space);
            }
            if (x == null) {
                return;
            }
            for (int k = 1; k <= 2; k++) {
                if (d.operand(k) instanceof Operand.Reg a) {
                    int ad = facts.defUse().uniqueDef(d.index(), a.name());
                    if (ad >= 0) {
                        split(new Bound(new Node(a.name(), ad, space), x[0], x[1]), depth + 1, out);
                    }
                }
            }
        } else if (op.equals("and") && d.operands().size() == 3 && b.lo() == 0 && b.hi() == 0) {
            // (a & mask) == 0, the compiler's form of 0 <= a < 64 ('a & -64'): a has none of the mask's bits
            int bits = bits(d.type());
            for (int k = 1; k <= 2 && bits > 0 && !b.node().space().equals("f"); k++) {
                double m = facts.constantValue(d, d.operand(3 - k));
                if (d.operand(k) instanceof Operand.Reg a && !Double.isNaN(m)) {
                    int ad = facts.defUse().uniqueDef(d.index(), a.name());
                    long rest = ~(long) m & (bits == 64 ? -1L : (1L << bits) - 1);
                    double max = rest >= 0 ? (double) rest : (double) (rest >>> 1) * 2;
                    if (ad >= 0) {
                        split(new Bound(new Node(a.name(), ad, "u" + bits), 0, max), depth + 1, out);
                    }
                }
            }
        } else if ((op.equals("cvt") || op.equals("mov"))
                && d.operands().size() == 2
                && d.operand(1) instanceof Operand.Reg a) {
            int ad = facts.defUse().uniqueDef(d.index(), a.name());
            String space = op.equals("cvt") ? space(d.sourceType()) : b.node().space();
            if (ad < 0 || space == null || (op.equals("mov") && space(d.type()) == null)) {
                return;
            }
            double[] x = op.equals("cvt")
                    ? Conversions.inverse(
                            d,
                            reinterpret(new double[] {b.lo(), b.hi()}, b.node().space(), space(d.type())))
                    : new double[] {b.lo(), b.hi()};
            if (x != null) {
                split(new Bound(new Node(a.name(), ad, space), x[0], x[1]), depth + 1, out);
            }
        }
    }

    /**
     * A bound on a value read as {@code from} as a bound on the same bits read as {@code to}, or null when it says
     * nothing there: a signed bound that excludes negative values is the same unsigned, an unsigned bound below
     * 2^(bits-1) the same signed; floats of either width are the same numbers.
     */
    static double[] reinterpret(double[] x, String from, String to) {
        if (x == null || from == null || to == null || from.equals(to)) {
            return from == null || to == null ? null : x;
        }
        boolean fromFloat = from.equals("f");
        boolean toFloat = to.equals("f");
        if (fromFloat || toFloat) {
            return null;
        }
        int bits = Integer.parseInt(to.substring(1));
        if (Integer.parseInt(from.substring(1)) != bits) {
            return null;
        }
        if (from.startsWith("s")) { // to unsigned
            return x[0] >= 0 ? x : null;
        }
        double half = Math.scalb(1.0, bits - 1);
        return x[1] < half ? new double[] {Math.max(0, x[0]), x[1]} : null;
    }

    /** The reading of a PTX type as values: {@code f} (any float), {@code s32}, {@code u16}...; null otherwise. */
    static String space(String type) {
        if (type == null) {
            return null;
        }
        if (PtxFacts.isAnyFloat(type)) {
            return "f";
        }
        if (type.matches("[su](8|16|32|64)")) {
            return type;
        }
        return null;
    }

    /** The width of an integer or bit type ({@code b32}: 32), 0 for any other. */
    private static int bits(String type) {
        return type != null && type.matches("[bsu](8|16|32|64)") ? Integer.parseInt(type.substring(1)) : 0;
    }
}
