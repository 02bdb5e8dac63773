package dev.numlint.validation.report;

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
            r.environment.forEach((key, v) -> b.append(' ').append(key).append('=').append(v).append(';'));
            b.append('\n');
        }
        for (KernelResult k : r.kernels) {
            b.append(k.file).append(": ").append(k.kernel).append(": ").append(k.verdict.text());
            if (k.verdict != Verdict.NOT_RUNNABLE) {
                b.append(String.format(Locale.ROOT, " (%d of %d elements differ over %d input sets, max %s ulp, mean %.3g ulp",
                        k.elementsDiffering, k.elementsCompared, k.inputs, k.maxUlp == Long.MAX_VALUE ? "NaN-vs-number" : Long.toString(k.maxUlp), k.meanUlp));
                if (k.closerToReference != null) b.append(", closer to reference: ").append(k.closerToReference);
                b.append(")");
            }
            b.append('\n');
            if (k.reason != null) b.append("    ").append(k.reason).append('\n');
            for (FindingResult f : k.findings) {
                b.append("    ").append(f.rule).append(' ').append(f.verdict.text());
                if (f.elementsDiffering != null) b.append(" (").append(f.elementsDiffering).append(" elements)");
                if (f.evidence != null) b.append(": ").append(f.evidence);
                if (f.line != null) b.append(" [ptx line ").append(f.line).append(']');
                b.append('\n');
            }
            for (Attribution a : k.attribution) {
                b.append("    ").append(a.variant).append(" (").append(a.rule).append(") removes ").append(a.elementsDiffering).append(" differing elements\n");
            }
            GpuKernelResult g = k.gpu;
            if (g != null && g.strictAgreement != null || g != null && g.asBuiltAgreement != null) {
                b.append(String.format(Locale.ROOT, "    gpu: %d of %d elements differ between as-built and strict, max %s ulp%s%n",
                        g.elementsDiffering, g.elementsCompared, g.maxUlp == Long.MAX_VALUE ? "NaN-vs-number" : Long.toString(g.maxUlp),
                        g.closerToReference != null ? ", closer to reference: " + g.closerToReference : ""));
                for (Attribution a : g.attribution) {
                    b.append("    gpu: ").append(a.variant).append(" (").append(a.rule).append(") removes ").append(a.elementsDiffering).append(" differing elements\n");
                }
                for (Agreement a : agreements(g)) {
                    b.append(String.format(Locale.ROOT, "    gpu vs cpu-interpreter, %s: %d of %d elements differ (%s)%s%n", a.variant,
                            a.elementsDiffering, a.elementsCompared, a.note, a.firstDifference != null ? "; first: " + a.firstDifference : ""));
                }
            }
            if (g != null && g.reason != null) b.append("    gpu: ").append(g.reason).append('\n');
            for (VariantError v : k.variants) {
                b.append("    ").append(v.variant);
                if (v.reason != null) b.append(": ").append(v.reason);
                else b.append(String.format(Locale.ROOT, ": max abs error %.3g, max rel error %.3g vs reference", v.maxAbsError, v.maxRelError));
                if (v.gpuMaxAbsError != null) b.append(String.format(Locale.ROOT, "; gpu max abs error %.3g", v.gpuMaxAbsError));
                if (v.gpuKernelMillis != null) b.append(String.format(Locale.ROOT, "; gpu kernel %.4f ms (median)", v.gpuKernelMillis));
                if (v.flags != null) b.append(" [").append(String.join(" ", v.flags)).append(']');
                b.append('\n');
            }
            for (String n : k.notes) b.append("    note: ").append(n).append('\n');
        }
        b.append(String.format(Locale.ROOT, "%d kernels: %d confirmed, %d not observed, %d not runnable%n", r.kernels.size(),
                r.count(Verdict.CONFIRMED), r.count(Verdict.NOT_OBSERVED), r.count(Verdict.NOT_RUNNABLE)));
        return b.toString();
    }
}
