package dev.numlint.cuda;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Counters of the CUDA source front end ({@link CudaSourceAnalyzer#stats}) for corpus runs and benchmarks. */
public final class CudaStats {
    public final AtomicLong files = new AtomicLong();
    /** Files whose analysis came from the per-file cache ({@link SourceCache}). */
    public final AtomicLong cached = new AtomicLong();

    public final AtomicLong lines = new AtomicLong();
    public final AtomicLong functions = new AtomicLong();
    public final AtomicLong sllParsed = new AtomicLong();
    public final AtomicLong llParsed = new AtomicLong();
    public final AtomicLong failed = new AtomicLong();
    public final Map<String, AtomicLong> findings = new ConcurrentHashMap<>();
    /** Nanoseconds in preprocessing+splitting, parsing, and rule analysis. */
    public final AtomicLong preNanos = new AtomicLong();

    public final AtomicLong parseNanos = new AtomicLong();
    public final AtomicLong ruleNanos = new AtomicLong();
    /** Files Clang parsed, functions only Clang analyzed, facts Clang added, accumulations it corrected. */
    public final AtomicLong clangFiles = new AtomicLong();

    /**
     * Clang's parses (translation units), the listed headers read from their unit's parse instead of a parse of their
     * own ({@link UnitHeaders}), and the listed headers parsed alone (no compiled unit includes them).
     */
    public final AtomicLong clangUnits = new AtomicLong();

    public final AtomicLong clangFromUnits = new AtomicLong();
    public final AtomicLong clangHeadersAlone = new AtomicLong();
    /** Parses of a header's unit with the header as target: the unit's own parse did not keep the header. */
    public final AtomicLong clangUnitsAgain = new AtomicLong();

    public final AtomicLong clangFunctions = new AtomicLong();
    public final AtomicLong clangErrorFiles = new AtomicLong();
    public final AtomicLong clangRecovered = new AtomicLong();
    public final AtomicLong clangAdded = new AtomicLong();
    public final AtomicLong clangResets = new AtomicLong();
    public final AtomicLong clangNanos = new AtomicLong();
    /** Of {@link #clangNanos}: libclang's parse and the copy of the main file's cursors, as the worker timed them. */
    public final AtomicLong clangParseNanos = new AtomicLong();

    public final AtomicLong clangWalkNanos = new AtomicLong();
    /** Of {@link #clangNanos}: the file's include directories and Clang's arguments, before the parse is sent. */
    public final AtomicLong clangPrepNanos = new AtomicLong();

    @Override
    public String toString() {
        return "files=" + files + " lines=" + lines + " functions=" + functions + " sll=" + sllParsed + " ll="
                + llParsed + " failed=" + failed + " findings=" + new java.util.TreeMap<>(findings)
                + " ms(pre/parse/rules)="
                + preNanos.get() / 1_000_000 + "/" + parseNanos.get() / 1_000_000 + "/"
                + ruleNanos.get() / 1_000_000
                + (clangFiles.get() == 0
                        ? ""
                        : " clang(files/with-errors/functions/recovered/added/resets/ms)=" + clangFiles + "/"
                                + clangErrorFiles + "/" + clangFunctions + "/" + clangRecovered + "/"
                                + clangAdded + "/" + clangResets + "/" + clangNanos.get() / 1_000_000
                                + " clang-units(parsed/headers-from-units/headers-alone/units-again)=" + clangUnits
                                + "/" + clangFromUnits + "/" + clangHeadersAlone + "/" + clangUnitsAgain
                                + " clang-ms(arguments/parse/walk)=" + clangPrepNanos.get() / 1_000_000 + "/"
                                + clangParseNanos.get() / 1_000_000 + "/" + clangWalkNanos.get() / 1_000_000
                                + " clang-workers(started/ms)=" + dev.numlint.cuda.clang.ClangWorkers.startStats());
    }
}
