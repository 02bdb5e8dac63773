package dev.numlint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.numlint.output.DocsGenerator;
import dev.numlint.rules.RuleDocument;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code numlint new-rule NL013 rounding-mode --layers cuda-source,ptx,java-source}: creates the files of a new rule
 * in a numlint source tree (see CONTRIBUTING.md): the catalog entry, the rule's page (its document, with the four
 * sections, under the marker above which {@code numlint docs} writes the header), one check class per layer
 * (registered with {@code @AutoService}) and a fixture per layer with one {@code ruleid} and one {@code ok} line;
 * then prints what to do next. These are all the files a rule touches: 8 for a rule on three layers (issue 28).
 * Existing files are never overwritten.
 */
@Command(
        name = "new-rule",
        mixinStandardHelpOptions = true,
        description = "Create the catalog entry, rule document, check classes and fixtures of a new rule "
                + "(run in a numlint source tree).")
final class NewRuleCommand implements Callable<Integer> {
    static final Path CATALOG = Path.of("rules/src/main/resources/dev/numlint/rules/catalog.yml");
    /** The rules' pages: each is the rule's document (RuleDocument), carried in the rules jar. */
    static final Path DOCS = Path.of("docs/rules");

    /** Per layer: the check class's directory, its interface, and the fixture file. */
    private record LayerKind(String layer, String checkDir, String fixture) {}

    private static final Map<String, LayerKind> LAYERS = new LinkedHashMap<>();

    static {
        LAYERS.put(
                "cuda-source",
                new LayerKind(
                        "cuda-source",
                        "analyzer/frontend-cuda/src/main/java/dev/numlint/cuda/checks",
                        "analyzer/src/test/resources/fixtures/cuda/default/%s.cu"));
        LAYERS.put(
                "ptx",
                new LayerKind(
                        "ptx",
                        "ptx-inspector/src/main/java/dev/numlint/ptx/checks",
                        "ptx-inspector/src/test/resources/fixtures/ptx/%s.ptx"));
        LAYERS.put(
                "java-source",
                new LayerKind(
                        "java-source",
                        "analyzer/frontend-java/src/main/java/dev/numlint/java/checks",
                        "analyzer/src/test/resources/fixtures/java/%s/%s.java"));
    }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "the new rule id: the next free one, e.g. NL013")
    String id;

    @Parameters(index = "1", paramLabel = "NAME", description = "the rule name in kebab case, e.g. rounding-mode")
    String name;

    @Option(
            names = "--layers",
            paramLabel = "LAYER[,LAYER...]",
            split = ",",
            required = true,
            description = "layers with a check: cuda-source, ptx, java-source")
    List<String> layers;

    @Option(
            names = "--repo",
            paramLabel = "DIR",
            defaultValue = ".",
            description = "the numlint source tree (default: the current directory)")
    Path repo;

    @Override
    public Integer call() throws IOException {
        Path catalog = repo.resolve(CATALOG);
        if (!Files.isRegularFile(catalog)) {
            throw new Main.UsageException(
                    repo.toAbsolutePath().normalize() + " is not a numlint source tree (no " + CATALOG + ")");
        }
        if (!id.matches("NL\\d{3}")) throw new Main.UsageException("rule id '" + id + "' is not of the form NL013");
        if (!name.matches("[a-z0-9]+(-[a-z0-9]+)*")) {
            throw new Main.UsageException(
                    "rule name '" + name + "' is not kebab case (lower-case words joined by '-')");
        }
        for (String l : layers) {
            if (!LAYERS.containsKey(l)) {
                throw new Main.UsageException(
                        "--layers: unknown layer '" + l + "' (allowed: " + String.join(", ", LAYERS.keySet()) + ")");
            }
        }
        JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(catalog.toFile());
        List<String> ids = new ArrayList<>();
        for (JsonNode r : root.get("rules")) {
            ids.add(r.get("id").asText());
            if (r.get("name").asText().equals(name))
                throw new Main.UsageException(
                        "rule name '" + name + "' is taken by " + r.get("id").asText());
        }
        String next = String.format("NL%03d", ids.size() + 1);
        if (!id.equals(next)) {
            throw new Main.UsageException("rule ids are consecutive: the next one is " + next
                    + (ids.contains(id) ? " (" + id + " exists)" : ""));
        }
        String cls = className(name);
        Map<Path, String> files = new LinkedHashMap<>();
        files.put(repo.resolve(DOCS).resolve(RuleDocument.fileName(id, name)), doc());
        for (String l : layers) {
            LayerKind k = LAYERS.get(l);
            files.put(repo.resolve(k.checkDir()).resolve(cls + ".java"), checkClass(l, cls));
            String fixture =
                    l.equals("java-source") ? String.format(k.fixture(), name, cls) : String.format(k.fixture(), name);
            files.put(repo.resolve(fixture), fixture(l, cls));
        }
        List<String> existing = new ArrayList<>();
        for (Path p : files.keySet())
            if (Files.exists(p)) existing.add(repo.relativize(p).toString());
        if (!existing.isEmpty())
            throw new Main.UsageException("not overwriting existing files: " + String.join(", ", existing));
        for (Map.Entry<Path, String> e : files.entrySet()) {
            Files.createDirectories(e.getKey().getParent());
            Files.writeString(e.getKey(), e.getValue(), StandardCharsets.UTF_8);
        }
        String text = Files.readString(catalog, StandardCharsets.UTF_8);
        Files.writeString(catalog, text + (text.endsWith("\n") ? "" : "\n") + catalogEntry(), StandardCharsets.UTF_8);
        PrintWriter out = spec.commandLine().getOut();
        out.println("created " + id + " " + name + ":");
        out.println("  " + CATALOG + " (entry appended)");
        for (Path p : files.keySet()) out.println("  " + repo.relativize(p));
        out.println();
        out.println("next (CONTRIBUTING.md walks through each step):");
        out.println("  1. catalog.yml: write the summary, description and message templates of " + id
                + "; choose its level and its policy (how its layers merge, what PTX confirms; RulePolicy)");
        out.println("  2. " + DOCS.resolve(RuleDocument.fileName(id, name))
                + ": fill in the four sections below the marker; cite the seed's work by author and year"
                + " (docs/bibliography.md)");
        out.println("  3. each check class: read the layer's facts and report through a catalog message");
        out.println("  4. each fixture: real code that must (ruleid) and must not (ok) be flagged, with levels");
        out.println(
                "  5. mvn -B -q -pl analyzer -am test -Dtest='FixtureTest,ConsistencyTest' -Dsurefire.failIfNoSpecifiedTests=false");
        out.println("  6. " + DocsGenerator.REGENERATE + " (writes the page's header and references), mvn -B verify");
        out.flush();
        return Main.EXIT_OK;
    }

    /** rounding-mode -> RoundingMode. */
    static String className(String kebab) {
        StringBuilder sb = new StringBuilder();
        for (String w : kebab.split("-")) {
            if (!w.isEmpty()) sb.append(Character.toUpperCase(w.charAt(0))).append(w.substring(1));
        }
        if (sb.length() == 0 || !Character.isJavaIdentifierStart(sb.charAt(0))) sb.insert(0, "Rule");
        return sb.toString();
    }

    private String catalogEntry() {
        StringBuilder sb = new StringBuilder();
        sb.append("  - id: ").append(id).append('\n');
        sb.append("    name: ").append(name).append('\n');
        sb.append("    level: warning\n");
        sb.append("    category: precision\n");
        sb.append("    cwe: [1339]\n");
        sb.append("    summary: TODO one sentence on what is flagged.\n");
        sb.append("    description: >-\n");
        sb.append(
                "      TODO what is detected at each layer and why CPU and GPU (or two builds) give different results.\n");
        sb.append("    layers: [").append(String.join(", ", layers)).append("]\n");
        // how the engine treats the rule's findings (dev.numlint.rules.RulePolicy): plain merging by line until the
        // rule needs more (every-site, PTX confirmation by opcode, a validation variant)
        sb.append("    policy: {merge: line}\n");
        sb.append("    messages:\n");
        for (String l : layers) {
            String prefix = l.equals("cuda-source") ? "cuda" : l.equals("ptx") ? "ptx" : "java";
            sb.append("      ")
                    .append(prefix)
                    .append('-')
                    .append(name)
                    .append(": \"'{expr}' TODO what happens: {consequence}\"\n");
        }
        return sb.toString();
    }

    private String doc() {
        return RuleDocument.MARKER + "\n\n## What it detects\n\nTODO: the constructs " + id + " (" + name
                + ") flags at each layer, and what it "
                + "deliberately leaves alone.\n\n## Why it matters\n\nTODO: the concrete numbers (a seed example, "
                + "cited by author and year, e.g. 'Yablonski 2011, §3.2.4').\n\n## How to fix\n\nTODO: the "
                + "replacement, and when a justified suppression is the right answer.\n\n## Examples\n\nTODO: "
                + "flagged and not flagged code for each layer.\n";
    }

    private String checkClass(String layer, String cls) {
        String upper = id;
        String key = (layer.equals("cuda-source") ? "cuda" : layer.equals("ptx") ? "ptx" : "java") + "-" + name;
        return switch (layer) {
            case "cuda-source" -> "package dev.numlint.cuda.checks;\n\n"
                    + "import com.google.auto.service.AutoService;\n"
                    + "import dev.numlint.cuda.facts.CudaReport;\n"
                    + "import dev.numlint.cuda.facts.FunctionFacts;\n\n"
                    + "/** " + upper + " (" + name + ") in CUDA/C++ source. TODO: what it checks. */\n"
                    + "@AutoService(CudaCheck.class)\n"
                    + "public final class " + cls + " implements CudaCheck {\n"
                    + "    @Override\n    public String ruleId() {\n        return \"" + upper + "\";\n    }\n\n"
                    + "    @Override\n    public void check(FunctionFacts facts, CudaReport out) {\n"
                    + "        // TODO: read the sites this rule needs (facts.conversions, facts.calls, ...), decide, and\n"
                    + "        // out.report(ruleId(), facts.function, site, RuleCatalog.get().rule(ruleId()).message(\""
                    + key + "\", ...),\n        //         Confidence.HIGH, Consequences.of(site, out), null);\n"
                    + "    }\n}\n";
            case "ptx" -> "package dev.numlint.ptx.checks;\n\n"
                    + "import com.google.auto.service.AutoService;\n"
                    + "import dev.numlint.ptx.facts.PtxFacts;\n"
                    + "import dev.numlint.ptx.rules.PtxHit;\n"
                    + "import java.util.function.Consumer;\n\n"
                    + "/** " + upper + " (" + name + ") in PTX. TODO: what it checks. */\n"
                    + "@AutoService(PtxCheck.class)\n"
                    + "public final class " + cls + " implements PtxCheck {\n"
                    + "    @Override\n    public String ruleId() {\n        return \"" + upper + "\";\n    }\n\n"
                    + "    @Override\n    public void check(PtxFacts facts, Consumer<PtxHit> out) {\n"
                    + "        // TODO: walk facts.function().instructions(), decide, and report a PtxHit with\n"
                    + "        // PtxMessages.message(ruleId(), \"" + key + "\", ...)\n"
                    + "    }\n}\n";
            default -> "package dev.numlint.java.checks;\n\n"
                    + "import com.google.auto.service.AutoService;\n"
                    + "import dev.numlint.java.JavaCheck;\n"
                    + "import dev.numlint.java.JavaUnit;\n\n"
                    + "/** " + upper + " (" + name + ") in Java source. TODO: what it checks. */\n"
                    + "@AutoService(JavaCheck.class)\n"
                    + "public final class " + cls + " implements JavaCheck {\n"
                    + "    @Override\n    public String ruleId() {\n        return \"" + upper + "\";\n    }\n\n"
                    + "    @Override\n    public void check(JavaUnit unit) {\n"
                    + "        // TODO: read the unit's facts, decide, and report through unit.report(...) with the\n"
                    + "        // catalog message JavaUnit.message(ruleId(), \"" + key + "\", ...)\n"
                    + "    }\n}\n";
        };
    }

    private String fixture(String layer, String cls) {
        String lower = name.replace('-', '_').toLowerCase(Locale.ROOT);
        return switch (layer) {
            case "cuda-source" -> "// " + id + " " + name
                    + ": replace both statements with code that must and must not be flagged.\n"
                    + "__global__ void " + lower + "_example(float *out, const float *in)\n{\n"
                    + "    // ruleid: " + id + " level=warning\n    out[0] = in[0]; // TODO: the hazard\n"
                    + "    // ok: " + id + "\n    out[1] = in[1]; // TODO: the safe form\n}\n";
            case "ptx" -> "// " + id + " " + name
                    + ": replace both instructions with PTX that must and must not be flagged.\n"
                    + ".version 8.0\n.target sm_90\n.address_size 64\n\n.visible .entry " + lower
                    + "_example(.param .u64 p)\n{\n"
                    + "    .reg .f32 %f<4>;\n"
                    + "    // ruleid: " + id + "\n    add.f32 %f1, %f2, %f3; // TODO: the hazard\n"
                    + "    // ok: " + id + "\n    add.rn.f32 %f1, %f2, %f3; // TODO: the safe form\n    ret;\n}\n";
            default -> "// " + id + " " + name
                    + ": replace both statements with code that must and must not be flagged.\n"
                    + "public class " + cls + " {\n    float example(float[] in) {\n"
                    + "        // ruleid: " + id + " level=warning\n        float a = in[0]; // TODO: the hazard\n"
                    + "        // ok: " + id + "\n        float b = in[1]; // TODO: the safe form\n"
                    + "        return a + b;\n    }\n}\n";
        };
    }
}
