package dev.numlint.ptx;

import dev.numlint.model.Layer;
import dev.numlint.model.Location;
import dev.numlint.model.UnitArithmetic;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.model.PtxModule;
import dev.numlint.ptx.model.SourcePos;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Whether the PTX of one unit computes in single precision ({@link ScanContext#addUnitArithmetic}): the first
 * instruction with an {@code f32} type that computes, compares or converts (arithmetic, {@code setp}, {@code cvt}),
 * the instructions nvcc's fast-math flags change (approximate division, square root and transcendentals; FTZ for
 * every f32 operation). Loads, stores, moves and selects of a float change nothing and do not count; nor do atomics,
 * whose f32 forms flush subnormals under every flag. Every function of the module counts, the math library's own
 * included (a float library routine is float code the flag may change).
 */
final class UnitFloatOps {
    private UnitFloatOps() {}

    /** Opcodes that carry an f32 value without computing with it. */
    private static final Set<String> MOVES =
            Set.of("ld", "ldu", "st", "mov", "shfl", "selp", "prmt", "cvta", "atom", "red", "tex", "suld", "sust");

    /** Gives {@code ctx} the fact of the unit {@code cuFile} compiled to {@code m}. */
    static void report(ScanContext ctx, Path cuFile, PtxModule m, Map<Integer, Path> fileIndex) {
        if (cuFile == null) return; // a scanned .ptx file: no build flag of the scan compiled it
        Instruction first = first(m);
        Location at = null;
        if (first != null && first.loc() != null) {
            SourcePos p = PtxFindings.writtenPos(first.loc(), m.files());
            Path f = p == null ? null : fileIndex.get(p.fileIndex());
            if (f != null && p.line() > 0) at = Location.line(ctx.relativize(f), p.line());
        }
        ctx.addUnitArithmetic(
                new UnitArithmetic(ctx.relativize(cuFile), Layer.PTX, first == null ? null : first.text(), at));
    }

    /** The first single-precision operation of {@code m}, or null when it has none. */
    static Instruction first(PtxModule m) {
        for (PtxFunction fn : m.definedFunctions()) {
            for (Instruction in : fn.instructions()) {
                if (single(in)) return in;
            }
        }
        return null;
    }

    /** An instruction that computes, compares or converts an f32 (or f16x2-free f32) value. */
    static boolean single(Instruction in) {
        return in.types().contains("f32") && !MOVES.contains(in.opcode());
    }
}
