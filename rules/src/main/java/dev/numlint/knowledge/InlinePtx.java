package dev.numlint.knowledge;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Approximate PTX instructions written by hand in a CUDA {@code asm("...")} statement (session 35: a vector-math
 * library's {@code ex2.approx.f32} and {@code tanh.approx.f32} in templates no compiled unit instantiates, so the PTX
 * layer never sees them): the source front ends read the statement's string literals and name each approximate
 * floating-point instruction, as they name the approximate intrinsics ({@code __expf}). What PTX computes for each is
 * the PTX layer's knowledge ({@code ApproximateMathInstruction}, {@code ApproximateDivision}); this is the reading of
 * the instruction's name in a string, nothing more.
 */
public final class InlinePtx {
    private InlinePtx() {}

    /** An approximate instruction in an asm statement: its name as written, and what the CPU computes instead. */
    public record Instruction(String name, String cpu, boolean division) {}

    /** The math instructions whose {@code .approx} form is approximate, with the CPU function each stands for. */
    private static final Map<String, String> MATH = Map.of(
            "sin", "sinf",
            "cos", "cosf",
            "ex2", "exp2f",
            "lg2", "log2f",
            "sqrt", "sqrtf",
            "rsqrt", "1/sqrtf",
            "tanh", "tanhf");

    /**
     * The PTX math instructions whose {@code .approx} form is a fast approximation, the one list of them: the PTX
     * layer's {@code ApproximateMathInstruction} reads compiled PTX with it, the source front ends asm strings.
     */
    public static final java.util.Set<String> APPROXIMATE_MATH = MATH.keySet();

    /** A string literal of the statement (a C string, escapes kept). */
    private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");

    /** An instruction: an optional guard predicate, then the dotted opcode. */
    private static final Pattern OPCODE = Pattern.compile("^(?:@!?%?\\w+\\s+)?([a-z][a-z0-9]*(?:\\.[a-z0-9]+)+)");

    /**
     * The approximate floating-point instructions of an asm statement written as {@code text} (the statement's source,
     * {@code asm volatile("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x))}), in order, each once per occurrence.
     */
    public static List<Instruction> approximate(String text) {
        List<Instruction> out = new ArrayList<>();
        if (text == null) return out;
        StringBuilder code = new StringBuilder();
        Matcher m = STRING.matcher(text);
        while (m.find())
            code.append(m.group(1).replace("\\n", "\n").replace("\\t", " ")).append('\n');
        for (String part : code.toString().split("[;\\n{}]")) {
            Matcher op = OPCODE.matcher(part.trim());
            if (!op.find()) continue;
            Instruction in = classify(op.group(1).toLowerCase(Locale.ROOT));
            if (in != null) out.add(in);
        }
        return out;
    }

    /** What an opcode ({@code ex2.approx.ftz.f32}) is, or null when it is exact or not floating point. */
    static Instruction classify(String opcode) {
        String[] parts = opcode.split("\\.");
        String base = parts[0];
        boolean approx = false;
        boolean full = false;
        String type = null;
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i];
            if (p.equals("approx")) approx = true;
            else if (p.equals("full")) full = true;
            else if (p.startsWith("f") || p.startsWith("bf")) type = p;
        }
        if (type == null || !(type.equals("f32") || type.startsWith("f16") || type.startsWith("bf16"))) {
            // rcp.approx.ftz.f64 and rsqrt.approx.f64 are approximate in double too
            if (!((base.equals("rcp") || base.equals("rsqrt")) && approx && "f64".equals(type))) return null;
        }
        if (base.equals("div") && (approx || full)) return new Instruction(opcode, "x/y", true);
        if (base.equals("rcp") && approx) return new Instruction(opcode, "1/x", true);
        if (approx && MATH.containsKey(base)) {
            String cpu = MATH.get(base);
            return new Instruction(opcode, "f64".equals(type) ? cpu.substring(0, cpu.length() - 1) : cpu, false);
        }
        return null;
    }

    /** What the CPU computes for the approximate instruction {@code opcode} ({@code exp2f}), or null. */
    public static String cpu(String opcode) {
        Instruction in = opcode == null ? null : classify(opcode.toLowerCase(Locale.ROOT));
        return in == null ? null : in.cpu();
    }
}
