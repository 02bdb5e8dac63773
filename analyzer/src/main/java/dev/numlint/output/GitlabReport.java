package dev.numlint.output;

import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.scan.ScanResult;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GitLab's code quality report ({@code artifacts:reports:codequality}), the subset of the Code Climate format GitLab
 * reads: a JSON array of {@code description, check_name, fingerprint, severity, location.path,
 * location.lines.begin}. GitLab compares the reports of a merge request and its target branch by fingerprint, so
 * numlint's line-independent fingerprint is used. Suppressed findings and findings below the minimum level are left
 * out (GitLab has no suppressions and shows every entry in the merge request widget).
 */
public final class GitlabReport {
    private GitlabReport() {}

    /** Writes the findings at or above {@code minLevel} (null: all) that are not suppressed. */
    public static void write(ScanResult r, Level minLevel, Writer out) throws IOException {
        RuleCatalog catalog = RuleCatalog.get();
        List<Object> issues = new ArrayList<>();
        for (Finding f : r.findings()) {
            if (f.suppressed() || minLevel != null && !f.level().atLeast(minLevel)) continue;
            Location l = f.location();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("description", f.message());
            m.put(
                    "check_name",
                    f.ruleId()
                            + (catalog.has(f.ruleId())
                                    ? " " + catalog.rule(f.ruleId()).name()
                                    : ""));
            m.put("fingerprint", fingerprint(f));
            m.put("severity", severity(f.level()));
            Map<String, Object> loc = new LinkedHashMap<>();
            loc.put("path", l.file());
            loc.put("lines", Map.of("begin", Math.max(1, l.startLine())));
            m.put("location", loc);
            issues.add(m);
        }
        JsonReport.mapper().writeValue(out, issues);
    }

    /** error: critical (a result that differs), warning: major, note: info. */
    static String severity(Level level) {
        return switch (level) {
            case ERROR -> "critical";
            case WARNING -> "major";
            default -> "info";
        };
    }

    /** numlint's fingerprint; for a finding without one, an MD5 of rule, file, line and message (32 hex digits). */
    static String fingerprint(Finding f) {
        if (f.fingerprint() != null && !f.fingerprint().isEmpty()) return f.fingerprint();
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            String key = f.ruleId() + "\n" + f.location().file() + "\n"
                    + f.location().startLine() + "\n" + f.message();
            return HexFormat.of().formatHex(md.digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
