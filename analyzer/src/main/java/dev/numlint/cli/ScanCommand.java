package dev.numlint.cli;

import dev.numlint.config.NumlintConfig;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.output.JsonReport;
import dev.numlint.output.SarifReport;
import dev.numlint.output.TextReport;
import dev.numlint.scan.Nvcc;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.PtxMode;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code numlint scan}: analyzes files and directories and reports findings. */
@Command(name = "scan", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Scan CUDA, C/C++, PTX, Java sources and build files for numerical hazards.",
        footer = {"", "Exit codes: 0 no finding at or above --fail-on, 1 findings at or above it, "
                + "2 usage or configuration error."})
final class ScanCommand implements Callable<Integer> {
    enum Format { text, sarif, json }

    enum Ptx { auto, off }

    enum FailOn { error, warning, note, none }

    @Spec
    CommandSpec spec;

    private final Supplier<List<Analyzer>> analyzers;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text, sarif or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Option(names = "--output", paramLabel = "FILE", description = "write the report to FILE instead of stdout")
    Path output;

    @Option(names = "--ptx", paramLabel = "MODE", defaultValue = "auto",
            description = "auto: compile .cu files to PTX with nvcc when nvcc is found; off: never (default: ${DEFAULT-VALUE})")
    Ptx ptx;

    @Option(names = "--nvcc-flags", paramLabel = "FLAGS",
            description = "nvcc flags the code is built with, e.g. \"--use_fast_math -arch=sm_80\"")
    String nvccFlags;

    @Option(names = "--cuda-arch", paramLabel = "ARCH", description = "virtual architecture for PTX (default: "
            + ScanOptions.DEFAULT_CUDA_ARCH + ")")
    String cudaArch;

    @Option(names = "--classpath", paramLabel = "CP", description = "class path for resolving Java types")
    String classpath;

    @Option(names = "--config", paramLabel = "FILE", description = "configuration file (default: "
            + NumlintConfig.FILE_NAME + " in the scanned directory)")
    Path config;

    @Option(names = "--fail-on", paramLabel = "LEVEL", defaultValue = "error",
            description = "exit with 1 when an unsuppressed finding is at least this level: error, warning, note or"
                    + " none (default: ${DEFAULT-VALUE})")
    FailOn failOn;

    @Option(names = "--exclude", paramLabel = "GLOB", description = "skip matching files and directories ('**' "
            + "spans directories); repeatable")
    List<String> excludes = new ArrayList<>();

    @Option(names = "--cache-dir", paramLabel = "DIR", description = "cache for derived PTX (default: "
            + "$XDG_CACHE_HOME/numlint or ~/.cache/numlint)")
    Path cacheDir;

    @Parameters(paramLabel = "PATH", arity = "1..*", description = "files and directories to scan")
    List<Path> paths;

    ScanCommand(Supplier<List<Analyzer>> analyzers) {
        this.analyzers = analyzers;
    }

    @Override
    public Integer call() throws IOException {
        List<Path> abs = new ArrayList<>();
        for (Path p : paths) {
            if (!Files.exists(p)) {
                throw new Main.UsageException("PATH '" + p + "' does not exist");
            }
            abs.add(p.toAbsolutePath().normalize());
        }
        Path root = root(abs);
        NumlintConfig cfg = loadConfig(abs, root);

        ScanOptions.Builder b = ScanOptions.builder(root).paths(abs).analyzers(analyzers.get()).config(cfg);
        for (String g : excludes) {
            try {
                new dev.numlint.scan.Glob(g);
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException("--exclude: " + e.getMessage());
            }
            b.exclude(g);
        }
        b.ptx(ptx == Ptx.auto ? PtxMode.AUTO : PtxMode.OFF, ptx == Ptx.auto ? Nvcc.find().orElse(null) : null);
        if (nvccFlags != null) {
            b.nvccFlags(tokenize(nvccFlags));
        }
        b.cudaArch(cudaArch);
        if (classpath != null) {
            List<Path> cp = new ArrayList<>();
            for (String e : classpath.split(File.pathSeparator)) {
                if (!e.isBlank()) {
                    cp.add(Path.of(e).toAbsolutePath().normalize());
                }
            }
            b.classpath(cp);
        }
        b.cacheDir(cacheDir);
        if (System.console() != null && System.getenv("CI") == null) {
            b.progress(System.err);
        }
        ScanResult result = Scanner.scan(b.build());

        PrintWriter err = spec.commandLine().getErr();
        if (format == Format.text) {
            TextReport.writeNotifications(result, err);
        } else {
            for (Notification n : result.notifications()) {
                if (n.notAnalyzed()) {
                    err.println(n.file() + ": error: " + n.message());
                }
            }
            err.flush();
        }
        if (output != null) {
            Path parent = output.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (Writer w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
                write(result, w);
            }
        } else {
            write(result, spec.commandLine().getOut());
        }
        Level threshold = switch (failOn) {
            case error -> Level.ERROR;
            case warning -> Level.WARNING;
            case note -> Level.NOTE;
            case none -> null;
        };
        return result.failsAt(threshold) ? Main.EXIT_FINDINGS : Main.EXIT_OK;
    }

    private void write(ScanResult result, Writer w) throws IOException {
        switch (format) {
            case sarif -> SarifReport.write(result, w);
            case json -> JsonReport.write(result, w);
            default -> TextReport.write(result, w instanceof PrintWriter pw ? pw : new PrintWriter(w));
        }
        w.flush();
    }

    /** The working directory when every PATH lies under it (paths in reports stay clickable), else the first PATH. */
    static Path root(List<Path> paths) {
        Path cwd = Path.of("").toAbsolutePath().normalize();
        if (paths.stream().allMatch(p -> p.startsWith(cwd))) {
            return cwd;
        }
        Path first = paths.get(0);
        return Files.isDirectory(first) ? first : first.getParent();
    }

    private NumlintConfig loadConfig(List<Path> paths, Path root) {
        if (config != null) {
            if (!Files.isRegularFile(config)) {
                throw new Main.UsageException("configuration file '" + config + "' does not exist");
            }
            return NumlintConfig.load(config);
        }
        Path first = paths.get(0);
        Path dir = Files.isDirectory(first) ? first : first.getParent();
        for (Path d : List.of(dir, root)) {
            Path f = d.resolve(NumlintConfig.FILE_NAME);
            if (Files.isRegularFile(f)) {
                return NumlintConfig.load(f);
            }
        }
        return NumlintConfig.defaults();
    }

    /** Splits a flag string like a shell would (single and double quotes, backslash escapes). */
    static List<String> tokenize(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inToken = false;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < s.length()) {
                    cur.append(s.charAt(++i));
                } else {
                    cur.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inToken = true;
            } else if (c == '\\' && i + 1 < s.length()) {
                cur.append(s.charAt(++i));
                inToken = true;
            } else if (Character.isWhitespace(c)) {
                if (inToken) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    inToken = false;
                }
            } else {
                cur.append(c);
                inToken = true;
            }
        }
        if (quote != 0) {
            throw new Main.UsageException("--nvcc-flags: unclosed quote in '" + s + "'");
        }
        if (inToken) {
            out.add(cur.toString());
        }
        return out;
    }
}
