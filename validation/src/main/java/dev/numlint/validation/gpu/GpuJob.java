package dev.numlint.validation.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a GPU child process ({@link GpuChild}) is to do, written as JSON into its private working directory by
 * {@link GpuProcess}: probe the device, or run one kernel's launches (every build and input set). Buffers and PTX
 * are separate files next to it, named relative to that directory.
 */
public final class GpuJob {
    /** The {@link GpuExecutorProvider} to use, by name. */
    public String executor = JCudaProvider.NAME;
    /** CUDA device ordinal (among the devices CUDA_VISIBLE_DEVICES leaves visible). */
    public int device;
    /** Only report whether a GPU can be used and its facts; run nothing. */
    public boolean probe;
    /** The kernel (its PTX entry name) whose launches follow. */
    public String kernel;
    /** Timed repeats per launch (after the launch whose results are read back). */
    public int repeats;

    public List<Launch> launches = new ArrayList<>();

    public GpuJob() {}

    /** One launch of one build on one input set. */
    public static final class Launch {
        /** The build (as-built, strict, fmad=false...). */
        public String variant;
        /** The input set. */
        public int set;
        /** The build's PTX, a file in the working directory. */
        public String ptxFile;

        public int[] grid;
        public int[] block;
        public int sharedBytes;
        /** Declared .param sizes in bytes, in parameter order. */
        public int[] paramSizes;
        /** One per kernel parameter, in order. */
        public List<Arg> args = new ArrayList<>();

        /**
         * A recorded launch to replay (numlint record) instead of args: module images (the first that defines the
         * kernel is loaded; PTX text, cubin or fatbinary), the recorded parameter block and its layout, the
         * allocations before the launch, the module variables. Files are named relative to the working directory
         * or absolute (the recording's own files are read where they are, never copied).
         */
        public List<String> images;
        /** The parameter block as recorded. */
        public String paramBlock;
        /** Per parameter: offset, size, allocation index (-1: not a pointer), offset inside the allocation. */
        public List<int[]> params;
        /** The allocations before the launch, in the recording's order. */
        public List<String> allocations;
        /** Module variables by name: the file with their bytes. */
        public Map<String, String> globals;
        /** Texture objects to recreate, each for one parameter. */
        public List<Texture> textures;

        public Launch() {}

        /** "variant V, input set S" for messages. */
        public String describe() {
            return "build " + variant + ", input set " + set;
        }
    }

    /** A recorded texture object (recording-format.md): its descriptors and the file of its texels. */
    public static final class Texture {
        public int param;
        public String resource;
        public int dims;
        public long width, height, depth, layers;
        public int format, channels;
        public long pitch;
        public int[] address;
        public int filter, flags;
        public float[] border;
        public String file;

        public Texture() {}
    }

    /** A kernel argument: a buffer (pointer parameter) or aggregate from a file, or a scalar's bit pattern. */
    public static final class Arg {
        /** "buffer", "bytes" (an aggregate passed by value) or "scalar". */
        public String kind;
        /** For buffer and bytes: the file holding the contents. */
        public String file;
        /** For scalar: the bit pattern, passed in the parameter's declared size. */
        public Long value;

        public Arg() {}
    }
}
