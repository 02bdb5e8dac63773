package dev.numlint.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commit and dirty state read from .git without git, checked against repositories that git itself made (the test
 * runs git only in repositories it created, with hooks and fsmonitor switched off; skipped without git).
 */
class GitInfoTest {
    @TempDir
    Path tmp;

    private String git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                "git",
                "-c",
                "core.fsmonitor=",
                "-c",
                "core.hooksPath=/dev/null",
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.org",
                "-c",
                "init.defaultBranch=main",
                "-c",
                "commit.gpgsign=false"));
        cmd.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(cmd)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            assumeTrue(false, "git not installed");
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("git %s: %s", List.of(args), out).isZero();
        return out.strip();
    }

    private Path repo() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        git(repo, "init", "-q");
        Files.writeString(repo.resolve("a.cu"), "x = 1;\n");
        Files.createDirectories(repo.resolve("src/deep"));
        Files.writeString(repo.resolve("src/deep/b.cu"), "y = 2;\n");
        Files.createSymbolicLink(repo.resolve("link.cu"), Path.of("a.cu"));
        git(repo, "add", "-A");
        git(repo, "commit", "-q", "-m", "first");
        return repo;
    }

    @Test
    void cleanCheckoutOnABranch() throws Exception {
        Path repo = repo();
        GitInfo g = GitInfo.find(repo.resolve("src/deep")).orElseThrow();
        assertThat(g.workTree()).isEqualTo(repo.toAbsolutePath().normalize());
        assertThat(g.commit()).isEqualTo(git(repo, "rev-parse", "HEAD"));
        assertThat(g.branch()).isEqualTo("main");
        assertThat(g.dirty()).as(g.describe()).isFalse();
        assertThat(g.describe()).contains("(branch main)").contains("clean");
    }

    @Test
    void modifiedDeletedAndSameSizeEditsAreDirty() throws Exception {
        Path repo = repo();
        Path a = repo.resolve("a.cu");
        Files.writeString(a, "x = 7;\n"); // same size, other content
        Files.setLastModifiedTime(a, FileTime.fromMillis(System.currentTimeMillis() + 5000));
        Files.delete(repo.resolve("src/deep/b.cu"));
        GitInfo g = GitInfo.find(repo).orElseThrow();
        assertThat(g.dirty()).isTrue();
        assertThat(g.modified()).containsExactlyInAnyOrder("a.cu", "src/deep/b.cu");
        assertThat(g.modifiedCount()).isEqualTo(2);

        // only touched (same content, new time) is clean
        Files.writeString(a, "x = 1;\n");
        Files.writeString(repo.resolve("src/deep/b.cu"), "y = 2;\n");
        Files.setLastModifiedTime(a, FileTime.fromMillis(System.currentTimeMillis() + 9000));
        assertThat(GitInfo.find(repo).orElseThrow().dirty()).isFalse();
    }

    @Test
    void indexVersionFourPackedRefsDetachedHeadAndWorktrees() throws Exception {
        Path repo = repo();
        git(repo, "update-index", "--index-version", "4");
        Files.writeString(repo.resolve("src/deep/b.cu"), "y = 22;\n");
        GitInfo v4 = GitInfo.find(repo).orElseThrow();
        assertThat(v4.modified()).containsExactly("src/deep/b.cu");
        git(repo, "checkout", "-q", "--", "src/deep/b.cu");

        git(repo, "pack-refs", "--all");
        assertThat(repo.resolve(".git/refs/heads/main")).doesNotExist();
        assertThat(GitInfo.find(repo).orElseThrow().commit()).isEqualTo(git(repo, "rev-parse", "HEAD"));

        String head = git(repo, "rev-parse", "HEAD");
        git(repo, "checkout", "-q", "--detach");
        GitInfo detached = GitInfo.find(repo).orElseThrow();
        assertThat(detached.commit()).isEqualTo(head);
        assertThat(detached.branch()).isNull();
        assertThat(detached.describe()).contains("detached HEAD");

        git(repo, "checkout", "-q", "main");
        git(repo, "worktree", "add", "-q", "-b", "side", tmp.resolve("wt").toString());
        // issue 31: a linked worktree's git directory belongs to a repository outside the checkout: not read
        GitInfo wt = GitInfo.find(tmp.resolve("wt")).orElseThrow();
        assertThat(wt.commit()).isNull();
        assertThat(wt.note()).isEqualTo(".git file points outside the checkout: not read");
    }

    @Test
    void brokenAndHostileDotGit() throws IOException {
        Path broken = Files.createDirectories(tmp.resolve("broken"));
        Files.writeString(broken.resolve(".git"), "gitdir: /nonexistent/place\n");
        GitInfo g = GitInfo.find(broken).orElseThrow();
        assertThat(g.commit()).isNull();
        assertThat(g.note()).contains("does not name a git directory");
        Path hostile = Files.createDirectories(tmp.resolve("hostile/.git"));
        Files.writeString(hostile.resolve("HEAD"), "ref: refs/heads/../../../../etc/passwd\n");
        GitInfo h = GitInfo.find(hostile.getParent()).orElseThrow();
        assertThat(h.commit()).isNull();
        assertThat(h.note()).contains("invalid ref");
    }

    @Test
    void suppressionBlameInProcessIgnoresTheRepositorysProgramSettings() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("blamed"));
        git(repo, "init", "-q");
        Files.writeString(repo.resolve("k.cu"), "x = 1;\ny = HAZARD(NL001); // numlint: ignore NL001 -- clamped\n");
        git(repo, "add", "-A");
        git(repo, "-c", "user.name=Ada Auditor", "commit", "-q", "-m", "first");
        // a hostile repository configuration: git would run these programs if numlint let it
        Path marker = tmp.resolve("ran");
        Files.writeString(
                repo.resolve(".git/config"),
                Files.readString(repo.resolve(".git/config"))
                        + "[core]\n\tfsmonitor = touch " + marker + "\n\thooksPath = hooks\n"
                        + "[diff \"x\"]\n\ttextconv = touch " + marker + "\n");
        Files.writeString(repo.resolve(".gitattributes"), "*.cu diff=x\n");
        dev.numlint.scan.ScanResult r = dev.numlint.scan.Scanner.scan(dev.numlint.scan.ScanOptions.builder(repo)
                .path(repo)
                .analyzers(List.of(new dev.numlint.scan.MarkerAnalyzer()))
                .build());
        String html = HtmlReport.render(r, new ReportOptions(null, false, null, List.of(repo), null));
        assertThat(html).contains("who and when (git blame): Ada Auditor, ");
        assertThat(html).containsPattern("Ada Auditor, \\d{4}-\\d{2}-\\d{2} \\(commit [0-9a-f]{12}\\)");
        assertThat(marker)
                .as("no program from the repository's configuration ran")
                .doesNotExist();

        Files.writeString(repo.resolve("k.cu"), "\nx = 1;\ny = HAZARD(NL001); // numlint: ignore NL001 -- clamped\n");
        r = dev.numlint.scan.Scanner.scan(dev.numlint.scan.ScanOptions.builder(repo)
                .path(repo)
                .analyzers(List.of(new dev.numlint.scan.MarkerAnalyzer()))
                .build());
        assertThat(HtmlReport.render(r, new ReportOptions(null, false, null, List.of(repo), null)))
                .contains("who and when (git blame): not available: the file has uncommitted changes");
    }
}
