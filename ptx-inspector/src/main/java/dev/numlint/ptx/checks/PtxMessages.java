package dev.numlint.ptx.checks;

import dev.numlint.rules.Quote;
import dev.numlint.rules.RuleCatalog;
import java.util.Set;

/**
 * Message templates of the PTX layer: catalog keys {@code ptx-*} of each rule. The instructions a message quotes
 * (placeholders {@code instr}, {@code mul}, {@code cvt}) are shortened as every layer quotes code
 * ({@link Quote#instruction}); the instructions a message names beside it ({@code add}, {@code arith},
 * {@code back}) by their opcode and destination ({@link Quote#instructionHead}). The full instructions are the
 * finding's evidence.
 */
final class PtxMessages {
    private static final Set<String> INSTRUCTIONS = Set.of("instr", "mul", "cvt");
    private static final Set<String> BESIDE = Set.of("add", "arith", "back");

    private PtxMessages() {}

    static String format(String ruleId, String key, Object... args) {
        Object[] quoted = args.clone();
        for (int i = 0; i + 1 < quoted.length; i += 2) {
            if (INSTRUCTIONS.contains(String.valueOf(quoted[i])) && quoted[i + 1] != null) {
                quoted[i + 1] = Quote.instruction(quoted[i + 1].toString());
            } else if (BESIDE.contains(String.valueOf(quoted[i])) && quoted[i + 1] != null) {
                quoted[i + 1] = Quote.instructionHead(quoted[i + 1].toString());
            }
        }
        return RuleCatalog.get().rule(ruleId).message(key, quoted);
    }
}
