package dev.numlint.validation.gpu;

import dev.numlint.validation.GpuExecutor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link GpuExecutor} on {@link JCudaLauncher}: marshals the validator's arguments into the kernel's .param
 * layout (each scalar in exactly its declared size, little-endian; each pointer parameter a fresh device buffer
 * with {@link #PAD} zero bytes after the data, as the CPU interpreter leaves unused space after each buffer).
 * After a failed launch (which may leave the context unusable) the context is recreated.
 */
public final class JCudaGpuExecutor implements GpuExecutor {
    /** Zero bytes after each buffer (the interpreter's Launch.PAD), so slightly-past-the-end reads see zeros on both. */
    public static final int PAD = 64 * 1024;

    private JCudaLauncher launcher;
    private String lost;
    private JCudaLauncher.DeviceInfo info;
    private boolean opened;
    private final int ordinal;

    /** An executor on device 0 whose context is created on first use (so that a mere availability check costs none). */
    public JCudaGpuExecutor() {
        this(0);
    }

    /** An executor on device {@code ordinal} whose context is created on first use. */
    public JCudaGpuExecutor(int ordinal) {
        this.ordinal = ordinal;
    }

    public JCudaGpuExecutor(JCudaLauncher launcher) {
        this.launcher = launcher;
        this.info = launcher.info();
        this.opened = true;
        this.ordinal = -1;
    }

    private JCudaLauncher launcher() {
        if (!opened) {
            opened = true;
            launcher = JCudaLauncher.open(ordinal);
            info = launcher.info();
        }
        if (launcher == null)
            throw new IllegalStateException(
                    "the GPU context was lost (an error such as CUDA_ERROR_ILLEGAL_ADDRESS is sticky for the whole process): "
                            + lost);
        return launcher;
    }

    @Override
    public String name() {
        return "gpu";
    }

    @Override
    public Map<String, String> facts() {
        if (info == null) launcher();
        Map<String, String> m = new LinkedHashMap<>();
        m.put("device", info.name());
        m.put("computeCapability", info.computeCapability());
        m.put("driverCudaVersion", info.driverCudaVersion());
        m.put("multiprocessors", Integer.toString(info.multiprocessors()));
        return m;
    }

    /** The launcher's arguments for args with the declared parameter sizes; pure, tested without a GPU. */
    public static List<JCudaLauncher.Arg> marshal(List<Object> args, int[] paramSizes) {
        if (args.size() != paramSizes.length) {
            throw new IllegalArgumentException(args.size() + " arguments for " + paramSizes.length + " parameters");
        }
        List<JCudaLauncher.Arg> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            Object a = args.get(i);
            int size = paramSizes[i];
            if (a instanceof byte[] data) {
                if (size != 8)
                    throw new IllegalArgumentException(
                            "parameter " + i + " holds a buffer but is declared with " + size + " bytes");
                byte[] padded = new byte[data.length + PAD];
                System.arraycopy(data, 0, padded, 0, data.length);
                out.add(new JCudaLauncher.Buffer(padded));
            } else if (a instanceof Long bits) {
                if (size != 1 && size != 2 && size != 4 && size != 8) {
                    throw new IllegalArgumentException("scalar parameter " + i + " declared with " + size + " bytes");
                }
                byte[] b = new byte[size];
                for (int k = 0; k < size; k++) b[k] = (byte) (bits >>> (8 * k));
                out.add(new JCudaLauncher.Scalar(b));
            } else if (a instanceof GpuExecutor.Bytes agg) {
                byte[] b = new byte[size];
                System.arraycopy(agg.bytes(), 0, b, 0, Math.min(size, agg.bytes().length));
                out.add(new JCudaLauncher.Scalar(b));
            } else {
                throw new IllegalArgumentException("argument " + i + ": "
                        + (a == null ? "null" : a.getClass().getName()));
            }
        }
        return out;
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
            int timedRepeats) {
        List<JCudaLauncher.Arg> la = marshal(args, paramSizes);
        JCudaLauncher current = launcher();
        JCudaLauncher.LaunchResult r;
        try {
            r = current.launch(ptx, kernel, la, pad3(grid), pad3(block), sharedBytes, timedRepeats);
        } catch (RuntimeException e) {
            if (System.getenv("NUMLINT_GPU_DEBUG") != null) e.printStackTrace();
            reopen(e);
            throw e;
        }
        Map<Integer, byte[]> bufs = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i) instanceof byte[] data) {
                byte[] back = r.buffers().get(i);
                byte[] cut = new byte[data.length];
                System.arraycopy(back, 0, cut, 0, data.length);
                bufs.put(i, cut);
            }
        }
        return new Result(bufs, r.medianMillis(), r.kernelMillis());
    }

    @Override
    public ReplayResult replay(Replay r) {
        JCudaLauncher current = launcher();
        JCudaLauncher.ReplayLaunch out;
        try {
            out = current.replay(
                    r.images(),
                    r.kernel(),
                    pad3(r.grid()),
                    pad3(r.block()),
                    r.sharedBytes(),
                    r.paramBlock(),
                    r.params(),
                    r.allocations(),
                    r.globals(),
                    r.textures(),
                    r.timedRepeats(),
                    PAD);
        } catch (RuntimeException e) {
            if (System.getenv("NUMLINT_GPU_DEBUG") != null) e.printStackTrace();
            reopen(e);
            throw e;
        }
        return new ReplayResult(out.allocations(), out.kernelMillis(), out.repeatsIdentical());
    }

    private static int[] pad3(int[] d) {
        int[] r = {1, 1, 1};
        for (int i = 0; i < Math.min(3, d.length); i++) r[i] = d[i];
        return r;
    }

    /** After a failed launch: a fresh context (a sticky error leaves the old one unusable); null if that fails. */
    private void reopen(RuntimeException cause) {
        JCudaLauncher old = launcher;
        launcher = null;
        lost = cause.getMessage();
        try {
            old.close();
        } catch (RuntimeException ignored) {
            // the context may already be unusable; a new one is created below
        }
        try {
            launcher = JCudaLauncher.open(ordinal < 0 ? 0 : ordinal);
            lost = null;
        } catch (RuntimeException e) {
            lost = cause.getMessage() + "; reopening failed: " + e.getMessage();
        }
    }

    @Override
    public void close() {
        if (launcher != null) launcher.close();
        launcher = null;
    }
}
