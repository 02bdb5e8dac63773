package dev.numlint.ptx;

import dev.numlint.ptx.model.DebugLoc;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.model.PtxModule;
import dev.numlint.ptx.model.SourcePos;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the PTX of one unit shows of its source lines ({@link ScanContext#addCompiledLines}): the lines of user code
 * that some instruction's {@code .loc} names (its own position or a call site it was inlined at), and those of them
 * that carry an FP64 instruction (any instruction with an {@code f64} type: arithmetic, a cvt to or from f64, a move,
 * a load or store of a double). An FP64 instruction without a line (nvcc hoisted it out of a loop) counts at the lines
 * of the instructions that use its value; one whose uses have no line either counts at every line of its function.
 * Toolkit and system headers and the math library's own functions are not the programmer's lines and are left out.
 */
final class CompiledLines {
    /** How far an FP64 instruction without a line is followed through other instructions without one. */
    private static final int MAX_USE_STEPS = 64;

    private final Map<Integer, Set<Integer>> code = new LinkedHashMap<>();
    private final Map<Integer, Set<Integer>> fp64 = new LinkedHashMap<>();
    private final Map<Integer, String> files;
    private final Map<Integer, Path> fileIndex;

    private CompiledLines(Map<Integer, String> files, Map<Integer, Path> fileIndex) {
        this.files = files;
        this.fileIndex = fileIndex;
    }

    /**
     * Computes the lines of {@code m} and gives them to {@code ctx}, one call per source file; then, for the PTX of a
     * unit the scan compiled ({@code unit}, else null), says that the unit's PTX was read
     * ({@link ScanContext#addPtxUnit}).
     */
    static void report(ScanContext ctx, PtxModule m, Map<Integer, Path> fileIndex, String unit) {
        CompiledLines lines = of(m, fileIndex);
        lines.code.forEach((file, code) -> ctx.addCompiledLines(
                ctx.relativize(fileIndex.get(file)), code, lines.fp64.getOrDefault(file, Set.of())));
        if (unit != null) ctx.addPtxUnit(unit, true);
    }

    /** The lines of {@code m}, by the index of the {@code .file} entry that names them (one of {@code fileIndex}). */
    static CompiledLines of(PtxModule m, Map<Integer, Path> fileIndex) {
        CompiledLines out = new CompiledLines(m.files(), fileIndex);
        for (PtxFunction fn : m.definedFunctions()) {
            if (!LibraryCode.isLibraryFunction(fn.name())) {
                out.add(fn);
            }
        }
        return out;
    }

    /** The lines with PTX code of the file with {@code .file} index {@code file}. */
    Set<Integer> code(int file) {
        return code.getOrDefault(file, Set.of());
    }

    /** The lines with an FP64 instruction of the file with {@code .file} index {@code file}. */
    Set<Integer> fp64(int file) {
        return fp64.getOrDefault(file, Set.of());
    }

    private void add(PtxFunction fn) {
        Map<Integer, Set<Integer>> own = new LinkedHashMap<>();
        boolean unplaced = false;
        for (Instruction in : fn.instructions()) {
            boolean located = lines(in.loc(), own);
            lines(in.loc(), code);
            if (!wide(in)) {
                continue;
            }
            if (located) {
                lines(in.loc(), fp64);
            } else if (!atUses(fn, in)) {
                unplaced = true;
            }
        }
        if (unplaced) {
            own.forEach((f, l) -> fp64.computeIfAbsent(f, k -> new TreeSet<>()).addAll(l));
        }
    }

    /** An instruction that computes, converts or moves a double. */
    static boolean wide(Instruction in) {
        return in.types().contains("f64");
    }

    /** Adds the lines of an FP64 instruction without a line at the located instructions that use its value. */
    private boolean atUses(PtxFunction fn, Instruction in) {
        ArrayDeque<Integer> work = new ArrayDeque<>();
        Set<Integer> seen = new HashSet<>();
        work.add(in.index());
        seen.add(in.index());
        boolean placed = false;
        int steps = 0;
        while (!work.isEmpty() && steps++ < MAX_USE_STEPS) {
            for (int u : fn.defUse().users(work.poll())) {
                if (!seen.add(u)) {
                    continue;
                }
                DebugLoc l = fn.instruction(u).loc();
                if (l != null && l.pos().line() > 0 && lines(l, fp64)) {
                    placed = true;
                } else {
                    work.add(u);
                }
            }
        }
        return placed;
    }

    /** Adds the user-code lines of {@code loc} (its position and the call sites it was inlined at) to {@code into}. */
    private boolean lines(DebugLoc loc, Map<Integer, Set<Integer>> into) {
        if (loc == null) {
            return false;
        }
        boolean any = add(loc.pos(), into);
        for (SourcePos p : loc.inlinedAt()) {
            any |= add(p, into);
        }
        return any;
    }

    private boolean add(SourcePos p, Map<Integer, Set<Integer>> into) {
        if (p == null
                || p.line() <= 0
                || !fileIndex.containsKey(p.fileIndex())
                || LibraryCode.isSystemPath(files.get(p.fileIndex()))) {
            return false;
        }
        into.computeIfAbsent(p.fileIndex(), k -> new TreeSet<>()).add(p.line());
        return true;
    }
}
