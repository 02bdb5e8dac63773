package dev.numlint.ptx;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which source files of a PTX module's debug information are the user's scanned code. A file the scan reads but was
 * not asked to scan (a header of the project outside the scanned PATHs, such as a library's parallel-for template
 * whose kernel inlines the user's lambda) is library code for the PTX layer, as a toolkit header is: a finding is
 * reported at the innermost position of the inlined-at chain that lies in scanned code (the user's lambda, the
 * user's call), never at the library's line, where the instances of every lambda it runs would merge.
 */
final class ScannedCode {
    /** How {@link #view} marks a file outside the scanned code ({@link PtxFindings#isSystemPath} knows it). */
    static final String OUTSIDE = "\u0000outside-scan:";

    private ScannedCode() {}

    /**
     * The module's {@code .file} table with every file that is not among the scan's files marked {@link #OUTSIDE};
     * the table itself when none of its files is scanned (a {@code .ptx} scanned without its sources, a test
     * context that lists no files): then nothing tells the user's code from a library's but the toolkit's paths.
     */
    static Map<Integer, String> view(Map<Integer, String> files, Map<Integer, Path> resolved, List<Path> scanned) {
        Set<Path> wanted = new HashSet<>();
        for (Path p : scanned) wanted.add(p.toAbsolutePath().normalize());
        Map<Integer, String> out = new HashMap<>();
        boolean any = false;
        for (Map.Entry<Integer, String> e : files.entrySet()) {
            Path p = resolved.get(e.getKey());
            boolean in = p != null && wanted.contains(p.toAbsolutePath().normalize());
            any |= in;
            out.put(e.getKey(), in || e.getValue() == null ? e.getValue() : OUTSIDE + e.getValue());
        }
        return any ? out : files;
    }

    /** Whether the {@code .file} entry (as {@link #view} gives it) is a file outside the scanned code. */
    static boolean outside(String file) {
        return file != null && file.startsWith(OUTSIDE);
    }
}
