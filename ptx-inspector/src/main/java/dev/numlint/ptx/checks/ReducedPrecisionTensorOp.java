package dev.numlint.ptx.checks;

import com.google.auto.service.AutoService;
import dev.numlint.model.Confidence;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.rules.PtxHit;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL012 in PTX: f32 data rounded to TF32, FP16 or BF16 for tensor-core math: every {@code cvt.rna.tf32.f32}, and
 * {@code wmma.mma}/{@code mma} with .tf32/.f16/.bf16 operands whose inputs were converted from f32 in the function
 * ({@code cvt.rn.f16.f32}, {@code cvt.rn.bf16.f32}, {@code cvt.rna.tf32.f32}, or {@code wmma.load} of .tf32). Data
 * that is half precision in memory to begin with is not flagged.
 */
@AutoService(PtxCheck.class)
public final class ReducedPrecisionTensorOp implements PtxCheck {
    @Override
    public String ruleId() {
        return "NL012";
    }

    @Override
    public void check(PtxFacts facts, Consumer<PtxHit> out) {
        // the first f32 -> f16/bf16 conversion in program order: a conversion after every product (of the
        // results, for output) does not feed the tensor cores
        int f16FromF32 = Integer.MAX_VALUE;
        int bf16FromF32 = Integer.MAX_VALUE;
        int at = -1;
        for (Instruction in : facts.function().instructions()) {
            at++;
            if (in.opcode().equals("cvt")
                    && in.types().size() == 2
                    && "f32".equals(in.types().get(1))) {
                String dst = in.types().get(0);
                if (dst.equals("tf32")) {
                    out.accept(hit(facts, in, "TF32", 10, 11, "cvt-tf32"));
                } else if (dst.startsWith("f16")) {
                    f16FromF32 = Math.min(f16FromF32, at);
                } else if (dst.startsWith("bf16")) {
                    bf16FromF32 = Math.min(bf16FromF32, at);
                }
            }
        }
        at = -1;
        for (Instruction in : facts.function().instructions()) {
            at++;
            String op = in.opcode();
            if (!op.equals("mma") && !(op.equals("wmma") && in.has("mma"))) {
                continue;
            }
            if (in.has("tf32") && !tf32Converted(facts)) {
                out.accept(hit(facts, in, "TF32", 10, 11, "mma-tf32"));
            } else if (in.has("tf32")) {
                continue; // the cvt.rna.tf32.f32 feeding it is the finding
            } else if ((in.has("f16") || in.modifiers().stream().anyMatch(m -> m.startsWith("f16")) || implicitF16(in))
                    && f16FromF32 < at) {
                out.accept(hit(facts, in, "FP16", 10, 11, "mma-f16"));
            } else if (in.has("bf16") && bf16FromF32 < at) {
                out.accept(hit(facts, in, "BF16", 7, 8, "mma-bf16"));
            }
        }
    }

    /**
     * {@code wmma.mma} with half operands names no A/B type ({@code wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32}:
     * only the D and C types): the operands are .f16 unless another A/B type is named.
     */
    private static boolean implicitF16(Instruction in) {
        if (!in.opcode().equals("wmma")) return false;
        for (String t : List.of("bf16", "tf32", "f64", "s8", "u8", "s4", "u4", "b1", "e4m3", "e5m2")) {
            if (in.has(t)) return false;
        }
        return true;
    }

    private static boolean tf32Converted(PtxFacts facts) {
        for (Instruction in : facts.function().instructions()) {
            if (in.opcode().equals("cvt")
                    && in.types().size() == 2
                    && "tf32".equals(in.types().get(0))) {
                return true;
            }
        }
        return false;
    }

    private PtxHit hit(PtxFacts facts, Instruction in, String format, int bits, int exp, String shape) {
        return new PtxHit(
                ruleId(),
                facts.function(),
                in,
                PtxMessages.message(
                        ruleId(), "ptx-tensor", "instr", in.text(), "format", format, "bits", bits, "exp", exp),
                Confidence.HIGH,
                List.of(),
                shape,
                null,
                List.of(),
                // one reduced format of one kernel is one decision (merged with the source layer's fragments)
                "2^-" + exp);
    }
}
