package dev.numlint.model;

import java.util.Objects;

/**
 * A region in a file. {@code file} is relative to the scan root with '/' separators when the file lies
 * under it, absolute otherwise. Lines and columns are 1-based; a column of 0 means "unknown".
 */
public record Location(String file, int startLine, int startColumn, int endLine, int endColumn) {
    public Location {
        Objects.requireNonNull(file, "file");
        if (startLine < 1) {
            startLine = 1;
        }
        if (endLine < startLine) {
            endLine = startLine;
        }
        if (startColumn < 0) {
            startColumn = 0;
        }
        if (endColumn < 0) {
            endColumn = 0;
        }
    }

    public static Location line(String file, int line) {
        return new Location(file, line, 0, line, 0);
    }

    public static Location of(String file, int line, int column) {
        return new Location(file, line, column, line, 0);
    }

    /** "file:line[:col]" for messages. */
    public String shortText() {
        return file + ":" + startLine + (startColumn > 0 ? ":" + startColumn : "");
    }
}
