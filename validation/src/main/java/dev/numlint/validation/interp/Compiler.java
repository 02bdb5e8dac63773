package dev.numlint.validation.interp;

import static org.objectweb.asm.Opcodes.*;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Translates a decoded {@link Program} to a JVM class of its own, so that each build runs in code that is its own
 * instructions: no dispatch switch, and a JIT profile shared with no other build (the shared {@link Interpreter#run}
 * loop is compiled once per JVM for every build, and how well depends on the profile at the time:
 * interpreter-speed-session15.md, -session16.md).
 *
 * <p>Same results as the interpreter by construction: each data instruction is a call, with its decoded operands as
 * constants, of the {@link CompiledOps} method that holds the interpreter's own case for it, or of {@link
 * Interpreter#exec} itself; the generated code decides only the control flow, which follows {@link Interpreter#run}:
 * the instruction count (every instruction counted when reached, guarded-off ones and the second half of a fused
 * pair included), the instruction limit (checked at backward branches and calls), the thread's pc at an exit, a
 * barrier ({@code pc + 1}) and a warp collective ({@code pc}), and a fault wrapped with the instruction where it
 * happened. The scheduler ({@link Interpreter#launch}, its barriers and warp collectives) is the interpreter's.
 *
 * <p>The code is split into methods of consecutive instructions (chunks), each small enough for C2 to compile and
 * to inline its helpers into (HugeMethodLimit and DesiredMethodLimit, 8000 bytes of bytecode each): a chunk runs
 * until control leaves it and returns the next pc, and the class's {@code run} calls the chunk that holds it. A
 * chunk starts at any pc where it can be entered (a lookupswitch: its first instruction, targets of branches from
 * other chunks, resumption after a barrier, a warp collective or a call).
 *
 * <p>A program with an instruction this translator does not know, or a branch outside the program, is not translated
 * ({@link #of} returns null, with a debug log), and the interpreter runs it. Off with {@code
 * -Dnumlint.interp.compile=false}.
 */
final class Compiler {
    private Compiler() {}

    /**
     * The generated class's interface: runs a thread of the launch m (an {@link Interpreter}; Object because each
     * copy of Interpreter that {@link Machines} defines, a class of its own, holds this call too) as {@link
     * Interpreter#run} does, with the same S_* results.
     */
    interface Code {
        int run(Object m, Interpreter.Thread t) throws KernelFault;
    }

    static final boolean ON = Boolean.parseBoolean(System.getProperty("numlint.interp.compile", "true"));

    private static final System.Logger LOG = System.getLogger(Compiler.class.getName());
    private static final Object FAILED = new Object();
    static final String OPS = "dev/numlint/validation/interp/CompiledOps",
            INTERP = "dev/numlint/validation/interp/Interpreter",
            THREAD = "dev/numlint/validation/interp/Interpreter$Thread",
            CODE = "dev/numlint/validation/interp/Compiler$Code";
    static final String CHUNK_DESC = "(L" + INTERP + ";L" + THREAD + ";[JI)I";

    /** Estimated bytecode per chunk, with what C2 inlines into it (below DesiredMethodLimit, 8000). */
    static int chunkBudget = Integer.getInteger("numlint.interp.chunkBytes", 6000);

    /** The opcodes that run as a call of a CompiledOps method of that name. */
    static final Map<Integer, String> HELPERS = new TreeMap<>();

    /** Fused pairs (the next instruction is skipped and counted). */
    static final TreeSet<Integer> FUSED = new TreeSet<>();

    /** The opcodes Interpreter.exec runs. */
    static final TreeSet<Integer> EXEC = new TreeSet<>();

    static {
        Object[] h = {
            Op.SHL,
            "shl",
            Op.SHR_U,
            "shrU",
            Op.SHR_S,
            "shrS",
            Op.MUL_WIDE,
            "mulWide",
            Op.MAD_WIDE,
            "madWide",
            Op.MIN_I,
            "minI",
            Op.MAX_I,
            "maxI",
            Op.SETP_S32,
            "setpS32",
            Op.SETP_F32,
            "setpF32",
            Op.SELP,
            "selp",
            Op.ADD_F32,
            "addF32",
            Op.SUB_F32,
            "subF32",
            Op.MUL_F32,
            "mulF32",
            Op.FMA_F32,
            "fmaF32",
            Op.ADD_F32_FTZ,
            "addF32Ftz",
            Op.SUB_F32_FTZ,
            "subF32Ftz",
            Op.MUL_F32_FTZ,
            "mulF32Ftz",
            Op.FMA_F32_FTZ,
            "fmaF32Ftz",
            Op.CVT_F32_S32,
            "cvtF32S32",
            Op.CVT_S32_F32,
            "cvtS32F32",
            Op.ADD_F32_FTZ_X,
            "addF32FtzX",
            Op.SUB_F32_FTZ_X,
            "subF32FtzX",
            Op.MUL_F32_FTZ_X,
            "mulF32FtzX",
            Op.FMA_F32_FTZ_X,
            "fmaF32FtzX",
            Op.ADD_F32_X,
            "addF32X",
            Op.SUB_F32_X,
            "subF32X",
            Op.MUL_F32_X,
            "mulF32X",
            Op.FMA_F32_X,
            "fmaF32X",
            Op.DIV_APPROX_F32_X,
            "divApproxF32X",
            Op.CVT_S32_F32_X,
            "cvtS32F32X",
            Op.DIV_F32,
            "divF32",
            Op.DIV_APPROX_F32,
            "divApproxF32",
            Op.NEG_F32,
            "negF32",
            Op.ABS_F32,
            "absF32",
            Op.MIN_F32,
            "minF32",
            Op.MAX_F32,
            "maxF32",
            Op.ADD_F64,
            "addF64",
            Op.SUB_F64,
            "subF64",
            Op.MUL_F64,
            "mulF64",
            Op.FMA_F64,
            "fmaF64",
            Op.CVT,
            "cvtG",
            Op.WIDEN,
            "widen",
            Op.NARROW,
            "narrow",
            Op.LD_G32,
            "ldG32",
            Op.ST_G32,
            "stG32",
            Op.LD,
            "ld",
            Op.ST,
            "st",
            Op.TRAP,
            "trap",
            Op.FPX,
            "fpx",
            Op.F32_G,
            "f32G"
        };
        for (int k = 0; k < h.length; k += 2) HELPERS.put((Integer) h[k], (String) h[k + 1]);
        FUSED.addAll(List.of(
                Op.ADD_F32_FTZ_X,
                Op.SUB_F32_FTZ_X,
                Op.MUL_F32_FTZ_X,
                Op.FMA_F32_FTZ_X,
                Op.ADD_F32_X,
                Op.SUB_F32_X,
                Op.MUL_F32_X,
                Op.FMA_F32_X,
                Op.DIV_APPROX_F32_X,
                Op.CVT_S32_F32_X));
        EXEC.addAll(List.of(
                Op.TEX,
                Op.MOV_PACK,
                Op.MOV_UNPACK,
                Op.CNOT,
                Op.MUL_HI,
                Op.MAD_HI,
                Op.MUL24,
                Op.MAD24,
                Op.DIV_I,
                Op.REM_I,
                Op.ABS_I,
                Op.POPC,
                Op.CLZ,
                Op.BREV,
                Op.BFIND,
                Op.BFE,
                Op.BFI,
                Op.PRMT,
                Op.LOP3,
                Op.ADD_CC,
                Op.MAD_CC,
                Op.SETP_I,
                Op.SETP_F64,
                Op.SLCT,
                Op.TESTP_F32,
                Op.TESTP_F64,
                Op.SQRT_F32,
                Op.COPYSIGN_F32,
                Op.F32_APPROX,
                Op.DIV_F64,
                Op.SQRT_F64,
                Op.NEG_F64,
                Op.ABS_F64,
                Op.MIN_F64,
                Op.MAX_F64,
                Op.COPYSIGN_F64,
                Op.F64_G,
                Op.F64_APPROX,
                Op.LD_W,
                Op.ST_W,
                Op.ATOM,
                Op.ADD_DD,
                Op.SUB_DD,
                Op.MUL_DD,
                Op.FMA_DD,
                Op.DIV_DD,
                Op.SQRT_DD,
                Op.NEG_DD,
                Op.ABS_DD,
                Op.MOV_DD,
                Op.SELP_DD,
                Op.LD_DD,
                Op.ST_DD,
                Op.ZERO_LO));
    }

    /** Integer instructions the generator writes as bytecode ({@link ChunkWriter#integer}). */
    static final TreeSet<Integer> INTEGER = new TreeSet<>(List.of(
            Op.MOV,
            Op.ADD_I,
            Op.SUB_I,
            Op.MUL_LO,
            Op.MAD_LO,
            Op.NEG_I,
            Op.AND,
            Op.OR,
            Op.XOR,
            Op.NOT,
            Op.AND_PRED,
            Op.OR_PRED,
            Op.XOR_PRED,
            Op.NOT_PRED));

    /** Control instructions the generator writes itself. */
    private static boolean control(int o) {
        return switch (o) {
            case Op.NOP,
                    Op.BRA,
                    Op.BRA_T,
                    Op.BRA_F,
                    Op.SETP_S32_BRA,
                    Op.CALL,
                    Op.RET,
                    Op.EXIT,
                    Op.BAR,
                    Op.WARPSYNC,
                    Op.SHFL,
                    Op.VOTE,
                    Op.ACTIVEMASK -> true;
            default -> false;
        };
    }

    private static boolean warp(int o) {
        return o == Op.WARPSYNC || o == Op.SHFL || o == Op.VOTE || o == Op.ACTIVEMASK;
    }

    /**
     * What the generated code of a program depends on: its decoded instructions (the translator writes their
     * operands into the code as constants; everything else, such as the exception rows, the texts for faults and the
     * operands exec reads, is read from the launch's own program) and the chunk size. Programs decoded again from the
     * same PTX with the same options, as the replay decodes each build for each launch, share one class and so one
     * JIT-compiled code.
     */
    record Key(List<Object> parts) {
        static Key of(Program p) {
            int n = p.n;
            List<Object> parts = new ArrayList<>();
            for (int[] a : new int[][] {p.op, p.opGuarded, p.d, p.a, p.b, p.c, p.g, p.y})
                parts.add(IntBuffer.wrap(Arrays.copyOf(a, n)));
            parts.add(LongBuffer.wrap(Arrays.copyOf(p.x, n)));
            for (int[] site : p.callSites == null ? new int[0][] : p.callSites) parts.add(IntBuffer.wrap(site.clone()));
            parts.add(chunkBudget);
            return new Key(parts);
        }
    }

    /** Generated code by program, the most recently used last (at most {@link #MAX_CLASSES}). */
    private static final Map<Key, Object> CLASSES = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Object> e) {
            return size() > MAX_CLASSES;
        }
    };

    static final int MAX_CLASSES = Integer.getInteger("numlint.interp.maxClasses", 256);

    /** Nanoseconds spent translating and defining classes in this JVM, programs translated, programs refused. */
    private static long nanos, translated, refused;

    /** {translated programs, nanoseconds spent translating and defining their classes, programs refused}. */
    static synchronized long[] stats() {
        return new long[] {translated, nanos, refused};
    }

    /**
     * p's generated code (translated at the first call for a program with its instructions, then kept with p and
     * shared with programs of the same instructions), or null where the interpreter runs p.
     */
    static Code of(Program p) {
        synchronized (p) {
            if (p.compiled == null) p.compiled = codeFor(p);
            return p.compiled == FAILED ? null : (Code) p.compiled;
        }
    }

    private static synchronized Object codeFor(Program p) {
        Key key = Key.of(p);
        Object c = CLASSES.get(key);
        if (c != null) return c;
        long t0 = System.nanoTime();
        String why = untranslatable(p);
        c = FAILED;
        if (why == null) {
            try {
                c = define(p);
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                why = "generated class refused: " + e;
            }
        }
        if (why != null) {
            LOG.log(System.Logger.Level.DEBUG, "{0}: runs on the interpreter ({1})", p.kernel, why);
            refused++;
        } else translated++;
        nanos += System.nanoTime() - t0;
        CLASSES.put(key, c);
        return c;
    }

    /** Why p cannot be translated, or null. */
    static String untranslatable(Program p) {
        for (int i = 0; i < p.n; i++) {
            int o = p.op[i];
            if (!control(o) && !INTEGER.contains(o) && !HELPERS.containsKey(o) && !EXEC.contains(o))
                return "opcode " + o + " at " + i + " (" + p.text[i] + ") not translated";
            for (int s : successors(p, i))
                if (s < 0 || s >= p.n) return "control leaves the program after " + i + " (" + p.text[i] + ")";
        }
        return null;
    }

    /** The instructions control can reach from i's own code (not the returns of a ret). */
    private static List<Integer> successors(Program p, int i) {
        List<Integer> s = new ArrayList<>();
        int o = p.op[i];
        boolean guarded = p.opGuarded[i] >= Program.GUARDED;
        if (guarded) s.add(i + 1);
        switch (o) {
            case Op.BRA -> s.add(p.y[i]);
            case Op.BRA_T, Op.BRA_F -> {
                s.add(p.y[i]);
                s.add(i + 1);
            }
            case Op.SETP_S32_BRA -> {
                s.add(p.c[i]);
                s.add(i + 2);
            }
            case Op.CALL -> s.add(p.callSites[p.y[i]][0]);
            case Op.EXIT, Op.RET, Op.BAR, Op.WARPSYNC, Op.SHFL, Op.VOTE, Op.ACTIVEMASK -> {}
            default -> s.add(FUSED.contains(o) ? i + 2 : i + 1);
        }
        return s;
    }

    /** Where a thread can re-enter the code from the scheduler: after a barrier, a warp collective or a call. */
    private static boolean resumesAfter(int o) {
        return o == Op.BAR || o == Op.CALL || warp(o);
    }

    private static int weight(int o) {
        if (EXEC.contains(o) || o == Op.FPX) return 60;
        if (FUSED.contains(o)) return 260;
        return switch (o) {
            case Op.ADD_F32_FTZ, Op.SUB_F32_FTZ, Op.MUL_F32_FTZ, Op.FMA_F32_FTZ, Op.LD, Op.ST -> 200;
            case Op.SETP_F32,
                    Op.MIN_F32,
                    Op.MAX_F32,
                    Op.CVT,
                    Op.MIN_I,
                    Op.MAX_I,
                    Op.SHR_S,
                    Op.SETP_S32,
                    Op.SETP_S32_BRA,
                    Op.NEG_F32,
                    Op.ABS_F32,
                    Op.LD_G32,
                    Op.ST_G32 -> 120;
            default -> 60;
        };
    }

    private static final java.util.concurrent.atomic.AtomicLong SERIAL = new java.util.concurrent.atomic.AtomicLong();

    private static Code define(Program p) throws ReflectiveOperationException {
        // chunks [starts[k], starts[k + 1])
        List<Integer> starts = new ArrayList<>();
        int w = chunkBudget;
        for (int i = 0; i < p.n; i++) {
            int wi = weight(p.op[i]);
            if (w + wi > chunkBudget) {
                starts.add(i);
                w = 0;
            }
            w += wi;
        }
        starts.add(p.n);
        int nChunks = starts.size() - 1;
        int[] chunkOf = new int[p.n];
        for (int k = 0; k < nChunks; k++) for (int i = starts.get(k); i < starts.get(k + 1); i++) chunkOf[i] = k;
        List<TreeSet<Integer>> entries = new ArrayList<>();
        for (int k = 0; k < nChunks; k++) entries.add(new TreeSet<>(List.of(starts.get(k))));
        for (int i = 0; i < p.n; i++) {
            for (int s : successors(p, i))
                if (chunkOf[s] != chunkOf[i]) entries.get(chunkOf[s]).add(s);
            if (resumesAfter(p.op[i]) && i + 1 < p.n)
                entries.get(chunkOf[i + 1]).add(i + 1);
        }

        String name = "dev/numlint/validation/interp/Compiled" + SERIAL.incrementAndGet();
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
            @Override
            protected String getCommonSuperClass(String a, String b) {
                return "java/lang/Object";
            }
        };
        cw.visit(V17, ACC_FINAL | ACC_SUPER, name, null, "java/lang/Object", new String[] {CODE});
        MethodVisitor init = cw.visitMethod(0, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(ALOAD, 0);
        init.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        driver(cw, name, starts);
        for (int k = 0; k < nChunks; k++)
            new ChunkWriter(cw, p, starts.get(k), starts.get(k + 1), entries.get(k)).emit("c" + k);
        cw.visitEnd();
        MethodHandles.Lookup l = Interpreter.lookup().defineHiddenClass(cw.toByteArray(), true);
        try {
            return (Code) l.findConstructor(l.lookupClass(), MethodType.methodType(void.class))
                    .invoke();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * {@code run(m, t)}: calls the chunk that holds t.pc until one returns an exit (the complement of an S_* code,
     * negative), then returns that code.
     */
    private static void driver(ClassWriter cw, String name, List<Integer> starts) {
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "run", "(Ljava/lang/Object;L" + THREAD + ";)I", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 1);
        mv.visitTypeInsn(CHECKCAST, INTERP);
        mv.visitVarInsn(ASTORE, 1);
        // locals: 0 this, 1 m, 2 t, 3 R, 4 pc
        mv.visitVarInsn(ALOAD, 2);
        mv.visitFieldInsn(GETFIELD, THREAD, "R", "[J");
        mv.visitVarInsn(ASTORE, 3);
        mv.visitVarInsn(ALOAD, 2);
        mv.visitFieldInsn(GETFIELD, THREAD, "pc", "I");
        mv.visitVarInsn(ISTORE, 4);
        Label loop = new Label(), done = new Label();
        mv.visitLabel(loop);
        int nChunks = starts.size() - 1;
        Label[] call = new Label[nChunks];
        for (int k = 0; k < nChunks; k++) call[k] = new Label();
        for (int k = 0; k < nChunks - 1; k++) {
            mv.visitVarInsn(ILOAD, 4);
            push(mv, starts.get(k + 1));
            mv.visitJumpInsn(IF_ICMPLT, call[k]);
        }
        mv.visitJumpInsn(GOTO, call[nChunks - 1]);
        for (int k = 0; k < nChunks; k++) {
            mv.visitLabel(call[k]);
            mv.visitVarInsn(ALOAD, 1);
            mv.visitVarInsn(ALOAD, 2);
            mv.visitVarInsn(ALOAD, 3);
            mv.visitVarInsn(ILOAD, 4);
            mv.visitMethodInsn(INVOKESTATIC, name, "c" + k, CHUNK_DESC, false);
            mv.visitInsn(DUP);
            mv.visitVarInsn(ISTORE, 4);
            mv.visitJumpInsn(IFGE, loop);
            mv.visitJumpInsn(GOTO, done);
        }
        mv.visitLabel(done);
        mv.visitVarInsn(ILOAD, 4);
        mv.visitInsn(ICONST_M1);
        mv.visitInsn(IXOR);
        mv.visitInsn(IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    static void push(MethodVisitor mv, int v) {
        if (v >= -1 && v <= 5) mv.visitInsn(ICONST_0 + v);
        else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) mv.visitIntInsn(BIPUSH, v);
        else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) mv.visitIntInsn(SIPUSH, v);
        else mv.visitLdcInsn(v);
    }

    static void push(MethodVisitor mv, long v) {
        if (v == 0 || v == 1) mv.visitInsn(LCONST_0 + (int) v);
        else mv.visitLdcInsn(v);
    }
}
