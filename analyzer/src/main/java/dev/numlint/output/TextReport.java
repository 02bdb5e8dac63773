package dev.numlint.output;

import dev.numlint.model.Finding;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.scan.ScanResult;
import java.io.PrintWriter;

/**
 * Compiler-style text: {@code path:line:col: warning: message [NL003]} per unsuppressed finding, then a summary
 * by rule. Notifications go to the error stream ({@code path: error: not analyzed: reason}). Text from the scanned
 * tree is escaped ({@link Escapes}): a file name or message never reaches the terminal as an escape sequence.
 */
public final class TextReport {
    private TextReport() {
    }

    public static void write(ScanResult r, PrintWriter out) {
        for (Finding f : r.findings()) {
            if (f.suppressed()) {
                continue;
            }
            Location l = f.location();
            out.print(Escapes.text(l.file()) + ":" + l.startLine() + (l.startColumn() > 0 ? ":" + l.startColumn() : "")
                    + ": " + f.level().id() + ": " + Escapes.text(f.message()) + " [" + f.ruleId() + "]\n");
        }
        Summary s = Summary.of(r);
        if (!r.findings().isEmpty()) {
            out.print("\n");
        }
        for (Summary.RuleCount c : s.byRule().values()) {
            out.print(c.id() + " " + c.name() + ": " + c.count() + (c.suppressed() > 0 ? " (" + c.suppressed()
                    + " suppressed)" : "") + "\n");
        }
        out.print(plural(s.findings(), "finding") + (s.suppressed() > 0 ? " (" + s.suppressed() + " suppressed)" : "")
                + " in " + plural(s.filesAnalyzed(), "file") + " analyzed"
                + (s.filesNotAnalyzed() > 0 ? "; " + plural(s.filesNotAnalyzed(), "file") + " not analyzed" : "")
                + "\n");
        out.flush();
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
