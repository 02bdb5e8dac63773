package dev.numlint.cuda;

import dev.numlint.cuda.clang.ClangFrontEnd;
import dev.numlint.cuda.clang.ClangSupplement;
import dev.numlint.cuda.clang.ClangUnit;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.rules.Quote;
import dev.numlint.spi.FindingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Clang's part in the CUDA source front end: its reading of a file (or why not: the notices of a front end that does
 * not run, a file it could not parse, the errors it recovered from), and after the hand-written front end, the facts
 * Clang adds and the parse-error notices it answers ({@link HeldNotices}).
 */
final class ClangSupplements {
    private final CudaStats stats;

    ClangSupplements(CudaStats stats) {
        this.stats = stats;
    }

    /**
     * The translation unit Clang parses to read a file that the build compiles only through an {@code #include}
     * (its compile command, its bytes, its language): Clang reads the included file as that unit compiles it.
     */
    record Unit(Path file, byte[] bytes, BuildContext bc, Preprocessor.Dialect dialect, boolean header) {
        Unit(Path file, byte[] bytes, BuildContext bc, Preprocessor.Dialect dialect) {
            this(file, bytes, bc, dialect, false);
        }

        /**
         * This unit read for a listed header that it includes ({@link UnitHeaders}): when Clang cannot read the header
         * there (the unit refused, or it does not include the header when Clang reads it), the header is parsed alone.
         */
        Unit forHeader() {
            return new Unit(file, bytes, bc, dialect, true);
        }
    }

    private static ClangFrontEnd.Language language(Preprocessor.Dialect dialect) {
        return switch (dialect) {
            case HOST_C -> ClangFrontEnd.Language.C;
            case HOST_CXX -> ClangFrontEnd.Language.CXX;
            default -> ClangFrontEnd.Language.CUDA;
        };
    }

    /**
     * What of Clang's reading of {@code file} its analysis cache entry is keyed by ({@link SourceCache}): whether Clang
     * reads it, and with which arguments (the language, the build's flags, the toolkit, the include directories found
     * by name).
     */
    String cacheKey(
            CudaScanRun run, Path file, byte[] bytes, BuildContext bc, Preprocessor.Dialect dialect, Unit unit) {
        ClangFrontEnd fe = run.clang;
        if (!fe.active()) return "off " + fe.fallback();
        if (fe.refusalBeforeCommand(file, bytes) != null) return "refused";
        if (unit != null) {
            if (fe.refusalBeforeCommand(unit.file(), unit.bytes()) != null) {
                return unit.header()
                        ? "includer refused, alone " + fe.toolkit() + " "
                                + aloneArguments(run, file, bytes, bc, dialect)
                        : "refused";
            }
            return fe.decidingTag() + fe.toolkit() + " through " + unit.file() + " "
                    + SourceCache.sha256(unit.bytes()) + " "
                    + unitArguments(run, unit)
                    + (unit.header() ? " reads " + UnitHeaders.unitReads(run, unit.file()) : "");
        }
        return fe.decidingTag() + fe.toolkit() + " " + aloneArguments(run, file, bytes, bc, dialect);
    }

    /**
     * The build's dialect for {@code file} read alone, or null: a header no compiled unit includes, whose context names
     * no -std, takes the language and {@code -std} of the build's units ({@link HeaderDialect#applies}).
     */
    private static HeaderDialect borrowed(CudaScanRun run, Path file, BuildContext bc) {
        return HeaderDialect.applies(run, file, bc) ? run.headerDialect : null;
    }

    /**
     * Clang's arguments for the unit a file is read through: its compile command's, or, for a header that no compiled
     * unit includes (a .hpp through which its template implementation file, a .inl, is read), the header's own alone
     * arguments, with the build's language and -std ({@link HeaderDialect}): session 42's C++20 code had its .inl files
     * read as C++17 through their .hpp (101 errors each: requires-clauses, std::map::contains).
     */
    private static List<String> unitArguments(CudaScanRun run, Unit unit) {
        // a unit with a compile command of its own takes no dialect (HeaderDialect.applies): its command's arguments
        return aloneArguments(run, unit.file(), unit.bytes(), unit.bc(), unit.dialect());
    }

    /** Clang's arguments for {@code file} parsed on its own (not through a unit that includes it). */
    private static List<String> aloneArguments(
            CudaScanRun run, Path file, byte[] bytes, BuildContext bc, Preprocessor.Dialect dialect) {
        List<Path> byName = dev.numlint.cuda.clang.ClangIncludesByName.includeDirsByName(file, bytes, bc, run::inTree);
        HeaderDialect hd = borrowed(run, file, bc);
        List<String> args = hd == null
                ? run.clang.arguments(file, language(dialect), bc, byName)
                : hd.apply(file, run.clang.arguments(file, hd.languageOf(file), bc, byName));
        if (!SourceKinds.isHeader(file)) return args;
        // a header read on its own: the branches its conditions leave inactive without the build's macros are
        // named in a notice (inactiveAlone), so the record of them is kept
        List<String> keep = new ArrayList<>(args);
        keep.addAll(ClangUnit.KEEP_INACTIVE);
        return keep;
    }

    /** Content lines a header read alone must leave inactive before a notice names them. */
    private static final int INACTIVE_LINES = 5;

    /**
     * The notice of a header read on its own whose preprocessor branches are inactive there (a single-file library's
     * {@code #ifdef STB_IMAGE_RESIZE_IMPLEMENTATION}, which no compiled unit defines and includes it with): their
     * code is not analyzed, and the notice says so and where; null when they hold fewer than {@link #INACTIVE_LINES}
     * lines.
     */
    static Notification inactiveAlone(String rel, ClangUnit unit, byte[] bytes) {
        List<Integer> r = unit.inactiveLines();
        List<int[]> regions = new ArrayList<>();
        int lines = 0;
        for (int i = 0; i + 1 < r.size(); i += 2) {
            int content = r.get(i + 1) - r.get(i) - 1;
            if (content <= 0) continue;
            regions.add(new int[] {r.get(i), r.get(i + 1), content});
            lines += content;
        }
        if (lines < INACTIVE_LINES) return null;
        regions.sort((a, b) -> b[2] != a[2] ? Integer.compare(b[2], a[2]) : Integer.compare(a[0], b[0]));
        String[] text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8).split("\\R", -1);
        StringBuilder where = new StringBuilder();
        for (int i = 0; i < Math.min(3, regions.size()); i++) {
            int[] g = regions.get(i);
            String directive = g[0] - 1 < text.length ? text[g[0] - 1].strip() : "";
            where.append(i == 0 ? "" : ", ")
                    .append("lines ")
                    .append(g[0])
                    .append('-')
                    .append(g[1]);
            if (directive.startsWith("#"))
                where.append(" ('")
                        .append(Quote.shorten(directive, Quote.EXPRESSION))
                        .append("')");
        }
        if (regions.size() > 3) where.append(", ...");
        return new Notification(
                rel,
                regions.get(0)[0],
                Level.NOTE,
                "clang-inactive-alone",
                "read on its own (no compiled unit includes it as the build compiles it): " + lines + " line"
                        + (lines == 1 ? "" : "s") + " in " + regions.size() + " preprocessor branch"
                        + (regions.size() == 1 ? "" : "es") + " inactive there are not analyzed: " + where
                        + "; a unit that includes it with the macros those conditions test would compile them");
    }

    /**
     * What a notice of a listed header read alone says when the compiled unit that includes it was not parsed by
     * Clang (refused for an include Clang must not follow, over its budget): that unit and why, not "no compiled unit
     * includes this header".
     */
    private static String includerNotParsed(CudaScanRun run, Unit includer, String why) {
        return "its includer " + run.ctx.relativize(includer.file()) + " was not parsed by Clang (" + why + "): ";
    }

    /**
     * Clang's reading of one file for the supplement, or null (legacy front end, no libclang, a CUDA file without a
     * toolkit, or an include Clang must not follow: then a notice says why).
     */
    ClangSupplement read(
            CudaScanRun run,
            Path file,
            byte[] bytes,
            BuildContext bc,
            Preprocessor.Dialect dialect,
            String rel,
            FindingSink sink,
            Unit through) {
        ClangFrontEnd fe = run.clang;
        if (!fe.active()) return null;
        // an include Clang must not follow: the file stays with the hand-written front end, whose include-not-read
        // notices name those includes
        if (fe.refusalBeforeCommand(file, bytes) != null) return null;
        // a listed header whose compiled unit Clang refuses: read alone, with that includer's flags, and said so
        Unit refusedIncluder = null;
        String refusedWhy = through == null ? null : fe.refusalBeforeCommand(through.file(), through.bytes());
        if (refusedWhy != null) {
            if (!through.header()) return null;
            refusedIncluder = through;
            through = null;
        }
        long t0 = System.nanoTime();
        ClangUnit unit = null;
        boolean alone = false; // the file parsed on its own, with its own (or the build's borrowed) flags
        if (through != null && through.header()) {
            Path real = CudaScanRun.realPath(file);
            UnitHeaders.Kept kept = real == null ? null : UnitHeaders.take(run, real, through.file());
            unit = kept == null ? null : kept.header();
            // the unit's parse failed, or the unit does not include the header as Clang reads it: the header alone
            if (kept != null && (unit == null || dev.numlint.cuda.clang.ClangIncludes.notIncluded(unit))) {
                if (unit == null && kept.failure() != null) {
                    // the unit's parse failed (refused for an include Clang must not follow, over its budget):
                    // the header alone, with that includer's flags, and its notices name the includer and why
                    refusedIncluder = through;
                    refusedWhy = kept.failure();
                }
                unit = null;
                through = null;
            }
            if (unit != null) stats.clangFromUnits.incrementAndGet();
        } else if (through != null) {
            // a file compiled only through an include, read from the parse of the unit that compiles it when that
            // parse asked for it (UnitHeaders); else that unit is parsed again with the file as its target (below)
            Path real = CudaScanRun.realPath(file);
            UnitHeaders.Kept kept = real == null ? null : UnitHeaders.take(run, real, through.file());
            if (kept != null
                    && kept.header() != null
                    && !dev.numlint.cuda.clang.ClangIncludes.notIncluded(kept.header())) {
                unit = kept.header();
                stats.clangFromUnits.incrementAndGet();
            }
        }
        if (unit != null) {
            // read from its unit's parse
        } else if (through == null) {
            List<String> args = aloneArguments(run, file, bytes, bc, dialect);
            alone = true;
            stats.clangPrepNanos.addAndGet(System.nanoTime() - t0);
            Path real = CudaScanRun.realPath(file);
            // a build variant's parse (BuildVariants) keeps no header: they are read in the first variant's
            java.util.Map<Path, byte[]> headers =
                    run.variantPass.get() ? java.util.Map.of() : UnitHeaders.wanted(run, real);
            unit = fe.parse(file, args, bytes, null, null, headers);
            stats.clangUnits.incrementAndGet();
            // device code the host side could not type (a __host__ __device__ given only under __CUDA_ARCH__)
            ClangUnit device = ClangDeviceSide.reparse(fe, file, args, bytes, unit);
            if (device != null) {
                sink.notify(ClangDeviceSide.notice(rel, unit, device));
                unit = device;
                stats.clangUnits.incrementAndGet();
            }
            if (SourceKinds.isHeader(file)) stats.clangHeadersAlone.incrementAndGet();
            if (!headers.isEmpty()) UnitHeaders.keep(run, real, unit, headers.keySet());
        } else {
            // the file is compiled only as part of the unit that includes it: Clang parses that unit with its own
            // compile command and keeps the file's cursors (ClangParser), so the macros defined before the include
            // (name-building macros, FOO_IMPLEMENTATION) and the declarations of the headers before it are there
            List<String> args = unitArguments(run, through);
            stats.clangPrepNanos.addAndGet(System.nanoTime() - t0);
            unit = fe.parse(through.file(), args, through.bytes(), file, bytes);
            stats.clangUnits.incrementAndGet();
            if (through.header()) stats.clangUnitsAgain.incrementAndGet();
            if (through.header() && dev.numlint.cuda.clang.ClangIncludes.notIncluded(unit)) {
                // the header's unit does not include it as Clang reads it: the header alone, as before
                unit = fe.parse(file, aloneArguments(run, file, bytes, bc, dialect), bytes);
                alone = true;
                stats.clangUnits.incrementAndGet();
                stats.clangHeadersAlone.incrementAndGet();
            }
        }
        stats.clangNanos.addAndGet(System.nanoTime() - t0);
        if (unit.unavailable()) {
            // what this file reports without Clang is not what the key (Clang active) promises: never stored
            if (sink instanceof SourceCache.Recording r) r.notStorable();
            // libclang does not run in a worker: one note for the scan, no notice per file
            if (run.clangUnavailable.compareAndSet(null, unit.failure())) {
                sink.notify(new Notification(
                        rel, 0, Level.NOTE, "frontend-fallback", ClangFrontEnd.fallbackNote(unit.failure())));
            }
            return null;
        }
        if (unit.failure() != null) {
            sink.notify(new Notification(
                    rel,
                    0,
                    Level.WARNING,
                    "clang-not-parsed",
                    "not analyzed by Clang: " + unit.failure()
                            + "; left out: Clang's findings of this file (analyzed by the fallback front end, which"
                            + " guesses)"));
            return null;
        }
        stats.clangFiles.incrementAndGet();
        stats.clangParseNanos.addAndGet(unit.parseNanos());
        stats.clangWalkNanos.addAndGet(unit.walkNanos());
        stats.clangFunctions.addAndGet(unit.functions().size());
        // a file the build does not compile (a test of a configuration without tests) misses no finding that counts:
        // its findings are notes, and the types its own headers would define are not the build's (session 49: a
        // warning for gtest's types in tests the configuration does not build)
        java.util.Map<String, Integer> undefined =
                bc != null && bc.notCompiledReason() != null ? java.util.Map.of() : unit.undefinedTypes();
        run.undefinedTypes.add(rel, undefined);
        run.libraryStubs.note(
                rel,
                bytes,
                fe.toolkit(),
                bc == null ? List.of() : bc.includePaths(),
                file.toAbsolutePath().getParent(),
                unit.stubsRead());
        if (sink instanceof SourceCache.Recording r) r.undefinedTypes(undefined);
        if (unit.errors() > 0) stats.clangErrorFiles.incrementAndGet();
        // a header missing from the tree or the toolkit is the hand-written front end's to report (include notes, the
        // PTX layer's missing-header summary); Clang's note names any other first error
        // a header no unit includes that, read alone, stops at its own #error (sse2neon.h: "Unsupported target") is
        // code for another target or configuration: one note names that instead of its errors and its functions'
        String refused = alone && refusedIncluder == null && SourceKinds.isHeader(file)
                ? ownError(unit.firstError(), bytes)
                : null;
        if (refused != null) return new ClangSupplement(unit).notCompiled(refused);
        Notification inactive = alone && SourceKinds.isHeader(file) ? inactiveAlone(rel, unit, bytes) : null;
        if (inactive != null) sink.notify(inactive);
        ClangSupplement supplement = new ClangSupplement(unit);
        String system = unit.errors() > 0 ? systemHeaderMissing(unit.firstError(), bytes) : null;
        if (system != null) {
            // a library's header written with <...> that neither the tree, the toolkit nor the system's header
            // directories hold (the hand-written front end reports only the tree's missing headers): Clang stops there
            supplement.errors(new Notification(
                    rel,
                    errorLine(unit.firstError()),
                    Level.NOTE,
                    "clang-header-missing",
                    "Clang stopped at #include <" + system + ">: "
                            + headerAdvice(system, fe.toolkit(), bc != null && bc.compiled())));
        } else if (unit.errors() > 0 && !unit.firstError().endsWith("' file not found")) {
            // held: the hand-written parser's parse errors in this file are folded into it (supplement)
            supplement.errors(new Notification(
                    rel,
                    errorLine(unit.firstError()),
                    Level.NOTE,
                    "clang-error",
                    "Clang reported " + unit.errors() + " error" + (unit.errors() == 1 ? "" : "s") + ", the first "
                            + (unit.firstError().startsWith("line ") ? "at " : "")
                            + unit.firstError()
                            + (refusedIncluder != null
                                    ? " (" + includerNotParsed(run, refusedIncluder, refusedWhy)
                                            + (borrowed(run, file, bc) != null
                                                    ? borrowed(run, file, bc).readAlone(file)
                                                    : "it is read alone with its own flags")
                                            + ")"
                                    : alone && borrowed(run, file, bc) != null
                                            ? " (" + borrowed(run, file, bc).describe(file) + ")"
                                            : ClangFrontEnd.guessed(bc)
                                                    ? " (no build file gave this file's compile command: its flags are"
                                                            + " guessed)"
                                                    : "")
                            + "; what Clang recovered is analyzed"));
        }
        return supplement;
    }

    /**
     * After the hand-written front end: the facts Clang adds (functions it could not read, sites it missed) go
     * through the checks; a parse-error notice of a function Clang analyzed instead is dropped, the others are passed
     * on, and one note names the functions only Clang analyzed.
     */
    /**
     * CPU time per file for Clang's facts of the functions only Clang reads ({@code -Dnumlint.clang.factsBudgetMs}):
     * 20 s, the parse's own per-file budget, and as for the parse one more for every 100 KB of the file's text, at
     * most 8. Their walks check it ({@code ClangNode.forEach}), so a file made to take minutes in them (a 3,000-line
     * kernel took 90 s in one quadratic fact, session 30) costs its budget and a notice.
     */
    static final long FACTS_BUDGET_MS = 20_000;

    static long factsBudgetMs(ClangSupplement clang) {
        long budgets = Math.min(8, 1 + clang.unit().textBytes() / 100_000L);
        return Math.max(1, Long.getLong("numlint.clang.factsBudgetMs", FACTS_BUDGET_MS)) * budgets;
    }

    void supplement(
            ClangSupplement clang, String rel, Reporter rep, HeldNotices held, FindingSink sink, boolean alone) {
        ClangSupplement.Added added;
        dev.numlint.model.WorkBudget.start(factsBudgetMs(clang) * 1_000_000L);
        try {
            added = clang.missing();
        } catch (dev.numlint.model.WorkBudget.Exceeded e) {
            overBudget(clang.recovered(), factsBudgetMs(clang), rel, held, sink);
            return;
        } finally {
            dev.numlint.model.WorkBudget.stop();
        }
        stats.clangRecovered.addAndGet(added.recovered().size());
        for (FunctionFacts f : added.facts()) {
            stats.clangAdded.addAndGet(f.conversions.size()
                    + f.atomics.size()
                    + f.calls.size()
                    + f.divisions.size()
                    + f.accumulations.size()
                    + f.promotions.size()
                    + f.contractions.size());
            CudaChecks.run(f, rep, null);
        }
        stats.clangResets.addAndGet(clang.resetsApplied());
        List<ClangUnit.Function> rec = new ArrayList<>(added.recovered());
        if (clang.notCompiled() == null && sink instanceof SourceCache.Recording r) {
            // the lines of their random variates (ClangVariateLines), as the hand-written front end gives the lines of
            // the functions it reads: the PTX layer's decisions there are notes (LayerMerge)
            java.util.Set<Integer> variates = new java.util.TreeSet<>();
            for (ClangUnit.Function f : rec) variates.addAll(clang.unit().variateLines(f));
            if (!variates.isEmpty()) r.variateLines(rel, variates);
        }
        if (clang.notCompiled() != null) {
            notCompiled(clang, rel, held.held, rec, sink);
            return;
        }
        if (clang.errors() != null) {
            // one notice for the file: Clang's first error, with the functions the hand-written parser could not read
            Notification n = withParseErrors(clang, held.held, rec, sink);
            // a file the build does not compile misses no finding that counts (its findings are notes): nor does its
            // notice warn (session 64 round B: a stale main file of an antenna code with C99 'complex' declarations)
            boolean built = rep.build == null || rep.build.notCompiledReason() == null;
            sink.notify(built ? n : new Notification(n.file(), n.line(), Level.NOTE, n.id(), n.message()));
        } else {
            for (Notification n : held.held) {
                if (!clang.covers(n.line())
                        && clang.unit().errors() == 0
                        && FUNCTION.matcher(n.message()).matches()) {
                    // Clang read the file without error and holds no function there: the hand-written parser took a
                    // declaration for one (session 82: static double (*FAST_POW[23])(double){pow_0, ...}, "function
                    // 'double' not analyzed"); nothing is left out
                    sink.notify(
                            new Notification(
                                    n.file(),
                                    n.line(),
                                    Level.NOTE,
                                    n.id(),
                                    n.message()
                                            .replaceFirst("^function ('[^']*' \\(line \\d+\\)) not analyzed: ", "$1: ")
                                            .replace(
                                                    "; the rest of the file was analyzed",
                                                    "; Clang read the file without error and"
                                                            + " holds no function definition there (a declaration): nothing is left out")));
                    continue;
                }
                if (!clang.covers(n.line())) {
                    sink.notify(n);
                    continue;
                }
                // the function stays named, with the front end that analyzed it: a note, as it is analyzed (every
                // check on Clang's facts, its random-variate lines included, as the Clang-alone path analyzes every
                // function). In a file where Clang's errors are a missing header's (which the include notes name, not
                // a notice of Clang's), what it recovered of the function may be partial: a warning
                sink.notify(new Notification(
                        n.file(),
                        n.line(),
                        clang.unit().errors() > 0 ? n.level() : Level.NOTE,
                        n.id(),
                        n.message().replace(" not analyzed: ", " not read by the hand-written parser: ")
                                + "; Clang read it: analyzed from Clang's facts alone"));
                rec.removeIf(f -> n.line() >= f.startLine() && n.line() <= f.endLine());
            }
        }
        if (!rec.isEmpty() && !alone) {
            String names = firstNames(rec);
            sink.notify(new Notification(
                    rel,
                    rec.get(0).line(),
                    Level.NOTE,
                    "clang-only",
                    rec.size() + " function" + (rec.size() == 1 ? "" : "s") + " analyzed from Clang's facts alone ("
                            + names + "): the hand-written front end could not read "
                            + (rec.size() == 1 ? "it" : "them")
                            + " (no notice said so)"));
        }
    }

    /** "'a' (line 3), 'b' (line 9)": the first five functions named, then how many more. */
    private static String firstNames(List<ClangUnit.Function> rec) {
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < Math.min(5, rec.size()); i++) {
            names.append(i == 0 ? "" : ", ")
                    .append('\'')
                    .append(rec.get(i).name())
                    .append("' (line ")
                    .append(rec.get(i).line())
                    .append(')');
        }
        if (rec.size() > 5) names.append(" and ").append(rec.size() - 5).append(" more");
        return names.toString();
    }

    /**
     * The notice of a file whose Clang facts ran out of their budget: the functions only Clang read are not analyzed
     * (named); the hand-written parser's own notices are passed on as they are, as no Clang fact answers them.
     */
    private static void overBudget(
            List<ClangUnit.Function> rec, long budgetMs, String rel, HeldNotices held, FindingSink sink) {
        held.held.forEach(sink::notify);
        String names = firstNames(rec);
        sink.notify(new Notification(
                rel,
                rec.isEmpty() ? 1 : rec.get(0).line(),
                Level.WARNING,
                "over-budget",
                "Clang's facts of the file took longer than their per-file budget of " + budgetMs
                        + " ms of CPU time (set -Dnumlint.clang.factsBudgetMs to raise it): "
                        + (rec.isEmpty()
                                ? "no function relied on them alone"
                                : rec.size() + " function" + (rec.size() == 1 ? "" : "s")
                                        + " that only Clang read not analyzed (" + names + ")")
                        + "; the scan goes on"));
    }

    /** A parse-error notice of the hand-written parser: the function, its line when given, and why. */
    private static final java.util.regex.Pattern PARSE_ERROR = java.util.regex.Pattern.compile(
            "function '([^']*)'(?: \\(line (\\d+)\\))? not analyzed: (.*?)(?:; the rest of the file was analyzed)?");

    /**
     * Clang's notice of a file it read with errors ({@link ClangSupplement#errors}), with the hand-written parser's
     * parse errors folded in: the functions Clang read instead (analyzed from its facts alone) and those neither front
     * end read, each named; a note, or a warning when a function is left out or only Clang read the function that
     * holds its first error (what it recovered of it may be partial). A parse error that names no function is passed
     * on as it is.
     */
    private static Notification withParseErrors(
            ClangSupplement clang, List<Notification> held, List<ClangUnit.Function> rec, FindingSink sink) {
        Notification errors = clang.errors();
        List<String> readByClang = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        boolean partial = false; // Clang's first error lies in a function only Clang read
        for (Notification n : held) {
            java.util.regex.Matcher m = PARSE_ERROR.matcher(n.message());
            if (!m.matches()) {
                sink.notify(n);
                continue;
            }
            // 'f' (line 6: construct not understood near 'printf' at line 8): the function and the parser's reason
            String name =
                    "'" + m.group(1) + "' (line " + (m.group(2) != null ? m.group(2) : n.line()) + ": " + m.group(3);
            if (clang.covers(n.line())) {
                for (ClangUnit.Function f : clang.unit().functions()) {
                    if (n.line() >= f.startLine()
                            && n.line() <= f.endLine()
                            && errors.line() >= f.startLine()
                            && errors.line() <= f.endLine()) {
                        partial = true;
                        name += "; Clang's first error is in it, its analysis may be partial";
                        break;
                    }
                }
                readByClang.add(name + ")");
                rec.removeIf(f -> n.line() >= f.startLine() && n.line() <= f.endLine());
            } else {
                leftOut.add(name + ")");
            }
        }
        StringBuilder text = new StringBuilder(errors.message());
        if (!readByClang.isEmpty()) {
            text.append("; the hand-written parser could not read ")
                    .append(named(readByClang, "function"))
                    .append(", analyzed from Clang's facts alone");
        }
        if (!leftOut.isEmpty()) {
            text.append("; not analyzed (read by neither front end): ").append(named(leftOut, "function"));
        }
        return new Notification(
                errors.file(),
                errors.line(),
                leftOut.isEmpty() && !partial ? errors.level() : Level.WARNING,
                errors.id(),
                text.toString());
    }

    /** "2 functions ('a' (line 3), 'b' (line 9))": the first five named, then how many more. */
    private static String named(List<String> names, String what) {
        StringBuilder b = new StringBuilder()
                .append(names.size())
                .append(' ')
                .append(what)
                .append(names.size() == 1 ? "" : "s")
                .append(" (");
        for (int i = 0; i < Math.min(5, names.size()); i++)
            b.append(i == 0 ? "" : ", ").append(names.get(i));
        if (names.size() > 5) b.append(" and ").append(names.size() - 5).append(" more");
        return b.append(')').toString();
    }

    private static final java.util.regex.Pattern ERROR_AT = java.util.regex.Pattern.compile("line (\\d+): (.*)");

    /** The line of Clang's first error ("line 12: ..."), or 0 when it names none. */
    private static int errorLine(String firstError) {
        java.util.regex.Matcher at = ERROR_AT.matcher(firstError);
        return at.matches() ? Integer.parseInt(at.group(1)) : 0;
    }

    private static final java.util.regex.Pattern NOT_FOUND =
            java.util.regex.Pattern.compile("'([^']+)' file not found$");

    /**
     * What to do about a library header Clang did not find: where the system holds it below its header directories
     * ({@code <opencv2/core/core.hpp>} in {@code /usr/include/opencv4}, which OpenCV 4's build adds with {@code -I}),
     * else install it.
     */
    static String headerAdvice(String header, Path toolkit) {
        return headerAdvice(header, toolkit, true);
    }

    /**
     * {@link #headerAdvice(String, Path)}; {@code commanded}: the build compiles the file (its own compile command or
     * an includer's), else its flags are guessed and the notice says so (session 74 round A: headers no command
     * compiles were said to have a compile command that does not name the directory).
     */
    static String headerAdvice(String header, Path toolkit, boolean commanded) {
        String flags = commanded
                ? "which this file's compile command does not name"
                : "which the flags numlint guessed for this file (no compile command of the build compiles it) do not"
                        + " name";
        String missed = "; the file is analyzed without the types it declares, so conversions and atomics of them can"
                + " be missed: ";
        // <cuda.h>, <cuda_runtime_api.h> in a host file whose flags do not name the toolkit (session 71 round A: an
        // ultrasound simulator's .cpp files the build does not compile were told no directory held them)
        Path inToolkit = toolkit == null ? null : toolkit.resolve("include");
        if (inToolkit != null
                && dev.numlint.toolchain.IncludePolicy.plainHeaderName(header)
                && Files.isRegularFile(inToolkit.resolve(header)))
            return "the CUDA toolkit holds it in " + inToolkit + ", " + flags + missed
                    + "give the build's compile commands (-p) or --nvcc-flags \"-I" + inToolkit + "\"";
        Path sub = dev.numlint.toolchain.IncludePolicy.systemSubdirectoryOf(header);
        String nowhere = "no directory numlint may read holds it (the scanned tree, the CUDA toolkit, the system's"
                + " header directories)";
        return sub != null
                ? nowhere + missed + "the system holds it under " + sub + ", " + flags
                        + ": give the build's compile commands (-p) or --nvcc-flags \"-I" + sub + "\""
                : commanded
                        ? nowhere + missed + "install the library's headers under /usr/include or scan its include"
                                + " directory too"
                        // no command: the library may be installed where only the build's flags name it (Qt under
                        // /usr/include/x86_64-linux-gnu/qt6; session 87 round AS: four files the build does not
                        // compile were told to install headers that were installed)
                        : nowhere + " with the flags numlint guessed for this file (no compile command of the build"
                                + " compiles it)" + missed + "give a compile command that compiles it (-p) or"
                                + " --nvcc-flags \"-I<dir>\", or install the library's headers under /usr/include";
    }

    /**
     * The header of a first error "'x.hpp' file not found" when the file writes it as {@code #include <x.hpp>} (an
     * installed library's header, not the tree's), else null.
     */
    static String systemHeaderMissing(String firstError, byte[] text) {
        if (firstError == null) return null;
        java.util.regex.Matcher m = NOT_FOUND.matcher(firstError);
        if (!m.find()) return null;
        String name = m.group(1);
        String src = new String(text, java.nio.charset.StandardCharsets.ISO_8859_1);
        return java.util.regex.Pattern.compile("(?m)^\\s*#\\s*include\\s*<" + java.util.regex.Pattern.quote(name) + ">")
                        .matcher(src)
                        .find()
                ? dev.numlint.util.Escapes.text(name)
                : null;
    }

    private static final java.util.regex.Pattern ERROR_DIRECTIVE =
            java.util.regex.Pattern.compile("\\s*#\\s*error\\b.*");

    /** "its own #error at line N: message" when Clang's first error is an {@code #error} line of the file, or null. */
    static String ownError(String firstError, byte[] bytes) {
        if (firstError == null) return null;
        java.util.regex.Matcher m = ERROR_AT.matcher(firstError);
        if (!m.matches()) return null;
        int line = Integer.parseInt(m.group(1));
        String[] lines = new String(bytes, java.nio.charset.StandardCharsets.UTF_8).split("\n", line + 1);
        if (line < 1
                || line > lines.length
                || !ERROR_DIRECTIVE.matcher(lines[line - 1]).matches()) return null;
        return "its own #error at line " + line + ": " + m.group(2);
    }

    private static final java.util.regex.Pattern FUNCTION =
            java.util.regex.Pattern.compile("function '([^']*)' \\(line (\\d+)\\).*");

    /**
     * The note of a file the build compiles nowhere ({@link ClangSupplement#notCompiled}): its functions that neither
     * front end reads as compiled code are named there, not by a parse-error notice each.
     */
    private static void notCompiled(
            ClangSupplement clang,
            String rel,
            List<Notification> held,
            List<ClangUnit.Function> rec,
            FindingSink sink) {
        java.util.TreeMap<Integer, String> names = new java.util.TreeMap<>();
        List<Notification> rest = new ArrayList<>();
        for (Notification n : held) {
            java.util.regex.Matcher m = FUNCTION.matcher(n.message());
            if (m.matches()) names.put(Integer.parseInt(m.group(2)), m.group(1));
            else rest.add(n);
        }
        for (ClangUnit.Function f : rec) names.putIfAbsent(f.line(), f.name());
        rest.forEach(sink::notify);
        StringBuilder list = new StringBuilder();
        int i = 0;
        for (var e : names.entrySet()) {
            if (i == 5) {
                list.append(" and ").append(names.size() - 5).append(" more");
                break;
            }
            list.append(i++ == 0 ? "" : ", ")
                    .append('\'')
                    .append(e.getValue())
                    .append("' (line ")
                    .append(e.getKey())
                    .append(')');
        }
        sink.notify(new Notification(
                rel,
                0,
                Level.NOTE,
                "not-compiled",
                "not compiled by this build: no compiled unit includes this header, and read alone it stops at "
                        + clang.notCompiled()
                        + " (code for another target or configuration, as in an inactive #if branch of its includer)"
                        + (names.isEmpty()
                                ? ""
                                : "; " + names.size() + " function" + (names.size() == 1 ? "" : "s")
                                        + " the hand-written parser could not read (" + list + ")")
                        + "; what the front ends recovered is analyzed"));
    }

    /** A sink that holds parse-error notices while Clang may still analyze the function; the rest passes on. */
    static final class HeldNotices implements FindingSink {
        final FindingSink to;
        final boolean hold;
        final List<Notification> held = new ArrayList<>();

        HeldNotices(FindingSink to, boolean hold) {
            this.to = to;
            this.hold = hold;
        }

        @Override
        public void report(dev.numlint.model.Finding.Builder finding) {
            to.report(finding);
        }

        @Override
        public void notify(Notification n) {
            if (hold && "parse-error".equals(n.id())) held.add(n);
            else to.notify(n);
        }
    }
}
