package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.validation.KernelHazards;
import dev.numlint.validation.Variants;
import dev.numlint.validation.replay.Recording;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Each program's generated code ({@link Compiler}) computes what the interpreter loop computes: on every committed
 * recording in every build the replay runs (as built, the variants, the build counting floating-point exceptions),
 * and on the warm-up's kernels (every opcode, calls, barriers and warp collectives) in every decoding, the same
 * outputs, executed-instruction counts, exceptions per instruction and faults, also where the instruction limit
 * stops the launch, and with the code split into one method per instruction (every transfer crosses methods). A
 * program with an instruction the translator does not know runs on the interpreter.
 */
class CompiledCodeTest {
    private static final Machines LOOP = new Machines(0, Long.MAX_VALUE, false),
            COMPILED = new Machines(0, Long.MAX_VALUE, true);

    private static final List<Path> RECORDINGS = List.of(
            Path.of("../examples/recordings/dbt"),
            Path.of("src/test/resources/recordings/textures"),
            Path.of("src/test/resources/recordings/texture-ties"),
            Path.of("src/test/resources/recordings/s8-sweep"));

    @AfterEach
    void restore() {
        Compiler.chunkBudget = Integer.getInteger("numlint.interp.chunkBytes", 6000);
    }

    /** What a launch leaves: every buffer after it, the executed count, the fault, the exceptions counted. */
    private record Outcome(List<String> buffers, long executed, String fault, String exceptions) {}

    private interface Decoding {
        Program decode() throws Exception;
    }

    private static Outcome replay(Program p, Recording.RecordedLaunch l, Machines machines, long limit)
            throws Exception {
        Launch run = new Launch(p);
        for (Recording.Global g : l.globals) run.moduleVariable(g.name, g.before);
        for (var t : l.textures.entrySet()) run.texture(t.getKey(), t.getValue());
        long[] base = new long[l.before.size()];
        for (int a = 0; a < base.length; a++)
            base[a] = run.alloc(l.before.get(a).clone(), "recorded allocation " + a);
        for (int i = 0; i < l.paramLayout.size(); i++) {
            int[] pl = l.paramLayout.get(i);
            if (pl[2] >= 0) run.param(i, base[pl[2]] + pl[3]);
            else run.paramBytes(i, Arrays.copyOfRange(l.params, pl[0], pl[0] + pl[1]));
        }
        String fault = null;
        try {
            run.run(l.grid, l.block, l.dynamicShared, limit, machines);
        } catch (KernelFault f) {
            fault = f.getMessage();
        }
        List<String> out = new ArrayList<>();
        for (int a = 0; a < base.length; a++) out.add(digest(run.read(base[a], l.before.get(a).length)));
        return new Outcome(out, run.executed(), fault, Arrays.deepToString(p.exceptions));
    }

    /** Runs a fresh decoding on each machine, and checks that the compiled side had generated code. */
    private static void same(String what, Decoding d, Run r) throws Exception {
        same(what, d, r, interpreted(d, r));
    }

    /** A fresh decoding run on the interpreter loop: its program (no generated code) and outcome. */
    private record Interpreted(Program program, Outcome outcome) {}

    private static Interpreted interpreted(Decoding d, Run r) throws Exception {
        Program p = d.decode();
        return new Interpreted(p, r.run(p, LOOP));
    }

    /**
     * As {@link #same(String, Decoding, Run)}, with the interpreter's side already run on a fresh decoding (a full
     * launch whose executed count sets the limits below is run once, not twice).
     */
    private static void same(String what, Decoding d, Run r, Interpreted a) throws Exception {
        Program compiled = d.decode();
        Outcome b = r.run(compiled, COMPILED);
        assertThat(compiled.compiled).as(what).isInstanceOf(Compiler.Code.class);
        assertThat(a.program().compiled).as(what).isNull();
        assertThat(b).as(what).isEqualTo(a.outcome());
    }

    private interface Run {
        Outcome run(Program p, Machines m) throws Exception;
    }

    @Test
    void everyRecordedLaunchInEveryBuildComputesAndCountsAsOnTheInterpreter() throws Exception {
        int builds = 0;
        for (Path dir : RECORDINGS) {
            Recording rec = Recording.read(dir);
            for (Recording.RecordedLaunch l : rec.launches) {
                Recording.Module mod = rec.moduleOf(l.kernel);
                if (l.unusable != null || mod == null) continue;
                PtxText.Module m = PtxModelAdapter.read(mod.ptx);
                List<Decoder.Options> opts = new ArrayList<>();
                for (Variants.PtxVariant v : Variants.ptxVariantsOf(KernelHazards.of(m.source, l.kernel, false)))
                    opts.add(v.opts());
                opts.add(new Decoder.Options().contract(true).exceptions(true));
                for (Decoder.Options o : opts) {
                    String what = dir + " launch " + l.id + " " + o;
                    Decoding d = () -> Decoder.decode(m, l.kernel, o);
                    Run whole = (p, ms) -> replay(p, l, ms, Long.MAX_VALUE);
                    Interpreted loop = interpreted(d, whole);
                    long executed = loop.outcome().executed();
                    assertThat(executed).isGreaterThan(0);
                    same(what, d, whole, loop);
                    // stopped by the instruction limit: the same fault at the same instruction, the same count
                    for (long limit : new long[] {executed / 3, 97})
                        same(what + " limit " + limit, d, (p, ms) -> replay(p, l, ms, limit));
                    builds++;
                }
            }
        }
        assertThat(builds).isGreaterThanOrEqualTo(20);
    }

    /** The warm-up kernel's outputs on the special values, its executed count and fault. */
    private static Outcome warm(Program p, Machines machines, long limit) throws Exception {
        Launch l = new Launch(p);
        long in = l.alloc(Warmup.table());
        int n = 256 * Warmup.ROWS.length * 2;
        long out = l.alloc(new byte[n]);
        l.param(0, in);
        l.param(1, out);
        l.param(2, Warmup.ROWS.length);
        String fault = null;
        try {
            l.run(new int[] {2, 1, 1}, new int[] {32, 1, 1}, 0, limit, machines);
        } catch (KernelFault f) {
            fault = f.getMessage();
        }
        return new Outcome(List.of(digest(l.read(out, n))), l.executed(), fault, Arrays.deepToString(p.exceptions));
    }

    /** The bytes' length and SHA-256 (the outcomes are compared whole; a failure shows which buffer differs). */
    private static String digest(byte[] b) throws Exception {
        return b.length + " bytes, sha256 "
                + java.util.HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    /** The warm-up's kernels (warmup.ptx, read as Warmup.programs() reads it). */
    private static PtxText.Module warmupModule() throws Exception {
        try (java.io.InputStream in = Warmup.class.getResourceAsStream("warmup.ptx")) {
            assertThat(in).as("warmup.ptx").isNotNull();
            return PtxModelAdapter.read(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Test
    void everyOpcodeInEveryDecodingComputesAndCountsAsOnTheInterpreter() throws Exception {
        for (int budget : new int[] {6000, 1}) { // 1: each instruction a method of its own
            Compiler.chunkBudget = budget;
            int n = Warmup.programs().size();
            // the warm-up's text is read once; each decoding below is of the one program (as Warmup.programs() has
            // it: each kernel in each decoding), not of all of them
            PtxText.Module warmup = warmupModule();
            assertThat(n).isEqualTo(Warmup.decodings().size() * Warmup.KERNELS.size());
            for (int k = 0; k < n; k++) {
                final int ix = k;
                Decoding d = () -> Decoder.decode(
                        warmup,
                        Warmup.KERNELS.get(ix % Warmup.KERNELS.size()),
                        Warmup.decodings().get(ix / Warmup.KERNELS.size()));
                Run whole = (q, ms) -> warm(q, ms, Long.MAX_VALUE);
                Interpreted loop = interpreted(d, whole);
                Program p = loop.program();
                long executed = loop.outcome().executed();
                same(p.kernel + " " + ix + " budget " + budget + " limit " + Long.MAX_VALUE, d, whole, loop);
                for (long limit : new long[] {executed / 2, executed / 7, 40})
                    same(
                            p.kernel + " " + ix + " budget " + budget + " limit " + limit,
                            d,
                            (q, ms) -> warm(q, ms, limit));
            }
        }
    }

    /**
     * Every rounding, .ftz and .sat form of the f32 arithmetic that runs as F32_G (add, sub, mul, fma, div, sqrt,
     * rcp: the warm-up has only some of them), one thread per row of special values.
     */
    private static String roundedForms() {
        StringBuilder b = new StringBuilder(InterpreterTest.HEAD
                + ".visible .entry t(.param .u64 in, .param .u64 out) {\n"
                + ".reg .b32 %r<4>; .reg .b64 %rd<8>; .reg .f32 %f<100>;\n"
                + "ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out];\n"
                + "cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2;\n"
                + "mov.u32 %r1, %tid.x; mul.wide.u32 %rd3, %r1, 16; add.s64 %rd4, %rd1, %rd3;\n"
                + "ld.global.f32 %f1, [%rd4]; ld.global.f32 %f2, [%rd4+4]; ld.global.f32 %f3, [%rd4+8];\n"
                + "mul.wide.u32 %rd5, %r1, " + 4 * FORMS + "; add.s64 %rd6, %rd2, %rd5;\n");
        int k = 0;
        for (String op : new String[] {"add", "sub", "mul", "fma", "div", "sqrt", "rcp"})
            for (String r : new String[] {".rn", ".rz", ".rm", ".rp"})
                for (String ftz : new String[] {"", ".ftz"})
                    for (String sat : new String[] {"", ".sat"}) {
                        boolean three = op.equals("fma"), one = op.equals("sqrt") || op.equals("rcp");
                        if (!sat.isEmpty() && (one || op.equals("div"))) continue;
                        String dst = "%f" + (10 + k);
                        b.append(op + r + ftz + sat + ".f32 " + dst + ", %f1" + (one ? "" : ", %f2")
                                + (three ? ", %f3" : "") + ";\n");
                        b.append("st.global.f32 [%rd6+" + 4 * k + "], " + dst + ";\n");
                        k++;
                    }
        if (k != FORMS) throw new IllegalStateException(k + " forms");
        return b.append("ret;\n}\n").toString();
    }

    private static final int FORMS = 88;

    private static Outcome rounded(Program p, Machines machines) throws Exception {
        java.nio.ByteBuffer t =
                java.nio.ByteBuffer.allocate(16 * Warmup.ROWS.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < Warmup.ROWS.length; r++)
            t.putFloat(Warmup.ROWS[r][0])
                    .putFloat(Warmup.ROWS[r][1])
                    .putFloat(Warmup.ROWS[(r + 3) % Warmup.ROWS.length][1])
                    .putFloat(0);
        Launch l = new Launch(p);
        long in = l.alloc(t.array());
        int n = 4 * FORMS * Warmup.ROWS.length;
        long out = l.alloc(new byte[n]);
        l.param(0, in);
        l.param(1, out);
        l.run(new int[] {1, 1, 1}, new int[] {Warmup.ROWS.length, 1, 1}, 0, Long.MAX_VALUE, machines);
        return new Outcome(List.of(digest(l.read(out, n))), l.executed(), null, "");
    }

    @Test
    void everyRoundedFormOfF32ArithmeticComputesAsOnTheInterpreter() throws Exception {
        PtxText.Module m = PtxModelAdapter.read(roundedForms());
        for (Decoder.Options o : List.of(new Decoder.Options(), new Decoder.Options().exceptions(true))) {
            Program p = Decoder.decode(m, "t", o);
            int g = 0;
            for (int i = 0; i < p.n; i++) if (p.op[i] == Op.F32_G) g++;
            assertThat(g).isGreaterThanOrEqualTo(FORMS - 16); // the .rn forms without .sat may be specialised
            same("rounded forms " + o, () -> Decoder.decode(m, "t", o), CompiledCodeTest::rounded);
        }
    }

    @Test
    void aProgramWithAnInstructionTheTranslatorDoesNotKnowRunsOnTheInterpreter() throws Exception {
        Program p = Warmup.programs().get(0);
        assertThat(Compiler.untranslatable(p)).isNull();
        int k = 3;
        p.op[k] = 999;
        p.opGuarded[k] = 999;
        assertThat(Compiler.untranslatable(p)).contains("opcode 999 at 3");
        Machine m = COMPILED.create(p, new Space(8, false), 0);
        assertThat(m).isInstanceOf(Interpreter.class);
        assertThat(((Interpreter) m).compiled()).isFalse();
        assertThat(Compiler.of(p)).isNull();
        // and the interpreter runs it: its own fault for the opcode
        assertThat(warm(p, COMPILED, Long.MAX_VALUE).fault()).contains("bad opcode 999");
    }

    @Test
    void programsOfTheSameInstructionsShareOneClassAndTheCodeIsOffWithTheProperty() throws Exception {
        List<Program> a = Warmup.programs(), b = Warmup.programs();
        Machine m = COMPILED.create(a.get(2), new Space(8, false), 0);
        assertThat(((Interpreter) m).compiled()).isTrue();
        assertThat(((Interpreter) LOOP.create(a.get(2), new Space(8, false), 0)).compiled())
                .isFalse();
        // decoded twice from the same PTX and options: one class; other options or kernels: classes of their own
        assertThat(Compiler.of(b.get(2))).isSameAs(Compiler.of(a.get(2)));
        for (Program p : a)
            for (Program q : b)
                assertThat(Compiler.of(p) == Compiler.of(q))
                        .isEqualTo(Compiler.Key.of(p).equals(Compiler.Key.of(q)));
        assertThat(new java.util.HashSet<>(a.stream().map(Compiler::of).toList()).size())
                .isGreaterThan(a.size() / 2);
        assertThat(Compiler.ON).isEqualTo(Boolean.parseBoolean(System.getProperty("numlint.interp.compile", "true")));
        assertThat(Machines.JVM.create(a.get(0), new Space(8, false), 0))
                .satisfies(x -> assertThat(((Interpreter) x).compiled()).isEqualTo(Compiler.ON));
    }
}
