package dev.numlint.flags;

import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.ScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * CUDA sources that CMake builds only in a configuration other than the default one (issue 25): a target names them
 * only in a branch the default configuration skips (zfp's {@code if(ZFP_WITH_CUDA) cuda_wrap_srcs(... cuZFP.cu ...)}).
 * The project is evaluated once more with the options of that branch turned on, and such a source gets its target's
 * flags from that configuration (audited "not in the default configuration"); a note says so.
 */
final class NotDefaultSources {
    private NotDefaultSources() {}

    /** The condition of an {@code if()}/{@code elseif()} branch: "if(A AND B) at f:3, which is false ...". */
    private static final java.util.regex.Pattern BRANCH =
            java.util.regex.Pattern.compile("^(?:else)?if\\((.*?)\\) at ");

    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** Words of a condition that are no variable. */
    private static final Set<String> OPERATORS = Set.of(
            "AND",
            "OR",
            "NOT",
            "DEFINED",
            "TARGET",
            "EXISTS",
            "STREQUAL",
            "EQUAL",
            "MATCHES",
            "LESS",
            "GREATER",
            "VERSION_LESS",
            "VERSION_GREATER",
            "VERSION_EQUAL",
            "COMMAND",
            "POLICY",
            "TEST",
            "IN_LIST");

    private static final Set<String> FALSE = Set.of("OFF", "FALSE", "NO", "N", "0", "IGNORE", "UNDEFINED", "''", "");

    /** At most this many other configurations are evaluated per project. */
    static final int MAX_CONFIGURATIONS = 8;

    /**
     * The not-default sources of a project's evaluation {@code out}: each gets its target's flags from the project
     * evaluated with the options of its branch turned on, and a note.
     *
     * @param cache the cache values of the default evaluation ({@code --cmake-define}, a preset)
     */
    static void report(
            ScanContext ctx,
            Path file,
            String forced,
            Map<String, String> cache,
            CMakeAudit.Out out,
            BuildFlagAnalyzer.Model model,
            FlagReporter rep,
            java.util.function.Predicate<Path> inTree) {
        Set<Path> named = new HashSet<>();
        for (List<Path> l : out.sources.values()) named.addAll(l);
        // a compile command of the given database compiles it: the build decides, not the CMake default
        named.addAll(model.db.files.keySet());
        Set<Path> scanned = new HashSet<>();
        for (Path f : ctx.files()) scanned.add(f.toAbsolutePath().normalize());
        Map<Map<String, String>, List<Path>> byOptions = new LinkedHashMap<>();
        Map<Path, String> conditions = new LinkedHashMap<>();
        for (Map.Entry<Path, String> e : out.notDefaultSources.entrySet()) {
            Path src = e.getKey();
            if (named.contains(src) || !inTree.test(src) || !Files.isRegularFile(src)) continue;
            if (!scanned.contains(src.toAbsolutePath().normalize())) continue; // not a file of the scanned paths
            conditions.put(src, e.getValue());
            byOptions
                    .computeIfAbsent(turnedOn(e.getValue(), out.decisive), k -> new ArrayList<>())
                    .add(src);
        }
        Map<Path, String> evaluated = new LinkedHashMap<>();
        int runs = 0;
        for (Map.Entry<Map<String, String>, List<Path>> g : byOptions.entrySet()) {
            if (g.getKey().isEmpty() || runs++ >= MAX_CONFIGURATIONS) continue;
            evaluated.putAll(evaluate(ctx, file, forced, cache, g.getKey(), g.getValue(), model, inTree));
        }
        for (Map.Entry<Path, String> e : conditions.entrySet()) {
            Path src = e.getKey();
            String cond = e.getValue();
            Map<String, String> on = turnedOn(cond, out.decisive);
            String defs = defines(on);
            String target = evaluated.get(src);
            String msg;
            if (target != null) {
                msg = "built only under " + cond + "; analyzed in that configuration (as with " + defs + "): the flags"
                        + " of its CMake target " + target + " apply";
            } else {
                String step = on.isEmpty()
                        ? "set the options that make it true with --cmake-define (or configure and pass -p build)"
                        : "pass " + defs + " (or configure with it and pass -p build)";
                msg = "built only under " + cond + "; its target's flags (include directories, defines) are not"
                        + " applied, so it is compiled with a guessed context: " + step;
            }
            rep.sink.notify(new Notification(ctx.relativize(src), 0, Level.NOTE, "not-default-source", msg));
        }
    }

    /** "--cmake-define A=ON --cmake-define B=ON" */
    private static String defines(Map<String, String> on) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> d : on.entrySet()) {
            sb.append(sb.length() == 0 ? "" : " ")
                    .append("--cmake-define ")
                    .append(d.getKey())
                    .append('=')
                    .append(d.getValue());
        }
        return sb.toString();
    }

    /** The options a branch's condition tests that are off in the default configuration, each set to ON. */
    static Map<String, String> turnedOn(String cond, Map<String, String> decisive) {
        Map<String, String> on = new TreeMap<>();
        java.util.regex.Matcher m = BRANCH.matcher(cond);
        if (!m.find()) return on;
        java.util.regex.Matcher n = NAME.matcher(m.group(1));
        while (n.find()) {
            String v = n.group();
            if (OPERATORS.contains(v)) continue;
            String value = decisive.get(v);
            if (value != null && FALSE.contains(value.toUpperCase(Locale.ROOT))) on.put(v, "ON");
        }
        return on;
    }

    /** Evaluates the project with {@code on}; the sources its targets then name get their contexts. */
    private static Map<Path, String> evaluate(
            ScanContext ctx,
            Path file,
            String forced,
            Map<String, String> cache,
            Map<String, String> on,
            List<Path> sources,
            BuildFlagAnalyzer.Model model,
            java.util.function.Predicate<Path> inTree) {
        Map<String, String> c = new LinkedHashMap<>(cache);
        c.putAll(on);
        CMakeAudit.Out o =
                CMakeAudit.audit(file, ctx::relativize, inTree, c, forced, ctx.maxFileSize(Layer.BUILD_FLAGS));
        Path dir = file.getParent();
        Map<Path, List<FlagTok>> dirFlags = new LinkedHashMap<>();
        dirFlags.put(dir, o.directory);
        dirFlags.putAll(o.subdirectories);
        String label = "; not in the default configuration: evaluated with "
                + String.join(
                        ", ",
                        on.entrySet().stream()
                                .map(x -> x.getKey() + "=" + x.getValue())
                                .toList());
        Map<Path, String> done = new LinkedHashMap<>();
        Set<Path> wanted = new HashSet<>(sources);
        for (CMakeTargets.Target t : CMakeTargets.targets(
                o,
                dir,
                dirFlags,
                d -> {
                    String a = o.cudaArch.get("dir:" + d);
                    return a != null ? a : o.cudaArch.get("");
                },
                BuildFlagAnalyzer::dedupe,
                null)) {
            for (Path src : t.sources()) {
                if (!wanted.contains(src) || done.containsKey(src)) continue;
                model.cmake.file(
                        src,
                        CMakeTargets.context(t, src),
                        "CMake target " + t.name() + " (" + ctx.relativize(file) + label + ")");
                model.targetOf.putIfAbsent(src, t);
                done.put(src, t.name());
            }
        }
        return done;
    }
}
