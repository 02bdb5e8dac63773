package dev.numlint.cuda;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What numlint knows without reading system or CUDA headers: type names (CUDA vector types, fixed-width integers,
 * size_t) and the CUDA math API (return types, which functions are fast intrinsics, which are transcendental).
 */
final class Builtins {
    private Builtins() {}

    static final Map<String, CType> TYPES = new HashMap<>();
    /** Function name -> return type; "=1" means "the type of the first argument" (min, max, atomicAdd ...). */
    static final Map<String, CType> FUNCS = new HashMap<>();

    static final Set<String> SAME_AS_ARG = new HashSet<>();
    static final Set<String> FAST_INTRINSICS = Set.of(
            "__sinf", "__cosf", "__tanf", "__expf", "__exp10f", "__logf", "__log2f", "__log10f", "__powf", "__sincosf");
    /** Single-precision library functions that --use_fast_math maps to the fast intrinsics. */
    static final Map<String, String> FAST_MATH_MAPPED = Map.of(
            "sinf",
            "__sinf",
            "cosf",
            "__cosf",
            "tanf",
            "__tanf",
            "expf",
            "__expf",
            "exp10f",
            "__exp10f",
            "logf",
            "__logf",
            "log2f",
            "__log2f",
            "log10f",
            "__log10f",
            "powf",
            "__powf",
            "sincosf",
            "__sincosf");
    /** Transcendental functions (not correctly rounded; CPU and GPU libraries differ). */
    static final Set<String> TRANSCENDENTAL = new HashSet<>();
    /** Functions that bound their result: a conversion of their result is range-guarded. */
    static final Set<String> CLAMPS = Set.of(
            "fminf",
            "fmaxf",
            "fmin",
            "fmax",
            "min",
            "max",
            "__saturatef",
            "saturate",
            "clamp",
            "clampf",
            "std::min",
            "std::max",
            "umin",
            "umax",
            "__clamp",
            "fminimum",
            "fmaximum");
    /** Functions whose result lies in a fixed bounded interval ([-1, 1] or [0, 1]): range-limited by themselves. */
    static final Set<String> BOUNDED = Set.of(
            "sin",
            "sinf",
            "__sinf",
            "cos",
            "cosf",
            "__cosf",
            "sinpi",
            "sinpif",
            "cospi",
            "cospif",
            "tanh",
            "tanhf",
            "erf",
            "erff",
            "normcdf",
            "normcdff");

    /** Explicit, well-defined float-to-integer conversions. */
    static final Set<String> CONVERSION_INTRINSICS = new HashSet<>();
    /** Double-precision math functions (promote a float argument to double). */
    static final Set<String> DOUBLE_MATH = new HashSet<>();

    static {
        put("size_t", CType.ULONG.alias("size_t"));
        put("std::size_t", CType.ULONG.alias("size_t"));
        put("ssize_t", CType.LONG.alias("ssize_t"));
        put("ptrdiff_t", CType.LONG.alias("ptrdiff_t"));
        put("uint8_t", CType.UCHAR.alias("uint8_t"));
        put("uint16_t", CType.USHORT.alias("uint16_t"));
        put("uint32_t", CType.UINT.alias("uint32_t"));
        put("uint64_t", CType.ULLONG.alias("uint64_t"));
        put("int8_t", CType.SCHAR.alias("int8_t"));
        put("int16_t", CType.SHORT.alias("int16_t"));
        put("int32_t", CType.INT.alias("int32_t"));
        put("int64_t", CType.LLONG.alias("int64_t"));
        put("uintptr_t", CType.ULONG.alias("uintptr_t"));
        put("intptr_t", CType.LONG.alias("intptr_t"));
        put("uint", CType.UINT.alias("uint"));
        put("ushort", CType.USHORT.alias("ushort"));
        put("uchar", CType.UCHAR.alias("uchar"));
        put("ulong", CType.ULONG.alias("ulong"));
        put("u_int", CType.UINT.alias("u_int"));
        put("byte", CType.UCHAR.alias("byte"));
        put("half", CType.HALF);
        put("__half", CType.HALF);
        put("__nv_bfloat16", CType.HALF.alias("__nv_bfloat16"));
        put("cudaError_t", CType.INT.alias("cudaError_t"));
        put("cudaStream_t", CType.UNKNOWN);
        put("cudaEvent_t", CType.UNKNOWN);
        put("cufftComplex", CType.vector(CType.FLOAT, 2, "cufftComplex"));
        put("cufftDoubleComplex", CType.vector(CType.DOUBLE, 2, "cufftDoubleComplex"));
        put("cuComplex", CType.vector(CType.FLOAT, 2, "cuComplex"));
        put("cuFloatComplex", CType.vector(CType.FLOAT, 2, "cuFloatComplex"));
        put("cuDoubleComplex", CType.vector(CType.DOUBLE, 2, "cuDoubleComplex"));
        put("cufftReal", CType.FLOAT.alias("cufftReal"));
        put("cufftDoubleReal", CType.DOUBLE.alias("cufftDoubleReal"));
        put("dim3", CType.vector(CType.UINT, 3, "dim3"));
        for (String[] v : new String[][] {
            {"char", "char"},
            {"uchar", "unsigned char"},
            {"short", "short"},
            {"ushort", "unsigned short"},
            {"int", "int"},
            {"uint", "unsigned int"},
            {"long", "long"},
            {"ulong", "unsigned long"},
            {"longlong", "long long"},
            {"ulonglong", "unsigned long long"},
            {"float", "float"},
            {"double", "double"}
        }) {
            CType e = scalar(v[1]);
            for (int w = 1; w <= 4; w++) {
                put(v[0] + w, CType.vector(e, w, v[0] + w));
                FUNCS.put("make_" + v[0] + w, CType.vector(e, w, v[0] + w));
            }
        }
        put("half2", CType.vector(CType.HALF, 2, "half2"));
        put("__half2", CType.vector(CType.HALF, 2, "__half2"));

        // math library: float versions, double versions
        for (String f : dev.numlint.knowledge.NumericFacts.MATH_LIBRARY) {
            FUNCS.put(f + "f", CType.FLOAT);
            FUNCS.put(f, CType.DOUBLE);
            DOUBLE_MATH.add(f);
        }
        for (String f : dev.numlint.knowledge.NumericFacts.TRANSCENDENTAL) { // the one list every layer shares
            TRANSCENDENTAL.add(f);
            TRANSCENDENTAL.add(f + "f");
            TRANSCENDENTAL.add(f + "l");
            TRANSCENDENTAL.add("std::" + f);
        }
        for (String f : new String[] {
            "sqrt", "sin", "cos", "tan", "exp", "log", "pow", "fabs", "floor", "ceil", "atan2", "log2", "log10", "exp2",
            "hypot", "fmod", "round", "trunc", "tanh", "erf", "asin", "acos", "atan", "cbrt", "fmin", "fmax", "abs"
        }) {
            SAME_AS_ARG.add("std::" + f);
        }
        for (String f : FAST_INTRINSICS) FUNCS.put(f, CType.FLOAT);
        for (String f : new String[] {
            "__fdividef",
            "__fdiv_rn",
            "__fdiv_rz",
            "__fdiv_ru",
            "__fdiv_rd",
            "__fmul_rn",
            "__fmul_rz",
            "__fmul_ru",
            "__fmul_rd",
            "__fadd_rn",
            "__fadd_rz",
            "__fadd_ru",
            "__fadd_rd",
            "__fsub_rn",
            "__fsub_rz",
            "__fsub_ru",
            "__fsub_rd",
            "__fmaf_rn",
            "__fmaf_rz",
            "__fmaf_ru",
            "__fmaf_rd",
            "__frcp_rn",
            "__frcp_rz",
            "__frcp_ru",
            "__frcp_rd",
            "__fsqrt_rn",
            "__fsqrt_rz",
            "__fsqrt_ru",
            "__fsqrt_rd",
            "__frsqrt_rn",
            "__saturatef",
            "__int2float_rn",
            "__int2float_rz",
            "__uint2float_rn",
            "__uint2float_rz",
            "__ll2float_rn",
            "__ull2float_rn",
            "__int_as_float",
            "__uint_as_float",
            "__half2float",
            "__fmaf_ieee_rn",
            "saturate",
            "fdividef",
            "__fmul_ieee_rn"
        }) {
            FUNCS.put(f, CType.FLOAT);
        }
        for (String f : new String[] {
            "__dadd_rn",
            "__dadd_rz",
            "__dadd_ru",
            "__dadd_rd",
            "__dmul_rn",
            "__dmul_rz",
            "__dmul_ru",
            "__dmul_rd",
            "__dsub_rn",
            "__dsub_rz",
            "__dsub_ru",
            "__dsub_rd",
            "__fma_rn",
            "__fma_rz",
            "__fma_ru",
            "__fma_rd",
            "__ddiv_rn",
            "__ddiv_rz",
            "__ddiv_ru",
            "__ddiv_rd",
            "__drcp_rn",
            "__dsqrt_rn",
            "__longlong_as_double",
            "__hiloint2double",
            "__int2double_rn",
            "__uint2double_rn",
            "__ll2double_rn",
            "drand48",
            "atof",
            "strtod",
            "erand48"
        }) {
            FUNCS.put(f, CType.DOUBLE);
        }
        for (String r : new String[] {"rn", "rz", "ru", "rd"}) {
            conv("__float2int_" + r, CType.INT);
            conv("__float2uint_" + r, CType.UINT);
            conv("__float2ll_" + r, CType.LLONG);
            conv("__float2ull_" + r, CType.ULLONG);
            conv("__double2int_" + r, CType.INT);
            conv("__double2uint_" + r, CType.UINT);
            conv("__double2ll_" + r, CType.LLONG);
            conv("__double2ull_" + r, CType.ULLONG);
            FUNCS.put("__double2float_" + r, CType.FLOAT);
        }
        conv("__float_as_int", CType.INT);
        conv("__float_as_uint", CType.UINT);
        conv("__double_as_longlong", CType.LLONG);
        conv("__float2half", CType.HALF);
        conv("__float2half_rn", CType.HALF);
        conv("lrintf", CType.LONG);
        conv("lroundf", CType.LONG);
        conv("llrintf", CType.LLONG);
        conv("llroundf", CType.LLONG);
        conv("lrint", CType.LONG);
        conv("lround", CType.LONG);
        conv("llrint", CType.LLONG);
        conv("llround", CType.LLONG);
        conv("ilogbf", CType.INT);
        conv("ilogb", CType.INT);
        conv("isnan", CType.BOOL);
        conv("isinf", CType.BOOL);
        conv("isfinite", CType.BOOL);
        conv("signbit", CType.BOOL);
        conv("__isnanf", CType.BOOL);
        conv("__isinff", CType.BOOL);
        for (String f : new String[] {
            "__mul24",
            "__mulhi",
            "__popc",
            "__clz",
            "__ffs",
            "abs",
            "__syncthreads_count",
            "__syncthreads_and",
            "__syncthreads_or",
            "rand",
            "atoi",
            "printf",
            "fprintf",
            "sprintf",
            "snprintf",
            "strcmp",
            "__any_sync",
            "__all_sync",
            "__any",
            "__all",
            "__popcll",
            "__clzll",
            "__ffsll"
        }) {
            FUNCS.put(f, CType.INT);
        }
        for (String f : new String[] {
            "__umul24",
            "__umulhi",
            "__ballot_sync",
            "__ballot",
            "__activemask",
            "__brev",
            "__lanemask_lt",
            "__byte_perm",
            "__sad",
            "__usad",
            "clock",
            "__funnelshift_l",
            "__funnelshift_r"
        }) {
            FUNCS.put(f, CType.UINT);
        }
        FUNCS.put("clock64", CType.LLONG);
        // the C library's pseudo-random integers beside rand (ValueBounds: in [0, 2^31 - 1])
        FUNCS.put("rand_r", CType.INT);
        for (String f : new String[] {"random", "lrand48", "nrand48"}) FUNCS.put(f, CType.LONG);
        // the device random-number generators of cuRAND and hipRAND: their draws are float, double or unsigned
        // (RandomDraws recognises them as draws)
        for (String lib : new String[] {"curand", "hiprand"}) {
            FUNCS.put(lib, CType.UINT);
            FUNCS.put(lib + "_poisson", CType.UINT);
            for (String d : new String[] {"_uniform", "_normal", "_log_normal"}) {
                FUNCS.put(lib + d, CType.FLOAT);
                FUNCS.put(lib + d + "_double", CType.DOUBLE);
            }
        }
        FUNCS.put("strlen", CType.ULONG.alias("size_t"));
        FUNCS.put("sizeof", CType.ULONG.alias("size_t"));
        for (String f : new String[] {
            "min",
            "max",
            "umin",
            "umax",
            "llmin",
            "llmax",
            "atomicAdd",
            "atomicAdd_block",
            "atomicAdd_system",
            "atomicSub",
            "atomicExch",
            "atomicMin",
            "atomicMax",
            "atomicCAS",
            "atomicInc",
            "atomicDec",
            "atomicAnd",
            "atomicOr",
            "atomicXor",
            "__shfl",
            "__shfl_sync",
            "__shfl_up",
            "__shfl_up_sync",
            "__shfl_down",
            "__shfl_down_sync",
            "__shfl_xor",
            "__shfl_xor_sync",
            "__ldg",
            "__ldcg",
            "__ldca",
            "__ldcs",
            "__ldlu",
            "__ldcv",
            "clamp",
            "std::min",
            "std::max",
            "std::abs",
            "fabs",
            "abs",
            "std::fabs",
            "lerp",
            "__reduce_add_sync",
            "__reduce_min_sync",
            "__reduce_max_sync"
        }) {
            SAME_AS_ARG.add(f);
        }
    }

    private static void conv(String f, CType t) {
        FUNCS.put(f, t);
        CONVERSION_INTRINSICS.add(f);
    }

    private static void put(String name, CType t) {
        TYPES.put(name, t);
    }

    static CType scalar(String spelled) {
        switch (spelled) {
            case "char":
                return CType.CHAR;
            case "unsigned char":
                return CType.UCHAR;
            case "short":
                return CType.SHORT;
            case "unsigned short":
                return CType.USHORT;
            case "int":
                return CType.INT;
            case "unsigned int":
                return CType.UINT;
            case "long":
                return CType.LONG;
            case "unsigned long":
                return CType.ULONG;
            case "long long":
                return CType.LLONG;
            case "unsigned long long":
                return CType.ULLONG;
            case "float":
                return CType.FLOAT;
            case "double":
                return CType.DOUBLE;
            default:
                return CType.UNKNOWN;
        }
    }

    /**
     * The values of the library constants above that every platform of CUDA C++ gives alike (IEEE binary32 and
     * binary64, 32-bit int), for value intervals ({@link Intervals}) only; null for the others (RAND_MAX differs
     * between C libraries, INFINITY and NAN bound nothing).
     */
    static Double builtinValue(String name) {
        return switch (name) {
            case "FLT_MAX", "MAXFLOAT" -> (double) Float.MAX_VALUE;
            case "FLT_MIN" -> (double) Float.MIN_NORMAL;
            case "FLT_EPSILON" -> (double) Math.ulp(1.0f);
            case "CUDART_PI_F" -> (double) (float) Math.PI;
            case "DBL_MAX" -> Double.MAX_VALUE;
            case "DBL_MIN" -> Double.MIN_NORMAL;
            case "DBL_EPSILON" -> Math.ulp(1.0);
            case "M_PI", "CUDART_PI" -> Math.PI;
            case "M_PI_2" -> Math.PI / 2;
            case "M_PI_4" -> Math.PI / 4;
            case "M_E" -> Math.E;
            case "M_SQRT2" -> Math.sqrt(2);
            case "M_LN2" -> Math.log(2);
            case "M_1_PI" -> 1 / Math.PI;
            case "M_2_PI" -> 2 / Math.PI;
            case "M_LOG2E" -> 1 / Math.log(2);
            case "M_SQRT1_2" -> Math.sqrt(0.5);
            case "INT_MAX" -> (double) Integer.MAX_VALUE;
            case "INT_MIN" -> (double) Integer.MIN_VALUE;
            case "UINT_MAX" -> 4294967295.0;
            default -> null;
        };
    }

    /** Built-in variables of device code. */
    static CType builtinVariable(String name) {
        switch (name) {
            case "threadIdx":
            case "blockIdx":
                return CType.vector(CType.UINT, 3, "uint3");
            case "blockDim":
            case "gridDim":
                return TYPES.get("dim3");
            case "warpSize":
                return CType.INT;
            case "FLT_MAX":
            case "FLT_MIN":
            case "FLT_EPSILON":
            case "CUDART_PI_F":
            case "CUDART_INF_F":
            case "CUDART_NAN_F":
            case "MAXFLOAT":
            case "HUGE_VALF":
            case "INFINITY":
            case "NAN":
                return CType.FLOAT;
            case "DBL_MAX":
            case "DBL_MIN":
            case "DBL_EPSILON":
            case "M_PI":
            case "M_PI_2":
            case "M_PI_4":
            case "M_E":
            case "M_SQRT2":
            case "M_LN2":
            case "M_1_PI":
            case "M_2_PI":
            case "M_LOG2E":
            case "M_SQRT1_2":
            case "HUGE_VAL":
            case "CUDART_PI":
            case "CUDART_INF":
            case "CUDART_NAN":
                return CType.DOUBLE;
            case "INT_MAX":
            case "INT_MIN":
            case "RAND_MAX":
                return CType.INT;
            case "UINT_MAX":
                return CType.UINT;
            default:
                return null;
        }
    }
}
