package dev.numlint.bench;

import dev.numlint.model.Verdict;
import dev.numlint.validation.ValidationOptions;
import dev.numlint.validation.Validator;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Corpus survey: validates every flagged kernel under the given paths (.ptx or .cu) with small inputs and prints
 * one line per kernel plus how many the interpreter ran and why the rest did not run.
 * Usage: ValidationSurvey [--inputs N] [--elements N] [--all] PATH...
 */
public final class ValidationSurvey {
    private ValidationSurvey() {}

    public static void main(String[] args) throws Exception {
        ValidationOptions o = new ValidationOptions();
        o.inputs = 2;
        o.elements = 1024;
        o.instructionLimit = 50_000_000L;
        List<Path> paths = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--inputs":
                    o.inputs = Integer.parseInt(args[++i]);
                    break;
                case "--elements":
                    o.elements = Integer.parseInt(args[++i]);
                    break;
                case "--all":
                    o.allKernels = true;
                    break;
                default:
                    paths.add(Paths.get(args[i]));
            }
        }
        long t0 = System.nanoTime();
        ValidationReport r = Validator.validate(paths, o);
        double secs = (System.nanoTime() - t0) / 1e9;
        Map<String, Integer> reasons = new TreeMap<>();
        int kernels = 0, ran = 0;
        for (KernelResult k : r.kernels) {
            boolean fileLevel = k.kernel.equals("*");
            System.out.printf(
                    "%-14s %-70s %s%n",
                    k.verdict.text(),
                    k.file + ":" + k.kernel,
                    k.verdict == Verdict.NOT_RUNNABLE
                            ? k.reason
                            : k.elementsDiffering + "/" + k.elementsCompared + " differ " + rulesOf(k));
            if (fileLevel) continue;
            kernels++;
            if (k.verdict != Verdict.NOT_RUNNABLE) ran++;
            else reasons.merge(category(k.reason), 1, Integer::sum);
        }
        System.out.printf(
                "%nflagged kernels: %d, interpreted: %d (%.0f%%), confirmed: %d, not observed: %d, not runnable: %d; %.1f s%n",
                kernels,
                ran,
                kernels == 0 ? 0 : 100.0 * ran / kernels,
                r.count(Verdict.CONFIRMED),
                r.count(Verdict.NOT_OBSERVED),
                kernels - ran,
                secs);
        reasons.forEach((k, v) -> System.out.printf("  %3d  %s%n", v, k));
        long retried = r.kernels.stream()
                .filter(k -> k.notes.stream().anyMatch(n -> n.contains("inferred 1-D launch faulted")))
                .count();
        System.out.printf("  inferred launches retried smaller: %d%n", retried);
    }

    private static String rulesOf(KernelResult k) {
        StringBuilder b = new StringBuilder();
        k.findings.forEach(
                f -> b.append(f.rule).append('=').append(f.verdict.text()).append(' '));
        return b.toString().trim();
    }

    private static String category(String reason) {
        if (reason == null) return "?";
        String r = reason.replaceAll("\\(line \\d+.*", "")
                .replaceAll(" at '.*", "")
                .replaceAll("0x[0-9a-f]+", "ADDR");
        return r.length() > 110 ? r.substring(0, 110) : r;
    }
}
