package dev.numlint.validation.interp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A kernel pre-decoded for the {@link Interpreter}: flat instruction arrays, register file template, layout. */
public final class Program {
    /** Fixed register slots for special registers, set per thread/block. */
    static final int R_TID = 0,
            R_NTID = 3,
            R_CTAID = 6,
            R_NCTAID = 9,
            R_LANEID = 12,
            R_WARPID = 13,
            R_NWARPID = 14,
            R_LANEMASK_EQ = 15,
            R_LANEMASK_LT = 16,
            R_LANEMASK_LE = 17,
            R_LANEMASK_GT = 18,
            R_LANEMASK_GE = 19,
            R_ZERO = 20,
            R_CARRY = 21,
            R_SMID = 22,
            N_FIXED = 24;

    public final String kernel;
    public final boolean reference;
    int n;
    int[] op, d, a, b, c, g, y;
    /** The interpreter's dispatch: op, plus {@link #GUARDED} when the instruction has a guard predicate (g). */
    int[] opGuarded;

    static final int GUARDED = 1 << 10;

    private java.util.BitSet mix;

    /** The generated code for this program (Compiler), a marker when it has none, or null before the first try. */
    Object compiled;

    /**
     * The dispatch codes this program's instructions use (opcode and guard bit: what the interpreter loop's switch
     * sees): its instruction mix, the key of its copy of the loop (Machines).
     */
    synchronized java.util.BitSet mix() {
        if (mix == null) {
            java.util.BitSet s = new java.util.BitSet();
            for (int i = 0; i < n; i++) s.set(opGuarded[i]);
            mix = s;
        }
        return mix;
    }

    long[] x;
    int[][] v;
    String[] text;
    int[] line;
    /** Per instruction: the source position (file:line:column) from the PTX's .loc, or null. */
    String[] src;

    long[] regTemplate;
    int nRegs;
    boolean hasSync;
    int kparamSize, cparamSize, localSize, sharedSize, constSize, globalsSize;

    /** Bytes of static .shared memory per block. */
    public int sharedSize() {
        return sharedSize;
    }

    /** Bytes of .local memory per thread. */
    public int localSize() {
        return localSize;
    }

    byte[] constInit, globalsInit;
    /** Per call site: {entryPc, nArgs, (src, dst, size)*, nRets, (src, dst, size)*}. */
    int[][] callSites;

    int maxCallDepth = 64;
    /** The module's .global and .const variables by name: {1 for const else 0, offset in its space, bytes}. */
    public final Map<String, int[]> moduleVariables = new LinkedHashMap<>();

    /** Exceptions counted by {@link Op#FPX}: index in {@link #exceptions}'s rows. */
    public static final int NAN_FROM_FINITE = 0,
            INF_FROM_FINITE = 1,
            DIVISION_BY_ZERO = 2,
            FTZ_FLUSH = 3,
            CONVERSION_OVERFLOW = 4;

    public static final List<String> EXCEPTION_NAMES =
            List.of("nanFromFinite", "infFromFinite", "divisionByZero", "ftzFlushed", "conversionOverflow");

    /** A checked instruction: its PTX line, text and source position (file:line:column, or null). */
    public record ExceptionSite(int ptxLine, String text, String source) {}

    /** The instructions checked for floating-point exceptions (decoded with Decoder.Options.exceptions). */
    public final List<ExceptionSite> exceptionSites = new ArrayList<>();
    /** Per site, the executions that raised each exception (NAN_FROM_FINITE ...), summed over the runs. */
    public long[][] exceptions = new long[0][];

    /** Kernel parameters in order. */
    public final List<Param> params = new ArrayList<>();
    /** Approximate instructions present (modelled, not bit-exact). */
    public final Set<String> approximate = new LinkedHashSet<>();

    Program(String kernel, boolean reference) {
        this.kernel = kernel;
        this.reference = reference;
    }

    public int instructionCount() {
        return n;
    }

    public String instructionText(int pc) {
        return text[pc];
    }

    /** A kernel parameter: its name, PTX type, byte offset in the parameter buffer and size. */
    public static final class Param {
        public final String name, type;
        public final int offset, size;

        Param(String name, String type, int offset, int size) {
            this.name = name;
            this.type = type;
            this.offset = offset;
            this.size = size;
        }

        @Override
        public String toString() {
            return name + ":" + type;
        }
    }
}
