package dev.numlint.output;

import dev.numlint.toolchain.GuardedProcess;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Who last changed a line and when, from {@code git blame} of the committed file (HEAD), for the audit report's
 * suppressions. Git runs only through numlint's guarded process runner ({@link GuardedProcess}: argument list,
 * environment built from nothing with a private HOME so no global configuration, private working directory,
 * time and output limits), and with the settings through which a repository's own configuration can make git run
 * or read something switched off: {@code core.fsmonitor}, {@code core.hooksPath}, {@code diff.external},
 * {@code core.attributesFile}, {@code blame.ignoreRevsFile}, textconv ({@code --no-textconv}); blaming {@code HEAD}
 * never reads the work tree, so clean/smudge filters do not run either. A file with uncommitted changes is not
 * blamed (its line numbers differ from HEAD's). Every failure gives "not available" with the reason.
 */
final class GitBlame {
    static final int MAX_RUNS = 200;
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

    private final GitInfo info;
    private final Path git;
    private final Map<String, String> cache = new HashMap<>();
    private int runs;

    private GitBlame(GitInfo info, Path git) {
        this.info = info;
        this.git = git;
    }

    /** A blamer for the checkout, when there is one with a commit and git is installed. */
    static Optional<GitBlame> of(GitInfo info) {
        if (info == null || info.commit() == null) {
            return Optional.empty();
        }
        Path g = findGit();
        return g == null ? Optional.empty() : Optional.of(new GitBlame(info, g));
    }

    /** git from numlint's own PATH (never from the scanned tree). */
    static Path findGit() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (dir.isEmpty() || !Path.of(dir).isAbsolute()) {
                continue;
            }
            Path p = Path.of(dir, "git");
            if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                return p;
            }
        }
        return null;
    }

    /** "author, 2024-05-01 (commit 1a2b3c4d)" or "not available: reason". */
    String whoAndWhen(Path file, int line) {
        Path abs = file.toAbsolutePath().normalize();
        Path tree = info.workTree().toAbsolutePath().normalize();
        if (!abs.startsWith(tree)) {
            return "not available: the file is outside the git checkout";
        }
        String rel = tree.relativize(abs).toString().replace(File.separatorChar, '/');
        if (info.isModified(rel)) {
            return "not available: the file has uncommitted changes";
        }
        return cache.computeIfAbsent(rel + ":" + line, k -> run(tree, rel, line));
    }

    private String run(Path tree, String rel, int line) {
        if (runs >= MAX_RUNS) {
            return "not available: more than " + MAX_RUNS + " suppressions (git blame runs are capped)";
        }
        runs++;
        GuardedProcess.Spec spec = GuardedProcess.builder(git)
                .arg("-C")
                .arg(tree.toString())
                .arg("-c")
                .arg("core.fsmonitor=")
                .arg("-c")
                .arg("core.hooksPath=/dev/null")
                .arg("-c")
                .arg("diff.external=")
                .arg("-c")
                .arg("core.attributesFile=/dev/null")
                .arg("-c")
                .arg("blame.ignoreRevsFile=")
                .arg("--no-pager")
                .arg("blame")
                .arg("--porcelain")
                .arg("--no-textconv")
                .arg("-L")
                .arg(line + "," + line)
                .arg("HEAD")
                .arg("--")
                .arg(rel)
                .timeout(TIMEOUT)
                .cpuSeconds(20)
                .maxOutput(64 * 1024);
        GuardedProcess.Result r;
        try {
            r = GuardedProcess.run(spec);
        } catch (IOException e) {
            return "not available: git could not be started";
        }
        if (!r.ok()) {
            String first = r.output().lines().findFirst().orElse("").strip();
            return "not available: git blame failed" + (r.timedOut() ? " (timed out)" : "")
                    + (first.isEmpty() ? "" : ": " + (first.length() > 160 ? first.substring(0, 160) : first));
        }
        return parse(r.output());
    }

    /** The author, day and commit of a {@code --porcelain} record. */
    static String parse(String porcelain) {
        String commit = null;
        String author = null;
        String time = null;
        for (String l : porcelain.split("\n")) {
            if (commit == null && l.matches("[0-9a-f]{40}( .*)?|[0-9a-f]{64}( .*)?")) {
                commit = l.substring(0, l.indexOf(' ') > 0 ? l.indexOf(' ') : l.length());
            } else if (l.startsWith("author ")) {
                author = l.substring(7).strip();
            } else if (l.startsWith("author-time ")) {
                time = l.substring(12).strip();
            }
        }
        if (commit == null || author == null) {
            return "not available: unexpected git blame output";
        }
        String day = "";
        if (time != null && time.matches("\\d{1,12}")) {
            day = ", " + DAY.format(Instant.ofEpochSecond(Long.parseLong(time)));
        }
        return author + day + " (commit " + commit.substring(0, 12) + ")";
    }
}
