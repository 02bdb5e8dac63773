package dev.numlint.validation.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.model.PtxModule;
import dev.numlint.ptx.parser.PtxReader;
import dev.numlint.ptx.sass.ContractionCheck;
import dev.numlint.ptx.sass.LocRewriter;
import dev.numlint.ptx.sass.SassListing;
import dev.numlint.validation.VariantCache;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The machine code of the as-built builds, read back into a validation report (for hosts with ptxas and nvdisasm;
 * this class starts no process: the bundle's script runs the tools between its two steps).
 * <ul>
 *   <li>{@code prepare CACHE OUT}: for every PTX in the variant cache, {@code OUT/NAME.loc.ptx} with each
 *   instruction's .loc naming its own PTX line ({@link LocRewriter}); the script then runs
 *   {@code ptxas -arch=sm_90 -lineinfo} and {@code nvdisasm -g -c} into {@code SASS/NAME.sass}.</li>
 *   <li>{@code annotate REPORT ROOT CACHE SASS OUT}: for every NL003 finding, whether the SASS at its PTX line is a
 *   fused multiply-add ({@code fusedInMachineCode}, {@code machineCode}); and the agreement of the contraction
 *   model with the SASS over every contractible addition of every cached build, printed as a table.</li>
 * </ul>
 */
public final class SassAnnotator {
    private SassAnnotator() {}

    public static void main(String[] args) throws IOException {
        if (args.length == 3 && args[0].equals("prepare")) {
            prepare(Path.of(args[1]), Path.of(args[2]));
        } else if (args.length == 6 && args[0].equals("annotate")) {
            annotate(Path.of(args[1]), Path.of(args[2]), Path.of(args[3]), Path.of(args[4]), Path.of(args[5]));
        } else {
            System.err.println("usage: SassAnnotator prepare CACHE OUT | annotate REPORT ROOT CACHE SASS OUT");
            System.exit(2);
        }
    }

    static List<Path> ptxFiles(Path cache) throws IOException {
        try (Stream<Path> s = Files.list(cache)) {
            return s.filter(p -> p.toString().endsWith(".ptx")).sorted().toList();
        }
    }

    static void prepare(Path cache, Path out) throws IOException {
        Files.createDirectories(out);
        for (Path p : ptxFiles(cache)) {
            String name = p.getFileName().toString();
            Files.writeString(
                    out.resolve(name.replaceAll("\\.ptx$", ".loc.ptx")),
                    LocRewriter.rewrite(Files.readString(p, StandardCharsets.UTF_8), name),
                    StandardCharsets.UTF_8);
        }
    }

    static void annotate(Path report, Path root, Path cache, Path sass, Path out) throws IOException {
        ObjectMapper m = new ObjectMapper();
        JsonNode r = m.readTree(report.toFile());
        String arch = r.path("environment").path("arch").asText("compute_90");
        int findings = 0, fused = 0, notFused = 0;
        for (JsonNode k : r.path("kernels")) {
            List<String> flags = null;
            for (JsonNode v : k.path("variants")) {
                if (v.path("variant").asText().equals("as-built")) {
                    flags = new ArrayList<>();
                    for (JsonNode f : v.path("flags")) flags.add(f.asText());
                }
            }
            // the validator builds every variant with -lineinfo (Validator.compile); the cache key includes it
            if (flags != null && !flags.contains("-lineinfo") && !flags.contains("--generate-line-info"))
                flags.add("-lineinfo");
            Path cu = root.resolve(k.path("file").asText());
            if (flags == null || !cu.toString().endsWith(".cu") || !Files.isRegularFile(cu)) continue;
            String key = VariantCache.key(cu, arch, flags);
            Path sp = sass.resolve(key.replaceAll("\\.ptx$", ".sass"));
            for (JsonNode f : k.path("findings")) {
                // the rules whose findings the machine code confirms (an FFMA at the line): catalog policy
                if (!dev.numlint.rules.RuleCatalog.get()
                                .policy(f.path("rule").asText())
                                .machineCodeCheck()
                        || !f.has("line")) continue;
                findings++;
                ObjectNode fo = (ObjectNode) f;
                if (!Files.isRegularFile(sp)) {
                    fo.put("machineCode", "no SASS for " + key);
                    continue;
                }
                SassListing sl = SassListing.parse(Files.readString(sp, StandardCharsets.UTF_8));
                var at = sl.byLine(k.path("kernel").asText())
                        .getOrDefault(f.get("line").asInt(), List.of());
                boolean fma = at.stream().anyMatch(s -> ContractionCheck.FMA.contains(s.baseOpcode()));
                fo.put("fusedInMachineCode", fma);
                fo.put(
                        "machineCode",
                        at.isEmpty()
                                ? "no machine instruction attributed to PTX line "
                                        + f.get("line").asInt()
                                : String.join(
                                        "; ",
                                        at.stream()
                                                .map(SassListing.SassInstruction::text)
                                                .toList()));
                if (fma) fused++;
                else notFused++;
            }
        }
        m.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), r);
        System.out.printf(
                "%s findings: %d; fused in the SASS: %d; not fused: %d%n",
                String.join("/", dev.numlint.rules.RuleCatalog.get().rulesWhere(p -> p.machineCodeCheck())),
                findings,
                fused,
                notFused);
        long[] n = new long[5];
        int files = 0;
        for (Path p : ptxFiles(cache)) {
            Path sp = sass.resolve(p.getFileName().toString().replaceAll("\\.ptx$", ".sass"));
            if (!Files.isRegularFile(sp)) continue;
            PtxReader.Result res = PtxReader.read(Files.readString(p, StandardCharsets.UTF_8));
            if (res.failed()) continue;
            files++;
            PtxModule mod = res.module();
            SassListing sl = SassListing.parse(Files.readString(sp, StandardCharsets.UTF_8));
            for (PtxFunction f : mod.definedFunctions()) {
                for (ContractionCheck.Observation o : ContractionCheck.compare(f, sl, f.name())) {
                    if (o.observed() == null) n[4]++;
                    else if (o.agrees()) n[o.predicted() ? 0 : 1]++;
                    else n[o.predicted() ? 2 : 3]++;
                }
            }
        }
        System.out.println("| contraction model vs SASS (" + files + " builds) | additions |");
        System.out.println("|---|---|");
        System.out.printf(
                "| fused in both | %d |%n| separate in both | %d |%n| model says fused, SASS has FADD | %d |%n"
                        + "| model says separate, SASS has FFMA | %d |%n| no FADD/FFMA attributed to the line | %d |%n",
                n[0], n[1], n[2], n[3], n[4]);
    }
}
