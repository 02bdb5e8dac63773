package dev.numlint.cli;

import dev.numlint.validation.replay.Recorder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code numlint record}: runs the one program the user names after {@code --} with the capture layer and writes
 * a recording of its kernel launches for {@code numlint validate --replay}. The only numlint command that runs a
 * program of the user's; scan and validate never do.
 */
@Command(
        name = "record",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Run your CUDA program (the command after --) on this GPU host and record its kernel launches "
                + "(module images, parameters, launch configuration, the device buffers the parameters point into "
                + "before and after each launch) for 'numlint validate --replay'. Recordings contain your program's "
                + "data (patient data, for a medical program): they stay where --output puts them.",
        footer = {
            "",
            "Example: numlint record --kernels 'forwardProject' --launches 2 --output rec -- ./recon phantom.raw",
            "Exit codes: the program's own exit code; 2 usage error (also: the capture library cannot be built)."
        })
final class RecordCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--kernels",
            paramLabel = "REGEX",
            description = "record only kernels whose name (mangled or plain) matches this POSIX extended regex")
    String kernels;

    @Option(
            names = "--launches",
            paramLabel = "N",
            defaultValue = "1",
            description = "launches recorded per kernel (default: ${DEFAULT-VALUE}); a notice says when more ran")
    long launches;

    @Option(
            names = "--every",
            paramLabel = "K",
            defaultValue = "1",
            description = "record every K-th launch of a kernel, counting from the first (default: ${DEFAULT-VALUE})")
    long every;

    @Option(
            names = "--max-bytes",
            paramLabel = "SIZE",
            defaultValue = "256M",
            description = "total bytes of module images and buffers written (K, M, G suffixes; default: "
                    + "${DEFAULT-VALUE}); a notice says when reached")
    String maxBytes;

    @Option(names = "--output", paramLabel = "DIR", required = true, description = "new or empty directory")
    Path output;

    @Option(
            names = "--cuda-home",
            paramLabel = "DIR",
            description = "the CUDA toolkit (cupti.h, libcupti, cuobjdump); default: the one of nvcc on PATH")
    Path cudaHome;

    @Option(
            names = "--capture-library",
            paramLabel = "FILE",
            description = "a prebuilt libnumlint_capture.so instead of building it from source at first use")
    Path captureLibrary;

    @Option(
            names = "--cache-dir",
            paramLabel = "DIR",
            description = "where the capture library is built (default: $XDG_CACHE_HOME/numlint or ~/.cache/numlint)")
    Path cacheDir;

    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            defaultValue = "3600",
            description = "wall-clock limit of the program; past it the program is killed (default: ${DEFAULT-VALUE})")
    long timeout;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "the program and its arguments, after --")
    List<String> command = new ArrayList<>();

    static long size(String s) {
        String t = s.strip().toUpperCase(Locale.ROOT).replaceFirst("I?B$", "");
        long mul = 1;
        if (t.endsWith("K")) mul = 1L << 10;
        else if (t.endsWith("M")) mul = 1L << 20;
        else if (t.endsWith("G")) mul = 1L << 30;
        if (mul > 1) t = t.substring(0, t.length() - 1);
        try {
            long v = Long.parseLong(t);
            if (v <= 0) throw new NumberFormatException();
            return Math.multiplyExact(v, mul);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new Main.UsageException("--max-bytes: not a size: " + s + " (e.g. 512M, 2G)");
        }
    }

    static Path toolkit(Path given) {
        if (given != null) return given;
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (d.isEmpty()) continue;
            Path nvcc = Path.of(d, "nvcc");
            if (Files.isExecutable(nvcc)) {
                try {
                    return nvcc.toRealPath().getParent().getParent();
                } catch (IOException e) {
                    // try the next
                }
            }
        }
        Path def = Path.of("/usr/local/cuda");
        return Files.isDirectory(def) ? def : null;
    }

    @Override
    public Integer call() throws IOException {
        if (launches < 1 || every < 1) throw new Main.UsageException("--launches and --every must be at least 1");
        if (timeout < 1) throw new Main.UsageException("--timeout must be at least 1 second");
        Recorder.Options o = new Recorder.Options();
        o.output = output;
        o.command = command;
        o.kernels = kernels;
        o.launches = launches;
        o.every = every;
        o.maxBytes = size(maxBytes);
        o.toolkit = toolkit(cudaHome);
        o.library = captureLibrary;
        String xdg = System.getenv("XDG_CACHE_HOME");
        o.cacheDir = cacheDir != null
                ? cacheDir
                : xdg != null && !xdg.isBlank()
                        ? Path.of(xdg, "numlint")
                        : Path.of(System.getProperty("user.home"), ".cache", "numlint");
        o.timeout = Duration.ofSeconds(timeout);
        for (String v : new String[] {"LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES"}) {
            String val = System.getenv(v);
            if (val != null) o.env.put(v, val);
        }
        PrintWriter err = spec.commandLine().getErr();
        Recorder.Result r;
        try {
            r = Recorder.record(o);
        } catch (IOException e) {
            throw new Main.UsageException("record: " + e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(ValidateCommand.escapedLines(r.outputTail()));
        for (String m : r.messages()) err.println("numlint record: " + dev.numlint.util.Escapes.text(m));
        err.println("numlint record: " + r.launches() + " launch(es) recorded in " + output
                + (r.timedOut() ? "; the program was killed at the --timeout" : "")
                + "; the program exited with " + r.exitCode());
        err.flush();
        out.flush();
        return r.exitCode() < 0 ? 3 : r.exitCode();
    }
}
