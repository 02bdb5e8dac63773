package dev.numlint.cuda;

import dev.numlint.cuda.clang.ClangUnit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each compiled unit parsed by Clang once, its project headers read from that parse (issue 26, speed): a listed header
 * that compiled units include is read by Clang in the first of them in path order that reaches it (its compile
 * command, its defines, its language: a C project's headers are C), from the parse of that unit, instead of being
 * parsed as a unit of its own. Only a header that no compiled unit includes is parsed alone (with its directory's or
 * guessed flags), as before.
 *
 * <p>The unit of a header is decided from the hand-written preprocessing of the units (the project files it reads),
 * which runs before Clang's parse and also when the unit's analysis comes from the cache: the smallest path wins,
 * whichever thread gets there first. A unit asks Clang for the headers it is the unit of at the time of its parse; a
 * header whose unit changed later (a smaller path reached it after) is kept only from that unit's parse, and one whose
 * unit's parse did not happen in this scan (a cached unit) is read by parsing that unit with the header as its target.
 */
final class UnitHeaders {
    private UnitHeaders() {}

    /** {@code -Dnumlint.clang.headersFromUnits=false}: every listed header is Clang's unit of its own, as before. */
    static boolean enabled() {
        return Boolean.parseBoolean(System.getProperty("numlint.clang.headersFromUnits", "true"));
    }

    /**
     * A header's cursors from its unit's parse (null: that parse failed, the header is parsed alone, and
     * {@code failure} says why: Clang refused the unit, or its parse ran over its budget).
     */
    record Kept(Path unit, ClangUnit header, String failure) {
        Kept(Path unit, ClangUnit header) {
            this(unit, header, null);
        }
    }

    /**
     * After a compiled unit's preprocessing: it is the unit of each listed header and each file compiled only through
     * an include ({@link CudaScanRun#included}) it reads, unless one before it is ({@link #before}).
     */
    static void reached(CudaScanRun run, Path unit, Set<Path> reads) {
        if (unit == null) return;
        run.unitReads.put(unit, Set.copyOf(reads));
        if (!enabled()) return;
        for (Path h : reads) {
            boolean header = run.listed.contains(h) && SourceKinds.isHeader(h);
            // a file compiled only through an include (.hcu, .inl, a .cu fragment; a listed .cu that a unity build's
            // main.cu includes with 33 others) is read from the same parse: one parse of the unit, not one per file
            boolean viaInclude = !header && run.listed.contains(h) && IncludedSources.compiledThroughInclude(run, h);
            if (!header && !viaInclude && !run.included.containsKey(h) || h.equals(unit)) continue;
            run.headerUnits.merge(h, unit, (a, b) -> before(run, h, a, b) ? a : b);
        }
    }

    /**
     * Whether unit {@code a} comes before {@code b} as header {@code h}'s unit: a unit the build compiles (a compile
     * command) before one whose flags are guessed (a JNI wrapper or an example outside the build that includes the
     * library's headers), and before one that this configuration does not compile (an example a CMake option leaves
     * out, with its directory's flags but not its target's: session 50, Sophus's examples define the macro of an
     * assertion handler and lack the -isystem of Eigen), then the unit that defines more of the macros the header's
     * conditions test (session 48: a
     * single-file library's implementation is compiled only where a unit defines {@code STB_IMAGE_IMPLEMENTATION}
     * before including it; read in another unit, its code was inactive and eight float-to-unsigned conversions went
     * unseen), then a CUDA unit before a host one, then the path.
     */
    private static boolean before(CudaScanRun run, Path h, Path a, Path b) {
        boolean ga = dev.numlint.cuda.clang.ClangFrontEnd.guessed(run.ctx.buildContext(a));
        boolean gb = dev.numlint.cuda.clang.ClangFrontEnd.guessed(run.ctx.buildContext(b));
        if (ga != gb) return !ga;
        boolean na = run.ctx.buildContext(a).notCompiledReason() != null;
        boolean nb = run.ctx.buildContext(b).notCompiledReason() != null;
        if (na != nb) return !na;
        int da = defines(run, a, h);
        int db = defines(run, b, h);
        if (da != db) return da > db;
        boolean ca = cuda(run, a);
        boolean cb = cuda(run, b);
        return ca != cb ? ca : a.compareTo(b) <= 0;
    }

    /** How many of the names {@code header}'s conditions test the text of {@code unit} defines. */
    private static int defines(CudaScanRun run, Path unit, Path header) {
        Set<String> names = run.conditionNames.computeIfAbsent(header, IncludedSources::conditionNames);
        if (names.isEmpty()) return 0;
        Set<String> defined = run.unitDefines.computeIfAbsent(unit, u -> {
            try {
                return Files.size(u) > run.maxHeaderBytes
                        ? Set.of()
                        : IncludedSources.definedMacros(Files.readAllBytes(u));
            } catch (IOException | RuntimeException e) {
                return Set.of();
            }
        });
        int n = 0;
        for (String name : names) if (defined.contains(name)) n++;
        return n;
    }

    /**
     * Whether a unit is compiled as CUDA: a header that CUDA and host units both include is read in a CUDA unit (as
     * it was alone), where the toolkit's headers are found and its device code is active.
     */
    private static boolean cuda(CudaScanRun run, Path unit) {
        return run.ctx.buildContext(unit).compiledAsCuda() || SourceKinds.dialect(unit) == Preprocessor.Dialect.CUDA;
    }

    /** The listed headers whose unit is {@code unit} now, in path order, with their bytes. */
    static Map<Path, byte[]> wanted(CudaScanRun run, Path unit) {
        if (!enabled() || unit == null) return Map.of();
        Map<Path, byte[]> out = new TreeMap<>();
        run.headerUnits.forEach((h, u) -> {
            if (!u.equals(unit)) return;
            try {
                if (Files.size(h) <= run.maxHeaderBytes) out.put(h, Files.readAllBytes(h));
            } catch (IOException | RuntimeException e) {
                // unreadable: its own analysis says so
            }
        });
        return new LinkedHashMap<>(out);
    }

    /**
     * Keeps the headers' units of {@code unit}'s parse for the headers it is still the unit of. When the parse
     * failed (over its budget, the worker crashed), those headers are parsed alone, not through the unit again.
     */
    static void keep(CudaScanRun run, Path unit, ClangUnit parsed, Set<Path> asked) {
        if (parsed.failure() != null) {
            for (Path h : asked) {
                run.keptHeaders.compute(
                        h,
                        (k, old) -> unit.equals(run.headerUnits.get(h)) ? new Kept(unit, null, parsed.failure()) : old);
            }
            return;
        }
        dev.numlint.cuda.clang.ClangIncludes.of(parsed).forEach((h, u) -> {
            if (u.failure() != null && !dev.numlint.cuda.clang.ClangIncludes.notIncluded(u))
                return; // parsed again through the unit, which says why
            run.keptHeaders.compute(h, (k, old) -> unit.equals(run.headerUnits.get(h)) ? new Kept(unit, u) : old);
        });
    }

    /**
     * What the parse of {@code unit} gave for the header: null when that parse did not happen in this scan (the
     * unit's analysis came from the cache) or did not ask for it; a {@link Kept} whose {@code header} is null when
     * the parse failed.
     */
    static Kept take(CudaScanRun run, Path header, Path unit) {
        Kept k = run.keptHeaders.get(header);
        return k != null && k.unit().equals(unit) ? k : null;
    }

    /** The compiled unit Clang reads a listed header in, or null when no compiled unit includes it. */
    static ClangSupplements.Unit unitOf(CudaScanRun run, Path header) {
        if (!enabled() || header == null) return null;
        Path unit = run.headerUnits.get(header);
        if (unit == null) return null;
        ClangSupplements.Unit u =
                IncludedSources.translationUnit(run, unit, SourceKinds::isHeader, SourceKinds::dialect);
        return u == null ? null : u.forHeader();
    }

    /**
     * The language a listed header is read in: its unit's ({@link #unitOf}), else {@code otherwise} (its extension's).
     */
    static Preprocessor.Dialect dialect(CudaScanRun run, Path file, Preprocessor.Dialect otherwise) {
        if (!enabled() || !SourceKinds.isHeader(file)) return otherwise;
        Path real = CudaScanRun.realPath(file);
        Path unit = real == null ? null : run.headerUnits.get(real);
        if (unit == null) return otherwise;
        dev.numlint.model.BuildContext ubc = run.ctx.buildContext(unit);
        return ubc.compiledAsCuda() ? Preprocessor.Dialect.CUDA : SourceKinds.dialect(unit, ubc);
    }

    /**
     * What a header's analysis read through its unit depends on besides the unit's bytes and arguments: the project
     * files the unit's preprocessing reads (a header the unit includes before it declares what it uses), with their
     * hashes, for the analysis cache key.
     */
    static String unitReads(CudaScanRun run, Path unit) {
        Set<Path> reads = run.unitReads.get(unit);
        if (reads == null || run.cache == null) return "-";
        StringBuilder b = new StringBuilder();
        for (Path r : new java.util.TreeSet<>(reads))
            b.append(r).append(' ').append(run.cache.hash(r)).append('\n');
        return b.toString();
    }

    /** The maps of one scan ({@link CudaScanRun}). */
    static <K, V> Map<K, V> map() {
        return new ConcurrentHashMap<>();
    }
}
