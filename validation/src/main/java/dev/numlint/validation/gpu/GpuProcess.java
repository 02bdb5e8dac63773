package dev.numlint.validation.gpu;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.toolchain.GuardedProcess;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs GPU work in a child JVM ({@link GpuChild}), one per kernel, through the project's one process runner
 * ({@link GuardedProcess}): an argument list, an environment built from nothing, limits, a wall-clock timeout that
 * kills the tree, an output cap. A CUDA error that is sticky for the context or process, a crash (SIGSEGV, an
 * hs_err log) or a hang ends that child only, and is reported on its kernel; the next kernel gets a fresh child.
 *
 * <p>The child is this JVM's own {@code java} ({@code java.home}) on this JVM's class path (the shaded CLI jar, or
 * the module class path), so it runs exactly the numlint that started it. Its environment has, besides what the
 * runner always sets, only what the CUDA driver needs to be found and to pick the device the user chose (see
 * {@link #driverEnvironment()}). The address-space limit is lifted for it: the driver reserves virtual address
 * ranges the size of host plus device memory.
 */
public final class GpuProcess {
    private GpuProcess() {}

    /**
     * How to start the child: provider, device, timeout, where its private directory is made (null: the system
     * temporary directory), and the environment the driver variables are taken from (null: numlint's own).
     */
    public record Settings(
            String executor, int device, Duration timeout, Path tempParent, Map<String, String> parentEnvironment) {
        public Settings {
            if (executor == null) executor = JCudaProvider.NAME;
            if (timeout == null || timeout.isZero() || timeout.isNegative()) timeout = Duration.ofSeconds(300);
        }

        public Settings(String executor, int device, Duration timeout, Path tempParent) {
            this(executor, device, timeout, tempParent, null);
        }
    }

    /** The probe's answer: device facts, or why no GPU can be used. */
    public record Probe(Map<String, String> facts, String unavailable) {
        public boolean available() {
            return unavailable == null;
        }
    }

    /** One launch's outcome as the parent sees it: output buffers by parameter index when ok. */
    public record Outcome(
            String variant,
            int set,
            String status,
            String error,
            Map<Integer, byte[]> buffers,
            float[] kernelMillis,
            Boolean repeatsIdentical) {}

    /**
     * A kernel's GPU run: the outcomes of the launches the child reported, and when the child did not finish
     * normally (crash, timeout, unreadable result) what happened, naming the launch in progress.
     */
    public record KernelRun(
            List<Outcome> outcomes, String processFault, String faultedLaunch, Map<String, String> facts) {
        /**
         * "the GPU child process of kernel K crashed (exit code 134, killed by SIGABRT) during build as-built, input
         * set 0: SIGSEGV (0xb) at pc=...; problematic frame ...", or null when the process finished normally.
         */
        public String describeFault(String kernel) {
            if (processFault == null) return null;
            int d = processFault.indexOf(DETAIL);
            String head = d < 0 ? processFault : processFault.substring(0, d);
            String detail = d < 0 ? null : processFault.substring(d + DETAIL.length());
            return "the GPU child process of kernel " + kernel + " " + head
                    + (faultedLaunch != null ? " during " + faultedLaunch : "") + (detail != null ? ": " + detail : "");
        }
    }

    /** Whether a GPU can be used, asked of a child process (this JVM never loads the CUDA driver itself). */
    public static Probe probe(Settings s) {
        GpuJob job = new GpuJob();
        job.executor = s.executor();
        job.device = s.device();
        job.probe = true;
        try {
            Raw raw = start(
                    s,
                    job,
                    Map.of(),
                    s.timeout().compareTo(Duration.ofSeconds(120)) < 0 ? s.timeout() : Duration.ofSeconds(120));
            if (raw.result != null && raw.result.unavailable != null)
                return new Probe(Map.of(), raw.result.unavailable);
            if (raw.fault != null) return new Probe(Map.of(), "the GPU probe process " + raw.fault);
            if (raw.result == null) return new Probe(Map.of(), "the GPU probe process wrote no result");
            return new Probe(raw.result.facts, null);
        } catch (IOException e) {
            return new Probe(Map.of(), "the GPU probe process could not be started: " + e.getMessage());
        }
    }

    /**
     * Runs one kernel's launches in a fresh child. {@code files} are written into the child's working directory
     * first (the PTX and input buffers the job names).
     */
    public static KernelRun run(Settings s, GpuJob job, Map<String, byte[]> files) {
        job.executor = s.executor();
        job.device = s.device();
        Raw raw;
        try {
            raw = start(s, job, files, s.timeout());
        } catch (IOException e) {
            return new KernelRun(List.of(), "could not be started: " + e.getMessage(), null, Map.of());
        }
        List<Outcome> out = new ArrayList<>();
        if (raw.result != null) {
            for (int i = 0; i < raw.result.launches.size(); i++) {
                GpuJobResult.Outcome o = raw.result.launches.get(i);
                out.add(new Outcome(
                        o.variant, o.set, o.status, o.error, raw.buffers.get(i), o.kernelMillis, o.repeatsIdentical));
            }
        }
        String fault = raw.fault;
        if (fault == null && raw.result != null && raw.result.unavailable != null)
            fault = "found no usable GPU: " + raw.result.unavailable;
        String during = raw.result != null ? raw.result.running : null;
        if (fault == null && during != null) fault = "stopped without finishing";
        if (fault == null && raw.result != null && out.size() < job.launches.size())
            fault = "reported " + out.size() + " of " + job.launches.size() + " launches";
        return new KernelRun(out, fault, during, raw.result != null ? raw.result.facts : Map.of());
    }

    private record Raw(GpuJobResult result, Map<Integer, Map<Integer, byte[]>> buffers, String fault) {}

    private static Raw start(Settings s, GpuJob job, Map<String, byte[]> files, Duration timeout) throws IOException {
        ObjectMapper json = new ObjectMapper();
        GuardedProcess.Spec spec = spec(s, timeout);
        return GuardedProcess.run(
                spec,
                dir -> {
                    for (Map.Entry<String, byte[]> f : files.entrySet())
                        Files.write(dir.resolve(f.getKey()), f.getValue());
                    json.writeValue(dir.resolve("job.json").toFile(), job);
                },
                (dir, r) -> {
                    GpuJobResult res = null;
                    String readError = null;
                    Path rf = dir.resolve("result.json");
                    if (Files.isRegularFile(rf)) {
                        try {
                            res = json.readValue(rf.toFile(), GpuJobResult.class);
                        } catch (IOException e) {
                            readError = "wrote an unreadable result (" + e.getMessage() + ")";
                        }
                    }
                    Map<Integer, Map<Integer, byte[]>> bufs = new LinkedHashMap<>();
                    if (res != null) {
                        for (int i = 0; i < res.launches.size(); i++) {
                            Map<Integer, byte[]> m = new LinkedHashMap<>();
                            for (Map.Entry<Integer, String> o :
                                    res.launches.get(i).outputs.entrySet()) {
                                Path f = dir.resolve(o.getValue()).normalize();
                                if (!f.startsWith(dir) || !Files.isRegularFile(f)) continue;
                                m.put(o.getKey(), Files.readAllBytes(f));
                            }
                            bufs.put(i, m);
                        }
                    }
                    String fault = null;
                    if (r.timedOut())
                        fault = "exceeded its time limit of " + timeout.toSeconds()
                                + " s (--gpu-timeout) and was killed";
                    else if (r.outputTruncated()) fault = "wrote more output than allowed and was killed";
                    else if (r.exitCode() != 0) fault = crashed(r, dir);
                    else if (readError != null) fault = readError;
                    else if (res == null) fault = "exited without writing its result";
                    return new Raw(res, bufs, fault);
                });
    }

    /**
     * "crashed (exit code 134, killed by SIGABRT)", then what the JVM said about it (the signal and the
     * problematic frame, from its output or, when that has none, from its hs_err log), separated by " :: ".
     */
    static String crashed(GuardedProcess.Result r, Path dir) {
        StringBuilder b = new StringBuilder("crashed (exit code ").append(r.exitCode());
        String sig = signal(r.exitCode());
        if (sig != null) b.append(", killed by ").append(sig);
        b.append(')');
        List<String> facts = fatalErrorLines(r.output().lines().toList());
        if (facts.isEmpty()) {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path log : s.filter(p -> p.getFileName().toString().startsWith("hs_err"))
                        .toList()) {
                    try (Stream<String> lines = Files.lines(log)) {
                        facts = fatalErrorLines(lines.limit(60).toList());
                    }
                    if (!facts.isEmpty()) break;
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                // no log
            }
        }
        if (facts.isEmpty()) {
            List<String> tail = r.output().lines().filter(l -> !l.isBlank()).toList();
            if (!tail.isEmpty())
                facts.add("last output: " + tail.get(tail.size() - 1).strip());
        }
        if (!facts.isEmpty()) b.append(DETAIL).append(String.join("; ", facts).replaceAll("\\s+", " "));
        return b.toString();
    }

    /** Separates a process fault from the JVM's own words about it. */
    static final String DETAIL = " :: ";

    /** The signal line and the problematic frame of a JVM fatal error report. */
    private static List<String> fatalErrorLines(List<String> lines) {
        List<String> facts = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (l.matches("#\\s+SIG[A-Z]+ \\(0x[0-9a-f]+\\).*")) facts.add(l.replaceFirst("^#\\s*", ""));
            else if (l.startsWith("# Problematic frame:") && i + 1 < lines.size())
                facts.add("problematic frame " + lines.get(i + 1).strip().replaceFirst("^#\\s*", ""));
            if (facts.size() == 2) break;
        }
        return facts;
    }

    private static String signal(int exitCode) {
        if (exitCode <= 128 || exitCode > 128 + 64) return null;
        return switch (exitCode - 128) {
            case 4 -> "SIGILL";
            case 6 -> "SIGABRT";
            case 7 -> "SIGBUS";
            case 9 -> "SIGKILL";
            case 11 -> "SIGSEGV";
            case 15 -> "SIGTERM";
            case 24 -> "SIGXCPU (CPU time limit)";
            default -> "signal " + (exitCode - 128);
        };
    }

    /** The child's command line and limits. */
    static GuardedProcess.Spec spec(Settings s, Duration timeout) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        long heapMb = Math.max(256, Runtime.getRuntime().maxMemory() / (1024 * 1024));
        List<String> args = new ArrayList<>(List.of(
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-XX:-UsePerfData",
                "-XX:-CreateCoredumpOnCrash",
                "-Xmx" + heapMb + "m",
                "-cp",
                classPath(),
                GpuChild.class.getName(),
                "job.json",
                "result.json"));
        GuardedProcess.Spec spec = GuardedProcess.builder(java)
                .args(args)
                .timeout(timeout)
                // the wall clock is the real limit; CPU time (all threads of the JVM) is a backstop
                .cpuSeconds(Math.max(
                        60,
                        timeout.toSeconds() * Math.max(2, Runtime.getRuntime().availableProcessors())))
                .noAddressSpaceLimit()
                .maxOutput(256 * 1024);
        if (s.tempParent() != null) spec.tempParent(s.tempParent());
        childEnvironment(s).forEach(spec::env);
        return spec;
    }

    /** This JVM's class path with absolute entries (the child runs in its own working directory). */
    static String classPath() {
        List<String> out = new ArrayList<>();
        for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (e.isEmpty()) continue;
            out.add(Path.of(e).toAbsolutePath().normalize().toString());
        }
        return String.join(File.pathSeparator, out);
    }

    /**
     * The variables the child gets beyond the runner's fixed ones, each for a stated reason:
     *
     * <ul>
     *   <li>{@code LD_LIBRARY_PATH}: only the directories of numlint's own LD_LIBRARY_PATH that hold the CUDA
     *   driver library ({@code libcuda.so.1}, which JCuda's native library needs): hosts and containers that put the
     *   driver outside the dynamic loader's cache find it there. Nothing else of that path is passed; when no such
     *   directory exists, the loader's cache finds the driver as for any program.</li>
     *   <li>{@code CUDA_VISIBLE_DEVICES}, when set: the devices the user made visible, so that the device ordinal
     *   means the same in the child as the user meant it.</li>
     * </ul>
     */
    public static Map<String, String> driverEnvironment() {
        return driverEnvironment(System.getenv());
    }

    /** The variables the children of these settings get beyond the runner's fixed ones (see {@link #driverEnvironment()}). */
    public static Map<String, String> childEnvironment(Settings s) {
        return driverEnvironment(s.parentEnvironment() != null ? s.parentEnvironment() : System.getenv());
    }

    /** {@link #driverEnvironment()} for the given parent environment. */
    static Map<String, String> driverEnvironment(Map<String, String> parent) {
        Map<String, String> env = new LinkedHashMap<>();
        String ld = parent.get("LD_LIBRARY_PATH");
        if (ld != null) {
            List<String> dirs = new ArrayList<>();
            for (String d : ld.split(":")) {
                if (d.isEmpty() || dirs.contains(d)) continue;
                Path p = Path.of(d);
                if (p.isAbsolute()
                        && (Files.exists(p.resolve("libcuda.so.1")) || Files.exists(p.resolve("libcuda.so"))))
                    dirs.add(d);
            }
            if (!dirs.isEmpty()) env.put("LD_LIBRARY_PATH", String.join(":", dirs));
        }
        String visible = parent.get("CUDA_VISIBLE_DEVICES");
        if (visible != null && visible.matches("[A-Za-z0-9,:-]*")) env.put("CUDA_VISIBLE_DEVICES", visible);
        return env;
    }
}
