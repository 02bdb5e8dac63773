package dev.numlint.validation.gpu;

import static jcuda.driver.JCudaDriver.cuCtxCreate;
import static jcuda.driver.JCudaDriver.cuCtxDestroy;
import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDriverGetVersion;
import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;
import static jcuda.driver.JCudaDriver.cuInit;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleGetGlobal;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;
import static jcuda.driver.JCudaDriver.cuModuleUnload;
import static jcuda.driver.JCudaDriver.cuPointerGetAttribute;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import jcuda.CudaException;
import jcuda.NativePointerObject;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUpointer_attribute;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/**
 * Runs one PTX kernel on an NVIDIA GPU through JCuda's driver API: loads the PTX with {@code cuModuleLoadData},
 * copies the arguments to the device, launches, copies the buffers back, and times the kernel with CUDA events.
 * Knows nothing about numlint's interpreter: arguments are raw little-endian bytes, exactly as the kernel's
 * {@code .param} space lays them out, so the same argument list can be given to the CPU interpreter.
 */
public final class JCudaLauncher implements AutoCloseable {

    /** A kernel argument: a device buffer (pointer parameter) or a scalar passed by value. */
    public sealed interface Arg permits Buffer, Scalar {}

    /** A pointer parameter: {@code data} is copied to a fresh device allocation; read back after the launch. */
    public record Buffer(byte[] data) implements Arg {}

    /** A by-value parameter, {@code bytes} little-endian exactly as the .param declares it (4 or 8 bytes...). */
    public record Scalar(byte[] bytes) implements Arg {}

    /** Facts about the device and driver, recorded in every report so an auditor can reproduce the run. */
    public record DeviceInfo(String name, int ccMajor, int ccMinor, String driverCudaVersion, int multiprocessors) {
        public String computeCapability() {
            return ccMajor + "." + ccMinor;
        }
    }

    /**
     * Result of one launch: the buffers after the first launch (in argument order, null for scalars) and the
     * kernel times in milliseconds of the timed repetitions (each on fresh copies of the inputs).
     */
    public record LaunchResult(List<byte[]> buffers, float[] kernelMillis) {
        public float medianMillis() {
            if (kernelMillis.length == 0) {
                return Float.NaN;
            }
            float[] s = kernelMillis.clone();
            Arrays.sort(s);
            return s[s.length / 2];
        }
    }

    private final CUcontext context;
    private final CUdevice device;
    private final DeviceInfo info;

    private JCudaLauncher(CUcontext context, CUdevice device, DeviceInfo info) {
        this.context = context;
        this.device = device;
        this.info = info;
    }

    /**
     * Why no GPU can be used here, or empty when one can: the JCuda natives must load, the driver must initialize
     * and report at least one device.
     */
    public static Optional<String> unavailableReason() {
        try {
            JCudaDriver.setExceptionsEnabled(true);
            cuInit(0);
            int[] count = new int[1];
            cuDeviceGetCount(count);
            if (count[0] == 0) {
                return Optional.of("the CUDA driver reports no GPU");
            }
            return Optional.empty();
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            return Optional.of("the CUDA driver library could not be loaded (" + linkFailure(e.getMessage()) + ")");
        } catch (CudaException e) {
            return Optional.of("the CUDA driver failed to initialize: " + firstLine(e.getMessage()));
        }
    }

    /** Opens a context on device {@code ordinal}. Call {@link #unavailableReason()} first. */
    public static JCudaLauncher open(int ordinal) {
        JCudaDriver.setExceptionsEnabled(true);
        cuInit(0);
        CUdevice dev = new CUdevice();
        cuDeviceGet(dev, ordinal);
        byte[] name = new byte[256];
        cuDeviceGetName(name, name.length, dev);
        int len = 0;
        while (len < name.length && name[len] != 0) {
            len++;
        }
        int major = attribute(dev, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
        int minor = attribute(dev, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        int sms = attribute(dev, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        int[] drv = new int[1];
        cuDriverGetVersion(drv);
        String driverCuda = (drv[0] / 1000) + "." + (drv[0] % 1000) / 10;
        CUcontext ctx = new CUcontext();
        cuCtxCreate(ctx, 0, dev);
        return new JCudaLauncher(
                ctx,
                dev,
                new DeviceInfo(new String(name, 0, len, StandardCharsets.US_ASCII), major, minor, driverCuda, sms));
    }

    private static int attribute(CUdevice dev, int attr) {
        int[] v = new int[1];
        cuDeviceGetAttribute(v, attr, dev);
        return v[0];
    }

    public DeviceInfo info() {
        return info;
    }

    /**
     * Loads {@code ptx}, launches {@code kernel} once for the results and {@code timedRepeats} more times (each on
     * fresh copies of the inputs) for the timing.
     *
     * @throws GpuLaunchException with the driver's error name when loading or launching fails
     */
    public LaunchResult launch(
            String ptx, String kernel, List<Arg> args, int[] grid, int[] block, int sharedBytes, int timedRepeats) {
        cuCtxSetCurrent(context);
        CUmodule module = new CUmodule();
        try {
            byte[] image = (ptx + "\0").getBytes(StandardCharsets.UTF_8);
            cuModuleLoadData(module, image);
        } catch (CudaException e) {
            throw new GpuLaunchException("cuModuleLoadData failed for kernel " + kernel + ": " + e.getMessage(), e);
        }
        try {
            CUfunction function = new CUfunction();
            try {
                cuModuleGetFunction(function, module, kernel);
            } catch (CudaException e) {
                throw new GpuLaunchException("kernel " + kernel + " not found in the PTX module: " + e.getMessage(), e);
            }
            List<byte[]> results = runOnce(function, args, grid, block, sharedBytes, null);
            float[] times = new float[Math.max(0, timedRepeats)];
            for (int i = 0; i < times.length; i++) {
                float[] ms = new float[1];
                runOnce(function, args, grid, block, sharedBytes, ms);
                times[i] = ms[0];
            }
            return new LaunchResult(results, times);
        } finally {
            cuModuleUnload(module);
        }
    }

    private List<byte[]> runOnce(
            CUfunction function, List<Arg> args, int[] grid, int[] block, int sharedBytes, float[] millis) {
        List<CUdeviceptr> allocations = new ArrayList<>();
        NativePointerObject[] params = new NativePointerObject[args.size()];
        try {
            for (int i = 0; i < args.size(); i++) {
                Arg a = args.get(i);
                if (a instanceof Buffer b) {
                    CUdeviceptr p = new CUdeviceptr();
                    cuMemAlloc(p, Math.max(1, b.data().length));
                    allocations.add(p);
                    if (b.data().length > 0) {
                        cuMemcpyHtoD(p, Pointer.to(b.data()), b.data().length);
                    }
                    params[i] = Pointer.to(p);
                } else {
                    allocations.add(null);
                    params[i] = Pointer.to(((Scalar) a).bytes());
                }
            }
            timedLaunch(function, grid, block, sharedBytes, params, millis);
            List<byte[]> out = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i) instanceof Buffer b) {
                    byte[] back = new byte[b.data().length];
                    if (back.length > 0) {
                        cuMemcpyDtoH(Pointer.to(back), allocations.get(i), back.length);
                    }
                    out.add(back);
                } else {
                    out.add(null);
                }
            }
            return out;
        } finally {
            for (CUdeviceptr p : allocations) {
                if (p != null) {
                    cuMemFree(p);
                }
            }
        }
    }

    /**
     * Replays a recorded launch: loads the first of {@code images} that defines {@code kernel} (PTX text, cubin or
     * fatbinary, as {@code cuModuleLoadData} takes them), writes {@code globals} into the module's variables of those names (others belong to other modules),
     * restores each allocation in a fresh device allocation ({@code pad} zero bytes after it), rewrites each pointer
     * parameter to its allocation's device address plus the recorded offset, launches once for the results and
     * {@code timedRepeats} times more on freshly restored inputs for the timing and the repeatability check.
     */
    public ReplayLaunch replay(
            List<byte[]> images,
            String kernel,
            int[] grid,
            int[] block,
            int sharedBytes,
            byte[] paramBlock,
            List<int[]> params,
            List<byte[]> allocations,
            java.util.Map<String, byte[]> globals,
            List<dev.numlint.validation.GpuExecutor.ReplayTexture> textures,
            int timedRepeats,
            int pad) {
        cuCtxSetCurrent(context);
        CUmodule module = null;
        CUfunction function = new CUfunction();
        List<String> tried = new ArrayList<>();
        for (byte[] image : images) {
            CUmodule m = new CUmodule();
            try {
                cuModuleLoadData(m, image);
            } catch (CudaException e) {
                tried.add("cuModuleLoadData: " + e.getMessage());
                continue;
            }
            try {
                cuModuleGetFunction(function, m, kernel);
                module = m;
                break;
            } catch (CudaException e) {
                tried.add("no " + kernel + " in this image");
                cuModuleUnload(m);
            }
        }
        if (module == null)
            throw new GpuLaunchException(
                    "no recorded module image could be loaded with kernel " + kernel + ": " + tried, null);
        List<CUdeviceptr> allocs = new ArrayList<>();
        List<jcuda.driver.CUtexObject> texObjects = new ArrayList<>();
        List<jcuda.driver.CUarray> arrays = new ArrayList<>();
        List<CUdeviceptr> texMemory = new ArrayList<>();
        try {
            long[] address = new long[allocations.size()];
            for (int a = 0; a < allocations.size(); a++) {
                CUdeviceptr p = new CUdeviceptr();
                cuMemAlloc(p, Math.max(1, allocations.get(a).length + (long) pad));
                allocs.add(p);
                long[] v = new long[1];
                cuPointerGetAttribute(Pointer.to(v), CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_POINTER, p);
                address[a] = v[0];
            }
            byte[] block0 = paramBlock.clone();
            for (int[] pl : params)
                if (pl[2] >= 0) {
                    long at = address[pl[2]] + pl[3];
                    for (int k = 0; k < 8 && k < pl[1]; k++) block0[pl[0] + k] = (byte) (at >>> (8 * k));
                }
            NativePointerObject[] kp = new NativePointerObject[params.size()];
            for (int i = 0; i < params.size(); i++) {
                int[] pl = params.get(i);
                kp[i] = Pointer.to(Arrays.copyOfRange(block0, pl[0], pl[0] + Math.max(1, pl[1])));
            }
            // texture objects recreated in this context: the parameter passes the new handle
            for (dev.numlint.validation.GpuExecutor.ReplayTexture t : textures) {
                if (t.param() < 0 || t.param() >= kp.length) continue;
                jcuda.driver.CUtexObject o = texture(t, arrays, texMemory);
                texObjects.add(o);
                kp[t.param()] = Pointer.to(o);
            }
            List<byte[]> first = null;
            boolean identical = true;
            float[] times = new float[Math.max(0, timedRepeats)];
            for (int rep = 0; rep <= times.length; rep++) {
                restore(module, allocs, allocations, globals, pad);
                float[] ms = new float[1];
                timedLaunch(function, grid, block, sharedBytes, kp, ms);
                if (rep > 0) times[rep - 1] = ms[0];
                List<byte[]> out = new ArrayList<>();
                for (int a = 0; a < allocations.size(); a++) {
                    byte[] back = new byte[allocations.get(a).length];
                    if (back.length > 0) cuMemcpyDtoH(Pointer.to(back), allocs.get(a), back.length);
                    out.add(back);
                }
                if (first == null) first = out;
                else
                    for (int a = 0; a < out.size(); a++)
                        if (!Arrays.equals(first.get(a), out.get(a))) identical = false;
            }
            return new ReplayLaunch(first, times, identical);
        } finally {
            for (jcuda.driver.CUtexObject o : texObjects) JCudaDriver.cuTexObjectDestroy(o);
            for (jcuda.driver.CUarray a : arrays) JCudaDriver.cuArrayDestroy(a);
            for (CUdeviceptr p : texMemory) cuMemFree(p);
            for (CUdeviceptr p : allocs) cuMemFree(p);
            cuModuleUnload(module);
        }
    }

    /** A recorded texture object recreated: its array (or memory) filled with the texels, its descriptors. */
    private static jcuda.driver.CUtexObject texture(
            dev.numlint.validation.GpuExecutor.ReplayTexture t,
            List<jcuda.driver.CUarray> arrays,
            List<CUdeviceptr> texMemory) {
        jcuda.driver.CUDA_RESOURCE_DESC res = new jcuda.driver.CUDA_RESOURCE_DESC();
        byte[] data = t.data();
        switch (t.resource()) {
            case "linear", "pitch2D" -> {
                CUdeviceptr p = new CUdeviceptr();
                cuMemAlloc(p, Math.max(1, data.length));
                texMemory.add(p);
                if (data.length > 0) cuMemcpyHtoD(p, Pointer.to(data), data.length);
                if (t.resource().equals("linear")) {
                    res.resType = jcuda.driver.CUresourcetype.CU_RESOURCE_TYPE_LINEAR;
                    res.linear_devPtr = p;
                    res.linear_format = t.format();
                    res.linear_numChannels = t.channels();
                    res.linear_sizeInBytes = data.length;
                } else {
                    res.resType = jcuda.driver.CUresourcetype.CU_RESOURCE_TYPE_PITCH2D;
                    res.pitch2D_devPtr = p;
                    res.pitch2D_format = t.format();
                    res.pitch2D_numChannels = t.channels();
                    res.pitch2D_width = t.width();
                    res.pitch2D_height = t.height();
                    res.pitch2D_pitchInBytes = t.pitch();
                }
            }
            default -> { // array
                jcuda.driver.CUDA_ARRAY3D_DESCRIPTOR d = new jcuda.driver.CUDA_ARRAY3D_DESCRIPTOR();
                d.Width = t.width();
                d.Height = t.dims() >= 2 ? t.height() : 0;
                d.Depth = t.layers() > 0 ? t.layers() : t.dims() == 3 ? t.depth() : 0;
                d.Format = t.format();
                d.NumChannels = t.channels();
                d.Flags = t.layers() > 0 ? jcuda.driver.JCudaDriver.CUDA_ARRAY3D_LAYERED : 0;
                jcuda.driver.CUarray a = new jcuda.driver.CUarray();
                JCudaDriver.cuArray3DCreate(a, d);
                arrays.add(a);
                jcuda.driver.CUDA_MEMCPY3D m = new jcuda.driver.CUDA_MEMCPY3D();
                m.srcMemoryType = jcuda.driver.CUmemorytype.CU_MEMORYTYPE_HOST;
                m.srcHost = Pointer.to(data);
                m.srcPitch = t.pitch();
                m.srcHeight = Math.max(1, t.height());
                m.dstMemoryType = jcuda.driver.CUmemorytype.CU_MEMORYTYPE_ARRAY;
                m.dstArray = a;
                m.WidthInBytes = t.pitch();
                m.Height = Math.max(1, t.height());
                m.Depth = Math.max(1, t.depth()) * Math.max(1, t.layers());
                JCudaDriver.cuMemcpy3D(m);
                res.resType = jcuda.driver.CUresourcetype.CU_RESOURCE_TYPE_ARRAY;
                res.array_hArray = a;
            }
        }
        jcuda.driver.CUDA_TEXTURE_DESC td = new jcuda.driver.CUDA_TEXTURE_DESC();
        td.addressMode =
                t.address() != null && t.address().length == 3 ? t.address().clone() : new int[] {1, 1, 1};
        td.filterMode = t.filter();
        td.flags = t.flags();
        td.borderColor =
                t.border() != null && t.border().length == 4 ? t.border().clone() : new float[4];
        jcuda.driver.CUtexObject o = new jcuda.driver.CUtexObject();
        JCudaDriver.cuTexObjectCreate(o, res, td, null);
        return o;
    }

    /** A replayed launch: allocations after the first launch, kernel times, whether the repeats agreed bit for bit. */
    public record ReplayLaunch(List<byte[]> allocations, float[] kernelMillis, boolean repeatsIdentical) {}

    private static void restore(
            CUmodule module,
            List<CUdeviceptr> allocs,
            List<byte[]> allocations,
            java.util.Map<String, byte[]> globals,
            int pad) {
        for (int a = 0; a < allocations.size(); a++) {
            byte[] d = allocations.get(a);
            byte[] padded = new byte[d.length + pad];
            System.arraycopy(d, 0, padded, 0, d.length);
            if (padded.length > 0) cuMemcpyHtoD(allocs.get(a), Pointer.to(padded), padded.length);
        }
        for (java.util.Map.Entry<String, byte[]> g : globals.entrySet()) {
            CUdeviceptr p = new CUdeviceptr();
            long[] size = new long[1];
            try {
                cuModuleGetGlobal(p, size, module, g.getKey());
            } catch (CudaException e) {
                continue; // a variable of another module the program loaded
            }
            int n = (int) Math.min(size[0], g.getValue().length);
            if (n > 0) cuMemcpyHtoD(p, Pointer.to(g.getValue()), n);
        }
    }

    /** Launches and waits; the kernel's time between CUDA events goes to {@code millis[0]} unless it is null. */
    private static void timedLaunch(
            CUfunction function, int[] grid, int[] block, int sharedBytes, NativePointerObject[] kp, float[] millis) {
        CUevent start = new CUevent();
        CUevent stop = new CUevent();
        cuEventCreate(start, CUevent_flags.CU_EVENT_DEFAULT);
        cuEventCreate(stop, CUevent_flags.CU_EVENT_DEFAULT);
        try {
            cuEventRecord(start, null);
            try {
                cuLaunchKernel(
                        function,
                        grid[0],
                        grid[1],
                        grid[2],
                        block[0],
                        block[1],
                        block[2],
                        sharedBytes,
                        null,
                        Pointer.to(kp),
                        null);
                cuEventRecord(stop, null);
                cuCtxSynchronize();
            } catch (CudaException e) {
                throw new GpuLaunchException("cuLaunchKernel failed: " + e.getMessage(), e);
            }
            cuEventSynchronize(stop);
            if (millis != null) cuEventElapsedTime(millis, start, stop);
        } finally {
            cuEventDestroy(start);
            cuEventDestroy(stop);
        }
    }

    @Override
    public void close() {
        cuCtxDestroy(context);
    }

    /** The device handle, for callers that need more attributes. */
    public CUdevice device() {
        return device;
    }

    /**
     * The reason in JCuda's load failure, which lists every attempt: the dynamic loader's words from the last one
     * (e.g. "libcuda.so.1: cannot open shared object file"), else the first line.
     */
    static String linkFailure(String s) {
        if (s == null) return "no message";
        String found = null;
        for (String line : s.split("\n")) {
            int i = line.indexOf("UnsatisfiedLinkError: ");
            if (i < 0) continue;
            String m = line.substring(i + "UnsatisfiedLinkError: ".length()).strip();
            int so = m.indexOf(".so: "); // "/tmp/.../libJCudaDriver-...so: libcuda.so.1: cannot open ..."
            found = so >= 0 ? m.substring(so + ".so: ".length()) : m;
        }
        return found != null ? firstLine(s) + ": " + found : firstLine(s);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "no message";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Loading or launching failed on the GPU; the message carries the driver's error. */
    public static final class GpuLaunchException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        GpuLaunchException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    static String resultName(int code) {
        return CUresult.stringFor(code);
    }
}
