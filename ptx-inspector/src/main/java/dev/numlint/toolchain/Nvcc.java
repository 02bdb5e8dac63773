package dev.numlint.toolchain;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The CUDA toolkit's nvcc: found in one place, in one order ({@link #locate}), and asked about itself only through
 * {@link GuardedProcess} with a timeout. Thread-safe; {@code --version}, {@code --list-gpu-arch} and the toolkit
 * directory are asked once and cached.
 */
public final class Nvcc {
    /** How long {@code nvcc --version}, {@code --list-gpu-arch} and {@code --dryrun} may take. */
    public static final Duration QUERY_TIMEOUT = Duration.ofMillis(Long.getLong("numlint.nvcc.queryTimeoutMs", 30_000));

    private final Path exe;
    private volatile Path tempParent;
    private volatile String version;
    private volatile String versionProblem;
    private volatile List<String> archs;
    private volatile Path toolkit;
    private volatile boolean toolkitKnown;

    private Nvcc(Path exe) {
        this.exe = exe;
    }

    /** An nvcc at a known path (tests, an explicit {@code --nvcc}). */
    public static Nvcc at(Path exe) {
        return new Nvcc(exe.toAbsolutePath().normalize());
    }

    /**
     * Finds nvcc: the explicit path when given (it must be an executable file), else the first executable
     * {@code nvcc} on {@code PATH}, else /usr/local/cuda/bin/nvcc.
     */
    public static Optional<Nvcc> locate(Path explicit) {
        return find(explicit, System.getenv("PATH")).map(Nvcc::at);
    }

    /** The search behind {@link #locate}, with the PATH value given. */
    public static Optional<Path> find(Path explicit, String pathVar) {
        return find(explicit, pathVar, List.of(), new ArrayList<>());
    }

    /**
     * {@link #find(Path, String)}, passing over an {@code nvcc} on {@code PATH} that lies inside one of {@code trees}
     * (the scanned trees, by real path): a program of the tree is never run, also where {@code PATH} names one of its
     * directories (a CI step that puts the checkout's {@code bin/} or {@code scripts/} first). Each one passed over is
     * added to {@code skipped}; the search goes on in its order. An explicit path is the user's choice and is kept.
     */
    public static Optional<Path> find(Path explicit, String pathVar, List<Path> trees, List<Path> skipped) {
        if (explicit != null) {
            return executable(explicit) ? Optional.of(explicit.toAbsolutePath().normalize()) : Optional.empty();
        }
        List<Path> realTrees = new ArrayList<>();
        for (Path t : trees) realTrees.add(real(t));
        if (pathVar != null) {
            for (String dir : pathVar.split(File.pathSeparator)) {
                if (dir.isEmpty()) continue;
                Path p = Path.of(dir, "nvcc");
                if (!executable(p)) continue;
                Path r = real(p);
                if (realTrees.stream().anyMatch(r::startsWith)
                        || trees.stream().anyMatch(p.toAbsolutePath()::startsWith)) {
                    skipped.add(p.toAbsolutePath().normalize());
                    continue;
                }
                return Optional.of(p.toAbsolutePath().normalize());
            }
        }
        Path fallback = Path.of("/usr/local/cuda/bin/nvcc");
        return executable(fallback) ? Optional.of(fallback) : Optional.empty();
    }

    /** The real path of {@code p}, else its normalized absolute path. */
    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | RuntimeException e) {
            return p.toAbsolutePath().normalize();
        }
    }

    private static boolean executable(Path p) {
        return Files.isRegularFile(p) && Files.isExecutable(p);
    }

    public Path executable() {
        return exe;
    }

    /** Where the private working directories of nvcc's runs go (default: the system temporary directory). */
    public Nvcc tempParent(Path dir) {
        this.tempParent = dir;
        return this;
    }

    /** A guarded process spec for this nvcc with the given arguments (PATH: the toolkit's bin directories). */
    public GuardedProcess.Spec spec(List<String> args) {
        GuardedProcess.Spec s = GuardedProcess.builder(exe).args(args).tempParent(tempParent);
        for (Path d : binDirs()) s.binDir(d);
        return s;
    }

    /** nvcc's directory and the toolkit's bin directory (real paths). */
    public List<Path> binDirs() {
        List<Path> out = new ArrayList<>();
        if (exe.getParent() != null) out.add(exe.getParent());
        Path real = IncludePolicy.real(exe);
        if (real != null && real.getParent() != null && !out.contains(real.getParent())) out.add(real.getParent());
        Path tk = toolkitIfKnown();
        if (tk != null && !out.contains(tk.resolve("bin"))) out.add(tk.resolve("bin"));
        return out;
    }

    /**
     * The last line of {@code nvcc --version} (e.g. "Build cuda_13.0.r13.0/compiler..."); empty when nvcc did not
     * answer in time or failed ({@link #versionProblem()} says why).
     */
    public Optional<String> version() {
        if (version == null && versionProblem == null) {
            synchronized (this) {
                if (version == null && versionProblem == null) queryVersion();
            }
        }
        return Optional.ofNullable(version);
    }

    /** Why {@link #version()} is empty, or null. */
    public String versionProblem() {
        version();
        return versionProblem;
    }

    private void queryVersion() {
        try {
            GuardedProcess.Result r = GuardedProcess.run(spec(List.of("--version"))
                    .timeout(QUERY_TIMEOUT)
                    .cpuSeconds(60)
                    .maxOutput(64 * 1024));
            if (r.timedOut()) {
                versionProblem = "'nvcc --version' did not answer within " + QUERY_TIMEOUT.toSeconds() + " s";
            } else if (r.exitCode() != 0) {
                versionProblem = "'nvcc --version' failed (exit " + r.exitCode() + ")";
            } else {
                String[] lines = r.output().strip().split("\n");
                String last = lines[lines.length - 1].strip();
                if (last.isEmpty()) versionProblem = "'nvcc --version' printed nothing";
                else version = last.length() > 200 ? last.substring(0, 200) : last;
            }
        } catch (IOException e) {
            versionProblem = "nvcc could not be started: " + e.getMessage();
        }
    }

    /**
     * The virtual architectures this nvcc supports ({@code nvcc --list-gpu-arch}, e.g. compute_75 ... compute_121),
     * oldest first; empty when it cannot say.
     */
    public List<String> supportedArchs() {
        List<String> a = archs;
        if (a != null) return a;
        synchronized (this) {
            if (archs != null) return archs;
            List<String> out = new ArrayList<>();
            try {
                GuardedProcess.Result r = GuardedProcess.run(spec(List.of("--list-gpu-arch"))
                        .timeout(QUERY_TIMEOUT)
                        .cpuSeconds(60)
                        .maxOutput(64 * 1024));
                if (r.ok()) {
                    for (String l : r.output().split("\n")) {
                        String s = l.strip();
                        if (s.matches("compute_\\d+[a-z]?") && !out.contains(s)) out.add(s);
                    }
                }
            } catch (IOException e) {
                // unknown: no fallback
            }
            out.sort((x, y) -> Integer.compare(archNumber(x), archNumber(y)));
            archs = List.copyOf(out);
            return archs;
        }
    }

    /** 75 for compute_75, sm_75 or compute_90a (the number); -1 when there is none. */
    public static int archNumber(String arch) {
        int i = arch.indexOf('_');
        int j = i + 1;
        while (j < arch.length() && Character.isDigit(arch.charAt(j))) j++;
        try {
            return Integer.parseInt(arch.substring(i + 1, j));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            return -1;
        }
    }

    /**
     * The toolkit's root directory (real path): nvcc's real location {@code <root>/bin/nvcc} when the root has the
     * CUDA headers, else what {@code nvcc --dryrun} says ({@code TOP=}); null when unknown.
     */
    public Path toolkitRoot() {
        if (!toolkitKnown) {
            synchronized (this) {
                if (!toolkitKnown) {
                    toolkit = findToolkit();
                    toolkitKnown = true;
                }
            }
        }
        return toolkit;
    }

    private Path toolkitIfKnown() {
        return toolkitKnown ? toolkit : null;
    }

    private Path findToolkit() {
        Path real = IncludePolicy.real(exe);
        if (real != null && real.getParent() != null && real.getParent().getParent() != null) {
            Path root = real.getParent().getParent();
            if (hasCudaHeaders(root)) return root;
        }
        try {
            GuardedProcess.Result r =
                    GuardedProcess.run(spec(List.of("--dryrun", "-ptx", "-x", "cu", "/dev/null", "-o", "x.ptx"))
                            .timeout(QUERY_TIMEOUT)
                            .cpuSeconds(60)
                            .maxOutput(256 * 1024));
            for (String l : r.output().split("\n")) {
                String s = l.strip();
                if (s.startsWith("#$ TOP=")) {
                    Path top = IncludePolicy.real(
                            Path.of(s.substring("#$ TOP=".length()).strip()));
                    if (top != null && hasCudaHeaders(top)) return top;
                }
            }
        } catch (IOException | RuntimeException e) {
            // unknown
        }
        return null;
    }

    private static boolean hasCudaHeaders(Path root) {
        if (Files.isRegularFile(root.resolve("include/cuda_runtime.h"))) return true;
        for (Path inc : targetIncludes(root)) if (Files.isRegularFile(inc.resolve("cuda_runtime.h"))) return true;
        return false;
    }

    private static List<Path> targetIncludes(Path root) {
        List<Path> out = new ArrayList<>();
        Path targets = root.resolve("targets");
        if (!Files.isDirectory(targets)) return out;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(targets)) {
            for (Path t : ds) if (Files.isDirectory(t.resolve("include"))) out.add(t.resolve("include"));
        } catch (IOException | RuntimeException e) {
            // none
        }
        out.sort(null);
        return out;
    }

    /**
     * The directories nvcc searches for {@code <...>} after the project's own: the toolkit's include directories
     * (with their cccl subdirectories), then /usr/local/include and /usr/include.
     */
    public List<Path> systemIncludeDirs() {
        List<Path> out = new ArrayList<>();
        Path tk = toolkitRoot();
        if (tk != null) {
            List<Path> incs = new ArrayList<>();
            incs.add(tk.resolve("include"));
            incs.addAll(targetIncludes(tk));
            for (Path i : incs) {
                if (!Files.isDirectory(i)) continue;
                out.add(i);
                if (Files.isDirectory(i.resolve("cccl"))) out.add(i.resolve("cccl"));
            }
        }
        out.add(Path.of("/usr/local/include"));
        out.add(Path.of("/usr/include"));
        return out;
    }

    /** The trusted include trees for an {@link IncludePolicy}: the toolkit and the system's header trees. */
    public List<Path> trustedDirs() {
        return IncludePolicy.defaultSystemDirs(toolkitRoot());
    }
}
