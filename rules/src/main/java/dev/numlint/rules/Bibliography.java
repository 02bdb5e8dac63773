package dev.numlint.rules;

import java.util.ArrayList;
import java.util.List;

/**
 * The published works the rule documents cite, by author and year. A rule document cites a work by its label (e.g.
 * "Yablonski 2011, §3.2.4"); {@link #withReferences} appends a "References" section with the full entry of every
 * work the document cites, so rule pages and SARIF help name real titles rather than file names. docs/bibliography.md
 * is {@link #markdown()}.
 */
public final class Bibliography {
    /**
     * One work.
     *
     * @param label    how documents cite it ("Yablonski 2011"; "n.d." where the work carries no date)
     * @param citation the full reference in markdown
     * @param note     what numlint's documents use it for
     */
    public record Work(String label, String citation, String note) {}

    /** Every cited work, in the order of docs/bibliography.md. */
    public static final List<Work> WORKS = List.of(
            new Work(
                    "Yablonski 2011",
                    "D. Yablonski. *Numerical accuracy differences in CPU and GPGPU codes*. "
                            + "MS thesis, Department of Electrical and Computer Engineering, Northeastern University, Boston, "
                            + "2011. <http://hdl.handle.net/2047/d20001067>",
                    "The digital breast tomosynthesis (DBT) case study: the float to unsigned short cast (65467 on "
                            + "x86, 0 on the GPU), `div.full.f32` against `__fdiv_rn`, `mad.f32` against "
                            + "`__fadd_rn`/`__fmul_rn`, the pi summation, and the run time of each fix."),
            new Work(
                    "Nguyen n.d.",
                    "H. Nguyen. *Analysis of performance/accuracy tradeoffs for floating point "
                            + "applications on GPUs*. MS thesis (supervisor M. Becchi), University of Missouri. Undated; it "
                            + "discusses Fermi and Kepler GPUs (Tesla K40c).",
                    "Global summation of mixed magnitudes; float, double, float2/double2 and GMP arithmetic; LU "
                            + "decomposition and Gaussian elimination; the do-undo division study with PTX listings "
                            + "of `div.approx` and `div.rn`."),
            new Work(
                    "Whitehead & Fit-Florea 2011",
                    "N. Whitehead and A. Fit-Florea. *Precision and Performance: "
                            + "Floating Point and IEEE 754 Compliance for NVIDIA GPUs*. NVIDIA white paper, 2011 (written "
                            + "in spring 2011; later revisions up to 2022). "
                            + "<https://docs.nvidia.com/cuda/floating-point/>",
                    "Fused multiply-add (the `a*a+b` example), dot-product evaluation orders, rounding intrinsics, "
                            + "`-ftz`, `-prec-div`, `-prec-sqrt`, x87 against SSE, math library accuracy."),
            new Work(
                    "Chien n.d.",
                    "L.-S. Chien. *Chapter 20: rounding error*. Lecture slides. Undated.",
                    "Blocked against serial matrix multiplication in float (707054208 against 707054144, exact "
                            + "707054166), FMAD and `__fmul_rn`, accumulated rounding error."),
            new Work(
                    "Kirk & Hwu 2017",
                    "D. B. Kirk and W. W. Hwu. *Programming Massively Parallel Processors: A "
                            + "Hands-on Approach*, 3rd edition, chapter 6 \"Numerical considerations\" (pp. 131-148). "
                            + "Morgan Kaufmann, 2017.",
                    "Representable numbers, denormals, rounding, sorted and parallel summation, pivoting and "
                            + "numerical stability."));

    private Bibliography() {}

    /** The works {@code markdown} cites, in the order of {@link #WORKS}. */
    public static List<Work> cited(String markdown) {
        List<Work> out = new ArrayList<>();
        for (Work w : WORKS) {
            if (markdown.contains(w.label())) {
                out.add(w);
            }
        }
        return out;
    }

    /** {@code markdown} with a "References" section listing every work it cites (unchanged when it cites none). */
    public static String withReferences(String markdown) {
        List<Work> cited = cited(markdown);
        if (cited.isEmpty() || markdown.contains("\n## References\n")) {
            return markdown;
        }
        StringBuilder sb = new StringBuilder(markdown.stripTrailing()).append("\n\n## References\n\n");
        for (Work w : cited) {
            sb.append("- ").append(w.label()).append(": ").append(w.citation()).append('\n');
        }
        return sb.toString();
    }

    /** docs/bibliography.md. */
    public static String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Bibliography\n\n");
        sb.append("The works numlint's rule documentation cites (as \"Author year, section\"), with what each "
                + "contributes. Each rule page lists the works it cites under \"References\".\n\n");
        for (Work w : WORKS) {
            sb.append("## ")
                    .append(w.label())
                    .append("\n\n")
                    .append(w.citation())
                    .append("\n\n")
                    .append(w.note())
                    .append("\n\n");
        }
        return sb.toString().stripTrailing() + "\n";
    }
}
