package dev.numlint.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The floating-point-relevant compiler settings that apply to one source file, as found by the build-flag audit
 * (or given with {@code --nvcc-flags}). A {@code null} setting means "not set": the compiler default applies.
 * Every setting remembers where it was set ({@link FlagOrigin}) so findings can cite it.
 */
public final class BuildContext {
    /** A flag as written, and where. */
    public record FlagOrigin(String flag, Location location) {
    }

    /** Device (nvcc) settings. Defaults of nvcc: fmad=true, prec-div=true, prec-sqrt=true, ftz=false. */
    private Boolean fastMath;
    private Boolean precDiv;
    private Boolean precSqrt;
    private Boolean ftz;
    private Boolean fmad;
    /** Host compiler settings. */
    private String hostArch;           // value of -march=, e.g. "native", "haswell"
    private Boolean hostFpContractOff; // -ffp-contract=off
    private Boolean hostFastMath;      // -ffast-math / -Ofast
    private Boolean m32;               // -m32
    private Boolean mfpmath387;        // -mfpmath=387
    private String cudaArch;           // e.g. compute_90 / sm_80
    private final List<String> nvccFlags = new ArrayList<>();   // code-generation flags for nvcc -ptx, as written
    private final List<FlagOrigin> origins = new ArrayList<>();

    public static BuildContext defaults() {
        return new BuildContext();
    }

    public BuildContext copy() {
        BuildContext c = new BuildContext();
        c.merge(this);
        return c;
    }

    /** Later settings win: applies every setting {@code other} has over this one. */
    public BuildContext merge(BuildContext other) {
        if (other.fastMath != null) fastMath = other.fastMath;
        if (other.precDiv != null) precDiv = other.precDiv;
        if (other.precSqrt != null) precSqrt = other.precSqrt;
        if (other.ftz != null) ftz = other.ftz;
        if (other.fmad != null) fmad = other.fmad;
        if (other.hostArch != null) hostArch = other.hostArch;
        if (other.hostFpContractOff != null) hostFpContractOff = other.hostFpContractOff;
        if (other.hostFastMath != null) hostFastMath = other.hostFastMath;
        if (other.m32 != null) m32 = other.m32;
        if (other.mfpmath387 != null) mfpmath387 = other.mfpmath387;
        if (other.cudaArch != null) cudaArch = other.cudaArch;
        for (String f : other.nvccFlags) {
            if (!nvccFlags.contains(f)) nvccFlags.add(f);
        }
        origins.addAll(other.origins);
        return this;
    }

    // Effective device semantics (fast math implies the three relaxed settings unless overridden explicitly).
    public boolean effectiveFastMath() { return Boolean.TRUE.equals(fastMath); }
    public boolean effectivePrecDiv() { return precDiv != null ? precDiv : !effectiveFastMath(); }
    public boolean effectivePrecSqrt() { return precSqrt != null ? precSqrt : !effectiveFastMath(); }
    public boolean effectiveFtz() { return ftz != null ? ftz : effectiveFastMath(); }
    public boolean effectiveFmad() { return fmad == null || fmad; }
    /** Host contraction: GCC contracts a*b+c into FMA by default when the target ISA has FMA. */
    public boolean hostContracts() {
        return hostArch != null && archHasFma(hostArch) && !Boolean.TRUE.equals(hostFpContractOff);
    }
    public boolean hostX87() { return Boolean.TRUE.equals(m32) || Boolean.TRUE.equals(mfpmath387); }

    /** Whether {@code -march=VALUE} enables FMA instructions (x86: Haswell and later, znver*, native). */
    public static boolean archHasFma(String arch) {
        String a = arch.toLowerCase(java.util.Locale.ROOT);
        return a.equals("native") || a.startsWith("haswell") || a.startsWith("broadwell") || a.startsWith("skylake")
                || a.startsWith("cascadelake") || a.startsWith("cooperlake") || a.startsWith("icelake")
                || a.startsWith("tigerlake") || a.startsWith("alderlake") || a.startsWith("raptorlake")
                || a.startsWith("meteorlake") || a.startsWith("sapphirerapids") || a.startsWith("emeraldrapids")
                || a.startsWith("graniterapids") || a.startsWith("rocketlake") || a.startsWith("cannonlake")
                || a.startsWith("znver") || a.startsWith("bdver") || a.startsWith("x86-64-v3")
                || a.startsWith("x86-64-v4") || a.startsWith("arrowlake") || a.startsWith("lunarlake")
                || a.startsWith("sierraforest") || a.startsWith("grandridge") || a.startsWith("diamondrapids");
    }

    public Boolean fastMath() { return fastMath; }
    public Boolean precDiv() { return precDiv; }
    public Boolean precSqrt() { return precSqrt; }
    public Boolean ftz() { return ftz; }
    public Boolean fmad() { return fmad; }
    public String hostArch() { return hostArch; }
    public Boolean hostFpContractOff() { return hostFpContractOff; }
    public Boolean hostFastMath() { return hostFastMath; }
    public Boolean m32() { return m32; }
    public Boolean mfpmath387() { return mfpmath387; }
    public String cudaArch() { return cudaArch; }
    public List<String> nvccFlags() { return Collections.unmodifiableList(nvccFlags); }
    public List<FlagOrigin> origins() { return Collections.unmodifiableList(origins); }

    /** The origin of the first recorded flag satisfying the predicate (for evidence in findings). */
    public Optional<FlagOrigin> originOf(java.util.function.Predicate<String> flag) {
        return origins.stream().filter(o -> flag.test(o.flag())).findFirst();
    }

    public BuildContext fastMath(Boolean v) { fastMath = v; return this; }
    public BuildContext precDiv(Boolean v) { precDiv = v; return this; }
    public BuildContext precSqrt(Boolean v) { precSqrt = v; return this; }
    public BuildContext ftz(Boolean v) { ftz = v; return this; }
    public BuildContext fmad(Boolean v) { fmad = v; return this; }
    public BuildContext hostArch(String v) { hostArch = v; return this; }
    public BuildContext hostFpContractOff(Boolean v) { hostFpContractOff = v; return this; }
    public BuildContext hostFastMath(Boolean v) { hostFastMath = v; return this; }
    public BuildContext m32(Boolean v) { m32 = v; return this; }
    public BuildContext mfpmath387(Boolean v) { mfpmath387 = v; return this; }
    public BuildContext cudaArch(String v) { cudaArch = v; return this; }
    public BuildContext addNvccFlag(String f) { if (!nvccFlags.contains(f)) nvccFlags.add(f); return this; }
    public BuildContext addOrigin(String flag, Location where) { origins.add(new FlagOrigin(flag, where)); return this; }

    @Override
    public String toString() {
        return "BuildContext{fastMath=" + fastMath + ", precDiv=" + precDiv + ", precSqrt=" + precSqrt + ", ftz=" + ftz
                + ", fmad=" + fmad + ", hostArch=" + hostArch + ", hostFpContractOff=" + hostFpContractOff
                + ", hostFastMath=" + hostFastMath + ", m32=" + m32 + ", mfpmath387=" + mfpmath387
                + ", cudaArch=" + cudaArch + ", nvccFlags=" + nvccFlags + "}";
    }
}
