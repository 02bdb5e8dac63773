package dev.numlint.output;

import dev.numlint.model.Finding;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.scan.ScanResult;
import dev.numlint.util.Escapes;
import java.io.PrintWriter;
import java.util.List;

/**
 * Compiler-style text: {@code path:line:col: warning: message [NL003]} per unsuppressed warning and error (notes
 * too when asked for: {@code --notes}), then a summary by rule that ends with how many notes were left out and how
 * to show them. JSON and HTML always contain every finding, SARIF those from --sarif-min-level up. Notifications
 * go to the error stream ({@code path: error: not analyzed: reason}). Text from the scanned tree is escaped
 * ({@link Escapes}): a file name or message never reaches the terminal as an escape sequence.
 */
public final class TextReport {
    private TextReport() {}

    /** Lines of the build-context summary shown in text output. */
    static final int MAX_CONTEXT_LINES = 40;

    /** Writes warnings and errors; notes are counted, not listed. */
    public static void write(ScanResult r, PrintWriter out) {
        write(r, ReportOptions.defaults(), out, false);
    }

    /** Writes the unsuppressed findings: all of them with {@code notes}, otherwise warnings and errors only. */
    public static void write(ScanResult r, PrintWriter out, boolean notes) {
        write(r, ReportOptions.defaults(), out, notes);
    }

    /** As {@link #write(ScanResult, ReportOptions, PrintWriter, boolean)} without notes. */
    public static void write(ScanResult r, ReportOptions o, PrintWriter out) {
        write(r, o, out, false);
    }

    /**
     * Writes the unsuppressed findings: all of them with {@code notes}, otherwise warnings and errors only. With a
     * baseline only new findings are listed, and one more summary line gives the counts of new, unchanged, updated
     * and fixed (absent) findings.
     */
    public static void write(ScanResult r, ReportOptions o, PrintWriter out, boolean notes) {
        write(r, o, out, notes, false);
    }

    /**
     * {@link #write(ScanResult, ReportOptions, PrintWriter, boolean)}; the build contexts are one summary line, or with
     * {@code verbose} the list of them (up to {@value #MAX_CONTEXT_LINES} lines; all are in JSON and HTML).
     */
    public static void write(ScanResult r, ReportOptions o, PrintWriter out, boolean notes, boolean verbose) {
        Baseline.Comparison baseline = o.baseline();
        int hidden = 0;
        for (Finding f : r.findings()) {
            if (f.suppressed() || baseline != null && baseline.state(f) != Baseline.State.NEW) {
                continue;
            }
            if (!notes && f.level() == dev.numlint.model.Level.NOTE) {
                hidden++;
                continue;
            }
            out.print(line(f) + "\n");
        }
        Summary s = Summary.of(r);
        if (!r.findings().isEmpty()) {
            out.print("\n");
        }
        for (Summary.RuleCount c : s.byRule().values()) {
            out.print(c.id() + " " + c.name() + ": " + c.count()
                    + (c.suppressed() > 0 ? " (" + c.suppressed() + " suppressed)" : "") + "\n");
        }
        List<String> contexts = r.buildContext(null).summary();
        if (!contexts.isEmpty() && !verbose) {
            // where the build model came from stays visible; the per-directory contexts are counted
            List<String> databases = contexts.stream()
                    .filter(c -> c.startsWith("compilation database: "))
                    .toList();
            List<String> dirs = contexts.stream()
                    .filter(c -> !c.startsWith("compilation database: "))
                    .toList();
            for (String d : databases) out.print(Escapes.text(d) + "\n");
            long defaults =
                    dirs.stream().filter(c -> c.endsWith(": compiler defaults")).count();
            if (dirs.size() == 1) {
                out.print("build context: " + Escapes.text(dirs.get(0)) + "\n");
            } else if (dirs.size() > 1) {
                out.print("build contexts: " + dirs.size() + " ("
                        + (defaults > 0 ? defaults + " with compiler defaults only; " : "")
                        + "--verbose lists them, JSON and HTML contain them)\n");
            }
        } else if (!contexts.isEmpty()) {
            out.print("build contexts:\n");
            for (int i = 0; i < Math.min(contexts.size(), MAX_CONTEXT_LINES); i++)
                out.print("  " + Escapes.text(contexts.get(i)) + "\n");
            if (contexts.size() > MAX_CONTEXT_LINES) {
                out.print("  ... " + (contexts.size() - MAX_CONTEXT_LINES) + " more (all in --format json)\n");
            }
        }
        out.print(plural(s.findings(), "finding") + (s.suppressed() > 0 ? " (" + s.suppressed() + " suppressed)" : "")
                + " in " + plural(s.filesAnalyzed(), "file") + " analyzed"
                + (s.filesNotAnalyzed() > 0 ? "; " + plural(s.filesNotAnalyzed(), "file") + " not analyzed" : "")
                + "\n");
        if (hidden > 0) {
            out.print(plural(hidden, "note") + " not shown (low-impact findings); --notes shows them, JSON and HTML "
                    + "contain them\n");
        }
        if (baseline != null) {
            out.print("compared with baseline " + baseline.file() + ": " + baseline.summary() + "\n");
        }
        String layer = CompilerLayer.line(r);
        if (layer != null) out.print(Escapes.text(layer) + "\n");
        String types = CompilerLayer.undefinedTypes(r);
        if (types != null) out.print(Escapes.text(types) + "\n");
        out.flush();
    }

    /** One finding, compiler style: {@code file:line:col: level: message [rule]}, control characters escaped. */
    public static String line(Finding f) {
        Location l = f.location();
        return Escapes.text(l.file()) + ":" + l.startLine() + (l.startColumn() > 0 ? ":" + l.startColumn() : "") + ": "
                + f.level().id() + ": " + Escapes.text(f.message()) + " [" + f.ruleId() + "]";
    }

    /**
     * GitHub Actions workflow commands ({@code ::warning file=...,line=...::message}) for the given findings, at most
     * {@code max}, then one {@code ::notice} with the number left out: the job log shows them and the run's summary
     * and pull request diff show them as annotations. Values are escaped as the runner requires (%, CR, LF; also
     * ':' and ',' in properties), so a hostile message or file name cannot start a command of its own.
     */
    public static void writeGithubAnnotations(List<Finding> findings, int max, PrintWriter out) {
        int n = 0;
        for (Finding f : findings) {
            if (n == max) {
                out.print("::notice title=numlint::" + (findings.size() - max)
                        + " more findings not shown as annotations (all in the report)\n");
                break;
            }
            Location l = f.location();
            String kind =
                    switch (f.level()) {
                        case ERROR -> "error";
                        case WARNING -> "warning";
                        default -> "notice";
                    };
            out.print("::" + kind + " file=" + ghProperty(l.file()) + ",line=" + l.startLine()
                    + (l.startColumn() > 0 ? ",col=" + l.startColumn() : "")
                    + (l.endLine() >= l.startLine() && l.endLine() > 0 ? ",endLine=" + l.endLine() : "") + ",title="
                    + ghProperty(f.ruleId()) + "::" + ghData(f.message() + " [" + f.ruleId() + "]") + "\n");
            n++;
        }
        out.flush();
    }

    private static String ghData(String s) {
        return Escapes.text(s).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
    }

    private static String ghProperty(String s) {
        return ghData(s).replace(":", "%3A").replace(",", "%2C");
    }

    /** Notifications, one per line, compiler style. */
    public static void writeNotifications(ScanResult r, PrintWriter err) {
        for (Notification n : r.notifications()) {
            err.print(line(n) + "\n");
        }
        err.flush();
    }

    /** One notification, compiler style, with control characters from file names and messages escaped. */
    public static String line(Notification n) {
        String where = n.file() == null ? "numlint" : n.file() + (n.line() > 0 ? ":" + n.line() : "");
        String msg = n.message();
        if (n.notAnalyzed() && !msg.startsWith("not analyzed")) {
            msg = "not analyzed: " + msg;
        }
        return Escapes.text(where + ": " + n.level().id() + ": " + msg + (n.notAnalyzed() ? "" : " [" + n.id() + "]"));
    }

    static String plural(int n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }
}
