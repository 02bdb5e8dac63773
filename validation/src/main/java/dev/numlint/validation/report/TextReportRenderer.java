package dev.numlint.validation.report;

import dev.numlint.model.Verdict;
import java.util.Locale;

/** A plain-text rendering of a {@link ValidationReport}, one block per kernel and a summary line. */
public final class TextReportRenderer {
    private TextReportRenderer() {}

    private static java.util.List<Agreement> agreements(GpuKernelResult g) {
        java.util.List<Agreement> l = new java.util.ArrayList<>();
        if (g.strictAgreement != null) l.add(g.strictAgreement);
        if (g.asBuiltAgreement != null) l.add(g.asBuiltAgreement);
        l.addAll(g.variantAgreement);
        return l;
    }

    public static String render(ValidationReport r) {
        StringBuilder b = new StringBuilder();
        if (!r.environment.isEmpty()) {
            b.append("environment:");
            r.environment.forEach(
                    (key, v) -> b.append(' ').append(key).append('=').append(v).append(';'));
            b.append('\n');
        }
        for (KernelResult k : r.kernels) {
            String simple = dev.numlint.ptx.Demangler.simpleName(k.kernel);
            b.append(k.file)
                    .append(": ")
                    .append(simple.equals(k.kernel) ? k.kernel : simple + " (" + k.kernel + ")")
                    .append(": ")
                    .append(k.verdict.text());
            if (k.verdict != Verdict.NOT_RUNNABLE) {
                b.append(String.format(
                        Locale.ROOT,
                        " (as-built vs IEEE-strict: %d of %d elements differ over %d input %s, max %s ulp, mean %.3g ulp",
                        k.elementsDiffering,
                        k.elementsCompared,
                        k.inputs,
                        k.inputs == 1 ? "set" : "sets",
                        k.maxUlp == Long.MAX_VALUE ? "NaN-vs-number" : Long.toString(k.maxUlp),
                        k.meanUlp));
                if (k.closerToReference != null)
                    b.append(", closer to reference: ").append(k.closerToReference);
                b.append(")");
            }
            b.append('\n');
            if (k.reason != null) b.append("    ").append(k.reason).append('\n');
            if (k.launch != null && k.launch.get("source") != null) {
                b.append("    launch: ").append(k.launch.get("source"));
                if (k.launch.get("grid") != null) b.append("; grid ").append(k.launch.get("grid"));
                if (k.launch.get("block") != null) b.append("; block ").append(k.launch.get("block"));
                b.append('\n');
            }
            if (k.build != null) b.append("    built with: ").append(k.build).append('\n');
            if (k.launch != null && k.launch.get("compileCommandReproduces") != null)
                b.append("    the project's as-built command reproduces the recorded image: ")
                        .append(k.launch.get("compileCommandReproduces"))
                        .append('\n');
            for (FindingResult f : k.findings) {
                b.append("    ").append(f.rule).append(' ').append(f.verdict.text());
                if (f.source != null) {
                    b.append(" at ").append(f.source);
                    if (f.sourceLine != null) b.append(':').append(f.sourceLine);
                    if (f.sourceColumn != null) b.append(':').append(f.sourceColumn);
                }
                if (f.elementsDiffering != null)
                    b.append(" (")
                            .append(f.elementsDiffering)
                            .append(f.elementsDiffering == 1 ? " element)" : " elements)");
                if (f.evidence != null) b.append(": ").append(f.evidence);
                if (f.line != null) b.append(" [ptx line ").append(f.line).append(']');
                if (f.fusedInMachineCode != null)
                    b.append(f.fusedInMachineCode ? " [fused in the SASS]" : " [not fused in the SASS]");
                b.append('\n');
            }
            for (Attribution a : k.attribution) {
                b.append("    ")
                        .append(a.variant)
                        .append(" (")
                        .append(a.rule)
                        .append(") removes ")
                        .append(a.elementsDiffering)
                        .append(" differing elements\n");
            }
            GpuKernelResult g = k.gpu;
            if (g != null && g.fault != null)
                b.append("    gpu: not runnable: ").append(g.fault).append('\n');
            if (g != null && g.recordedAgreement != null) {
                Agreement rec = g.recordedAgreement;
                b.append(String.format(
                        Locale.ROOT,
                        "    gpu: as-built reproduces the recorded outputs: %s%s%n",
                        rec.elementsDiffering == 0
                                ? "yes, all " + rec.elementsCompared + " elements bit for bit"
                                : "no, " + rec.elementsDiffering + " of " + rec.elementsCompared + " elements differ ("
                                        + rec.note + ")",
                        g.repeatable == null
                                ? ""
                                : g.repeatable ? "; repeats identical" : "; repeats differ among themselves"));
            }
            if (g != null && g.strictAgreement != null || g != null && g.asBuiltAgreement != null) {
                if (g.elementsCompared > 0)
                    b.append(String.format(
                            Locale.ROOT,
                            "    gpu: %d of %d elements differ between as-built and strict, max %s ulp%s%n",
                            g.elementsDiffering,
                            g.elementsCompared,
                            g.maxUlp == Long.MAX_VALUE ? "NaN-vs-number" : Long.toString(g.maxUlp),
                            g.closerToReference != null ? ", closer to reference: " + g.closerToReference : ""));
                for (Attribution a : g.attribution) {
                    b.append("    gpu: ")
                            .append(a.variant)
                            .append(" (")
                            .append(a.rule)
                            .append(") removes ")
                            .append(a.elementsDiffering)
                            .append(" differing elements\n");
                }
                for (Agreement a : agreements(g)) {
                    b.append(String.format(
                            Locale.ROOT,
                            "    gpu vs cpu-interpreter, %s: %d of %d elements differ (%s)%s%n",
                            a.variant,
                            a.elementsDiffering,
                            a.elementsCompared,
                            a.note,
                            a.firstDifference != null ? "; first: " + a.firstDifference : ""));
                }
            }
            if (g != null && g.reason != null)
                b.append("    gpu: ").append(g.reason).append('\n');
            // the reference is the strict build run in high precision (f32 carried in binary64, f64 in
            // double-double): named once, so that no build's flags read as the reference's
            VariantError strictV = k.variants.stream()
                    .filter(v -> "strict".equals(v.variant))
                    .findFirst()
                    .orElse(null);
            if (!k.variants.isEmpty())
                b.append("    errors against the reference: the strict build")
                        .append(
                                strictV != null && strictV.flags != null
                                        ? " [" + String.join(" ", strictV.flags) + "]"
                                        : "")
                        .append(" run in high precision\n");
            for (VariantError v : k.variants) {
                b.append("    ").append(v.variant);
                if (v.flags != null)
                    b.append(" [").append(String.join(" ", v.flags)).append(']');
                if (v.reason != null) b.append(": ").append(v.reason);
                else
                    b.append(String.format(
                            Locale.ROOT,
                            ": max abs error %s, max rel error %s",
                            v.maxAbsError == null
                                    ? "undefined (NaN results)"
                                    : String.format(Locale.ROOT, "%.3g", v.maxAbsError),
                            v.maxRelError == null
                                    ? (v.maxRelErrorNote != null ? v.maxRelErrorNote : "undefined")
                                    : String.format(Locale.ROOT, "%.3g", v.maxRelError)));
                if (v.gpuMaxAbsError != null)
                    b.append(String.format(Locale.ROOT, "; gpu max abs error %.3g", v.gpuMaxAbsError));
                if (v.gpuKernelMillis != null)
                    b.append(String.format(Locale.ROOT, "; gpu kernel %.4f ms (median)", v.gpuKernelMillis));
                b.append('\n');
            }
            int shown = 0;
            for (ExceptionCount e : k.exceptions) {
                if (shown++ == 8) {
                    b.append("    floating-point exceptions: ")
                            .append(k.exceptions.size() - 8)
                            .append(" more instructions (JSON has all)\n");
                    break;
                }
                b.append("    floating-point exceptions at ")
                        .append(e.source != null ? e.source : "ptx line " + e.ptxLine)
                        .append(" (")
                        .append(e.instruction)
                        .append("): ");
                StringBuilder c = new StringBuilder();
                e.counts.forEach((kind, n) -> c.append(c.length() == 0 ? "" : ", ")
                        .append(kind)
                        .append(' ')
                        .append(n));
                b.append(c).append('\n');
            }
            for (String n : k.notes) b.append("    note: ").append(n).append('\n');
        }
        b.append(String.format(
                Locale.ROOT,
                "%d %s: %d confirmed, %d not observed, %d not runnable%s%n",
                r.kernels.size(),
                r.kernels.size() == 1 ? "kernel" : "kernels",
                r.count(Verdict.CONFIRMED),
                r.count(Verdict.NOT_OBSERVED),
                r.count(Verdict.NOT_RUNNABLE),
                r.count(Verdict.INCONCLUSIVE) > 0 ? ", " + r.count(Verdict.INCONCLUSIVE) + " inconclusive" : ""));
        long gpuFaults = r.kernels.stream()
                .filter(k -> k.gpu != null && k.gpu.fault != null)
                .count();
        if (gpuFaults > 0)
            b.append(String.format(
                    Locale.ROOT,
                    "%d %s not runnable on the GPU (fault, crash or time limit; each in its own process, the others"
                            + " unaffected)%n",
                    gpuFaults,
                    gpuFaults == 1 ? "kernel" : "kernels"));
        return b.toString();
    }
}
