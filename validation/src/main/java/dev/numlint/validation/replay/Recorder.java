package dev.numlint.validation.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numlint.toolchain.GuardedProcess;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * {@code numlint record}: builds the capture library (numlint_capture.c, shipped as a resource) with the host's C
 * compiler against the toolkit's CUPTI at first use into the cache, then runs the one program the user named on
 * the command line, through {@link GuardedProcess} (argument list, no shell), with
 * {@code CUDA_INJECTION64_PATH} pointing at the library, and finally writes manifest.json and the PTX of every
 * recorded fatbinary (extracted with the toolkit's cuobjdump) into the recording. Never called by scan or validate.
 */
public final class Recorder {
    public static final String SOURCE = "numlint_capture.c";
    public static final String LIBRARY = "libnumlint_capture.so";

    /** What to record and where. */
    public static final class Options {
        public Path output;
        public List<String> command = new ArrayList<>();
        public String kernels;
        public long launches = 1;
        public long every = 1;
        public long maxBytes = 256L << 20;
        /** The CUDA toolkit (include/, lib64/ or extras/CUPTI/, bin/cuobjdump). */
        public Path toolkit;
        /** Where the compiled capture library is kept. */
        public Path cacheDir;
        /** A capture library built before (skips the compiler). */
        public Path library;
        /** The C compiler; null: cc or gcc from /usr/bin. */
        public Path compiler;

        public Duration timeout = Duration.ofHours(1);
        /** Extra environment passed to the program (LD_LIBRARY_PATH, CUDA_VISIBLE_DEVICES when numlint has them). */
        public Map<String, String> env = new java.util.LinkedHashMap<>();
    }

    /** What happened: the program's exit code and output (tail), the recording's counts, messages for the user. */
    public record Result(int exitCode, boolean timedOut, String outputTail, int launches, List<String> messages) {}

    private Recorder() {}

    /** The capture library's source text, as shipped. */
    public static String source() throws IOException {
        try (InputStream in = Recorder.class.getResourceAsStream(SOURCE)) {
            if (in == null) throw new IOException("the capture library's source is missing from numlint");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The include and library directories of CUPTI in toolkit, or an exception naming what is missing. */
    /**
     * The include directories (cuda.h, cupti.h) and the library directory of CUPTI in toolkit, or an exception
     * naming what is missing.
     */
    static Path[] cupti(Path toolkit) throws IOException {
        if (toolkit == null) throw new IOException("no CUDA toolkit found: put nvcc on PATH or give --cuda-home");
        Path inc = toolkit.resolve("include"), cuptiInc = null, lib = null;
        for (Path d : List.of(toolkit.resolve("include"), toolkit.resolve("extras/CUPTI/include")))
            if (cuptiInc == null && Files.isRegularFile(d.resolve("cupti.h"))) cuptiInc = d;
        for (Path d : List.of(
                toolkit.resolve("lib64"),
                toolkit.resolve("extras/CUPTI/lib64"),
                toolkit.resolve("targets/x86_64-linux/lib"),
                toolkit.resolve("lib"))) if (lib == null && Files.exists(d.resolve("libcupti.so"))) lib = d;
        if (!Files.isRegularFile(inc.resolve("cuda.h"))) throw new IOException(toolkit + ": no include/cuda.h");
        if (cuptiInc == null)
            throw new IOException(
                    toolkit + ": no cupti.h under include/ or extras/CUPTI/include/ (install the toolkit's"
                            + " CUPTI package, or give --cuda-home)");
        if (lib == null)
            throw new IOException(
                    toolkit + ": no libcupti.so under lib64/, extras/CUPTI/lib64/ or targets/x86_64-linux/lib/");
        return new Path[] {inc, cuptiInc, lib};
    }

    static Path compiler(Path given) throws IOException {
        if (given != null) return given;
        for (String c : new String[] {"/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"})
            if (Files.isExecutable(Path.of(c))) return Path.of(c);
        throw new IOException("no C compiler (/usr/bin/cc, gcc or clang) to build the capture library; install one or"
                + " give a prebuilt library with --capture-library");
    }

    /**
     * The capture library, compiled into cacheDir at first use: keyed by the source, the compiler and the CUPTI
     * directories, so a new toolkit or numlint rebuilds it.
     */
    public static Path build(Path cc, Path include, Path cuptiInclude, Path lib, Path cacheDir) throws IOException {
        String src = source();
        String key;
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update((src + "\0" + cc + "\0" + include + "\0" + cuptiInclude + "\0" + lib)
                    .getBytes(StandardCharsets.UTF_8));
            key = HexFormat.of().formatHex(md.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Path dir = cacheDir.resolve("capture").resolve(key);
        Path so = dir.resolve(LIBRARY);
        if (Files.isRegularFile(so, LinkOption.NOFOLLOW_LINKS)) return so;
        Files.createDirectories(dir);
        GuardedProcess.Spec spec = GuardedProcess.builder(cc)
                .args(List.of(
                        "-std=c11",
                        "-O2",
                        "-shared",
                        "-fPIC",
                        "-I" + include,
                        "-I" + cuptiInclude,
                        "-o",
                        LIBRARY,
                        SOURCE,
                        "-L" + lib,
                        "-lcupti",
                        "-ldl",
                        "-lpthread",
                        "-Wl,-rpath," + lib))
                .timeout(Duration.ofMinutes(2))
                .cpuSeconds(120);
        return GuardedProcess.run(
                spec, work -> Files.writeString(work.resolve(SOURCE), src, StandardCharsets.UTF_8), (work, r) -> {
                    if (!r.ok() || !Files.isRegularFile(work.resolve(LIBRARY)))
                        throw new IOException("building the capture library failed (" + cc + ", exit " + r.exitCode()
                                + "): " + tail(r.output(), 2000));
                    Path tmp = Files.createTempFile(dir, "lib", ".tmp");
                    Files.copy(work.resolve(LIBRARY), tmp, StandardCopyOption.REPLACE_EXISTING);
                    Files.move(tmp, so, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    return so;
                });
    }

    static String tail(String s, int n) {
        return s.length() <= n ? s : "..." + s.substring(s.length() - n);
    }

    /** Resolves the program as the shell would: a name with a slash is a path, else the first match on PATH. */
    static Path program(String name, String path) throws IOException {
        if (name.contains("/")) {
            Path p = Path.of(name).toAbsolutePath().normalize();
            if (!Files.isExecutable(p)) throw new IOException(name + ": not an executable file");
            return p;
        }
        for (String d : (path == null ? "" : path).split(":")) {
            if (d.isEmpty()) continue;
            Path p = Path.of(d, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return p;
        }
        throw new IOException(name + ": not found on PATH");
    }

    public static Result record(Options o) throws IOException {
        List<String> messages = new ArrayList<>();
        if (o.command.isEmpty()) throw new IOException("no program to record: give it after --");
        Path out = o.output.toAbsolutePath().normalize();
        if (Files.exists(out, LinkOption.NOFOLLOW_LINKS)) {
            if (!Files.isDirectory(out, LinkOption.NOFOLLOW_LINKS))
                throw new IOException(out + ": exists and is not a directory");
            try (var s = Files.list(out)) {
                if (s.findAny().isPresent()) throw new IOException(out + ": not empty; record into a new directory");
            }
        } else Files.createDirectories(out);
        Path lib = o.library;
        Path toolkit = o.toolkit;
        if (lib == null) {
            Path[] c = cupti(toolkit);
            lib = build(compiler(o.compiler), c[0], c[1], c[2], o.cacheDir);
            messages.add("capture library: " + lib);
        }
        Path prog = program(o.command.get(0), System.getenv("PATH"));
        GuardedProcess.Spec spec = GuardedProcess.builder(prog)
                .args(o.command.subList(1, o.command.size()))
                .workingDirectory(Path.of("").toAbsolutePath())
                .timeout(o.timeout)
                .cpuSeconds(Math.max(60, o.timeout.toSeconds() * 4))
                .noAddressSpaceLimit()
                .fileSize(Math.max(1L << 30, o.maxBytes + (64L << 20)))
                .maxOutput(16 << 20)
                .env("CUDA_INJECTION64_PATH", lib.toAbsolutePath().toString())
                .env("NUMLINT_CAPTURE_DIR", out.toString())
                .env("NUMLINT_CAPTURE_LAUNCHES", Long.toString(o.launches))
                .env("NUMLINT_CAPTURE_EVERY", Long.toString(o.every))
                .env("NUMLINT_CAPTURE_MAX_BYTES", Long.toString(o.maxBytes));
        if (toolkit != null && Files.isDirectory(toolkit.resolve("bin"))) spec.binDir(toolkit.resolve("bin"));
        if (o.kernels != null) spec.env("NUMLINT_CAPTURE_KERNELS", o.kernels);
        o.env.forEach(spec::env);
        Instant start = Instant.now();
        GuardedProcess.Result r = GuardedProcess.run(spec);
        double seconds = Duration.between(start, Instant.now()).toMillis() / 1000.0;
        if (!Files.isRegularFile(out.resolve("capture.json"), LinkOption.NOFOLLOW_LINKS))
            messages.add("the capture library was not loaded: the program never initialised the CUDA driver (cuInit),"
                    + " or the driver refused the injection library; nothing was recorded");
        // PTX of fatbinaries, for the interpreter
        Path cuobjdump = toolkit == null ? null : toolkit.resolve("bin/cuobjdump");
        int launches = 0;
        try {
            Recording rec = Recording.read(out);
            launches = rec.launches.size();
            for (Recording.Module m : rec.modules) {
                if (m.ptx != null || !"fatbin".equals(m.kind)) continue;
                if (cuobjdump == null || !Files.isExecutable(cuobjdump)) {
                    messages.add(
                            m.file + ": no cuobjdump in the toolkit to extract its PTX; the interpreter cannot replay"
                                    + " its kernels");
                    continue;
                }
                String ptx = extractPtx(cuobjdump, out.resolve(m.file));
                if (ptx == null)
                    messages.add(m.file + ": holds no PTX (SASS only); its kernels replay on the GPU only");
                else Files.writeString(out.resolve(Recording.extractedPtx(m.file)), ptx, StandardCharsets.UTF_8);
            }
            messages.addAll(rec.notices);
            ptxOfProgram(cuobjdump, prog, out, messages);
            SymbolWrites.name(out, prog, messages);
        } catch (IOException e) {
            messages.add(e.getMessage());
        }
        ObjectMapper json = new ObjectMapper();
        ObjectNode man = json.createObjectNode();
        man.put("format", "numlint-recording");
        man.put("version", Recording.VERSION);
        String dev = null;
        if (Files.isRegularFile(out.resolve("device.json"), LinkOption.NOFOLLOW_LINKS))
            dev = json.readTree(out.resolve("device.json").toFile())
                    .path("name")
                    .asText(null);
        man.put("recordedOn", dev == null ? "unknown device (no launch recorded)" : dev + " (a run of the program)");
        ArrayNode cmd = man.putArray("command");
        o.command.forEach(cmd::add);
        man.put("exitCode", r.exitCode());
        man.put("timedOut", r.timedOut());
        man.put("seconds", seconds);
        man.put("launches", launches);
        man.put("recordedAt", Instant.now().toString());
        json.writerWithDefaultPrettyPrinter()
                .writeValue(out.resolve("manifest.json").toFile(), man);
        return new Result(r.exitCode(), r.timedOut(), tail(r.output(), 4000), launches, messages);
    }

    /** The PTX cuobjdump finds in a fatbinary (the last, i.e. newest, when there are several), or null. */
    static String extractPtx(Path cuobjdump, Path fatbin) throws IOException {
        List<String> all = extractAllPtx(cuobjdump, fatbin);
        return all.isEmpty() ? null : all.get(all.size() - 1);
    }

    /** Every PTX section cuobjdump -ptx lists in file (a fatbinary or an executable), in its order. */
    static List<String> extractAllPtx(Path cuobjdump, Path file) throws IOException {
        GuardedProcess.Result r = GuardedProcess.run(GuardedProcess.builder(cuobjdump)
                .args(List.of("-ptx", file.toString()))
                .timeout(Duration.ofMinutes(2))
                .maxOutput(256 << 20));
        List<String> out = new ArrayList<>();
        if (!r.ok()) return out;
        String[] parts = r.output().split("Fatbin ptx code:");
        for (int i = 1; i < parts.length; i++) {
            int v = parts[i].indexOf(".version");
            if (v >= 0) out.add(parts[i].substring(v));
        }
        return out;
    }

    /**
     * Kernels launched whose PTX no recorded image holds (the runtime loaded its images in a way the callbacks did
     * not show, or they were SASS only): the PTX sections of the program's own executable, as cuobjdump lists them,
     * are added to the recording as modules (loadedBy "cuobjdump of the program").
     */
    static void ptxOfProgram(Path cuobjdump, Path prog, Path out, List<String> messages) throws IOException {
        Recording rec = Recording.read(out);
        List<String> missing = rec.launches.stream()
                .map(l -> l.kernel)
                .distinct()
                .filter(k -> rec.moduleOf(k) == null)
                .toList();
        if (missing.isEmpty()) return;
        if (cuobjdump == null || !Files.isExecutable(cuobjdump)) {
            messages.add("no PTX recorded for " + missing + " and no cuobjdump to read it from the program");
            return;
        }
        List<String> ptx = extractAllPtx(cuobjdump, prog);
        int next = rec.modules.size() + 1000;
        StringBuilder lines = new StringBuilder();
        for (String p : ptx) {
            String file = "modules/program-" + next + ".ptx.txt";
            Files.writeString(out.resolve(file), p, StandardCharsets.UTF_8);
            lines.append("{\"id\":")
                    .append(next)
                    .append(",\"file\":\"")
                    .append(file)
                    .append("\",\"kind\":\"ptx\",\"bytes\":")
                    .append(p.length())
                    .append(",\"loadedBy\":\"cuobjdump of the program\",\"complete\":true}\n");
            next++;
        }
        Files.writeString(
                out.resolve("modules.jsonl"),
                lines.toString(),
                StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        messages.add("PTX of " + missing + " was not among the recorded images; " + ptx.size()
                + " PTX section(s) of the program " + prog + " added (cuobjdump -ptx)");
    }
}
