package dev.numlint.validation.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The table of bench/gpu-replay.sh: one row per program from its replay report ({@code validate --replay --format
 * json}), with the program's plain and recorded run times when a times file gives them. Run as {@code java -cp
 * numlint.jar dev.numlint.validation.replay.ReplaySummary [--times FILE] REPORT.json...} where only a Java runtime
 * is (the GPU host): the program's name is the report's file name without {@code .json}. Reads statistics only.
 */
public final class ReplaySummary {
    private ReplaySummary() {}

    /** One program's figures. */
    static final class Row {
        String program;
        int launches, verdicts, gpuOnlyVerdicts, confirmed, notRunnable;
        int gpuChecked, gpuExact, gpuRepeatable, gpuRan, interpChecked, interpExact;
        final List<Double> kernelMillis = new ArrayList<>();
        double wallMillis;
        int wallCount;
        final Map<String, Long> attribution = new TreeMap<>();
        final Map<String, Integer> reasons = new TreeMap<>();
        String[] times;
    }

    public static void main(String[] args) throws IOException {
        Map<String, String[]> times = new LinkedHashMap<>();
        List<Path> reports = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--times") && i + 1 < args.length) {
                for (String l : Files.readAllLines(Path.of(args[++i]))) {
                    String[] f = l.trim().split("\\s+");
                    if (f.length >= 2 && !f[0].startsWith("#")) times.put(f[0], f);
                }
            } else reports.add(Path.of(args[i]));
        }
        System.out.print(table(reports, times));
    }

    static String table(List<Path> reports, Map<String, String[]> times) {
        List<Row> rows = new ArrayList<>();
        for (Path p : reports) {
            String name = p.getFileName().toString().replaceFirst("\\.json$", "");
            Row r;
            try {
                r = row(name, new ObjectMapper().readTree(p.toFile()));
            } catch (IOException | RuntimeException e) {
                r = new Row();
                r.program = name;
                r.reasons.put("report unreadable: " + e.getMessage(), 1);
            }
            r.times = times.get(name);
            rows.add(r);
        }
        for (String name : times.keySet())
            if (rows.stream().noneMatch(x -> x.program.equals(name))) {
                Row r = new Row();
                r.program = name;
                r.times = times.get(name);
                r.reasons.put("no replay report", 1);
                rows.add(r);
            }
        StringBuilder b = new StringBuilder();
        String head = "%-24s %8s %8s %8s %9s %9s %11s %11s %9s %10s %10s %8s %8s%n";
        b.append(String.format(
                Locale.ROOT,
                head,
                "program",
                "launches",
                "verdicts",
                "gpu-only",
                "confirmed",
                "not-run",
                "gpu-exact",
                "interp-exact",
                "repeatable",
                "kernel_ms",
                "replay_ms",
                "plain_ms",
                "rec_ms"));
        Row total = new Row();
        total.program = "total";
        for (Row r : rows) {
            b.append(line(head, r));
            total.launches += r.launches;
            total.verdicts += r.verdicts;
            total.gpuOnlyVerdicts += r.gpuOnlyVerdicts;
            total.confirmed += r.confirmed;
            total.notRunnable += r.notRunnable;
            total.gpuChecked += r.gpuChecked;
            total.gpuExact += r.gpuExact;
            total.gpuRepeatable += r.gpuRepeatable;
            total.gpuRan += r.gpuRan;
            total.interpChecked += r.interpChecked;
            total.interpExact += r.interpExact;
            total.kernelMillis.addAll(r.kernelMillis);
            total.wallMillis += r.wallMillis;
            total.wallCount += r.wallCount;
        }
        b.append(line(head, total));
        b.append(String.format(
                Locale.ROOT,
                "verdicts: %d of %d launches (%.0f%%), %d of them from the GPU alone; GPU as-built bit for bit with the"
                        + " recording: %d of %d; interpreter: %d of %d%n",
                total.verdicts,
                total.launches,
                total.launches == 0 ? 0.0 : 100.0 * total.verdicts / total.launches,
                total.gpuOnlyVerdicts,
                total.gpuExact,
                total.gpuChecked,
                total.interpExact,
                total.interpChecked));
        b.append("kernel_ms: median GPU time of the as-built launch (CUDA events); replay_ms: mean wall time of a")
                .append(" launch's GPU child process (all builds, repeats, JVM start)\n");
        b.append("\nattribution (elements whose as-built/strict difference the switch alone removes; interpreter,")
                .append(" else GPU):\n");
        for (Row r : rows)
            if (!r.attribution.isEmpty())
                b.append(String.format(Locale.ROOT, "  %-22s %s%n", r.program, r.attribution));
        b.append("\nnot runnable, by reason:\n");
        for (Row r : rows)
            for (Map.Entry<String, Integer> e : r.reasons.entrySet())
                b.append(String.format(Locale.ROOT, "  %-22s %3d  %s%n", r.program, e.getValue(), e.getKey()));
        return b.toString();
    }

    private static String line(String fmt, Row r) {
        double[] km = r.kernelMillis.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(km);
        return String.format(
                Locale.ROOT,
                fmt,
                r.program,
                r.launches,
                r.verdicts,
                r.gpuOnlyVerdicts,
                r.confirmed,
                r.notRunnable,
                r.gpuExact + "/" + r.gpuChecked,
                r.interpExact + "/" + r.interpChecked,
                r.gpuRepeatable + "/" + r.gpuRan,
                km.length == 0 ? "-" : String.format(Locale.ROOT, "%.4f", km[km.length / 2]),
                r.wallCount == 0 ? "-" : String.format(Locale.ROOT, "%.0f", r.wallMillis / r.wallCount),
                r.times != null && r.times.length > 1 ? r.times[1] : "-",
                r.times != null && r.times.length > 2 ? r.times[2] : "-");
    }

    static Row row(String name, JsonNode rep) {
        Row r = new Row();
        r.program = name;
        for (JsonNode k : rep.path("kernels")) {
            if (k.path("kernel").asText().equals("*")) {
                r.reasons.merge(shortReason(k.path("reason").asText()), 1, Integer::sum);
                continue;
            }
            r.launches++;
            String verdict = k.path("verdict").asText();
            if (verdict.equals("confirmed") || verdict.equals("not-observed")) {
                r.verdicts++;
                if (verdict.equals("confirmed")) r.confirmed++;
                if (k.path("executor").asText().equals(Replayer.GPU_EXECUTOR)) r.gpuOnlyVerdicts++;
                for (JsonNode a : k.path("attribution"))
                    r.attribution.merge(
                            a.path("rule").asText() + " " + a.path("variant").asText(),
                            a.path("elementsDiffering").asLong(),
                            Long::sum);
            } else {
                r.notRunnable++;
                r.reasons.merge(shortReason(k.path("reason").asText()), 1, Integer::sum);
            }
            String interp = k.path("launch").path("asBuiltReproduced").asText("");
            if (interp.startsWith("yes") || interp.startsWith("no")) {
                r.interpChecked++;
                if (interp.startsWith("yes")) r.interpExact++;
            }
            JsonNode g = k.path("gpu");
            JsonNode rec = g.path("recordedAgreement");
            if (!rec.isMissingNode()) {
                r.gpuChecked++;
                if (rec.path("elementsDiffering").asLong(-1) == 0) r.gpuExact++;
            }
            if (g.has("repeatable")) {
                r.gpuRan++;
                if (g.path("repeatable").asBoolean()) r.gpuRepeatable++;
            }
            for (JsonNode v : k.path("variants"))
                if (v.path("variant").asText().equals("as-built") && v.has("gpuKernelMillis"))
                    r.kernelMillis.add(v.path("gpuKernelMillis").asDouble());
            String wall = k.path("launch").path("gpuWallMillis").asText("");
            if (!wall.isEmpty()) {
                r.wallMillis += Double.parseDouble(wall);
                r.wallCount++;
            }
        }
        return r;
    }

    /** A reason without its numbers and names, so that the same cause counts once per program. */
    static String shortReason(String reason) {
        String s = reason.replaceAll("[0-9]+", "N").replaceAll("_Z\\w+", "K");
        return s.length() > 110 ? s.substring(0, 110) + "..." : s;
    }
}
