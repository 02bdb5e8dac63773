package dev.numlint.validation;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** Builds PTX from a .cu file with nvcc (ProcessBuilder with an argument list, no shell); results are cached. */
public final class Nvcc {
    private final Path exe;
    private final String arch;
    private final Map<String, Result> cache = new ConcurrentHashMap<>();

    /** PTX text or the compiler's error output. */
    public static final class Result {
        public final String ptx;
        public final String error;

        public Result(String ptx, String error) {
            this.ptx = ptx;
            this.error = error;
        }
    }

    public Nvcc(Path exe, String arch) {
        this.exe = exe;
        this.arch = arch;
    }

    /** nvcc from the given path, or the NUMLINT_NVCC environment variable, or PATH, or the CUDA default prefix. */
    public static Optional<Nvcc> find(Path explicit, String arch) {
        List<Path> candidates = new ArrayList<>();
        if (explicit != null) candidates.add(explicit);
        String env = System.getenv("NUMLINT_NVCC");
        if (env != null && !env.isBlank()) candidates.add(Paths.get(env));
        String path = System.getenv("PATH");
        if (path != null) for (String d : path.split(java.io.File.pathSeparator)) if (!d.isEmpty()) candidates.add(Paths.get(d, "nvcc"));
        String cudaHome = System.getenv("CUDA_HOME");
        if (cudaHome != null) candidates.add(Paths.get(cudaHome, "bin", "nvcc"));
        candidates.add(Paths.get("/usr/local/cuda/bin/nvcc"));
        for (Path c : candidates) {
            if (Files.isRegularFile(c) && Files.isExecutable(c)) return Optional.of(new Nvcc(c, arch == null ? "compute_90" : arch));
        }
        return Optional.empty();
    }

    public String arch() {
        return arch;
    }

    /** The last line of {@code nvcc --version} (e.g. "Build cuda_13.0.r13.0/compiler..."), or the error. */
    public String version() {
        try {
            Process p = new ProcessBuilder(exe.toString(), "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            p.waitFor(60, TimeUnit.SECONDS);
            StringBuilder b = new StringBuilder();
            for (String l : out.split("\n")) {
                if (l.startsWith("Cuda compilation tools") || l.startsWith("Build")) b.append(b.length() > 0 ? "; " : "").append(l.trim());
            }
            return b.length() > 0 ? b.toString() : out;
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown (interrupted)";
        }
    }

    public Result compile(Path cu, List<String> flags) {
        String key = cu.toAbsolutePath() + "\u0000" + String.join("\u0000", flags);
        return cache.computeIfAbsent(key, k -> run(cu, flags));
    }

    private Result run(Path cu, List<String> flags) {
        Path out = null;
        try {
            out = Files.createTempFile("numlint-", ".ptx");
            List<String> cmd = new ArrayList<>();
            cmd.add(exe.toString());
            cmd.add("-ptx");
            cmd.add("-arch=" + arch);
            Path dir = cu.toAbsolutePath().getParent();
            if (dir != null) cmd.add("-I" + dir);
            cmd.addAll(flags);
            cmd.add(cu.toString());
            cmd.add("-o");
            cmd.add(out.toString());
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            if (dir != null) pb.directory(dir.toFile());
            Process p = pb.start();
            byte[] log = p.getInputStream().readAllBytes();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(null, "nvcc timed out");
            }
            if (p.exitValue() != 0) {
                String msg = new String(log, StandardCharsets.UTF_8).trim();
                String[] lines = msg.split("\n");
                return new Result(null, "nvcc failed: " + (lines.length > 0 ? lines[0] : "exit " + p.exitValue()));
            }
            return new Result(Files.readString(out), null);
        } catch (IOException e) {
            return new Result(null, "nvcc: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(null, "interrupted");
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // temp file; nothing to do
                }
            }
        }
    }
}
