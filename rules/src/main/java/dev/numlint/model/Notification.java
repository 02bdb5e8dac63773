package dev.numlint.model;

/**
 * Something the user must know about the scan itself: a file that could not be analyzed (or only partly), a
 * dropped compiler flag, a compiler error. Never silently skip input; report it here.
 *
 * @param file    path relative to the scan root (or absolute), or null for scan-wide notices
 * @param line    1-based line, or 0 when unknown
 * @param level   ERROR: the file was not analyzed; WARNING: analyzed partly; NOTE: informational
 * @param id      short stable id of the kind of notice, e.g. "unreadable-file", "parse-error", "nvcc-failed"
 * @param message what happened, naming the reason (and the construct or token where there is one)
 */
public record Notification(String file, int line, Level level, String id, String message) {
    /** True when the file named here was not analyzed at all. */
    public boolean notAnalyzed() {
        return level == Level.ERROR;
    }
}
