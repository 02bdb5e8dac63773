package dev.numlint.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.numlint.cuda.CudaSourceAnalyzer;
import dev.numlint.flags.BuildFlagAnalyzer;
import dev.numlint.java.JavaSourceAnalyzer;
import dev.numlint.model.Notification;
import dev.numlint.ptx.PtxAnalyzer;
import dev.numlint.scan.MarkerAnalyzer;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.PtxMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Coverage-guided fuzz targets for every reader of untrusted input: the CUDA/C++ front end (lexer, preprocessor,
 * parser and checks), the PTX reader and checks, the CMake, Makefile, compile_commands.json and pom.xml readers,
 * and the suppression-comment parser. A front end's exception, which the scan reports as an internal-error
 * notification, fails the input like a crash. Each input goes through the real scan entry point ({@link Scanner#scan}) as
 * a file of the right name in a fresh directory, with the per-input budget of {@link #BUDGET}: an input that takes
 * longer is a hang and fails like a crash. Memory: the fuzzing JVM runs with a small heap (bench/fuzz.sh passes
 * -Xmx), so an input that needs more is an OutOfMemoryError finding. Inputs are capped at {@value #MAX_INPUT}
 * bytes, far above what reaches every parser state.
 *
 * <p>In the normal test run (regression mode) each target runs the committed inputs under
 * {@code ParserFuzzTestInputs/<target>/} in the test resources: seeds and every crash or hang found so far.
 * {@code bench/fuzz.sh SECONDS} fuzzes each target for that long ({@code JAZZER_FUZZ=1}).
 */
class ParserFuzzTest {
    static final Duration BUDGET = Duration.ofSeconds(10);
    /** The first input of a target also loads and initializes its front end (the JDT compiler, the grammar). */
    static final Duration WARM_UP = Duration.ofSeconds(120);

    private static final java.util.Set<String> WARM = java.util.concurrent.ConcurrentHashMap.newKeySet();
    static final int MAX_INPUT = 64 * 1024;
    private static final ExecutorService WORKER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fuzz-input");
        t.setDaemon(true);
        return t;
    });

    @FuzzTest
    void cudaSource(byte[] data) {
        scan("kernel.cu", data, new CudaSourceAnalyzer());
    }

    @FuzzTest
    void ptx(byte[] data) {
        scan("kernel.ptx", data, new PtxAnalyzer());
    }

    @FuzzTest
    void cmake(byte[] data) {
        scan("CMakeLists.txt", data, new BuildFlagAnalyzer());
    }

    @FuzzTest
    void makefile(byte[] data) {
        scan("Makefile", data, new BuildFlagAnalyzer());
    }

    @FuzzTest
    void compileCommands(byte[] data) {
        scan("compile_commands.json", data, new BuildFlagAnalyzer());
    }

    @FuzzTest
    void pomXml(byte[] data) {
        scan(
                "pom.xml",
                data,
                new JavaSourceAnalyzer(),
                "src/main/java/A.java",
                "class A { float f(double d) { return (float) d; } }");
    }

    @FuzzTest
    void suppressionComments(byte[] data) {
        // the marker analyzer reports a finding on every line with HAZARD(NLxxx), so the scan's suppression pass
        // parses every comment of the fuzzed file against real findings
        scan("k.cu", data, new MarkerAnalyzer());
    }

    static void scan(String name, byte[] data, Analyzer analyzer) {
        scan(name, data, analyzer, null, null);
    }

    static void scan(String name, byte[] data, Analyzer analyzer, String extraName, String extraText) {
        if (data.length > MAX_INPUT) {
            return;
        }
        Future<?> f = WORKER.submit(() -> {
            Path dir = null;
            try {
                dir = Files.createTempDirectory("numlint-fuzz-");
                Files.write(dir.resolve(name), data);
                if (extraName != null) {
                    Path p = dir.resolve(extraName);
                    Files.createDirectories(p.getParent());
                    Files.writeString(p, extraText);
                }
                ScanResult r = Scanner.scan(ScanOptions.builder(dir)
                        .analyzers(List.of(analyzer))
                        .ptx(PtxMode.OFF, null)
                        .cacheDir(dir.resolve(".cache"))
                        .threads(1)
                        .build());
                // the scan turns exceptions of a front end into internal-error notifications: for the fuzzer they
                // are crashes
                for (Notification n : r.notifications()) {
                    // (the test-only marker analyzer reports any HAZARD(NLxxx) it reads, also ids the catalog lacks,
                    // and throws or simulates running out of memory on its markers on purpose: none is a parser crash)
                    if (n.id().startsWith("internal")
                            && !n.message().contains("unknown rule id")
                            && !n.message().contains("boom at line")
                            && !n.message().contains("simulated at line")) {
                        throw new AssertionError("internal error on " + name + ": " + n.message());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                delete(dir);
            }
        });
        Duration budget = WARM.add(name) ? WARM_UP : BUDGET;
        try {
            f.get(budget.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new AssertionError("hang: the input took longer than " + budget.toSeconds() + " s (" + name + ", "
                    + data.length + " bytes)");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new AssertionError(c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // best effort: a temp directory
        }
    }

    // ---- validation inputs (issue 31): the PTX, the --spec and the host launch the interpreter runs -------------

    /** The interpreter's instruction limit per launch in the validation target (an input's loops stop there). */
    static final long VALIDATION_INSTRUCTIONS = 2_000_000L;

    private static final java.util.concurrent.atomic.AtomicInteger VALIDATION_WARM_INPUTS =
            new java.util.concurrent.atomic.AtomicInteger();

    /**
     * Validation of one input: {@code PTX [\n%%\nSPEC-YAML [\n%%\nHOST-CODE]]}. The PTX is validated with
     * every kernel on the CPU interpreter (no GPU, no nvcc), the spec as {@code --spec} (one that does not read is a
     * usage error, skipped here as the CLI exits 2), the host code's launches (cudaMalloc sizes, grid, block, shared
     * memory) as the host launches. Sizes the input declares (2 GB of .shared, cudaMalloc(1ULL &lt;&lt; 40), a
     * negative allocation) must give a verdict, never an exception, an OutOfMemoryError or a hang; a kernel that
     * failed inside the validator ("validation failed: ...") is a crash.
     */
    @FuzzTest
    void validation(byte[] data) {
        validate(data);
    }

    static void validate(byte[] data) {
        if (data.length > MAX_INPUT) {
            return;
        }
        Future<?> f = WORKER.submit(() -> {
            Path dir = null;
            try {
                dir = Files.createTempDirectory("numlint-fuzz-");
                String[] parts = new String(data, java.nio.charset.StandardCharsets.UTF_8).split("\n%%\n", 3);
                Path ptx = dir.resolve("kernel.ptx");
                Files.writeString(ptx, parts[0]);
                dev.numlint.validation.ValidationOptions o = new dev.numlint.validation.ValidationOptions();
                o.gpu = dev.numlint.validation.ValidationOptions.GpuMode.OFF;
                o.inputs = 1;
                o.elements = 256;
                o.allKernels = true;
                o.instructionLimit = VALIDATION_INSTRUCTIONS;
                o.nvcc = dir.resolve("no-nvcc");
                o.cacheDir = dir.resolve(".cache");
                o.roots = new java.util.ArrayList<>(List.of(dir));
                if (parts.length > 1) {
                    Path spec = dir.resolve("spec.yml");
                    Files.writeString(spec, parts[1]);
                    try {
                        dev.numlint.validation.input.SpecFile.read(spec);
                        o.spec = spec;
                    } catch (IOException | RuntimeException usageError) {
                        // the CLI refuses it with exit 2 (ValidationInputs.options); validate without it
                    }
                }
                if (parts.length > 2) {
                    java.util.Map<String, dev.numlint.model.HostLaunch> launches = new java.util.LinkedHashMap<>();
                    for (dev.numlint.model.HostLaunch h : dev.numlint.cuda.HostLaunchReader.read("main.cu", parts[2])) {
                        launches.putIfAbsent(h.kernel, h);
                    }
                    o.hostLaunches = launches;
                }
                dev.numlint.validation.report.ValidationReport r =
                        dev.numlint.validation.Validator.validate(List.of(ptx), o);
                for (dev.numlint.validation.report.KernelResult k : r.kernels) {
                    if (k.reason != null && k.reason.startsWith("validation failed: ")) {
                        throw new AssertionError("validation of " + k.kernel + " failed: " + k.reason);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                delete(dir);
            }
        });
        // the first inputs load and instrument the validator's many classes (interpreter, YAML, host reader): the
        // warm-up budget for the first few, not only the first (a seed hit the 10 s watchdog on a loaded machine)
        Duration budget = VALIDATION_WARM_INPUTS.getAndIncrement() < 8 ? WARM_UP : BUDGET;
        try {
            f.get(budget.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new AssertionError("hang: the input took longer than " + budget.toSeconds() + " s (validation, "
                    + data.length + " bytes)");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new AssertionError(c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    // ---- issue 31 (sec-git): configuration, baseline, --spec and git reader targets, inputs up to 1 MB ----

    /** Inputs of the targets below may be large enough to reach the size blow-ups of issue 31. */
    static final int MAX_LARGE_INPUT = 1024 * 1024;

    /** A path of 4,000 characters that a hostile exclude glob of the configuration is matched against. */
    private static final String LONG_PATH = "d/" + "a".repeat(3998);

    /** .numlint.yml: parsed, then every exclude glob matched against a long path (the backtracking case). */
    @FuzzTest
    void numlintConfig(byte[] data) {
        bounded("config", data, dir -> {
            dev.numlint.config.NumlintConfig cfg;
            try {
                cfg = dev.numlint.config.NumlintConfig.parse(
                        new String(data, java.nio.charset.StandardCharsets.UTF_8), ".numlint.yml");
            } catch (dev.numlint.config.ConfigException e) {
                return; // a clear configuration error is the expected outcome of bad input
            }
            for (String g : cfg.exclude()) {
                dev.numlint.util.Glob glob = new dev.numlint.util.Glob(g);
                glob.matches(LONG_PATH);
                glob.matchesDirectory(LONG_PATH);
            }
        });
    }

    /** The baseline SARIF of --baseline. */
    @FuzzTest
    void baselineSarif(byte[] data) {
        bounded("baseline", data, dir -> {
            Path f = dir.resolve("baseline.sarif");
            Files.write(f, data);
            try {
                dev.numlint.output.Baseline.load(f).results();
            } catch (dev.numlint.output.Baseline.InvalidBaselineException e) {
                // a clear "not a readable numlint SARIF" is the expected outcome of bad input
            }
        });
    }

    /** The YAML launch and input specification of --spec. */
    @FuzzTest
    void validationSpec(byte[] data) {
        bounded("spec", data, dir -> {
            Path f = dir.resolve("spec.yml");
            Files.write(f, data);
            dev.numlint.validation.input.SpecFile spec;
            try {
                spec = dev.numlint.validation.input.SpecFile.read(f);
            } catch (IOException e) {
                return; // Jackson's parse errors: reported as a usage error
            }
            spec.find("_Z6squarePfS_i");
            spec.toYaml();
        });
    }

    /**
     * The git reader: a synthetic .git from the input, whose parts separated by a line "--8<--" are HEAD, packed-refs,
     * the index, and the inflated content of a loose object (stored under the id HEAD names, or a fixed one); then
     * the audit report of a file with a suppression, which reads commit, dirty state and blame.
     */
    @FuzzTest
    void gitReader(byte[] data) {
        bounded("git", data, dir -> {
            String[] parts = new String(data, java.nio.charset.StandardCharsets.ISO_8859_1).split("\n--8<--\n", 4);
            Path git = Files.createDirectories(dir.resolve(".git"));
            Files.createDirectories(git.resolve("refs/heads"));
            Files.write(git.resolve("HEAD"), latin1(parts[0]));
            if (parts.length > 1) {
                Files.write(git.resolve("packed-refs"), latin1(parts[1]));
            }
            if (parts.length > 2) {
                Files.write(git.resolve("index"), latin1(parts[2]));
            }
            if (parts.length > 3) {
                String head = parts[0].strip();
                String id = head.matches("[0-9a-f]{40}") ? head : "0123456789abcdef0123456789abcdef01234567";
                Path obj = Files.createDirectories(git.resolve("objects/" + id.substring(0, 2)))
                        .resolve(id.substring(2));
                java.util.zip.Deflater d = new java.util.zip.Deflater();
                try (java.io.OutputStream o = new java.util.zip.DeflaterOutputStream(Files.newOutputStream(obj), d)) {
                    o.write(latin1(parts[3]));
                } finally {
                    d.end();
                }
            }
            Files.writeString(dir.resolve("k.cu"), "y = HAZARD(NL001); // numlint: ignore NL001 -- clamped\n");
            ScanResult r = Scanner.scan(ScanOptions.builder(dir)
                    .path(dir)
                    .analyzers(List.of(new MarkerAnalyzer()))
                    .ptx(PtxMode.OFF, null)
                    .cacheDir(dir.resolve(".cache"))
                    .threads(1)
                    .build());
            dev.numlint.output.HtmlReport.render(
                    r, new dev.numlint.output.ReportOptions(null, false, null, List.of(dir), null));
        });
    }

    private static byte[] latin1(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    interface InDirectory {
        void run(Path dir) throws IOException;
    }

    /** Runs {@code body} in a fresh directory on the worker with the per-input budget; inputs over 1 MB are skipped. */
    static void bounded(String name, byte[] data, InDirectory body) {
        if (data.length > MAX_LARGE_INPUT) {
            return;
        }
        Future<?> f = WORKER.submit(() -> {
            Path dir = null;
            try {
                dir = Files.createTempDirectory("numlint-fuzz-");
                body.run(dir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                delete(dir);
            }
        });
        Duration budget = WARM.add(name) ? WARM_UP : BUDGET;
        try {
            f.get(budget.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new AssertionError("hang: the input took longer than " + budget.toSeconds() + " s (" + name + ", "
                    + data.length + " bytes)");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new AssertionError(c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
    // ---- end of issue 31 (sec-git) targets ----
}
