package dev.numlint.validation.interp;

import static dev.numlint.validation.interp.Compiler.CHUNK_DESC;
import static dev.numlint.validation.interp.Compiler.EXEC;
import static dev.numlint.validation.interp.Compiler.FUSED;
import static dev.numlint.validation.interp.Compiler.HELPERS;
import static dev.numlint.validation.interp.Compiler.INTEGER;
import static dev.numlint.validation.interp.Compiler.INTERP;
import static dev.numlint.validation.interp.Compiler.OPS;
import static dev.numlint.validation.interp.Compiler.THREAD;
import static dev.numlint.validation.interp.Compiler.push;
import static org.objectweb.asm.Opcodes.*;

import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Writes one chunk of a program's generated code ({@link Compiler}): {@code static int cK(Interpreter m, Thread t,
 * long[] R, int pc)}, the instructions [s, e), entered at pc through a lookupswitch, returning the next pc when
 * control leaves the chunk or the complement of an S_* code when the thread leaves run.
 */
final class ChunkWriter {
    // locals
    private static final int M = 0, T = 1, R = 2, PC = 3, COUNT = 4, EXC = 5, AT = 6;
    private final ClassWriter cw;
    private final Program p;
    private final int s, e;
    private final TreeSet<Integer> entries;
    private MethodVisitor mv;
    private Label[] at;
    /** Exits to a pc outside the chunk: flush the count, return the pc. */
    private final Map<Integer, Label> out = new TreeMap<>();

    ChunkWriter(ClassWriter cw, Program p, int s, int e, TreeSet<Integer> entries) {
        this.cw = cw;
        this.p = p;
        this.s = s;
        this.e = e;
        this.entries = entries;
    }

    private Label target(int pc) {
        if (pc >= s && pc < e) return at[pc - s];
        return out.computeIfAbsent(pc, k -> new Label());
    }

    void emit(String method) {
        mv = cw.visitMethod(ACC_STATIC | ACC_PRIVATE, method, CHUNK_DESC, null, null);
        mv.visitCode();
        int len = e - s;
        at = new Label[len];
        Label[] end = new Label[len], handler = new Label[len];
        for (int k = 0; k < len; k++) {
            at[k] = new Label();
            end[k] = new Label();
            handler[k] = new Label();
            mv.visitTryCatchBlock(at[k], end[k], handler[k], "java/lang/Throwable");
        }
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ISTORE, COUNT);
        mv.visitVarInsn(ILOAD, PC);
        int[] keys = entries.stream().mapToInt(Integer::intValue).toArray();
        Label[] labels = new Label[keys.length];
        for (int k = 0; k < keys.length; k++) labels[k] = at[keys[k] - s];
        Label bad = new Label();
        mv.visitLookupSwitchInsn(bad, keys, labels);
        for (int i = s; i < e; i++) {
            mv.visitLabel(at[i - s]);
            instruction(i);
            mv.visitLabel(end[i - s]);
        }
        mv.visitJumpInsn(GOTO, target(e)); // the last instruction falls through to the next chunk
        for (Map.Entry<Integer, Label> x : out.entrySet()) {
            mv.visitLabel(x.getValue());
            flush();
            push(mv, x.getKey());
            mv.visitInsn(IRETURN);
        }
        mv.visitLabel(bad);
        mv.visitTypeInsn(NEW, "java/lang/IllegalStateException");
        mv.visitInsn(DUP);
        mv.visitLdcInsn("compiled code entered at a pc it has no entry for");
        mv.visitMethodInsn(INVOKESPECIAL, "java/lang/IllegalStateException", "<init>", "(Ljava/lang/String;)V", false);
        mv.visitInsn(ATHROW);
        Label common = new Label();
        for (int i = s; i < e; i++) {
            mv.visitLabel(handler[i - s]);
            push(mv, i);
            mv.visitJumpInsn(GOTO, common);
        }
        // a fault: count what ran, wrap it as Interpreter.run does
        mv.visitLabel(common);
        mv.visitVarInsn(ISTORE, AT);
        mv.visitVarInsn(ASTORE, EXC);
        flush();
        mv.visitVarInsn(ALOAD, M);
        mv.visitVarInsn(ALOAD, EXC);
        mv.visitVarInsn(ALOAD, T);
        mv.visitVarInsn(ILOAD, AT);
        mv.visitMethodInsn(
                INVOKEVIRTUAL,
                INTERP,
                "compiledFault",
                "(Ljava/lang/Throwable;L" + THREAD + ";I)Ljava/lang/Throwable;",
                false);
        mv.visitInsn(ATHROW);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /** m.executed += count (count stays as it is: callers that go on reset it). */
    private void flush() {
        mv.visitVarInsn(ALOAD, M);
        mv.visitVarInsn(ILOAD, COUNT);
        mv.visitMethodInsn(INVOKEVIRTUAL, INTERP, "ran", "(I)V", false);
    }

    /** Interpreter.run's check at a backward branch or a call: the limit holds for the launch's count. */
    private void limitCheck() {
        flush();
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ISTORE, COUNT);
        mv.visitVarInsn(ALOAD, M);
        mv.visitMethodInsn(INVOKEVIRTUAL, INTERP, "pastLimit", "()V", false);
    }

    /** Leaves run with an S_* code, t.pc set to pc. */
    private void exit(int pc, int status) {
        mv.visitVarInsn(ALOAD, T);
        push(mv, pc);
        mv.visitFieldInsn(PUTFIELD, THREAD, "pc", "I");
        flush();
        push(mv, ~status);
        mv.visitInsn(IRETURN);
    }

    private void loadR(int reg) {
        mv.visitVarInsn(ALOAD, R);
        push(mv, reg);
        mv.visitInsn(LALOAD);
    }

    private void helper(String name, int i) {
        mv.visitVarInsn(ALOAD, M);
        mv.visitVarInsn(ALOAD, T);
        mv.visitVarInsn(ALOAD, R);
        push(mv, i);
        push(mv, p.d[i]);
        push(mv, p.a[i]);
        push(mv, p.b[i]);
        push(mv, p.c[i]);
        push(mv, p.x[i]);
        push(mv, p.y[i]);
        mv.visitMethodInsn(INVOKESTATIC, OPS, name, CompiledOps.DESC, false);
    }

    private void instruction(int i) {
        mv.visitIincInsn(COUNT, 1);
        if (p.opGuarded[i] >= Program.GUARDED) {
            int g = p.g[i];
            loadR(g > 0 ? g - 1 : -g - 1);
            mv.visitInsn(LCONST_0);
            mv.visitInsn(LCMP);
            mv.visitJumpInsn(g > 0 ? IFEQ : IFNE, target(i + 1));
        }
        int o = p.op[i];
        if (INTEGER.contains(o)) {
            integer(i);
            return;
        }
        String h = HELPERS.get(o);
        if (h != null) {
            helper(h, i);
            if (FUSED.contains(o)) {
                mv.visitIincInsn(COUNT, 1);
                mv.visitJumpInsn(GOTO, target(i + 2));
            }
            return;
        }
        if (EXEC.contains(o)) {
            helper("exec", i);
            return;
        }
        switch (o) {
            case Op.NOP -> {}
            case Op.BRA -> branch(i, p.y[i], i);
            case Op.BRA_T, Op.BRA_F -> {
                Label skip = new Label();
                loadR(p.a[i]);
                mv.visitInsn(LCONST_0);
                mv.visitInsn(LCMP);
                mv.visitJumpInsn(o == Op.BRA_T ? IFEQ : IFNE, skip);
                branch(i, p.y[i], i);
                mv.visitLabel(skip);
            }
            case Op.SETP_S32_BRA -> {
                mv.visitVarInsn(ALOAD, R);
                push(mv, p.d[i]);
                push(mv, p.a[i]);
                push(mv, p.b[i]);
                push(mv, p.x[i]);
                mv.visitMethodInsn(INVOKESTATIC, OPS, "setpS32Bra", "([JIIIJ)Z", false);
                mv.visitIincInsn(COUNT, 1);
                Label notTaken = new Label();
                mv.visitJumpInsn(p.y[i] != 0 ? IFEQ : IFNE, notTaken);
                branch(i, p.c[i], i + 1);
                mv.visitLabel(notTaken);
                mv.visitJumpInsn(GOTO, target(i + 2));
            }
            case Op.CALL -> {
                mv.visitVarInsn(ALOAD, M);
                mv.visitVarInsn(ALOAD, T);
                push(mv, i);
                mv.visitMethodInsn(INVOKEVIRTUAL, INTERP, "compiledCall", "(L" + THREAD + ";I)V", false);
                limitCheck();
                mv.visitJumpInsn(GOTO, target(p.callSites[p.y[i]][0]));
            }
            case Op.RET -> {
                Label returns = new Label();
                mv.visitVarInsn(ALOAD, M);
                mv.visitVarInsn(ALOAD, T);
                mv.visitMethodInsn(INVOKEVIRTUAL, INTERP, "compiledRet", "(L" + THREAD + ";)I", false);
                mv.visitInsn(DUP);
                mv.visitJumpInsn(IFGE, returns);
                mv.visitInsn(POP);
                exit(i + 1, 0);
                mv.visitLabel(returns); // the caller's pc: the driver finds its chunk
                flush();
                mv.visitInsn(IRETURN);
            }
            case Op.EXIT -> exit(i + 1, 0);
            case Op.BAR -> exit(i + 1, 1);
            case Op.WARPSYNC, Op.SHFL, Op.VOTE, Op.ACTIVEMASK -> exit(i, 2);
            default -> throw new IllegalStateException("opcode " + o);
        }
    }

    /**
     * The integer instructions whose case in {@link Interpreter#run} is one Java long operation on registers,
     * written as bytecode here (the same operation, so the same result): fewer calls for C1, whose code runs
     * until C2 has compiled the chunk, to make (it inlines few CompiledOps methods: "callee uses too much stack",
     * "callee is too large" in -XX:+PrintInlining).
     */
    private void integer(int i) {
        int o = p.op[i];
        int binary =
                switch (o) {
                    case Op.ADD_I -> LADD;
                    case Op.SUB_I -> LSUB;
                    case Op.MUL_LO -> LMUL;
                    case Op.AND, Op.AND_PRED -> LAND;
                    case Op.OR, Op.OR_PRED -> LOR;
                    case Op.XOR, Op.XOR_PRED -> LXOR;
                    default -> -1;
                };
        mv.visitVarInsn(ALOAD, R);
        push(mv, p.d[i]);
        loadR(p.a[i]); // R[a]
        if (binary >= 0) { // R[a] op R[b]
            loadR(p.b[i]);
            mv.visitInsn(binary);
        } else if (o == Op.MAD_LO) { // R[a] * R[b] + R[c]
            loadR(p.b[i]);
            mv.visitInsn(LMUL);
            loadR(p.c[i]);
            mv.visitInsn(LADD);
        } else if (o == Op.NEG_I) { // -R[a]
            mv.visitInsn(LNEG);
        } else if (o == Op.NOT) { // ~R[a]
            push(mv, -1L);
            mv.visitInsn(LXOR);
        } else if (o == Op.NOT_PRED) { // R[a] ^ 1
            push(mv, 1L);
            mv.visitInsn(LXOR);
        } // MOV: R[a]
        mv.visitInsn(LASTORE);
    }

    /** A taken branch from i to target: the limit check when it goes back (target <= last), then the jump. */
    private void branch(int i, int target, int last) {
        if (target <= last) limitCheck();
        mv.visitJumpInsn(GOTO, target(target));
    }
}
