package dev.numlint.validation.interp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Gives the JIT a profile of the whole interpreter loop before it compiles it, once per JVM, before the first launch.
 *
 * <p>Why: C2 compiles {@link Interpreter}'s loop from the profile gathered so far, and a case of its opcode switch,
 * or a direction of a branch, that the profile never saw is compiled as a trap. The first build a replay runs (the
 * as-built one) sees only its own instructions; the next build (strict: non-.ftz arithmetic, division rounded to
 * nearest; or the build counting exceptions) executes an instruction the first never did, the compiled loop is
 * thrown away ({@code unstable_if} at the opcode switch, seen with {@code -XX:+LogCompilation}) and runs in the
 * profiling tier at about a tenth of the speed until C2 has compiled it again, seconds later on a loaded machine,
 * after which the profile is wider and the next new instruction starts the same again. Here every form the loop
 * executes runs on special values (zeros, subnormals, the largest floats, infinities, NaN, integers of both signs,
 * division by zero), in every decoding the replay uses (as built, the exception checks, the strict switches, host
 * conversions, reference mode), in small rounds, so that whenever C2 reads the profile it has seen every case.
 *
 * <p>It costs a few hundred thousand interpreted instructions (tens of milliseconds) and changes no result: the
 * warm-up runs on its own launches of its own kernels ({@code warmup.ptx}, written for this). {@code
 * -Dnumlint.interp.warmup=false} turns it off (to measure without it).
 */
final class Warmup {
    private Warmup() {}

    private static boolean done;

    /** Rounds of every kernel in every decoding: enough for C2's thresholds to be reached inside the warm-up. */
    static final int ROUNDS = 12;

    /** Runs the warm-up unless it has run (or is running) in this JVM or is turned off. */
    static void once() {
        synchronized (Warmup.class) {
            if (done) return;
            done = true;
        }
        if (!Boolean.parseBoolean(System.getProperty("numlint.interp.warmup", "true"))) return;
        try {
            run(Integer.getInteger("numlint.interp.warmupRounds", ROUNDS));
        } catch (IOException | KernelFault | RuntimeException e) {
            // the warm-up only shapes the JIT's profile; a failure here changes nothing the replay computes
        }
    }

    /** The decodings the replay and validation use. */
    static List<Decoder.Options> decodings() {
        return List.of(
                new Decoder.Options(),
                new Decoder.Options().exceptions(true),
                new Decoder.Options().unfuseFma(true).exactDiv(true).noFtz(true).exactSqrt(true),
                new Decoder.Options().host(true),
                new Decoder.Options().reference(true));
    }

    static final List<String> KERNELS = List.of("warm", "warmSync");

    /** The warm-up's programs: each kernel in each decoding. */
    static List<Program> programs() throws IOException {
        String ptx;
        try (InputStream in = Warmup.class.getResourceAsStream("warmup.ptx")) {
            if (in == null) throw new IOException("warmup.ptx missing");
            ptx = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        PtxText.Module m = PtxModelAdapter.read(ptx);
        List<Program> ps = new ArrayList<>();
        for (Decoder.Options o : decodings()) for (String k : KERNELS) ps.add(Decoder.decode(m, k, o));
        return ps;
    }

    /** Rows of (f32 a, f32 b, f64 c): the values each thread of a warm-up launch computes with. */
    static final float[][] ROWS = {
        {1f, 2f},
        {-1.5f, 0f},
        {0f, -0f},
        {-0f, Float.MIN_VALUE},
        {Float.MIN_VALUE, 1e-39f},
        {1e-39f, -3f},
        {Float.MAX_VALUE, Float.MAX_VALUE},
        {Float.POSITIVE_INFINITY, 1f},
        {Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY},
        {Float.NaN, 2f},
        {3e9f, -3e9f},
        {-7f, Float.NaN},
        {0.5f, 1e-30f},
        {1e30f, -1e30f},
        {-1e-30f, 0.25f},
        {2f, -1f}
    };

    static byte[] table() {
        ByteBuffer b = ByteBuffer.allocate(16 * ROWS.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < ROWS.length; r++) {
            float[] row = ROWS[r];
            b.putFloat(row[0]).putFloat(row[1]).putDouble(ROWS[(r + 5) % ROWS.length][0] * 1.25);
        }
        return b.array();
    }

    /** Runs every warm-up program rounds times, one small launch each, interleaved. */
    static void run(int rounds) throws IOException, KernelFault {
        List<Program> ps = programs();
        byte[] table = table();
        for (int r = 0; r < rounds; r++) {
            for (Program p : ps) {
                Launch l = new Launch(p);
                long in = l.alloc(table.clone(), "warm-up values");
                long out = l.alloc(new byte[256 * ROWS.length * 2], "warm-up results");
                l.param(0, in);
                l.param(1, out);
                l.param(2, ROWS.length);
                // warp-synchronous kernels need whole warps; the others one thread per row
                int threads = p.hasSync ? 32 : ROWS.length;
                l.run(new int[] {1, 1, 1}, new int[] {threads, 1, 1}, 0, 10_000_000L, null);
            }
        }
    }
}
