package dev.numlint.model;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * An arithmetic operation a finding's code performs, as the two CUDA layers name it: a source expression spells it
 * ({@code __expf}, {@code /}, {@code __fdividef}), a PTX instruction computes it ({@code ex2.approx.f32},
 * {@code div.full.f32}). The scan matches a PTX finding to the source finding on its line that performs the same
 * operation ({@link Identity#operations}).
 */
public enum Operation {
    EXP("exp"),
    POW("pow"),
    LOG("log"),
    SIN("sin"),
    COS("cos"),
    /** A division written with the operator. */
    DIVISION("/"),
    /** A division written as a call ({@code __fdividef}, {@code __fdiv_rn}). */
    DIVIDE_CALL("div"),
    RCP("rcp"),
    SQRT("sqrt"),
    RSQRT("rsqrt"),
    TANH("tanh");

    private final String spelling;

    Operation(String spelling) {
        this.spelling = spelling;
    }

    /** The operations a source expression spells: each whose name (or operator) it contains, case aside. */
    public static Set<Operation> spelledIn(String expression) {
        Set<Operation> out = EnumSet.noneOf(Operation.class);
        if (expression == null) {
            return out;
        }
        String e = expression.toLowerCase(Locale.ROOT);
        for (Operation o : values()) {
            if (e.contains(o.spelling)) {
                out.add(o);
            }
        }
        return out;
    }

    /**
     * The source operations a PTX opcode (the mnemonic before its first modifier) may compute: {@code ex2} is an
     * exponential or a power, {@code rcp} a reciprocal call or a division; empty for other opcodes.
     */
    public static Set<Operation> computedBy(String opcode) {
        return switch (opcode == null ? "" : opcode) {
            case "ex2" -> EnumSet.of(EXP, POW);
            case "lg2" -> EnumSet.of(LOG, POW);
            case "sin" -> EnumSet.of(SIN);
            case "cos" -> EnumSet.of(COS);
            case "div" -> EnumSet.of(DIVISION, DIVIDE_CALL);
            case "rcp" -> EnumSet.of(RCP, DIVISION);
            case "sqrt" -> EnumSet.of(SQRT);
            case "rsqrt" -> EnumSet.of(RSQRT);
            case "tanh" -> EnumSet.of(TANH);
            default -> EnumSet.noneOf(Operation.class);
        };
    }
}
