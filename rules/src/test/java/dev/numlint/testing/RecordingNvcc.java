package dev.numlint.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A recording stand-in for nvcc, for tests that must show exactly what numlint runs: a fake toolkit
 * ({@code <dir>/toolkit/bin/nvcc}, {@code <dir>/toolkit/include/cuda_runtime.h}) whose nvcc writes every call's
 * arguments, environment and working directory to its own file under {@code <dir>/calls}, answers
 * {@code --version} and {@code --list-gpu-arch} (compute_75, compute_80, compute_90), and for a compile writes a
 * small valid PTX module (kernel {@code k}: {@code a[0] = fma(a[0], a[0], a[0])}) to the {@code -o} file.
 * {@link #hangOnVersion()} makes {@code --version} sleep for a minute instead.
 */
public final class RecordingNvcc {
    /** One recorded call. */
    public record Call(List<String> args, Map<String, String> env, String cwd) {
        /** Whether this call compiled (has -ptx). */
        public boolean compile() {
            return args.contains("-ptx");
        }
    }

    /** The PTX every compile produces. */
    public static final String PTX = String.join(
            "\n",
            ".version 8.0",
            ".target sm_75",
            ".address_size 64",
            "",
            ".visible .entry k(",
            "\t.param .u64 k_param_0",
            ")",
            "{",
            "\t.reg .f32 \t%f<3>;",
            "\t.reg .b64 \t%rd<3>;",
            "",
            "\tld.param.u64 \t%rd1, [k_param_0];",
            "\tcvta.to.global.u64 \t%rd2, %rd1;",
            "\tld.global.f32 \t%f1, [%rd2];",
            "\tfma.rn.f32 \t%f2, %f1, %f1, %f1;",
            "\tst.global.f32 \t[%rd2], %f2;",
            "\tret;",
            "}",
            "");

    private final Path dir;
    private final Path toolkit;
    private final Path calls;

    private RecordingNvcc(Path dir) {
        this.dir = dir;
        this.toolkit = dir.resolve("toolkit");
        this.calls = dir.resolve("calls");
    }

    /** Creates the fake toolkit under {@code dir} (which must not contain quotes). */
    public static RecordingNvcc create(Path dir) throws IOException {
        RecordingNvcc r = new RecordingNvcc(dir.toAbsolutePath().normalize());
        Files.createDirectories(r.toolkit.resolve("bin"));
        Files.createDirectories(r.toolkit.resolve("include"));
        Files.createDirectories(r.calls);
        Files.writeString(r.toolkit.resolve("include/cuda_runtime.h"), "#pragma once\n");
        Files.writeString(r.toolkit.resolve("ptx.txt"), PTX);
        r.writeScript(false);
        return r;
    }

    /** From now on {@code nvcc --version} hangs (sleeps 60 s). */
    public RecordingNvcc hangOnVersion() throws IOException {
        writeScript(true);
        return this;
    }

    private int compileSeconds;

    /**
     * From now on a compile writes the first line of its PTX, sleeps {@code seconds} (a slow compile, or one to
     * interrupt midway), then writes the rest.
     */
    public RecordingNvcc slowCompile(int seconds) throws IOException {
        compileSeconds = seconds;
        writeScript(false);
        return this;
    }

    private String failMarker;
    private String failMessage;

    /**
     * From now on a compile of a .cu file that contains {@code marker} prints {@code message} (e.g. nvcc's
     * {@code fatal error: x.h: No such file or directory}) and exits 1 without PTX. Neither may contain a quote.
     */
    public RecordingNvcc failWhenSourceContains(String marker, String message) throws IOException {
        failMarker = marker;
        failMessage = message;
        writeScript(false);
        return this;
    }

    private void writeScript(boolean hang) throws IOException {
        String script = String.join(
                "\n",
                "#!/bin/sh",
                "f=$(mktemp '" + calls + "/call.XXXXXX')",
                "{",
                "  printf 'CWD %s\\n' \"$(pwd)\"",
                "  for a in \"$@\"; do printf 'ARG %s\\n' \"$a\"; done",
                "  env | while IFS= read -r l; do printf 'ENV %s\\n' \"$l\"; done",
                "} > \"$f.tmp\"",
                "mv \"$f.tmp\" \"$f\"",
                "case \"$1\" in",
                "  --version) " + (hang ? "sleep 60; " : "") + "echo 'Cuda compilation tools, release 13.0, fake';"
                        + " echo 'Build recording-stand-in'; exit 0 ;;",
                "  --list-gpu-arch) printf 'compute_75\\ncompute_80\\ncompute_90\\n'; exit 0 ;;",
                "esac",
                failMarker == null
                        ? ":"
                        : "for a in \"$@\"; do case \"$a\" in *.cu) if grep -q '" + failMarker + "' \"$a\"; then echo '"
                                + failMessage + "' >&2; exit 1; fi ;; esac; done",
                "out=''; prev=''",
                "for a in \"$@\"; do if [ \"$prev\" = '-o' ]; then out=\"$a\"; fi; prev=\"$a\"; done",
                compileSeconds > 0
                        ? "if [ -n \"$out\" ]; then head -n 1 '" + toolkit.resolve("ptx.txt") + "' > \"$out\"; sleep "
                                + compileSeconds + "; cat '" + toolkit.resolve("ptx.txt") + "' > \"$out\"; fi"
                        : "if [ -n \"$out\" ]; then cat '" + toolkit.resolve("ptx.txt") + "' > \"$out\"; fi",
                "exit 0",
                "");
        Path nvcc = nvcc();
        Files.writeString(nvcc, script, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(nvcc, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    public Path nvcc() {
        return toolkit.resolve("bin/nvcc");
    }

    public Path toolkit() {
        return toolkit;
    }

    public Path dir() {
        return dir;
    }

    /** Every recorded call (in no particular order). */
    public List<Call> calls() {
        List<Call> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(calls)) {
            for (Path f : s.filter(p -> !p.toString().endsWith(".tmp")).sorted().toList()) {
                List<String> args = new ArrayList<>();
                Map<String, String> env = new LinkedHashMap<>();
                String cwd = null;
                for (String l : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (l.startsWith("ARG ")) args.add(l.substring(4));
                    else if (l.startsWith("CWD ")) cwd = l.substring(4);
                    else if (l.startsWith("ENV ")) {
                        String kv = l.substring(4);
                        int eq = kv.indexOf('=');
                        if (eq > 0) env.put(kv.substring(0, eq), kv.substring(eq + 1));
                    }
                }
                out.add(new Call(args, env, cwd));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The recorded compile calls. */
    public List<Call> compiles() {
        return calls().stream().filter(Call::compile).toList();
    }
}
