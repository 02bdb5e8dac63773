package dev.numlint.scan;

import dev.numlint.model.Finding;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Stable fingerprints: the first 32 hex digits of SHA-256 over rule id, file (relative to the repository or the
 * scanned directory, see {@link Scanner#fingerprintPaths}), function, the analyzer's
 * fingerprint key (or the whitespace-normalized source line when it gave none) and the occurrence index among
 * identical keys in the same file. No line numbers, so unrelated edits above a finding keep its fingerprint.
 */
final class Fingerprints {
    private Fingerprints() {}

    /** Assigns fingerprints to {@code findings}, which must be in their final (sorted) order. */
    static List<Finding> assign(List<Finding> findings, SourceLines lines) {
        return assign(findings, lines, java.util.function.UnaryOperator.identity());
    }

    /**
     * As above, with {@code path} mapping a finding's (report-relative) file to the path the fingerprint uses, so
     * that fingerprints do not depend on the directory numlint was started in.
     */
    static List<Finding> assign(
            List<Finding> findings, SourceLines lines, java.util.function.UnaryOperator<String> path) {
        Map<String, Integer> occurrences = new HashMap<>();
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            String key = f.fingerprintKey() != null
                    ? normalize(f.fingerprintKey())
                    : normalize(lines.line(f.location().file(), f.location().startLine()));
            String composite = f.ruleId()
                    + '\n'
                    + path.apply(f.location().file())
                    + '\n'
                    + (f.function() == null ? "" : f.function())
                    + '\n'
                    + key;
            int index = occurrences.merge(composite, 1, Integer::sum) - 1;
            out.add(f.toBuilder()
                    .fingerprint(sha256(composite + '\n' + index).substring(0, 32))
                    .build());
        }
        return out;
    }

    static String normalize(String s) {
        return s.strip().replaceAll("\\s+", " ");
    }

    static String sha256(String s) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /**
     * How fingerprints name a file: relative to the scanned root (the PATH given, its directory for a file, or the
     * deepest directory that holds every PATH), never to the directory numlint was started in: {@code scan ex1} from
     * the parent and {@code scan .} inside ex1 give the same fingerprints. Nothing outside the scanned tree is
     * consulted, so a clone and an unpacked archive of the same tree agree too.
     */
    static java.util.function.UnaryOperator<String> paths(Path root, List<Path> paths) {
        Path base = null;
        for (Path p : paths.isEmpty() ? List.of(root) : paths) {
            Path a = p.toAbsolutePath().normalize();
            Path d = Files.isDirectory(a) ? a : a.getParent();
            if (base == null) {
                base = d;
            } else {
                while (base != null && !d.startsWith(base)) {
                    base = base.getParent();
                }
            }
        }
        Path b = base == null ? root : base;
        return file -> {
            Path abs = root.resolve(file).toAbsolutePath().normalize();
            return abs.startsWith(b) ? b.relativize(abs).toString().replace('\\', '/') : file;
        };
    }
}
