package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.Quote;
import dev.numlint.rules.RuleCatalog;

/**
 * NL005: long double in host code. What it means depends on the compiler and the CPU (80-bit x87 with GCC and Clang
 * on x86-64, 64-bit double with MSVC, 128-bit software quad on AArch64 Linux); device code has nothing wider than
 * double. One finding per macro, typedef or declaration that introduces the type in a file, not one per variable; a
 * long double the code provides on purpose (a specialisation of a template for long double, a long double function
 * whose floating parameters and result are all long double) or in a file the
 * analyzed configuration does not compile (it reaches an {@code #error}, as a header for another CPU does) is a note.
 * A long double in a function whose long double is already reported at an earlier line (a declaration, a parameter,
 * its return type or a cast) is a note pointing at that line: one warning per function that computes in long double,
 * not one per operand it widens or variable it declares (session 38: one project's 34 casts in 14 functions; session
 * 49: 29 declarations in one library's functions, all judged deliberate). In a
 * routine whose double twin the tree declares, the project's long double variant of it, every long double is a note
 * ({@link #review}). The members of one class (fields, methods) are one choice too: the class's first long double is
 * the warning, the others notes naming its line. The variables of one declaration at file scope are one warning too.
 * A host long double otherwise kept as a warning is port-only (its hazard is the difference from a GPU port's
 * double): a note where the scan holds no device code ({@code HostOnlyScans}).
 */
@AutoService(CudaCheck.class)
public final class ExtendedPrecision implements CudaCheck {
    private static final java.util.regex.Pattern LITERAL_OPERATOR = java.util.regex.Pattern.compile("operator\\s*\"\"");

    @Override
    public String ruleId() {
        return "NL005";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        int earliest = Integer.MAX_VALUE; // the function's first reported long double, for the casts after it
        int declared;
        for (FunctionFacts.LongDouble l : facts.longDoubles) {
            if (!l.site().host()) continue;
            if (l.origin() != null && !out.firstInFile("NL005|" + l.origin())) continue;
            int before = earliest;
            earliest = Math.min(earliest, l.site().line());
            String what = what(l.what());
            String origin = l.origin();
            if (origin != null && (origin.startsWith("macro ") || origin.startsWith("typedef "))) {
                what = what + " via " + Quote.shorten(origin, 24);
            }
            Impact impact = null;
            if (out.activeError() != null) {
                impact = Impact.bounded("not compiled in the analyzed configuration: the file stops at '"
                        + Quote.shorten(out.activeError(), Quote.TEXT) + "'");
            } else if (dev.numlint.cuda.facts.FunctionFacts.LongDouble.NARROWED.equals(l.deliberate())) {
                impact = Impact.bounded("a long double parameter that " + l.deliberate());
            } else if (l.deliberate() != null) {
                impact = Impact.bounded("provided on purpose: " + l.deliberate());
            } else if (facts.function != null
                    && LITERAL_OPERATOR.matcher(facts.function).find()) {
                // C++ requires long double of a floating literal operator's parameter: 1.5_x calls
                // operator""_x(1.5L), at compile time where the operator is constexpr, and what it returns is its own
                impact = Impact.bounded("the parameter C++ requires of a floating literal operator");
            } else if ((declared = declaredAt(facts, l, before, out))
                    != l.site().line()) {
                // a function declared with long double at file scope (a prototype) and defined in the file is one
                // choice (session 67 round D: a special-function library's static prototype and definition)
                impact = Impact.bounded("the function is declared with long double already (line " + declared
                        + "): one warning per function");
            } else if (facts.function != null && before < l.site().line()) {
                // a declaration, a parameter or a cast after the function's first long double: the function is
                // reported once (session 49: 29 warnings of one astronomy library, several per function)
                impact = Impact.bounded(
                        "the function computes in long double already (line " + before + "): one warning per function");
            } else if (facts.function == null
                    && !out.firstInFile("NL005|declaration " + l.site().line())) {
                // the variables of one declaration at file scope (static long double c_JD = 0.0, c_longitude =
                // 0.0, ...;) are one choice: the declaration is reported once (session 54: four warnings of one line)
                impact =
                        Impact.bounded("declared with the long double reported at the start of this line's declaration:"
                                + " one warning per declaration");
            } else if (owner(facts, l) != null) {
                // the members of one class (its fields, its methods) hold long double by one choice: the class is
                // reported once (session 51: a units library's converter, 13 warnings in one class)
                String cls = owner(facts, l);
                int first = out.firstLineInFile("NL005|class " + cls, l.site().line());
                if (first != l.site().line())
                    impact = Impact.bounded("the class '" + Quote.shorten(cls, Quote.EXPRESSION)
                            + "' holds long double already (line " + first + "): one warning per class");
            }
            String msg = RuleCatalog.get()
                    .rule("NL005")
                    .message(l.site().device() ? "cuda-long-double-both" : "cuda-long-double", "what", what);
            if (impact == null && !l.site().device()) {
                // host code's long double differs from what a GPU port computes (double): where the scan holds no
                // device code it is the program's own choice of precision, a note (HostOnlyScans). Reviewers of
                // sessions 66 and 67 judged 123 such warnings of two C libraries: none actionable (deliberate)
                out.reportPortOnly("NL005", facts.function, l.site(), msg, Confidence.HIGH, null);
            } else {
                out.report("NL005", facts.function, l.site(), msg, Confidence.HIGH, impact, null);
            }
        }
    }

    /**
     * A long double in a routine whose double twin the scanned tree declares ({@link PrecisionFamily#extendedTwin}:
     * {@code lnaive_jacobi_moments} beside {@code naive_jacobi_moments}, {@code expl} beside {@code exp}) is the
     * extended variant the project offers on purpose: a note that names the twin (session 39: eight of eight such
     * warnings sampled in one quantum-chemistry library were its deliberate long double variants).
     */
    @Override
    public java.util.List<dev.numlint.model.Finding> review(
            java.util.List<dev.numlint.model.Finding> findings,
            java.util.List<dev.numlint.model.DeclaredFunction> functions) {
        PrecisionFamily family = null;
        java.util.List<dev.numlint.model.Finding> out = new java.util.ArrayList<>(findings.size());
        for (dev.numlint.model.Finding f : findings) {
            if (!ruleId().equals(f.ruleId())
                    || f.layer() != dev.numlint.model.Layer.CUDA_SOURCE
                    || f.function() == null
                    || !f.level().atLeast(dev.numlint.model.Level.WARNING)) {
                out.add(f);
                continue;
            }
            if (family == null) family = new PrecisionFamily(functions);
            String twin = family.extendedTwin(f.function());
            if (twin == null) {
                out.add(f);
                continue;
            }
            String tw = Quote.shorten(twin, Quote.EXPRESSION);
            String message = RuleCatalog.get().remark("long-double-variant", f.message(), "fn", tw);
            out.add(f.toBuilder()
                    .level(dev.numlint.model.Level.NOTE)
                    .message(message)
                    .property("precisionFamily", twin)
                    .build());
        }
        return out;
    }

    /**
     * The class a long double belongs to: the owner the file's declarations name (a field, a method's declaration),
     * else the class of the function it is in ({@code Converter::length}), else null.
     */
    private static String owner(FunctionFacts facts, FunctionFacts.LongDouble l) {
        if (l.owner() != null) return l.owner();
        String fn = facts.function;
        int sep = fn == null ? -1 : fn.lastIndexOf("::");
        return sep > 0 && fn.indexOf('(') < 0 ? fn.substring(0, sep) : null;
    }

    /**
     * The line of the file's first long double of the function {@code l} belongs to: its prototype at file scope
     * ({@code static long double series(int n);}, a declaration the file's facts hold as "function 'series'") or its
     * definition's first long double; {@code l}'s own line when it is the first, or not such a site.
     */
    private static int declaredAt(FunctionFacts facts, FunctionFacts.LongDouble l, int before, CudaReport out) {
        String fn = null;
        if (facts.function == null && l.owner() == null && l.what().startsWith("function '"))
            fn = l.what().substring("function '".length(), l.what().length() - 1);
        else if (facts.function != null && before == Integer.MAX_VALUE) fn = simpleName(facts.function);
        return fn == null
                ? l.site().line()
                : out.firstLineInFile("NL005|function " + fn, l.site().line());
    }

    /** The name of a function as the facts name it, without its class and parameters ({@code A::f(int)}: f). */
    private static String simpleName(String function) {
        int paren = function.indexOf('(');
        String f = paren < 0 ? function : function.substring(0, paren);
        return f.substring(f.lastIndexOf(':') + 1).strip();
    }

    /** "'x'" as it is; a cast "cast (long double)expr" quoted and shortened like every expression. */
    static String what(String what) {
        return what.startsWith("cast ") ? "cast '" + Consequences.quote(what.substring(5)) + "'" : what;
    }
}
