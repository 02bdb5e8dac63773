package dev.numlint.scan;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.spi.TrustBoundary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Code a project carries but did not write: a library copied into the tree (gtom's {@code src/Optimization/dlib},
 * with libpng inside it; an {@code external/} or {@code third_party/} folder). Its findings are notes that name the
 * library, and one notice per library says how many and how to report them as the rules decide ({@code
 * bundled-code: report} in {@code .numlint.yml}): a pull-request gate of the project is no place for hazards in code
 * it does not maintain, and an auditor still finds every one of them in the report.
 *
 * <p>A directory strictly inside a scanned root is bundled when its name is one the convention reserves for others'
 * code (GitHub Linguist's vendored paths: {@code third_party}, {@code 3rdparty}, {@code vendor}, {@code external},
 * {@code extern} and their spellings) or when it holds its own licence ({@code LICENSE*}, {@code LICENCE*}, {@code
 * COPYING*}, {@code COPYRIGHT*}): a project states its own licence once, at its root; a folder that holds every unit
 * the build compiles with a command of its own is that root (the project scanned from the folder above it), and a
 * folder whose sources name only copyright holders that the project's other sources name too is its authors' own
 * code licensed apart ({@link CopyrightHolders}: libnoise's {@code noiseutils/}). The
 * outermost such directory names the library. Only directories inside the scan's trust boundary are listed, without
 * following links.
 */
final class BundledCode {
    static final String SETTING = "bundled-code";
    static final String NOTICE = "bundled-code";
    private static final Pattern VENDORED_NAME =
            Pattern.compile("(?i)(third[-_]?party|3rd[-_]?party|thirdparty|vendors?|vendored|externals?|extern)");
    private static final Pattern LICENCE_FILE = Pattern.compile("(?i)(licen[cs]e|copying|copyright)([._-].*)?");

    private final Map<Path, Optional<String>> reasons = new HashMap<>();
    private final TrustBoundary boundary;
    /** The units the build compiles with a command of their own (real paths), or empty when no build says. */
    private final List<Path> units;

    private BundledCode(TrustBoundary boundary, List<Path> units) {
        this.boundary = boundary;
        this.units = units;
    }

    /**
     * The units the build compiles with a command of their own ({@code contexts}: by file relative to the scan root),
     * as real paths inside the boundary.
     */
    private static List<Path> units(Map<String, BuildContext> contexts, SourceLines lines, TrustBoundary boundary) {
        List<Path> out = new ArrayList<>();
        contexts.forEach((file, bc) -> {
            if (bc == null || !bc.compiled() || bc.compiledVia() != null) return;
            Path abs = boundary.readable(lines.resolve(file));
            if (abs != null) out.add(abs);
        });
        return out;
    }

    /**
     * {@code findings} with those in bundled code as notes; each library's notice is added to {@code notes}. The
     * {@code report} setting leaves the findings as they are.
     */
    static List<Finding> review(
            List<Finding> findings,
            SourceLines lines,
            TrustBoundary boundary,
            Map<String, BuildContext> contexts,
            String setting,
            java.util.Collection<Notification> notes) {
        if ("report".equals(setting)) return findings;
        BundledCode b = new BundledCode(boundary, units(contexts, lines, boundary));
        Map<String, int[]> counts = new TreeMap<>();
        Map<String, String> why = new HashMap<>();
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            String[] library =
                    f.location() == null ? null : b.library(f.location().file(), lines);
            if (library == null) {
                out.add(f);
                continue;
            }
            why.put(library[0], library[1]);
            int[] n = counts.computeIfAbsent(library[0], k -> new int[2]);
            n[0]++;
            if (f.suppressed() || !f.level().atLeast(Level.WARNING)) {
                out.add(f);
                continue;
            }
            n[1]++;
            out.add(f.toBuilder()
                    .level(Level.NOTE)
                    .message(RuleCatalog.get().remark("bundled-code", f.message(), "where", library[0]))
                    .property("bundled", library[0])
                    .build());
        }
        counts.forEach((library, n) -> notes.add(new Notification(
                library,
                0,
                Level.NOTE,
                NOTICE,
                library + "/ is bundled code (" + why.get(library) + "): its " + n[0] + " finding(s) are notes ("
                        + n[1] + " were warnings or errors); 'bundled-code: report' in .numlint.yml reports them"
                        + " as the rules decide")));
        return out;
    }

    /** The bundled library {@code file} (relative to the scan root) is in and why, or null. */
    private String[] library(String file, SourceLines lines) {
        Path abs = boundary.readable(lines.resolve(file));
        if (abs == null) return null;
        for (Path root : boundary.roots()) {
            if (!abs.startsWith(root) || abs.equals(root)) continue;
            Path rel = root.relativize(abs);
            Path dir = root;
            // the directories between the scanned root (never bundled itself) and the file's own directory
            for (int i = 0; i < rel.getNameCount() - 1; i++) {
                dir = dir.resolve(rel.getName(i));
                Optional<String> reason = reasons.computeIfAbsent(dir, this::reason);
                if (reason.isPresent()) {
                    String shown = lines.relative(dir);
                    return new String[] {shown, reason.get()};
                }
            }
            return null;
        }
        return null;
    }

    private Optional<String> reason(Path dir) {
        String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
        if (VENDORED_NAME.matcher(name).matches()) return Optional.of("a '" + name + "' folder");
        if (!boundary.contains(dir) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) return Optional.empty();
        // a folder that holds every unit the build compiles is the project itself, whose licence it holds (a
        // subproject of a repository where each carries one, scanned from the folder above it)
        if (!units.isEmpty() && units.stream().allMatch(u -> u.startsWith(dir))) return Optional.empty();
        Optional<String> licence = licence(dir);
        // a licence of its own over code whose every copyright holder also holds the project's other code: the
        // project's authors licensed the folder apart (libnoise's noiseutils/, session 57), not someone else's library
        if (licence.isPresent() && ownAuthors(dir)) return Optional.empty();
        // the project's own licence again, or a part of it (session 77 round B: a software rasterizer's src/LICENSE
        // is the root LICENSE without its note on the examples): the project's code
        if (licence.isPresent() && rootLicence(dir)) return Optional.empty();
        return licence;
    }

    /** At most this many bytes of a licence file are compared. */
    private static final int LICENCE_BYTES = 64 * 1024;

    /**
     * Whether a licence file of {@code dir} says what a licence file of the scanned root above it says: the same text,
     * blanks aside, or a part of it of at least 200 characters (the same terms and the same copyright holders).
     */
    private boolean rootLicence(Path dir) {
        for (Path root : boundary.roots()) {
            if (!dir.startsWith(root) || dir.equals(root)) continue;
            List<String> own = licenceTexts(root);
            for (String here : licenceTexts(dir)) {
                if (here.length() < 200) continue;
                for (String r : own) if (r.contains(here) || here.contains(r) && r.length() >= 200) return true;
            }
        }
        return false;
    }

    /** The licence files of {@code dir}, each read (up to {@link #LICENCE_BYTES}) with its blanks collapsed. */
    private List<String> licenceTexts(Path dir) {
        List<String> out = new ArrayList<>();
        if (!boundary.contains(dir)) return out;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(p ->
                            LICENCE_FILE.matcher(p.getFileName().toString()).matches())
                    .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .sorted()
                    .limit(8)
                    .toList()) {
                byte[] b;
                try (java.io.InputStream in = Files.newInputStream(p, LinkOption.NOFOLLOW_LINKS)) {
                    b = in.readNBytes(LICENCE_BYTES);
                }
                out.add(new String(b, java.nio.charset.StandardCharsets.UTF_8)
                        .replaceAll("\\s+", " ")
                        .strip());
            }
        } catch (IOException | RuntimeException e) {
            // unreadable: no text to compare
        }
        return out;
    }

    private static Optional<String> licence(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            List<String> names = s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .map(p -> p.getFileName().toString())
                    .toList();
            return names.stream()
                    .filter(n -> LICENCE_FILE.matcher(n).matches() && !ofOneFile(n, names))
                    .sorted()
                    .findFirst()
                    .map(n -> "its own " + n);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether the licence file {@code licence} is named after another file of its folder ({@code names}): chafa's
     * {@code tools/chafa/LICENSE.qoi} beside {@code qoi.h} is the licence of that one header, not of the folder
     * (session 59, round H: the project's own command-line tool was taken as bundled code).
     */
    private static boolean ofOneFile(String licence, List<String> names) {
        java.util.regex.Matcher m = LICENCE_FILE.matcher(licence);
        if (!m.matches() || m.group(2) == null) return false;
        String suffix = m.group(2).substring(1).toLowerCase(java.util.Locale.ROOT);
        if (suffix.isEmpty()) return false;
        for (String n : names) {
            int dot = n.lastIndexOf('.');
            String stem = (dot > 0 ? n.substring(0, dot) : n).toLowerCase(java.util.Locale.ROOT);
            if (!n.equals(licence) && stem.equals(suffix)) return true;
        }
        return false;
    }

    /** The copyright holders of the project's own code, by scanned root: its sources outside every bundled folder. */
    private final Map<Path, java.util.Set<String>> projectHolders = new HashMap<>();

    private boolean ownAuthors(Path dir) {
        java.util.Set<String> here = CopyrightHolders.under(boundary, dir, 3, 20, d -> false);
        if (here.isEmpty()) return false;
        for (Path root : boundary.roots()) {
            if (!dir.startsWith(root)) continue;
            java.util.Set<String> own = projectHolders.computeIfAbsent(
                    root,
                    r -> CopyrightHolders.under(
                            boundary,
                            r,
                            4,
                            40,
                            d -> VENDORED_NAME
                                            .matcher(String.valueOf(d.getFileName()))
                                            .matches()
                                    || licence(d).isPresent()));
            return own.containsAll(here);
        }
        return false;
    }
}
