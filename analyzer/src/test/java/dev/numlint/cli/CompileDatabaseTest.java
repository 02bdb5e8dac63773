package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.scan.Analyzers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The build's own compilation database, through the CLI: auto-detection, borrowed entries, host defines. */
class CompileDatabaseTest {
    @TempDir
    Path tmp;

    Path repo;

    record Run(int code, String out, String err) {
        JsonNode json() throws IOException {
            return new ObjectMapper().readTree(out);
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        repo = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    }

    private Run run(String... args) {
        CommandLine cmd = Main.commandLine(Analyzers::load);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return new Run(cmd.execute(args), out.toString(), err.toString());
    }

    private Run scan(String format, String... extra) {
        List<String> a = new ArrayList<>(List.of("scan", "--ptx", "off", "--format", format));
        a.addAll(List.of(extra));
        a.add(repo.toString());
        return run(a.toArray(String[]::new));
    }

    private static List<String> rules(JsonNode report, String file) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : report.path("findings")) {
            if (f.path("file").asText().equals(file)) out.add(f.path("ruleId").asText());
        }
        return out;
    }

    private static String db(Path dir, String file, String command) {
        return "[{\"directory\": \"" + dir + "\", \"file\": \"" + file + "\", \"command\": \"" + command + "\"}]\n";
    }

    private static final String SSE_CPP =
            """
            #if USE_SSE
            float total(const float *v, int n);
            #else
            long double wideTotal(const double *v, int n)
            {
                long double t = 0;
                for (int i = 0; i < n; ++i) {
                    t += v[i];
                }
                return t;
            }
            #endif
            """;

    @Test
    void definesOfTheBuildDecideIfInCppFiles() throws IOException {
        Files.writeString(repo.resolve("a.cpp"), SSE_CPP);
        Run before = scan("json");
        assertThat(rules(before.json(), "a.cpp")).contains("NL005");
        Path build = Files.createDirectories(repo.resolve("build"));
        Files.writeString(
                build.resolve("compile_commands.json"), db(repo, "a.cpp", "/usr/bin/g++ -DUSE_SSE -O2 -c a.cpp"));
        Run after = scan("json");
        assertThat(rules(after.json(), "a.cpp")).isEmpty();
    }

    @Test
    void theDatabaseOfTheBuildDirectoryIsFoundAndNamed() throws IOException {
        Files.writeString(repo.resolve("a.cpp"), SSE_CPP);
        Path out = Files.createDirectories(repo.resolve("out"));
        Files.writeString(out.resolve("compile_commands.json"), db(repo, "a.cpp", "g++ -DUSE_SSE -c a.cpp"));
        Path ide = Files.createDirectories(repo.resolve("cmake-build-debug"));
        Files.writeString(ide.resolve("compile_commands.json"), db(repo, "a.cpp", "g++ -DOTHER -c a.cpp"));
        Run text = scan("text");
        assertThat(text.out())
                .contains("compilation database: out/compile_commands.json (found automatically")
                .doesNotContain("-DOTHER");
        Run json = scan("json");
        assertThat(json.out()).contains("compilation database: out/compile_commands.json");
        assertThat(json.json().path("notifications").toString())
                .contains("compilation database not used: out/compile_commands.json was found first");
        assertThat(scan("sarif").out()).contains("compilation database: out/compile_commands.json");

        // build/ comes before out/
        Path build = Files.createDirectories(repo.resolve("build"));
        Files.writeString(build.resolve("compile_commands.json"), db(repo, "a.cpp", "g++ -DFROM_BUILD -c a.cpp"));
        assertThat(scan("text").out()).contains("compilation database: build/compile_commands.json (found");
        assertThat(rules(scan("json").json(), "a.cpp")).contains("NL005");
    }
}
