package dev.numlint.scan;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * What a scan found, in a deterministic order: findings sorted by file, line, column, rule, message (suppressed
 * ones included, marked); notifications by file, line, id.
 *
 * @param root                 the scan root (finding paths are relative to it)
 * @param findings             all findings, suppressed ones included
 * @param notifications        problems with the input or the tools
 * @param filesAnalyzed        files handed to at least one analyzer and not reported as not analyzed
 * @param filesNotAnalyzed     files reported as not analyzed (unreadable, binary, too large, analyzer failure)
 * @param executionSuccessful  false when an analyzer failed with an internal error
 * @param buildContexts        the build context the scan found for a file (flags of the build-flag audit and
 *                             {@code --nvcc-flags}), e.g. for validating the file as it is really built
 */
public record ScanResult(
        Path root,
        List<Finding> findings,
        List<Notification> notifications,
        int filesAnalyzed,
        int filesNotAnalyzed,
        boolean executionSuccessful,
        Function<Path, BuildContext> buildContexts) {

    public ScanResult(
            Path root,
            List<Finding> findings,
            List<Notification> notifications,
            int filesAnalyzed,
            int filesNotAnalyzed,
            boolean executionSuccessful) {
        this(
                root,
                findings,
                notifications,
                filesAnalyzed,
                filesNotAnalyzed,
                executionSuccessful,
                f -> BuildContext.defaults());
    }

    /** The build context of {@code file} (absolute path). */
    public BuildContext buildContext(Path file) {
        return buildContexts.apply(file);
    }

    /** Whether an unsuppressed finding is at least as severe as {@code threshold} (null: never). */
    public boolean failsAt(Level threshold) {
        return threshold != null
                && findings.stream().anyMatch(f -> !f.suppressed() && f.level().atLeast(threshold));
    }

    public long suppressedCount() {
        return findings.stream().filter(Finding::suppressed).count();
    }
}
