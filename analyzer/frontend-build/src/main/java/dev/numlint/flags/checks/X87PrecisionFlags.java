package dev.numlint.flags.checks;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL005 in build flags: {@code -m32} (GCC's 32-bit x86 default is {@code -mfpmath=387}) unless a later
 * {@code -m64} or an {@code -mfpmath=sse} anywhere undoes it, and {@code -mfpmath=387}/{@code both} unless a later
 * {@code -mfpmath=sse} does. Not in a scope that compiles for another processor ({@link #notX86}: an ARM cross
 * build's {@code -m32} selects 32-bit ARM code).
 */
@AutoService(BuildFlagCheck.class)
public final class X87PrecisionFlags implements BuildFlagCheck {
    @Override
    public String ruleId() {
        return "NL005";
    }

    /** Host compilers and targets that are not x86 (a cross build): no x87 unit, so -m32 there means no x87 code. */
    private static final java.util.regex.Pattern NOT_X86 = java.util.regex.Pattern.compile(
            "(?i)(^|[^a-z0-9])(arm|armv\\d\\w*|aarch64|arm64|thumb\\w*|ppc\\w*|powerpc\\w*|riscv\\w*|rv32\\w*|rv64\\w*"
                    + "|mips\\w*|sparc\\w*|s390\\w*|loongarch\\w*|androideabi)([^a-z0-9]|$)");

    /**
     * Whether the scope compiles for a processor that is not x86: a host compiler named for one ({@code -ccbin
     * arm-linux-androideabi-g++}, {@code CC=aarch64-linux-gnu-gcc}), nvcc's {@code -target-cpu-arch=ARM}, Clang's
     * {@code --target=aarch64-...}, GCC's {@code -march=armv7-a}. Such a build has no x87 unit.
     */
    static boolean notX86(List<FlagEntry> es) {
        for (FlagEntry e : es) {
            String n = e.name();
            String v = e.value();
            if (v == null) continue;
            boolean names = n.equals("ccbin")
                    || n.equals("compiler-bindir")
                    || n.equals("target-cpu-arch")
                    || n.equals("target")
                    || n.equals("march")
                    || n.equals("mcpu");
            if (names && NOT_X86.matcher(v).find()) return true;
        }
        return false;
    }

    @Override
    public void check(FlagFacts facts, Consumer<FlagHazard> out) {
        List<FlagEntry> es = facts.entries();
        if (notX86(es)) return;
        for (int i = 0; i < es.size(); i++) {
            FlagEntry e = es.get(i);
            if (e.target() == FlagTarget.DEVICE) continue;
            String v = e.value();
            String key = null;
            if (e.name().equals("m32")) {
                if (!facts.cancelled(i, false, o -> o.name().equals("m64"))
                        && !facts.cancelled(i, true, o -> o.name().equals("mfpmath") && "sse".equals(o.value()))) {
                    key = "flags-m32";
                }
            } else if (e.name().equals("mfpmath") && v != null && (v.contains("387") || v.equals("both"))) {
                if (!facts.cancelled(i, false, o -> o.name().equals("mfpmath") && "sse".equals(o.value()))) {
                    key = "flags-x87";
                }
            }
            if (key != null) {
                out.accept(FlagFacts.hazard(ruleId(), key, e));
            }
        }
    }
}
