package dev.numlint.flags;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The notices of one Makefile's evaluation: problems with the input, by file (an index into the files read) and
 * line, some of them once per key.
 */
final class MakeNotices {
    private final Function<Path, String> relativize;
    /** The files read, by index: the Makefile and what it includes. */
    final List<Path> fileTable;

    private final List<MakeResult.Problem> problems;
    private final Set<String> noticed = new HashSet<>();

    MakeNotices(Function<Path, String> relativize, List<Path> fileTable, List<MakeResult.Problem> problems) {
        this.relativize = relativize;
        this.fileTable = fileTable;
        this.problems = problems;
    }

    /** Whether {@code key} is noticed for the first time. */
    boolean once(String key) {
        return noticed.add(key);
    }

    /** The name of file {@code fi}, relative to the scan root. */
    String relative(int fi) {
        return relativize.apply(fileTable.get(fi));
    }

    /** The name of {@code file}, relative to the scan root. */
    String relative(Path file) {
        return relativize.apply(file);
    }

    void problem(int fi, int line, String level, String id, String message) {
        String f = fi < fileTable.size() ? relative(fi) : "Makefile";
        problems.add(new MakeResult.Problem(f, line, level, id, message));
    }

    void notFullyEvaluated(int fi, int line, String why) {
        if (once("budget")) {
            problem(
                    fi,
                    line,
                    "WARNING",
                    "not-evaluated",
                    "Makefile not fully evaluated: " + why + "; the values involved are treated as unknown");
        }
    }
}
