package dev.numlint.validation.gpu;

import dev.numlint.validation.GpuExecutor;
import dev.numlint.validation.interp.Decoder;
import dev.numlint.validation.interp.Launch;
import dev.numlint.validation.interp.Program;
import dev.numlint.validation.interp.PtxModelAdapter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Stand-in GPUs for the GPU child process, registered in the test class path's META-INF/services: each runs good
 * kernels on numlint's interpreter (so its results agree bit for bit with the validator's as-built run) and
 * misbehaves on the kernel named "bad" the way a real GPU run can. They let tests exercise the real child-process
 * path (GuardedProcess, job and result files, crash and timeout handling) on a host without a GPU.
 */
public final class TestGpuProviders {
    private TestGpuProviders() {}

    /** What happens when the kernel "bad" is launched. */
    enum Misbehaviour {
        /** CUDA_ERROR_ILLEGAL_ADDRESS, sticky for the whole process (as the H100 showed: a fresh context fails too). */
        STICKY,
        /** The JVM dies of a real SIGSEGV (a write to address 0 through sun.misc.Unsafe): hs_err log, no result. */
        SIGSEGV,
        /** The process ends at once with exit code 139 (128 + SIGSEGV), no result written for the launch. */
        HALT,
        /** The launch never returns. */
        HANG,
        /**
         * Every replayed launch runs correctly, but like a kernel whose result depends on the order its threads ran in
         * (float atomics, a race): every second build's first changed element comes back one bit off, and the
         * as-built repeats are reported as differing among themselves.
         */
        ORDER
    }

    /** Replayed launches so far in this process (ORDER flips the result of every second one). */
    static int replays;

    /** Set once "bad" faulted with STICKY: every later launch in this process fails. */
    static volatile String stickyError;

    static final class Executor implements GpuExecutor {
        private final Misbehaviour mode;

        Executor(Misbehaviour mode) {
            this.mode = mode;
        }

        @Override
        public String name() {
            return "test-gpu";
        }

        @Override
        public Map<String, String> facts() {
            return Map.of("device", "test GPU (" + mode.name().toLowerCase(java.util.Locale.ROOT) + " on 'bad')");
        }

        @Override
        public Result run(
                String ptx,
                String kernel,
                int[] grid,
                int[] block,
                int sharedBytes,
                List<Object> args,
                int[] paramSizes,
                int timedRepeats)
                throws Exception {
            if (stickyError != null)
                throw new IllegalStateException("CUDA_ERROR_ILLEGAL_ADDRESS (sticky since " + stickyError + ")");
            if (kernel.equals("bad")) {
                switch (mode) {
                    case STICKY -> {
                        stickyError = "kernel bad";
                        throw new IllegalStateException("cuLaunchKernel failed: CUDA_ERROR_ILLEGAL_ADDRESS");
                    }
                    case SIGSEGV -> {
                        Class<?> u = Class.forName("sun.misc.Unsafe");
                        java.lang.reflect.Field f = u.getDeclaredField("theUnsafe");
                        f.setAccessible(true);
                        u.getMethod("putAddress", long.class, long.class).invoke(f.get(null), 0L, 0L);
                        throw new IllegalStateException("survived a write to address 0");
                    }
                    case HALT -> Runtime.getRuntime().halt(139);
                    case HANG -> Thread.sleep(Long.MAX_VALUE);
                }
            }
            Program p = Decoder.decode(PtxModelAdapter.read(ptx), kernel, new Decoder.Options().contract(true));
            Launch l = new Launch(p);
            long[] addr = new long[args.size()];
            for (int i = 0; i < args.size(); i++) {
                Object a = args.get(i);
                if (a instanceof byte[] b) {
                    addr[i] = l.alloc(b.clone());
                    l.param(i, addr[i]);
                } else if (a instanceof Bytes agg) l.paramBytes(i, agg.bytes());
                else l.param(i, (Long) a);
            }
            l.run(grid, block, sharedBytes, 500_000_000L);
            Map<Integer, byte[]> out = new LinkedHashMap<>();
            for (int i = 0; i < args.size(); i++)
                if (args.get(i) instanceof byte[] b) out.put(i, l.read(addr[i], b.length));
            float[] ms = new float[Math.max(0, timedRepeats)];
            java.util.Arrays.fill(ms, 0.01f);
            return new Result(out, 0.01, ms);
        }

        /**
         * A recorded launch on the interpreter: the first image that is PTX text defining the kernel (a cubin or
         * fatbinary is "not loadable" here), the parameter block with each pointer rewritten to its restored
         * allocation, as the real GPU does it.
         */
        @Override
        public ReplayResult replay(Replay r) throws Exception {
            if (r.kernel().equals("bad")) run("", "bad", r.grid(), r.block(), 0, List.of(), new int[0], 0);
            String ptx = null;
            for (byte[] image : r.images()) {
                String t = new String(image, java.nio.charset.StandardCharsets.UTF_8);
                if (t.endsWith("\0")) t = t.substring(0, t.length() - 1);
                if (t.indexOf('\0') < 0 && t.contains(".entry " + r.kernel())) { // PTX text, not a binary image
                    ptx = t;
                    break;
                }
            }
            if (ptx == null) throw new IllegalStateException("no loadable image defines " + r.kernel());
            Program p = Decoder.decode(PtxModelAdapter.read(ptx), r.kernel(), new Decoder.Options().contract(true));
            Launch l = new Launch(p);
            for (Map.Entry<String, byte[]> g : r.globals().entrySet()) l.moduleVariable(g.getKey(), g.getValue());
            // texture objects recreated with fresh handles (as a real context gives), passed in their parameters
            byte[] block = r.paramBlock().clone();
            long handle = 0x7e000;
            for (ReplayTexture t : r.textures()) {
                dev.numlint.validation.interp.Texture x = new dev.numlint.validation.interp.Texture(
                        t.dims(),
                        (int) t.width(),
                        (int) Math.max(1, t.height()),
                        (int) Math.max(1, t.depth()),
                        (int) t.layers(),
                        t.channels(),
                        t.format() == 0x20
                                ? dev.numlint.validation.interp.Texture.Format.F32
                                : dev.numlint.validation.interp.Texture.Format.U8,
                        t.pitch(),
                        t.data());
                x.linear = t.filter() == 1;
                l.texture(++handle, x);
                int off = r.params().get(t.param())[0];
                for (int k = 0; k < 8; k++) block[off + k] = (byte) (handle >>> (8 * k));
            }
            long[] base = new long[r.allocations().size()];
            for (int a = 0; a < base.length; a++)
                base[a] = l.alloc(r.allocations().get(a).clone());
            for (int i = 0; i < r.params().size(); i++) {
                int[] pl = r.params().get(i);
                if (pl[2] >= 0) l.param(i, base[pl[2]] + pl[3]);
                else l.paramBytes(i, java.util.Arrays.copyOfRange(block, pl[0], pl[0] + pl[1]));
            }
            l.run(r.grid(), r.block(), r.sharedBytes(), 500_000_000L);
            List<byte[]> out = new java.util.ArrayList<>();
            for (int a = 0; a < base.length; a++)
                out.add(l.read(base[a], r.allocations().get(a).length));
            float[] ms = new float[Math.max(0, r.timedRepeats())];
            java.util.Arrays.fill(ms, 0.01f);
            if (mode != Misbehaviour.ORDER) return new ReplayResult(out, ms, true);
            if (replays++ % 2 == 1) flipFirstChange(out, r.allocations());
            return new ReplayResult(out, ms, false);
        }

        @Override
        public void close() {}

        /** The lowest bit of the first byte that differs from the allocation before the launch, flipped. */
        private static void flipFirstChange(List<byte[]> out, List<byte[]> before) {
            for (int a = 0; a < out.size(); a++)
                for (int i = 0; i < out.get(a).length; i++)
                    if (out.get(a)[i] != before.get(a)[i]) {
                        out.get(a)[i - i % 4] ^= 1;
                        return;
                    }
        }
    }

    abstract static class Base implements GpuExecutorProvider {
        private final String name;
        private final Misbehaviour mode;

        Base(String name, Misbehaviour mode) {
            this.name = name;
            this.mode = mode;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Optional<String> unavailableReason() {
            return Optional.empty();
        }

        @Override
        public GpuExecutor open(int ordinal) {
            return new Executor(mode);
        }
    }

    public static final class Sticky extends Base {
        public Sticky() {
            super("test-sticky", Misbehaviour.STICKY);
        }
    }

    public static final class Segv extends Base {
        public Segv() {
            super("test-sigsegv", Misbehaviour.SIGSEGV);
        }
    }

    public static final class Halt extends Base {
        public Halt() {
            super("test-halt", Misbehaviour.HALT);
        }
    }

    public static final class Hang extends Base {
        public Hang() {
            super("test-hang", Misbehaviour.HANG);
        }
    }

    public static final class Order extends Base {
        public Order() {
            super("test-order", Misbehaviour.ORDER);
        }
    }

    /** A host whose driver reports no GPU. */
    public static final class Absent implements GpuExecutorProvider {
        public Absent() {}

        @Override
        public String name() {
            return "test-absent";
        }

        @Override
        public Optional<String> unavailableReason() {
            return Optional.of("the CUDA driver reports no GPU (test)");
        }

        @Override
        public GpuExecutor open(int ordinal) {
            throw new IllegalStateException("no GPU");
        }
    }
}
