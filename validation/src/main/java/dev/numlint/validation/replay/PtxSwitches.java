package dev.numlint.validation.replay;

import dev.numlint.validation.interp.Decoder;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PTX-level strictness switches of {@link Decoder.Options} written into PTX text, so that the GPU's driver
 * (its PTX JIT) runs the same build the interpreter runs with those options: unfuseFma turns {@code fma/mad.rn}
 * of f32 and f64 into {@code mul.rn} + {@code add.rn} and gives every plain {@code mul/add/sub} of f32 and f64 a
 * {@code .rn} (PTX without a rounding modifier lets ptxas contract a multiply and an add; with one it may not,
 * which is what the interpreter models when unfuseFma is on); exactDiv turns {@code div.approx/div.full} and
 * {@code rcp.approx} of f32 (and {@code rcp.approx} of f64) into {@code .rn}; exactSqrt turns
 * {@code sqrt.approx.f32} into {@code sqrt.rn.f32}; noFtz drops {@code .ftz} (except where PTX has no form without
 * it: bf16 approximations, {@code rcp/rsqrt.approx.ftz.f64}). One instruction per line, as nvcc
 * writes PTX; other lines are copied unchanged.
 */
public final class PtxSwitches {
    private PtxSwitches() {}

    // indentation, optional guard, opcode with its modifiers, operands, the rest of the line (a comment)
    private static final Pattern INSN =
            Pattern.compile("^(\\s*)(@!?%[A-Za-z0-9_$]+\\s+)?([a-z][a-z0-9_]*)((?:\\.[a-z0-9_]+)*)\\s+([^;{}]*);(.*)$");

    /** ptx with the switches of o that are on; the reference and host options have no text form and are ignored. */
    public static String apply(String ptx, Decoder.Options o) {
        if (!o.unfuseFma && !o.exactDiv && !o.exactSqrt && !o.noFtz) return ptx;
        String[] lines = ptx.split("\n", -1);
        StringBuilder b = new StringBuilder(ptx.length() + 1024);
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) b.append('\n');
            b.append(line(lines[i], o));
        }
        return b.toString();
    }

    static String line(String line, Decoder.Options o) {
        Matcher m = INSN.matcher(line);
        if (!m.matches()) return line;
        String indent = m.group(1), guard = m.group(2) == null ? "" : m.group(2), op = m.group(3);
        List<String> mods = new ArrayList<>();
        for (String x : m.group(4).split("\\.")) if (!x.isEmpty()) mods.add(x);
        String operands = m.group(5).trim(), rest = m.group(6);
        boolean f32 = mods.contains("f32"), f64 = mods.contains("f64");
        List<String> before = List.copyOf(mods);
        // the forms that exist only with .ftz (bf16 approximations, rcp/rsqrt.approx of f64) keep it
        boolean ftzOnly = mods.contains("bf16") || mods.contains("bf16x2") || f64 && mods.contains("approx");
        if (o.noFtz && !ftzOnly) mods.remove("ftz");
        if (o.exactDiv
                && f32
                && (op.equals("div") || op.equals("rcp"))
                && (mods.remove("approx") | mods.remove("full"))) mods.add(0, "rn");
        if (o.exactDiv && f64 && op.equals("rcp") && mods.remove("approx")) {
            mods.remove("ftz");
            mods.add(0, "rn");
        }
        if (o.exactSqrt && f32 && op.equals("sqrt") && mods.remove("approx")) mods.add(0, "rn");
        if (o.unfuseFma
                && (f32 || f64)
                && !hasRounding(mods)
                && (op.equals("mul") || op.equals("add") || op.equals("sub"))) mods.add(0, "rn");
        if (o.unfuseFma && (f32 || f64) && (op.equals("fma") || op.equals("mad")) && mods.contains("rn")) {
            String[] a = operands.split(",");
            if (a.length == 4) {
                String t = f32 ? "f32" : "f64";
                boolean ftz = mods.contains("ftz"), sat = mods.contains("sat");
                String tmp = "%nl_unfused";
                String mulMods = ".rn" + (ftz ? ".ftz" : "") + "." + t;
                String addMods = ".rn" + (ftz ? ".ftz" : "") + (sat ? ".sat" : "") + "." + t;
                return indent + "{ .reg ." + t + " " + tmp + "; " + guard + "mul" + mulMods + " " + tmp + ", "
                        + a[1].trim() + ", " + a[2].trim() + "; " + guard + "add" + addMods + " " + a[0].trim() + ", "
                        + tmp + ", " + a[3].trim() + "; }" + rest;
            }
        }
        if (mods.equals(before)) return line;
        return indent + guard + op + "." + String.join(".", mods) + " " + operands + ";" + rest;
    }

    private static boolean hasRounding(List<String> mods) {
        return mods.contains("rn") || mods.contains("rz") || mods.contains("rm") || mods.contains("rp");
    }
}
