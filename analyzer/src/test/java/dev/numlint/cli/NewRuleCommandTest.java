package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.numlint.testing.InlineExpectations;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code numlint new-rule}, run in a temporary copy of the parts of the source tree it touches. */
class NewRuleCommandTest {
    @TempDir
    Path repo;

    private record Run(int code, String out, String err) {}

    private Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private void copyCatalog() throws IOException {
        Path src = Path.of("..").resolve(NewRuleCommand.CATALOG);
        Files.createDirectories(repo.resolve(NewRuleCommand.CATALOG).getParent());
        Files.copy(src, repo.resolve(NewRuleCommand.CATALOG));
    }

    @Test
    void createsEveryFileOfARuleAndSaysWhatToDoNext() throws Exception {
        copyCatalog();
        int before = catalogIds().size();
        String id = String.format("NL%03d", before + 1);
        Run r = run(
                "new-rule", id, "rounding-mode", "--layers", "cuda-source,ptx,java-source", "--repo", repo.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("created " + id)
                .contains("CONTRIBUTING.md")
                .contains("FixtureTest")
                .contains("./numlint docs --output docs/rules");
        // the catalog entry: valid YAML, next id, the layers and one message key per layer
        List<String> ids = catalogIds();
        assertThat(ids).hasSize(before + 1).last().isEqualTo(id);
        JsonNode entry = catalog().get("rules").get(before);
        assertThat(entry.get("name").asText()).isEqualTo("rounding-mode");
        assertThat(entry.get("layers").toString()).isEqualTo("[\"cuda-source\",\"ptx\",\"java-source\"]");
        assertThat(entry.get("messages").has("cuda-rounding-mode")).isTrue();
        assertThat(entry.get("messages").has("ptx-rounding-mode")).isTrue();
        // the rule's page, which is its document: the four sections the consistency test asks for, below the marker
        // above which `numlint docs` writes the header
        String doc = Files.readString(repo.resolve("docs/rules/" + id + "-rounding-mode.md"));
        assertThat(doc)
                .startsWith(dev.numlint.rules.RuleDocument.MARKER + "\n")
                .contains("## What it detects", "## Why it matters", "## How to fix", "## Examples");
        // everything a rule on three layers touches, and no more than 8 files (issue 28): the catalog, the page,
        // three checks and three fixtures; README.md and the index of docs/rules/ list no rule
        List<String> created = r.out()
                .lines()
                .filter(l -> l.startsWith("  ") && l.trim().matches("[\\w./-]+( \\(entry appended\\))?"))
                .toList();
        assertThat(created).hasSize(8);
        try (var all = Files.walk(repo)) {
            assertThat(all.filter(Files::isRegularFile).count()).isEqualTo(8);
        }
        // one check class per layer, registered for its layer
        Path cuda = repo.resolve("analyzer/frontend-cuda/src/main/java/dev/numlint/cuda/checks/RoundingMode.java");
        Path ptx = repo.resolve("ptx-inspector/src/main/java/dev/numlint/ptx/checks/RoundingMode.java");
        Path java = repo.resolve("analyzer/frontend-java/src/main/java/dev/numlint/java/checks/RoundingMode.java");
        assertThat(Files.readString(cuda))
                .contains("@AutoService(CudaCheck.class)")
                .contains("return \"" + id + "\"");
        assertThat(Files.readString(ptx)).contains("@AutoService(PtxCheck.class)");
        assertThat(Files.readString(java)).contains("@AutoService(JavaCheck.class)");
        // the CUDA and PTX skeletons compile against the real check interfaces
        compile(List.of(cuda, ptx));
        // fixtures with one ruleid and one ok line each
        InlineExpectations exp = InlineExpectations.read(repo);
        assertThat(exp.expected()).hasSize(3).allMatch(h -> h.ruleId().equals(id));
        assertThat(exp.forbidden()).hasSize(3);
        assertThat(repo.resolve("analyzer/src/test/resources/fixtures/cuda/default/rounding-mode.cu"))
                .exists();
        assertThat(repo.resolve("analyzer/src/test/resources/fixtures/java/rounding-mode/RoundingMode.java"))
                .exists();
        // a second run would overwrite: refused, nothing changed
        String catalogText = Files.readString(repo.resolve(NewRuleCommand.CATALOG));
        Run again = run(
                "new-rule",
                String.format("NL%03d", before + 2),
                "other-rule",
                "--layers",
                "cuda-source",
                "--repo",
                repo.toString());
        assertThat(again.code()).isZero();
        Run clash = run(
                "new-rule",
                String.format("NL%03d", before + 3),
                "rounding-mode",
                "--layers",
                "ptx",
                "--repo",
                repo.toString());
        assertThat(clash.code()).isEqualTo(2);
        assertThat(clash.err()).contains("is taken by " + id);
        assertThat(Files.readString(repo.resolve(NewRuleCommand.CATALOG))).startsWith(catalogText);
    }

    @Test
    void refusesBadIdsNamesLayersAndTrees() throws Exception {
        Run noTree = run("new-rule", "NL099", "x", "--layers", "ptx", "--repo", repo.toString());
        assertThat(noTree.code()).isEqualTo(2);
        assertThat(noTree.err()).contains("not a numlint source tree");
        copyCatalog();
        String next = String.format("NL%03d", catalogIds().size() + 1);
        assertThat(run("new-rule", "NL001", "x", "--layers", "ptx", "--repo", repo.toString())
                        .err())
                .contains("the next one is " + next)
                .contains("NL001 exists");
        assertThat(run("new-rule", next, "Bad_Name", "--layers", "ptx", "--repo", repo.toString())
                        .err())
                .contains("not kebab case");
        assertThat(run("new-rule", next, "ok-name", "--layers", "gpu", "--repo", repo.toString())
                        .err())
                .contains("unknown layer 'gpu'");
        assertThat(catalogIds()).doesNotContain(next);
    }

    private JsonNode catalog() throws IOException {
        return new ObjectMapper(new YAMLFactory())
                .readTree(repo.resolve(NewRuleCommand.CATALOG).toFile());
    }

    private List<String> catalogIds() throws IOException {
        List<String> ids = new ArrayList<>();
        catalog().get("rules").forEach(r -> ids.add(r.get("id").asText()));
        return ids;
    }

    private void compile(List<Path> sources) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path out = Files.createDirectories(repo.resolve("classes"));
        List<String> args = new ArrayList<>(
                List.of("-proc:none", "-d", out.toString(), "-cp", System.getProperty("java.class.path")));
        sources.forEach(s -> args.add(s.toString()));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = javac.run(null, null, err, args.toArray(String[]::new));
        assertThat(rc).as(err.toString(StandardCharsets.UTF_8)).isZero();
    }
}
