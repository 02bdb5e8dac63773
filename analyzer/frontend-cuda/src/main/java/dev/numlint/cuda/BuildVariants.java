package dev.numlint.cuda;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.spi.FindingSink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A compiled unit that the compilation database compiles more than once with different defines (a float build with
 * {@code -DPRECISION=1} beside the double one, one object per model): after its analysis in its first variant (the
 * file's build context), it is analyzed again in each other variant ({@link BuildContext#variants()}) whose differing
 * defines the unit uses, at most {@link #maxExtra()} of them.
 *
 * <p>Which variants matter: a macro name is defined, undefined or given another value in the variant than in the
 * first; it matters when it appears as an identifier in the text of the unit or of a project file its preprocessing
 * read in the first variant (its headers inside the tree, the forced includes), or in the value of a command-line
 * define that does. That is where the preprocessor can test it in a condition or expand it; a name that appears
 * nowhere there ({@code -Dfoo_EXPORTS} of a shared library) cannot change what the front end reads, so that variant
 * is not analyzed again. Nor is one whose name appears only where its value cannot matter ({@link DefineUses}, session
 * 36): in comments and strings, in branches no Linux unit compiles ({@code #if 0}, {@code #ifdef _WIN32}), in a
 * condition those decide ({@code #if defined(_WIN32) && defined(iir_EXPORTS)}), or tested alone with branches of the
 * same text (CMake's export header on Linux). Elsewhere it is a text search, sound but not exact: a name in a branch
 * the unit's own defines leave out still counts (the variant is analyzed, its equal findings dropped), a name that
 * only headers outside the tree use (toolkit, system) does not count, and neither does one made by token pasting
 * ({@code ##}).
 *
 * <p>A variant's findings that equal one of the first analysis (rule, file, line, column, message) are dropped; the
 * rest carry the property {@code buildVariant} (the differing flags) and the message suffix "; in the build variant
 * ...". A variant's notices that the first analysis gave too are dropped, the others are kept with the same suffix.
 * Only the unit is analyzed per variant: the headers it includes are analyzed once, in the first variant's context
 * (a variant's includes record no includer and its Clang parse keeps no header: {@link CudaScanRun#variantPass}), and
 * the PTX layer compiles the first variant only. The analysis cache keys each variant apart: its key holds the build
 * context, defines included. A {@code build-variants} notice says which variants were analyzed and which were not.
 */
final class BuildVariants {
    private BuildVariants() {}

    /** Extra variants analyzed per unit ({@code -Dnumlint.cuda.maxBuildVariants}). */
    static final int MAX_EXTRA = 3;

    static int maxExtra() {
        return Math.max(0, Integer.getInteger("numlint.cuda.maxBuildVariants", MAX_EXTRA));
    }

    /** One analysis of the unit: {@code variant} null for its own context; adds the project files read to {@code reads}. */
    interface Analysis {
        void run(FindingSink to, BuildContext variant, Set<Path> reads);
    }

    /** A variant and what it changes: the macro names, and the flags as a reader would write them. */
    record Difference(BuildContext variant, Set<String> names, String flags) {}

    /**
     * Analyzes the file; a compiled {@code unit} with build variants in its first variant, then in each other variant
     * that matters, and says which.
     */
    static void analyze(CudaScanRun run, Path file, boolean unit, FindingSink sink, Analysis analysis) {
        BuildContext bc = unit ? run.ctx.buildContext(file) : null;
        if (bc == null || bc.variants().isEmpty()) {
            analysis.run(sink, null, new TreeSet<>());
            return;
        }
        String rel = run.ctx.relativize(file);
        Set<String> seen = ConcurrentHashMap.newKeySet();
        Set<Path> reads = new TreeSet<>();
        analysis.run(new Seen(sink, seen), null, reads);
        List<Path> texts = new ArrayList<>();
        texts.add(file);
        texts.addAll(reads);
        List<String> analyzed = new ArrayList<>();
        List<String> unused = new ArrayList<>();
        List<String> unusedFlags = new ArrayList<>();
        List<String> capped = new ArrayList<>();
        BuildContext project = run.ctx.buildContext(null);
        for (BuildContext v : bc.variants()) {
            Difference d = difference(bc, v);
            String shown = d.flags() + where(v);
            if (used(d, bc, texts, run.maxHeaderBytes).isEmpty()) {
                unused.add(shown);
                unusedFlags.add(d.flags());
            } else if (analyzed.size() >= maxExtra()) {
                capped.add(shown);
            } else {
                analyzed.add(shown);
                BuildContext full = project.copy().merge(v);
                run.variantPass.set(Boolean.TRUE);
                try {
                    analysis.run(new Tagged(sink, seen, d.flags()), full, new TreeSet<>());
                } finally {
                    run.variantPass.set(Boolean.FALSE);
                }
            }
        }
        String notice = notice(bc, analyzed, unused, capped);
        if (analyzed.isEmpty() && capped.isEmpty()) {
            // only variants the file does not depend on: told once for every file alike (flushVariants)
            run.sameVariants
                    .computeIfAbsent(notice(bc, List.of(), unusedFlags, List.of()), k -> new ConcurrentHashMap<>())
                    .put(rel, notice);
        } else {
            sink.notify(new Notification(rel, 0, Level.NOTE, "build-variants", notice));
        }
    }

    /**
     * The build-variants notices of files whose other variants change nothing they compile, once every file is
     * analyzed: a file's own notice where it is the only one, else one notice that counts and names the files (a
     * shared library's {@code -Dstk_SHARED_EXPORTS} entry beside each static one: 88 notices in one tree, session 54).
     */
    static void flushVariants(CudaScanRun run, FindingSink sink) {
        for (Map.Entry<String, Map<String, String>> e : new java.util.TreeMap<>(run.sameVariants).entrySet()) {
            java.util.TreeMap<String, String> files = new java.util.TreeMap<>(e.getValue());
            if (files.size() == 1) {
                sink.notify(new Notification(
                        files.firstKey(),
                        0,
                        Level.NOTE,
                        "build-variants",
                        files.firstEntry().getValue()));
                continue;
            }
            List<String> names = new ArrayList<>(files.keySet());
            sink.notify(new Notification(
                    null,
                    0,
                    Level.NOTE,
                    "build-variants",
                    names.size() + " files: " + e.getKey().replaceFirst("compiles this file in", "compiles each in")
                            + " (" + dev.numlint.rules.Quote.firstOf(names, 3) + ")"));
        }
        run.sameVariants.clear();
    }

    /** The build-variants notice of a unit. */
    static String notice(BuildContext bc, List<String> analyzed, List<String> unused, List<String> capped) {
        StringBuilder sb = new StringBuilder("the compilation database compiles this file in ")
                .append(1 + analyzed.size() + unused.size() + capped.size())
                .append(" variants with different defines; analyzed in its first entry's (")
                .append(defineFlags(bc))
                .append(")");
        if (!analyzed.isEmpty()) sb.append(" and again in ").append(list(analyzed));
        if (!unused.isEmpty())
            sb.append("; not analyzed again, what the file compiles does not depend on the defines they change: ")
                    .append(list(unused));
        if (!capped.isEmpty())
            sb.append("; not analyzed, over the limit of ")
                    .append(maxExtra())
                    .append(" extra variants per file: ")
                    .append(list(capped));
        return sb.append("; its headers are analyzed once, in the first variant, and the PTX layer compiles only that")
                .toString();
    }

    private static String list(List<String> items) {
        List<String> shown = items.subList(0, Math.min(6, items.size()));
        return String.join(", ", shown) + (items.size() > shown.size() ? ", ..." : "");
    }

    private static String defineFlags(BuildContext c) {
        List<String> out = new ArrayList<>();
        for (String d : c.defines()) out.add("-D" + d);
        for (String u : c.undefines()) out.add("-U" + u);
        String s = out.isEmpty() ? "no defines" : String.join(" ", out);
        return s.length() > 100 ? s.substring(0, 97) + "..." : s;
    }

    /** " (build/compile_commands.json:12)": the entry of a variant, from its configuration. */
    private static String where(BuildContext v) {
        String c = v.configuration();
        if (c == null || !c.endsWith(")") || c.lastIndexOf('(') < 0) return "";
        return " " + c.substring(c.lastIndexOf('('));
    }

    /**
     * What {@code variant} changes against {@code first}: the names it defines otherwise ({@code -DNAME} is
     * {@code NAME=1}), undefines or leaves undefined; the flags as "-DPRECISION=1", "-UNDEBUG", "without -DSINGLE".
     */
    static Difference difference(BuildContext first, BuildContext variant) {
        Map<String, String> a = state(first);
        Map<String, String> b = state(variant);
        Set<String> names = new LinkedHashSet<>();
        List<String> flags = new ArrayList<>();
        for (Map.Entry<String, String> e : b.entrySet()) {
            if (a.containsKey(e.getKey()) && Objects.equals(a.get(e.getKey()), e.getValue())) continue;
            names.add(e.getKey());
            flags.add(e.getValue() == null ? "-U" + e.getKey() : flag(variant, e.getKey()));
        }
        for (Map.Entry<String, String> e : a.entrySet()) {
            if (b.containsKey(e.getKey())) continue;
            names.add(e.getKey());
            flags.add("without " + (e.getValue() == null ? "-U" + e.getKey() : flag(first, e.getKey())));
        }
        String s = String.join(" ", flags);
        return new Difference(variant, names, s.length() > 60 ? s.substring(0, 57) + "..." : s);
    }

    /** Name to value ("1" for {@code -DNAME}), null for an undefined name. */
    private static Map<String, String> state(BuildContext c) {
        Map<String, String> m = new HashMap<>();
        for (String d : c.defines()) {
            int eq = d.indexOf('=');
            m.put(eq < 0 ? d : d.substring(0, eq), eq < 0 ? "1" : d.substring(eq + 1));
        }
        for (String u : c.undefines()) m.put(u, null);
        return m;
    }

    private static String flag(BuildContext c, String name) {
        for (String d : c.defines()) {
            if (d.equals(name) || d.startsWith(name + "=")) return "-D" + d;
        }
        return "-D" + name;
    }

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * The names of {@code d} that the unit uses: that appear as identifiers in one of {@code texts} (the unit and the
     * project files its preprocessing read) where they can matter ({@link DefineUses}), or in the value of a define of
     * either context whose name does.
     */
    static Set<String> used(Difference d, BuildContext first, List<Path> texts, long maxBytes) {
        Map<String, String> values = new HashMap<>();
        for (BuildContext c : List.of(first, d.variant())) {
            for (String def : c.defines()) {
                int eq = def.indexOf('=');
                if (eq > 0) values.merge(def.substring(0, eq), def.substring(eq + 1), (x, y) -> x + " " + y);
            }
        }
        Set<String> wanted = new TreeSet<>(d.names());
        wanted.addAll(values.keySet());
        Set<String> found = new TreeSet<>();
        List<String> read = new ArrayList<>();
        for (Path p : texts) {
            try {
                if (p != texts.get(0) && Files.size(p) > maxBytes) continue; // the unit: read already
                read.add(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
            } catch (IOException | RuntimeException e) {
                // unreadable now: it cannot be searched, as before
            }
        }
        Set<String> defined = new TreeSet<>(wanted);
        for (BuildContext c : List.of(first, d.variant())) {
            for (String def : c.defines()) defined.add(def.contains("=") ? def.substring(0, def.indexOf('=')) : def);
            defined.addAll(c.undefines());
        }
        Set<String> undefined = DefineUses.undefinedPlatforms(read, defined);
        for (String text : read) {
            if (found.containsAll(wanted)) break;
            found.addAll(DefineUses.uses(text, wanted, undefined));
        }
        // a used define's value uses the names in it (-DREAL=PREC with PREC differing)
        List<String> queue = new ArrayList<>(found);
        while (!queue.isEmpty()) {
            String v = values.get(queue.remove(queue.size() - 1));
            if (v == null) continue;
            Matcher m = IDENTIFIER.matcher(v);
            while (m.find()) {
                if (wanted.contains(m.group()) && found.add(m.group())) queue.add(m.group());
            }
        }
        found.retainAll(d.names());
        return found;
    }

    /** A finding's identity across variants: rule, file, line, column, message. */
    private static String key(Finding.Builder b) {
        Location l = b.location();
        return "F\u0000" + b.ruleId() + "\u0000"
                + (l == null ? "-" : l.file() + ":" + l.startLine() + ":" + l.startColumn()) + "\u0000" + b.message();
    }

    private static String key(Notification n) {
        return "N\u0000" + n.file() + ":" + n.line() + "\u0000" + n.id() + "\u0000" + n.message();
    }

    /** The first analysis: passes everything on and remembers it. */
    private record Seen(FindingSink sink, Set<String> seen) implements FindingSink {
        @Override
        public void report(Finding.Builder b) {
            seen.add(key(b));
            sink.report(b);
        }

        @Override
        public void notify(Notification n) {
            seen.add(key(n));
            sink.notify(n);
        }
    }

    /** A variant's analysis: drops what the first gave, tags the rest. */
    private record Tagged(FindingSink sink, Set<String> seen, String flags) implements FindingSink {
        @Override
        public void report(Finding.Builder b) {
            if (seen.contains(key(b))) return;
            b.property("buildVariant", flags);
            if (b.message() != null) b.message(suffixed(b.message(), flags));
            sink.report(b);
        }

        @Override
        public void notify(Notification n) {
            if (seen.contains(key(n))) return;
            sink.notify(new Notification(
                    n.file(), n.line(), n.level(), n.id(), n.message() + "; in the build variant " + flags));
        }
    }

    /** The message with "; in the build variant FLAGS", within the runner's limit ({@link dev.numlint.rules.Quote#fit}). */
    static String suffixed(String message, String flags) {
        String suffix = "; in the build variant " + flags;
        String fitted = dev.numlint.rules.Quote.fit(message + suffix);
        if (fitted.endsWith(suffix)) return fitted;
        suffix = "; in a build variant";
        fitted = dev.numlint.rules.Quote.fit(message + suffix);
        return fitted.endsWith(suffix) ? fitted : dev.numlint.rules.Quote.fit(message);
    }
}
