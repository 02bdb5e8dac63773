package dev.numlint.ptx.rules;

import dev.numlint.rules.Quote;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * A PTX check's message, typed: the rule, the catalog template key ({@code ptx-*}) and its arguments (placeholder
 * name, value, ...). The message is rendered from them ({@link #text}); so is the hazard independently of the build
 * that compiled it ({@link #withoutInstructions}: the same template with the instructions it quotes left empty, so that
 * {@code add.rn.f32} and {@code add.rn.ftz.f32} of two builds are one hazard). The instructions a message quotes
 * (placeholders {@code instr}, {@code mul}, {@code cvt}) are shortened as every layer quotes code
 * ({@link Quote#instruction}); the instructions it names beside it ({@code add}, {@code arith}, {@code back}, {@code load}) by their
 * opcode and destination ({@link Quote#instructionHead}). The full instructions are the finding's evidence.
 */
public record PtxMessage(String ruleId, String key, List<Object> args) {
    private static final Set<String> INSTRUCTIONS = Set.of("instr", "mul", "cvt");
    private static final Set<String> BESIDE = Set.of("add", "arith", "back", "load");

    public PtxMessage {
        args = Collections.unmodifiableList(new ArrayList<>(args)); // a value may be null
    }

    /** The message of {@code ruleId}'s template {@code key} with {@code args} (placeholder name, value, ...). */
    public static PtxMessage of(String ruleId, String key, Object... args) {
        return new PtxMessage(ruleId, key, Arrays.asList(args));
    }

    /** The message as the finding states it. */
    public String text() {
        return render(false);
    }

    /** The message with the instructions it quotes or names left empty: the hazard whatever the build. */
    public String withoutInstructions() {
        return render(true);
    }

    private String render(boolean blank) {
        Object[] quoted = args.toArray();
        for (int i = 0; i + 1 < quoted.length; i += 2) {
            String name = String.valueOf(quoted[i]);
            boolean instruction = INSTRUCTIONS.contains(name);
            if ((instruction || BESIDE.contains(name)) && quoted[i + 1] != null) {
                String in = quoted[i + 1].toString();
                quoted[i + 1] = blank ? "" : instruction ? Quote.instruction(in) : Quote.instructionHead(in);
            }
        }
        return RuleCatalog.get().rule(ruleId).message(key, quoted);
    }
}
