package dev.numlint.scan;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.validation.ValidationOptions;
import dev.numlint.validation.Validator;
import dev.numlint.validation.report.FindingResult;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import dev.numlint.validation.report.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Joins a scan with the validation stage: which kernels the analyzers flagged, validating them as they are really
 * built (each file with its own build flags), and attaching the verdicts to the scan's findings.
 */
public final class ScanValidation {
    private ScanValidation() {
    }

    /**
     * Kernels with unsuppressed CUDA-source or PTX findings: absolute .cu/.ptx file path, then kernel (function)
     * name, then the rule ids found in it.
     */
    public static Map<String, Map<String, Set<String>>> flaggedKernels(ScanResult scan) {
        Map<String, Map<String, Set<String>>> out = new TreeMap<>();
        for (Finding f : scan.findings()) {
            if (f.suppressed() || f.function() == null) continue;
            if (f.layer() != Layer.CUDA_SOURCE && f.layer() != Layer.PTX) continue;
            String file = f.location().file();
            if (!(file.endsWith(".cu") || file.endsWith(".ptx"))) continue;
            String abs = absolute(scan, file).toString();
            out.computeIfAbsent(abs, k -> new TreeMap<>()).computeIfAbsent(f.function(), k -> new TreeSet<>())
                    .add(f.ruleId());
            Object mangled = f.properties().get("mangledName");
            if (mangled != null) {
                out.get(abs).computeIfAbsent(mangled.toString(), k -> new TreeSet<>()).add(f.ruleId());
            }
        }
        return out;
    }

    /**
     * Validates the flagged kernels of the scan (every kernel of every .cu/.ptx file under {@code paths} with
     * {@code allKernels}). Each file is built with the flags the scan found for it plus {@code base.buildFlags}.
     * Kernel result paths are made relative to the scan root.
     */
    public static ValidationReport validate(ScanResult scan, List<Path> paths, ValidationOptions base)
            throws IOException {
        Map<String, Map<String, Set<String>>> flagged = flaggedKernels(scan);
        List<Path> files = new ArrayList<>();
        if (base.allKernels) {
            for (Path p : paths) {
                if (Files.isDirectory(p)) {
                    try (Stream<Path> s = Files.walk(p)) {
                        files.addAll(s.filter(f -> Files.isRegularFile(f)
                                && (f.toString().endsWith(".cu") || f.toString().endsWith(".ptx"))).sorted()
                                .collect(Collectors.toList()));
                    }
                } else {
                    files.add(p.toAbsolutePath().normalize());
                }
            }
        } else {
            flagged.keySet().forEach(f -> files.add(Path.of(f)));
        }
        ValidationReport report = new ValidationReport();
        for (Path file : files) {
            ValidationOptions o = base.copy();
            if (o.roots.isEmpty()) o.roots = new ArrayList<>(List.of(scan.root()));
            BuildContext ctx = scan.buildContext(file);
            List<String> flags = new ArrayList<>(ctx.nvccFlags());
            for (String f : base.buildFlags) {
                if (!flags.contains(f)) flags.add(f);
            }
            o.buildFlags = flags;
            if (!base.allKernels) {
                o.flagged = Map.of(file.toString(), flagged.getOrDefault(file.toString(), Map.of()));
            }
            ValidationReport part = Validator.validate(List.of(file), o);
            part.environment.forEach(report.environment::putIfAbsent);
            for (KernelResult k : part.kernels) {
                k.file = scan.root().relativize(Path.of(k.file).toAbsolutePath().normalize()).toString()
                        .replace('\\', '/');
                report.kernels.add(k);
            }
        }
        return report;
    }

    /**
     * The scan's findings with each validated finding's verdict in {@code properties.validation} (verdict, kernel,
     * executor, element and ULP statistics, which build is closer to the reference).
     */
    public static List<Finding> annotate(ScanResult scan, ValidationReport report) {
        List<Finding> out = new ArrayList<>(scan.findings().size());
        for (Finding f : scan.findings()) {
            KernelResult k = f.function() == null ? null : kernelOf(report, f);
            if (k == null) {
                out.add(f);
                continue;
            }
            Map<String, Object> v = new LinkedHashMap<>();
            Verdict verdict = k.verdict;
            Long differing = k.elementsDiffering;
            for (FindingResult fr : k.findings) {
                if (f.ruleId().equals(fr.rule) && (fr.line == null || fr.line == f.location().startLine())) {
                    if (fr.verdict != null) verdict = fr.verdict;
                    if (fr.elementsDiffering != null) differing = fr.elementsDiffering;
                    break;
                }
            }
            v.put("verdict", verdict == null ? null : verdict.text());
            v.put("kernel", k.kernel);
            v.put("executor", k.executor);
            v.put("inputs", k.inputs);
            v.put("elementsCompared", k.elementsCompared);
            v.put("elementsDiffering", differing);
            v.put("maxUlp", k.maxUlp);
            v.put("meanUlp", k.meanUlp);
            v.put("closerToReference", k.closerToReference);
            if (k.reason != null) v.put("reason", k.reason);
            out.add(f.toBuilder().property("validation", v).build());
        }
        return out;
    }

    private static KernelResult kernelOf(ValidationReport report, Finding f) {
        for (KernelResult k : report.kernels) {
            if (!k.file.equals(f.location().file())) continue;
            String simple = dev.numlint.ptx.Demangler.simpleName(k.kernel);
            if (f.function().equals(k.kernel) || f.function().equals(simple)) {
                return k;
            }
        }
        return null;
    }

    private static Path absolute(ScanResult scan, String file) {
        Path p = Path.of(file);
        return (p.isAbsolute() ? p : scan.root().resolve(p)).toAbsolutePath().normalize();
    }
}
