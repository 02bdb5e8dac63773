package dev.numlint.cuda;

import dev.numlint.scan.ScanResult;
import java.util.List;

/** A scan's unsuppressed findings as "file:line RULE LEVEL" lines, sorted, for tests. */
final class ScanHits {
    private ScanHits() {}

    static List<String> of(ScanResult r) {
        return r.findings().stream()
                .filter(f -> !f.suppressed())
                .map(f -> f.location().file() + ":" + f.location().startLine() + " " + f.ruleId() + " " + f.level())
                .sorted()
                .toList();
    }
}
