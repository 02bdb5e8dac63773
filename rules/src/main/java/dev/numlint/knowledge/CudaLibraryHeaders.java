package dev.numlint.knowledge;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * The headers of the CUDA libraries ({@code curand_kernel.h}, {@code cufft.h}, {@code cublas_v2.h} ...), which a CUDA
 * toolkit may lack: a partial toolkit, or one installed without a library's development package (cuDNN, cuTENSOR and
 * NCCL come apart from the toolkit). When nvcc reports one of them not found, the toolkit it uses does not hold the
 * library: the advice is to install it, not to look for a project directory (session 81 round I: a path tracer's four
 * {@code curand_kernel.h} failures were put down to an unrelated include directory the scan had dropped). Pure and
 * without dependencies.
 */
public final class CudaLibraryHeaders {
    private CudaLibraryHeaders() {}

    /** The headers of each library, by file name (as the toolkit names them; case matters). */
    private static final Map<String, Pattern> HEADERS = Map.ofEntries(
            Map.entry("cuRAND", Pattern.compile("curand(_[a-z0-9_]+)?\\.h")),
            Map.entry("cuBLAS", Pattern.compile("cublas(_v2|_api|Lt|Xt|_[a-z0-9_]+)?\\.h")),
            Map.entry("cuFFT", Pattern.compile("cufft(Xt|w)?\\.h")),
            Map.entry("cuSPARSE", Pattern.compile("cusparse(_v2)?\\.h")),
            Map.entry("cuSOLVER", Pattern.compile("cusolver(Dn|Sp|Rf|Mg|_common|Sp_LOWLEVEL_PREVIEW)\\.h")),
            Map.entry("NPP", Pattern.compile("npp(core|defs|i|s)?(_[a-z_]+)?\\.h")),
            Map.entry("nvJPEG", Pattern.compile("nvjpeg\\.h")),
            Map.entry("NVRTC", Pattern.compile("nvrtc\\.h")),
            Map.entry("cuDNN", Pattern.compile("cudnn(_[a-z0-9_]+)?\\.h")),
            Map.entry("cuTENSOR", Pattern.compile("cutensor(Mg)?\\.h")),
            Map.entry("NCCL", Pattern.compile("nccl(_net)?\\.h")));

    /**
     * The library whose header {@code include} is (a name as written in an include, with or without a directory,
     * quotes or angle brackets: {@code <curand_kernel.h>}), or null for any other header.
     */
    public static String library(String include) {
        if (include == null) return null;
        String name = include.replaceAll("^[\"<]|[\">]$", "");
        name = name.substring(name.lastIndexOf('/') + 1);
        for (Map.Entry<String, Pattern> e : HEADERS.entrySet())
            if (e.getValue().matcher(name).matches()) return e.getKey();
        return null;
    }
}
