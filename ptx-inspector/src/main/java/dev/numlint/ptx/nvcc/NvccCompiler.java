package dev.numlint.ptx.nvcc;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compiles CUDA files to PTX ({@code nvcc -ptx -lineinfo}) for the PTX front end and validation. The scanned
 * repository is untrusted: nvcc runs through {@link ProcessBuilder} with an argument list (never a shell) and a
 * timeout, and only allow-listed code-generation flags are passed ({@link #filterFlags}); everything else
 * (-ccbin, -Xcompiler, -Xptxas, --compiler-bindir, -include, -Xlinker, unknown flags, include directories outside
 * the scan root) is dropped and reported. Results are cached by SHA-256 of the file, the project headers it
 * includes, the flags, the architecture and the nvcc version.
 */
public final class NvccCompiler {
    /** Flags kept for nvcc and notifications about the ones dropped. */
    public record FilteredFlags(List<String> kept, List<String> dropped) {
    }

    /**
     * Outcome of one compilation: PTX text and the file holding it (in the cache) when it worked; notifications
     * (dropped flags as NOTE, nvcc errors as WARNING "nvcc-failed").
     */
    public record Result(boolean ok, String ptx, Path ptxFile, boolean cached, List<Notification> notifications) {
    }

    private static final Pattern ARCH_VALUE = Pattern.compile("(?:compute|sm|lto)_(\\d+[a-z]?)");
    private final Path nvcc;
    private final Path cacheDir;
    private final Path root;
    private final Duration timeout;
    private volatile String version;

    public NvccCompiler(Path nvcc, Path cacheDir, Path scanRoot, Duration timeout) {
        this.nvcc = nvcc;
        this.cacheDir = cacheDir;
        this.root = scanRoot.toAbsolutePath().normalize();
        this.timeout = timeout;
    }

    /**
     * Keeps the code-generation flags nvcc may see: --use_fast_math, -ftz, -prec-div, -prec-sqrt, -fmad, -D, -U,
     * -I (inside the scan root), -std, -O, -G, -lineinfo, -rdc, --expt-*. Architecture flags (-arch, -code,
     * -gencode) are accepted but not passed: the caller passes one virtual architecture. Separate values
     * ({@code -D X}, {@code -I dir}) are joined to the flag.
     */
    public static FilteredFlags filterFlags(List<String> flags, Path root) {
        Path r = root.toAbsolutePath().normalize();
        List<String> kept = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (int i = 0; i < flags.size(); i++) {
            String f = flags.get(i).trim();
            if (f.isEmpty()) continue;
            String name = f.replaceFirst("^--", "-");
            String value = null;
            int eq = name.indexOf('=');
            String key = eq < 0 ? name : name.substring(0, eq);
            if (eq >= 0) value = name.substring(eq + 1);
            switch (key) {
                case "-use_fast_math", "-lineinfo", "-G", "-device-debug", "-generate-line-info",
                     "-expt-relaxed-constexpr", "-expt-extended-lambda", "-extended-lambda" -> {
                    if (value == null) kept.add(key.equals("-device-debug") || key.equals("-G") ? "-G"
                            : key.equals("-generate-line-info") || key.equals("-lineinfo") ? "-lineinfo" : "-" + key);
                    else dropped.add(f);
                }
                case "-ftz", "-prec-div", "-prec-sqrt", "-fmad", "-rdc", "-relocatable-device-code" -> {
                    if (value == null && i + 1 < flags.size() && isBool(flags.get(i + 1))) value = flags.get(++i);
                    if (value != null && isBool(value)) {
                        kept.add((key.equals("-relocatable-device-code") ? "-rdc" : key) + "=" + value.toLowerCase());
                    } else {
                        dropped.add(f);
                    }
                }
                case "-arch", "-code", "-gencode", "-gpu-architecture", "-gpu-code", "-generate-code" -> {
                    if (value == null && i + 1 < flags.size()) i++; // value consumed; the caller sets the arch
                }
                case "-std" -> {
                    if (value == null && i + 1 < flags.size()) value = flags.get(++i);
                    if (value != null && value.matches("c\\+\\+\\d\\d")) kept.add("-std=" + value);
                    else dropped.add(f);
                }
                default -> {
                    if (f.matches("-O[0-3]")) {
                        kept.add(f);
                    } else if (f.startsWith("-D") || f.startsWith("-U")) {
                        String v = f.substring(2);
                        if (v.isEmpty() && i + 1 < flags.size()) v = flags.get(++i);
                        if (v.matches("[A-Za-z_][A-Za-z0-9_]*(=.*)?")) kept.add(f.substring(0, 2) + v);
                        else dropped.add(f);
                    } else if (f.startsWith("-I") || f.startsWith("--include-path")) {
                        String v = f.startsWith("-I") ? f.substring(2) : (eq >= 0 ? value : "");
                        if (v.isEmpty() && i + 1 < flags.size()) v = flags.get(++i);
                        Path p = r.resolve(v).normalize();
                        if (!v.isEmpty() && p.startsWith(r)) kept.add("-I" + p);
                        else dropped.add(f + (f.equals("-I") ? " " + v : "") + " (outside the scan root)");
                    } else {
                        dropped.add(f);
                    }
                }
            }
        }
        return new FilteredFlags(kept, dropped);
    }

    private static boolean isBool(String s) {
        return s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false");
    }

    /** nvcc's "--version" last line, cached; "unknown" when it cannot be run. */
    public String version() {
        String v = version;
        if (v != null) return v;
        try {
            Process p = new ProcessBuilder(List.of(nvcc.toString(), "--version")).redirectErrorStream(true).start();
            String out = readAll(p.getInputStream(), 8192);
            if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
            String[] lines = out.strip().split("\n");
            v = lines.length == 0 ? "unknown" : lines[lines.length - 1].strip();
        } catch (IOException e) {
            v = "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            v = "unknown";
        }
        version = v;
        return v;
    }

    /** Normalizes sm_90 / compute_90 / 90 to compute_90 (a virtual architecture for -ptx). */
    public static String virtualArch(String arch) {
        if (arch == null || arch.isBlank()) return "compute_90";
        Matcher m = ARCH_VALUE.matcher(arch);
        if (m.find()) return "compute_" + m.group(1);
        if (arch.matches("\\d+[a-z]?")) return "compute_" + arch;
        return "compute_90";
    }

    /**
     * Compiles {@code cu} with {@code flags} (unfiltered; filtered here) for {@code arch}. Never throws for
     * compiler problems: they come back as notifications.
     */
    public Result compile(Path cu, String arch, List<String> flags, String displayName) {
        List<Notification> notes = new ArrayList<>();
        FilteredFlags ff = filterFlags(flags, root);
        for (String d : ff.dropped()) {
            notes.add(new Notification(displayName, 0, Level.NOTE, "nvcc-flag-dropped",
                    "nvcc flag '" + d + "' was not passed to nvcc -ptx (only code-generation flags are allowed)"));
        }
        String va = virtualArch(arch);
        List<String> cmd = new ArrayList<>();
        cmd.add(nvcc.toString());
        cmd.add("-ptx");
        cmd.add("-lineinfo");
        cmd.add("-arch=" + va);
        for (String k : ff.kept()) if (!k.equals("-lineinfo")) cmd.add(k);
        byte[] content;
        try {
            content = Files.readAllBytes(cu);
        } catch (IOException e) {
            notes.add(new Notification(displayName, 0, Level.WARNING, "nvcc-failed", "cannot read " + displayName
                    + ": " + e.getMessage()));
            return new Result(false, null, null, false, notes);
        }
        String key = hash(cu, content, cmd);
        Path out = cacheDir.resolve("ptx").resolve(key + ".ptx");
        try {
            if (Files.isRegularFile(out)) {
                return new Result(true, Files.readString(out, StandardCharsets.UTF_8), out, true, notes);
            }
            Files.createDirectories(out.getParent());
            Path tmp = Files.createTempFile(out.getParent(), key, ".tmp");
            List<String> full = new ArrayList<>(cmd);
            full.add(cu.toAbsolutePath().normalize().toString());
            full.add("-o");
            full.add(tmp.toString());
            ProcessBuilder pb = new ProcessBuilder(full).redirectErrorStream(true);
            pb.directory(cu.toAbsolutePath().getParent().toFile());
            Process p = pb.start();
            p.getOutputStream().close();
            StringBuilder log = new StringBuilder();
            Thread reader = new Thread(() -> {
                try {
                    log.append(readAll(p.getInputStream(), 64 * 1024));
                } catch (IOException ignored) {
                    // the process was killed
                }
            }, "nvcc-output");
            reader.setDaemon(true);
            reader.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                Files.deleteIfExists(tmp);
                notes.add(new Notification(displayName, 0, Level.WARNING, "nvcc-failed", "nvcc -ptx timed out after "
                        + timeout.toSeconds() + " s"));
                return new Result(false, null, null, false, notes);
            }
            reader.join(5000);
            if (p.exitValue() != 0 || !Files.isRegularFile(tmp) || Files.size(tmp) == 0) {
                Files.deleteIfExists(tmp);
                notes.add(new Notification(displayName, firstErrorLine(log.toString()), Level.WARNING, "nvcc-failed",
                        "nvcc -ptx failed (exit " + p.exitValue() + "): " + firstErrors(log.toString())));
                return new Result(false, null, null, false, notes);
            }
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return new Result(true, Files.readString(out, StandardCharsets.UTF_8), out, false, notes);
        } catch (IOException e) {
            notes.add(new Notification(displayName, 0, Level.WARNING, "nvcc-failed", "could not run nvcc: "
                    + e.getMessage()));
            return new Result(false, null, null, false, notes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            notes.add(new Notification(displayName, 0, Level.WARNING, "nvcc-failed", "interrupted"));
            return new Result(false, null, null, false, notes);
        }
    }

    private static final Pattern ERR_LINE = Pattern.compile("\\((\\d+)\\): error");

    private static int firstErrorLine(String log) {
        Matcher m = ERR_LINE.matcher(log);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** The first error lines of nvcc's output (at most 3 lines, 400 characters). */
    static String firstErrors(String log) {
        List<String> errs = new ArrayList<>();
        for (String l : log.split("\n")) {
            if (l.contains("error") || l.contains("fatal")) errs.add(l.strip());
            if (errs.size() == 3) break;
        }
        if (errs.isEmpty()) {
            for (String l : log.split("\n")) {
                if (!l.isBlank()) errs.add(l.strip());
                if (errs.size() == 3) break;
            }
        }
        String s = String.join(" | ", errs);
        return s.length() > 400 ? s.substring(0, 400) + "..." : s;
    }

    private String hash(Path cu, byte[] content, List<String> cmd) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(content);
            Set<Path> seen = new LinkedHashSet<>();
            includedHeaders(cu.toAbsolutePath().normalize(), content, seen, 0);
            for (Path h : seen) {
                md.update(h.toString().getBytes(StandardCharsets.UTF_8));
                try {
                    md.update(Files.readAllBytes(h));
                } catch (IOException ignored) {
                    // unreadable header: nvcc will report it
                }
            }
            md.update(String.join("\u0000", cmd).getBytes(StandardCharsets.UTF_8));
            md.update(cu.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8));
            md.update(version().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final Pattern INCLUDE = Pattern.compile("(?m)^\\s*#\\s*include\\s*\"([^\"]+)\"");

    /** Project headers included with quotes, next to the including file, recursively (cheap: 64 files at most). */
    private void includedHeaders(Path file, byte[] content, Set<Path> seen, int depth) {
        if (depth > 8 || seen.size() > 64) return;
        Matcher m = INCLUDE.matcher(new String(content, StandardCharsets.ISO_8859_1));
        while (m.find()) {
            Path h = file.getParent().resolve(m.group(1)).normalize();
            if (!h.startsWith(root) || !Files.isRegularFile(h) || !seen.add(h)) continue;
            try {
                includedHeaders(h, Files.readAllBytes(h), seen, depth + 1);
            } catch (IOException ignored) {
                // skip
            }
        }
    }

    private static String readAll(InputStream in, int limit) throws IOException {
        byte[] buf = in.readNBytes(limit);
        in.transferTo(java.io.OutputStream.nullOutputStream());
        return new String(buf, StandardCharsets.UTF_8);
    }
}
