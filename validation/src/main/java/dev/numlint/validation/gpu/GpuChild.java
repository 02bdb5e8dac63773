package dev.numlint.validation.gpu;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.validation.GpuExecutor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The GPU child process: {@code java -cp NUMLINT GpuChild job.json result.json}, started by {@link GpuProcess}
 * through the guarded process runner, once per kernel (and once to probe the device). It runs one kernel's
 * launches (every build and input set) in its own CUDA context and process, so that an error that is sticky for
 * the context or the process (CUDA_ERROR_ILLEGAL_ADDRESS), a crash of the driver or the JVM, or a kernel that
 * never finishes ends this process only: the next kernel runs in a fresh one. Job and result are files in the
 * working directory (JSON and raw buffers); the result is rewritten before every launch (see {@link
 * GpuJobResult#running}). Exit code 0 when the result is complete, 2 when the job cannot be read.
 */
public final class GpuChild {
    private GpuChild() {}

    public static void main(String[] args) {
        // JCuda unpacks its native library into java.io.tmpdir: the private TMPDIR the guarded runner made (the
        // JVM's default, /tmp, is shared and may not be writable)
        String tmp = System.getenv("TMPDIR");
        if (tmp != null && !tmp.isEmpty())
            System.setProperty("java.io.tmpdir", Path.of(tmp).toAbsolutePath().toString());
        if (args.length != 2) {
            System.out.println("usage: GpuChild JOB.json RESULT.json");
            System.exit(2);
        }
        Path dir = Path.of("").toAbsolutePath();
        ObjectMapper json = new ObjectMapper();
        GpuJob job;
        try {
            job = json.readValue(dir.resolve(args[0]).toFile(), GpuJob.class);
        } catch (IOException e) {
            System.out.println("cannot read the job " + args[0] + ": " + e.getMessage());
            System.exit(2);
            return;
        }
        Path resultFile = dir.resolve(args[1]);
        GpuJobResult result = new GpuJobResult();
        try {
            run(job, dir, result, r -> write(json, r, resultFile));
            result.running = null;
            write(json, result, resultFile);
        } catch (IOException e) {
            System.out.println("cannot write the result " + args[1] + ": " + e.getMessage());
            System.exit(2);
        }
        System.out.flush();
        // the driver's threads must not keep the process alive
        System.exit(0);
    }

    interface Progress {
        void save(GpuJobResult r) throws IOException;
    }

    static Optional<GpuExecutorProvider> provider(String name) {
        for (GpuExecutorProvider p : ServiceLoader.load(GpuExecutorProvider.class)) {
            if (p.name().equals(name)) return Optional.of(p);
        }
        return Optional.empty();
    }

    static void run(GpuJob job, Path dir, GpuJobResult result, Progress progress) throws IOException {
        Optional<GpuExecutorProvider> provider = provider(job.executor);
        if (provider.isEmpty()) {
            result.unavailable = "no GPU executor named '" + job.executor + "' on the class path";
            return;
        }
        Optional<String> why;
        try {
            why = provider.get().unavailableReason();
        } catch (RuntimeException | LinkageError e) {
            why = Optional.of("the GPU check failed: " + e);
        }
        if (why.isPresent()) {
            result.unavailable = why.get();
            return;
        }
        GpuExecutor ex;
        try {
            ex = provider.get().open(job.device);
            result.facts.putAll(ex.facts()); // opens the context
            result.facts.put("deviceOrdinal", Integer.toString(job.device));
        } catch (RuntimeException | LinkageError e) {
            result.unavailable = "opening GPU " + job.device + " failed: " + e.getMessage();
            return;
        }
        try {
            String lost = null;
            for (GpuJob.Launch l : job.probe ? List.<GpuJob.Launch>of() : job.launches) {
                GpuJobResult.Outcome o = new GpuJobResult.Outcome();
                o.variant = l.variant;
                o.set = l.set;
                if (lost != null) {
                    o.status = "not-run";
                    o.error = "this kernel's CUDA context was lost after " + lost;
                    result.launches.add(o);
                    continue;
                }
                result.running = l.describe();
                progress.save(result);
                if (l.images != null) {
                    replay(ex, job, l, dir, o, result.launches.size());
                    if ("failed".equals(o.status)) lost = l.describe() + " failed (" + o.error + ")";
                    result.launches.add(o);
                    continue;
                }
                String ptx = Files.readString(dir.resolve(l.ptxFile));
                List<Object> args = new ArrayList<>();
                for (GpuJob.Arg a : l.args) {
                    switch (a.kind) {
                        case "buffer" -> args.add(Files.readAllBytes(dir.resolve(a.file)));
                        case "bytes" -> args.add(new GpuExecutor.Bytes(Files.readAllBytes(dir.resolve(a.file))));
                        case "scalar" -> args.add(a.value);
                        default -> throw new IOException("unknown argument kind '" + a.kind + "'");
                    }
                }
                try {
                    GpuExecutor.Result r =
                            ex.run(ptx, job.kernel, l.grid, l.block, l.sharedBytes, args, l.paramSizes, job.repeats);
                    o.status = "ok";
                    o.kernelMillis = r.kernelMillis();
                    for (Map.Entry<Integer, byte[]> e : r.buffers().entrySet()) {
                        String f = "out-" + result.launches.size() + "-" + e.getKey() + ".bin";
                        Files.write(dir.resolve(f), e.getValue());
                        o.outputs.put(e.getKey(), f);
                    }
                } catch (Exception e) {
                    o.status = "failed";
                    o.error = String.valueOf(e.getMessage());
                    lost = l.describe() + " failed (" + o.error + ")";
                }
                result.launches.add(o);
            }
        } finally {
            try {
                ex.close();
            } catch (RuntimeException e) {
                // the context may be unusable after a fault; the process ends anyway
            }
        }
    }

    /** A recorded launch: its outputs are the allocations after the launch, by allocation index. */
    private static void replay(GpuExecutor ex, GpuJob job, GpuJob.Launch l, Path dir, GpuJobResult.Outcome o, int n)
            throws IOException {
        List<byte[]> images = new ArrayList<>();
        for (String f : l.images) images.add(Files.readAllBytes(dir.resolve(f)));
        List<byte[]> allocs = new ArrayList<>();
        for (String f : l.allocations) allocs.add(Files.readAllBytes(dir.resolve(f)));
        Map<String, byte[]> globals = new java.util.LinkedHashMap<>();
        if (l.globals != null)
            for (Map.Entry<String, String> g : l.globals.entrySet())
                globals.put(g.getKey(), Files.readAllBytes(dir.resolve(g.getValue())));
        List<GpuExecutor.ReplayTexture> textures = new ArrayList<>();
        if (l.textures != null)
            for (GpuJob.Texture t : l.textures)
                textures.add(new GpuExecutor.ReplayTexture(
                        t.param,
                        t.resource,
                        t.dims,
                        t.width,
                        t.height,
                        t.depth,
                        t.layers,
                        t.format,
                        t.channels,
                        t.pitch,
                        t.address,
                        t.filter,
                        t.flags,
                        t.border,
                        Files.readAllBytes(dir.resolve(t.file))));
        try {
            GpuExecutor.ReplayResult r = ex.replay(new GpuExecutor.Replay(
                    images,
                    job.kernel,
                    l.grid,
                    l.block,
                    l.sharedBytes,
                    Files.readAllBytes(dir.resolve(l.paramBlock)),
                    l.params,
                    allocs,
                    globals,
                    textures,
                    job.repeats));
            o.status = "ok";
            o.kernelMillis = r.kernelMillis();
            o.repeatsIdentical = r.repeatsIdentical();
            for (int a = 0; a < r.allocations().size(); a++) {
                String f = "out-" + n + "-" + a + ".bin";
                Files.write(dir.resolve(f), r.allocations().get(a));
                o.outputs.put(a, f);
            }
        } catch (Exception e) {
            o.status = "failed";
            o.error = String.valueOf(e.getMessage());
        }
    }

    private static void write(ObjectMapper json, GpuJobResult r, Path file) throws IOException {
        Path t = file.resolveSibling(file.getFileName() + ".part");
        json.writeValue(t.toFile(), r);
        Files.move(t, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
