package dev.numlint.output;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Headless Chromium for the audit report's browser tests: {@code --dump-dom} gives the DOM after the report's
 * script ran, {@code --screenshot} a PNG. Found as $CHROME_BIN or chromium / chromium-browser / google-chrome on
 * PATH. Without it the tests are skipped locally and fail on CI (CI=true), where {@code .ci/run} installs Debian's
 * {@code chromium}.
 */
final class Chromium {
    private final Path binary;
    private final Path profile;

    private Chromium(Path binary, Path profile) {
        this.binary = binary;
        this.profile = profile;
    }

    /** The browser, or the test is skipped (fails on CI). */
    static Chromium require(Path tmp) throws IOException {
        Path b = find();
        if (b == null) {
            String msg = "headless Chromium not found (install Debian's 'chromium' package; .ci/run does)";
            if ("true".equals(System.getenv("CI"))) {
                fail(msg);
            }
            assumeTrue(false, msg);
        }
        return new Chromium(b, Files.createDirectories(tmp.resolve("chromium-profile")));
    }

    static Path find() {
        String env = System.getenv("CHROME_BIN");
        if (env != null && Files.isExecutable(Path.of(env))) {
            return Path.of(env);
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
                Path p = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    /** The serialized DOM of {@code url} after its scripts ran. */
    String dumpDom(String url) throws IOException, InterruptedException {
        return run(List.of("--dump-dom", url));
    }

    void screenshot(String url, Path png, int width, int height) throws IOException, InterruptedException {
        Files.createDirectories(png.toAbsolutePath().getParent());
        Files.deleteIfExists(png);
        run(List.of(
                "--hide-scrollbars",
                "--window-size=" + width + "," + height,
                "--screenshot=" + png.toAbsolutePath(),
                url));
        if (!Files.isRegularFile(png) || Files.size(png) == 0) {
            fail("Chromium wrote no screenshot to " + png);
        }
    }

    /** Prints {@code url} to a PDF (print media, the report's beforeprint handler run) and returns its page count. */
    int printedPages(String url, Path pdf) throws IOException, InterruptedException {
        Files.createDirectories(pdf.toAbsolutePath().getParent());
        Files.deleteIfExists(pdf);
        run(List.of("--no-pdf-header-footer", "--print-to-pdf=" + pdf.toAbsolutePath(), url));
        if (!Files.isRegularFile(pdf) || Files.size(pdf) == 0) {
            fail("Chromium wrote no PDF to " + pdf);
        }
        String text = new String(Files.readAllBytes(pdf), StandardCharsets.ISO_8859_1);
        return (int) java.util.regex.Pattern.compile("/Type\\s*/Page[^s]")
                .matcher(text)
                .results()
                .count();
    }

    private String run(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                binary.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                "--disable-dev-shm-usage",
                "--user-data-dir=" + profile.toAbsolutePath()));
        cmd.addAll(args);
        Path err = Files.createTempFile(profile, "stderr", ".txt");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("Chromium did not finish in 120 s: " + cmd);
        }
        if (p.exitValue() != 0) {
            fail("Chromium exited with " + p.exitValue() + ": " + Files.readString(err));
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
