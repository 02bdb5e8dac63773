package dev.numlint.flags.checks;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The flags of one compilation scope as the compilers see them, in command-line order, computed once for every
 * check: later flags override earlier ones, and a flag written under a condition is overridden only by one that
 * always applies or applies under the same condition.
 */
public final class FlagFacts {
    private final List<FlagEntry> entries;
    private final String hostCompiler;

    public FlagFacts(List<FlagEntry> entries) {
        this(entries, null);
    }

    /** {@code hostCompiler}: the program of the host compile command ({@code gcc}, {@code clang-19}), or null. */
    public FlagFacts(List<FlagEntry> entries, String hostCompiler) {
        this.entries = List.copyOf(entries);
        this.hostCompiler = hostCompiler;
    }

    /** The program of the host compile command these flags are of, or null when not known (a build file's list). */
    public String hostCompiler() {
        return hostCompiler;
    }

    /**
     * The value of the last unconditional {@code -std=} of the host compiler among the flags, or null: the language
     * standard the host compiler applies.
     */
    public String hostStd() {
        String std = null;
        for (FlagEntry e : entries) {
            if (e.target() == FlagTarget.HOST && e.name().equals("std") && e.value() != null && !e.conditional())
                std = e.value();
        }
        return std;
    }

    /** Every flag of the scope, in order. */
    public List<FlagEntry> entries() {
        return entries;
    }

    /**
     * Whether a flag of the same target as entry {@code idx} that matches {@code canceller} undoes it: a later one,
     * or any one when {@code anywhere} (nvcc's {@code --use_fast_math} implications yield to an explicit flag
     * wherever it is written; GCC's {@code -ffp-contract=off} holds wherever it is).
     */
    public boolean cancelled(int idx, boolean anywhere, Predicate<FlagEntry> canceller) {
        FlagEntry e = entries.get(idx);
        for (int j = anywhere ? 0 : idx + 1; j < entries.size(); j++) {
            FlagEntry o = entries.get(j);
            if (j != idx && o.target() == e.target() && canceller.test(o) && overrides(o, e)) return true;
        }
        return false;
    }

    /** Whether some flag of the same target as entry {@code idx} named {@code name} has the value {@code value}. */
    public boolean cancelledBy(int idx, boolean anywhere, String name, String value) {
        return cancelled(
                idx,
                anywhere,
                o -> o.name().equals(name) && value.equalsIgnoreCase(Objects.requireNonNullElse(o.value(), "")));
    }

    /** A later entry {@code over} overrides {@code e} when it always applies or applies under the same condition. */
    private static boolean overrides(FlagEntry over, FlagEntry e) {
        return over.origin().condition() == null
                || Objects.equals(over.origin().condition(), e.origin().condition());
    }

    public static boolean isTrue(String v) {
        return v != null && v.toLowerCase(Locale.ROOT).equals("true");
    }

    public static boolean isFalse(String v) {
        return v != null && v.toLowerCase(Locale.ROOT).equals("false");
    }

    /** nvcc's {@code --use_fast_math} in either spelling. */
    public static boolean fastMath(FlagEntry e) {
        return e.target() == FlagTarget.DEVICE
                && (e.name().equals("use_fast_math") || e.name().equals("use-fast-math"));
    }

    /**
     * GCC's {@code -ffast-math} or {@code -Ofast}, not undone by a later {@code -fno-fast-math}; an {@code -Ofast} not
     * followed by another {@code -O} either (the last {@code -O} is the one in effect: {@code -Ofast ... -O0} has no
     * fast math, session 85).
     */
    public boolean hostFastMath(int idx) {
        FlagEntry e = entries.get(idx);
        return e.target() != FlagTarget.DEVICE
                && (e.name().equals("ffast-math") || e.name().equals("Ofast"))
                && !cancelled(idx, false, o -> o.name().equals("fno-fast-math"))
                && !(e.name().equals("Ofast")
                        && cancelled(idx, false, o -> o.name().matches("O[0-3sgz]?")));
    }

    /**
     * Whether the {@code -ffast-math} or {@code -Ofast} at {@code idx} keeps NaN and infinity: a later {@code
     * -fno-finite-math-only} undoes that part of it (session 62 round B: an organ's plugin builds with {@code
     * -ffast-math ... -fno-finite-math-only}, and GCC keeps its isnan test).
     */
    public boolean finiteMathUndone(int idx) {
        return cancelled(idx, false, o -> o.name().equals("fno-finite-math-only"));
    }

    /**
     * Whether a later {@code -fno-unsafe-math-optimizations} undoes the unsafe part of the {@code -ffast-math},
     * {@code -Ofast} or {@code -funsafe-math-optimizations} at {@code idx}: GCC then disables reciprocal and associative
     * math (no {@code x * (1/y)}, no RSQRTSS) and leaves {@code __FAST_MATH__} undefined (no libmvec), and only
     * {@code -ffinite-math-only} of {@code -ffast-math} stays (session 63 round E: a SID emulator's configure writes
     * {@code -ffast-math -fno-unsafe-math-optimizations}).
     */
    public boolean unsafeMathUndone(int idx) {
        return cancelled(idx, false, o -> o.name().equals("fno-unsafe-math-optimizations"));
    }

    /** Whether a later {@code -fno-unsafe-math-optimizations} or {@code -fno-associative-math} undoes reassociation. */
    public boolean associativeUndone(int idx) {
        return unsafeMathUndone(idx) || cancelled(idx, false, o -> o.name().equals("fno-associative-math"));
    }

    /** Whether a later {@code -fno-unsafe-math-optimizations} or {@code -fno-reciprocal-math} undoes reciprocal math. */
    public boolean reciprocalUndone(int idx) {
        return unsafeMathUndone(idx) || cancelled(idx, false, o -> o.name().equals("fno-reciprocal-math"));
    }

    /**
     * Intel's {@code -fp-model fast} ({@code -fp-model=fast}, {@code fast=1}, {@code fast=2}: icx, icpx, icc, icpc),
     * not undone by a later {@code -fp-model} with another keyword ({@code precise}, {@code strict}, {@code
     * consistent}): the compiler may reassociate, contract, use approximate division and math library routines.
     */
    public boolean intelFastModel(int idx) {
        FlagEntry e = entries.get(idx);
        return e.target() != FlagTarget.DEVICE
                && e.name().equals("fp-model")
                && fastKeyword(e.value())
                && !cancelled(idx, false, o -> o.name().equals("fp-model") && !fastKeyword(o.value()));
    }

    private static boolean fastKeyword(String v) {
        return v != null && v.toLowerCase(Locale.ROOT).matches("fast(=[12])?");
    }

    /** An nvcc device-code option {@code name} with a true/false value. */
    public static boolean device(FlagEntry e, String name) {
        return e.target() == FlagTarget.DEVICE && e.name().equals(name);
    }

    /** The message template {@code key} of {@code ruleId} (catalog key {@code flags-*}) with its arguments. */
    public static String message(String ruleId, String key, Object... args) {
        return dev.numlint.rules.RuleCatalog.get().rule(ruleId).message(key, args);
    }

    /**
     * The hazard of entry {@code e} at the rule's configured level, with the catalog message {@code key} filled with
     * the flag as written and where it applies (device code, host code, both).
     */
    public static FlagHazard hazard(String ruleId, String key, FlagEntry e) {
        return new FlagHazard(
                ruleId,
                null,
                e,
                message(ruleId, key, "flag", e.flag(), "where", e.target().where()));
    }
}
