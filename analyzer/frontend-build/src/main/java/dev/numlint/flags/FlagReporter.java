package dev.numlint.flags;

import dev.numlint.flags.checks.FlagEntry;
import dev.numlint.flags.checks.FlagHazard;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Confidence;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Layer;
import dev.numlint.model.Location;
import dev.numlint.rules.Quote;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns hazards into findings. Hazards are collected while the build files are read and reported once the build
 * contexts are chosen: one finding per rule and flag decision of the analyzed build (the same setting written in
 * several places that reach the same files is one finding, the other places its related locations), and a note
 * for each setting the analyzed configuration does not use.
 */
final class FlagReporter {
    final ScanContext ctx;
    final FindingSink sink;
    final Set<String> done = new HashSet<>();
    final List<List<FlagHazard>> pending = new ArrayList<>();
    /** The compilation database the build context comes from, or null: it decides which flags are in the build. */
    private BuildDatabase database;
    /** The scanned files the analyzed build compiles with each flag place (known once contexts are chosen). */
    private final Map<Location, Set<Path>> used = new HashMap<>();

    /** Where the project's build sources write a flag found in a generated file. */
    private final WrittenFlags writtenFlags;

    FlagReporter(ScanContext ctx, FindingSink sink, WrittenFlags writtenFlags) {
        this.ctx = ctx;
        this.sink = sink;
        this.writtenFlags = writtenFlags;
    }

    /** The interpreted flags of the build files by the line they are written at: an assignment's other flags. */
    private final Map<String, Map<String, FlagEntry>> written = new HashMap<>();

    /** Collects the hazards of one interpreted scope, and its flags by line (for {@link #unmatched}). */
    void report(FlagInterpreter.Result r) {
        for (FlagEntry e : r.entries) {
            written.computeIfAbsent(line(e.loc()), k -> new LinkedHashMap<>())
                    .putIfAbsent(e.loc().shortText() + "\u0000" + e.flag(), e);
        }
        for (FlagHazard h : r.hazards) reportGroup(List.of(h));
    }

    /** A place as a message names it: file and line. */
    private static String at(Location l) {
        return l.file() + ":" + l.startLine();
    }

    private static String line(Location l) {
        return l.file() + "\u0000" + l.startLine();
    }

    /** Collects a group of identical settings (compile_commands.json entries); the first is reported. */
    void reportGroup(List<FlagHazard> hs) {
        FlagHazard h = hs.get(0);
        FlagEntry e = h.entry();
        String key = h.ruleId() + "\u0000" + e.loc().shortText() + "\u0000" + e.flag();
        if (!done.add(key)) return;
        if (!ctx.rules().enabled(h.ruleId())) return;
        pending.add(hs);
    }

    /** The compilation database the build context comes from ({@code -p} or found): its entries per compiler. */
    void database(String file, List<CompileCommandsAudit.Entry> entries) {
        int cuda = (int)
                entries.stream().filter(e -> e.compiler() == FlagTok.Lang.CUDA).count();
        database = new BuildDatabase(file, cuda, entries.size() - cuda);
        database.places(entries);
    }

    /** One compile command of that database ({@link #database}), interpreted. */
    void databaseCommand(FlagInterpreter.Result r) {
        database.command(r);
    }

    /** Collects the hazards of one flag in the entries of that database ({@link #database}). */
    void databaseGroup(List<FlagHazard> hs) {
        FlagHazard h = hs.get(0);
        if (!ctx.rules().enabled(h.ruleId())) return;
        database.add(decision(h), hs);
    }

    /**
     * Reports what was collected, given the contexts chosen for the scanned sources. With a compilation database
     * ({@link BuildDatabase}), a flag a build file writes is in the build when some compile command of its compiler
     * has it (reported at the build file, where a user changes it, with the database as evidence), and not in it
     * when none has (a note); the database's own site is reported only for flags no build file writes.
     */
    void flush(Map<Path, BuildContext> chosen, Set<Location> reachable) {
        Map<Location, Set<Path>> used = this.used;
        Map<Path, List<Location>> order = new HashMap<>();
        for (Map.Entry<Path, BuildContext> c : chosen.entrySet()) {
            for (BuildContext.FlagOrigin o : c.getValue().origins()) {
                used.computeIfAbsent(o.location(), k -> new java.util.TreeSet<>())
                        .add(c.getKey());
                order.computeIfAbsent(c.getKey(), k -> new ArrayList<>()).add(o.location());
            }
        }
        Map<String, List<List<FlagHazard>>> active = new LinkedHashMap<>();
        Set<String> proven = new HashSet<>();
        // flags the compile commands carry, written only under a condition read as false (or never reached)
        Map<String, List<List<FlagHazard>>> provable = new LinkedHashMap<>();
        for (List<FlagHazard> hs : pending) {
            FlagEntry e = hs.get(0).entry();
            String cond = e.origin().condition();
            String key = decision(hs.get(0));
            if (database != null && database.covers(e.target())) {
                if (!database.has(key)) {
                    emit(hs, Inactive.NOT_IN_DATABASE);
                } else if (!database.isOwn(e.loc())
                        && !database.couldProduce(
                                ctx.root() == null
                                        ? null
                                        : ctx.root().resolve(e.loc().file()))
                        && !includedWhereCommandsRan(e.loc().file())) {
                    // the same flag in a sibling project's build file: not where the commands' flags come from
                    emit(hs, Inactive.OTHER_BUILD);
                } else if (cond == null || unknown(cond)) {
                    // a condition numlint cannot evaluate is kept: the message says the flag is conditional
                    proven.add(key);
                    active.computeIfAbsent(key, k -> new ArrayList<>()).add(hs);
                } else {
                    provable.computeIfAbsent(key, k -> new ArrayList<>()).add(hs);
                }
            } else if (cond != null && !unknown(cond)) {
                emit(hs, Inactive.CONDITION);
            } else if (cond == null && !used.containsKey(e.loc()) && reachable.contains(e.loc())) {
                emit(hs, Inactive.OTHER_BUILD);
            } else {
                active.computeIfAbsent(key, k -> new ArrayList<>()).add(hs);
            }
        }
        provable.forEach((key, places) -> {
            if (proven.add(key)) {
                // no other place sets it: the compile commands prove the condition taken (or the macro called), that
                // of the place whose flags they carry where several configurations write it
                for (List<FlagHazard> hs : configurations(key, places)) {
                    active.computeIfAbsent(key, k -> new ArrayList<>()).add(BuildDatabase.unconditional(hs));
                }
            } else {
                places.forEach(hs -> emit(hs, Inactive.CONDITION)); // another place sets it in this build
            }
        });
        if (database != null) {
            active.replaceAll((key, places) -> unmatched(key, places));
            database.groups.forEach((key, hs) -> {
                if (!proven.contains(key))
                    active.computeIfAbsent(key, k -> new ArrayList<>()).add(hs);
            });
        }
        // one finding per rule, target and line: -Ofast -ffast-math, or -funsafe-math-optimizations
        // -freciprocal-math, written together are one hazard where the user changes them (session 51: a Makefile
        // line had two NL006 and two NL002 warnings)
        Set<String> lines = new HashSet<>();
        for (List<List<FlagHazard>> same : active.values()) {
            for (List<FlagHazard> group : overlapping(same, used)) {
                List<FlagHazard> g = primaryFirst(group, used, order);
                FlagHazard h = g.get(0);
                Location at = h.entry().loc();
                if (at != null
                        && !lines.add(h.ruleId() + " " + h.entry().target() + " " + at.file() + ":" + at.startLine()))
                    continue;
                emit(g, null);
            }
        }
    }

    /**
     * The places of one decision the compile commands carry, without those written under a condition numlint cannot
     * evaluate whose other flags the commands contradict ({@link BuildDatabase#contradiction}: the fragment a
     * {@code ifneq (,$(findstring delta,$(HOST)))} includes sets {@code -std=gnu11}, the commands have
     * {@code -std=gnu99}), when another place can supply the flag: those become notes naming the place the commands
     * match. A conditional place that is the only possible source is kept.
     */
    private List<List<FlagHazard>> unmatched(String key, List<List<FlagHazard>> places) {
        List<List<FlagHazard>> kept = new ArrayList<>();
        Map<List<FlagHazard>, String> contradicted = new LinkedHashMap<>();
        for (List<FlagHazard> hs : places) {
            FlagEntry e = hs.get(0).entry();
            String cond = e.origin().condition();
            String why = cond == null
                    ? null
                    : database.contradiction(
                            key,
                            e,
                            written.getOrDefault(line(e.loc()), Map.of()).values());
            if (why == null) kept.add(hs);
            else contradicted.put(hs, why);
        }
        if (kept.isEmpty()) return places;
        Location match = kept.get(0).get(0).entry().loc();
        contradicted.forEach((hs, why) -> emit(hs, Inactive.UNMATCHED, match, why));
        return kept;
    }

    /**
     * Of the places of one decision written only under conditions read as false that the compile commands carry (a
     * flag written in {@code CUDA_NVCC_FLAGS_DEBUG} and in {@code CUDA_NVCC_FLAGS_RELEASE} of a build whose
     * {@code CMAKE_BUILD_TYPE} is empty), those whose other flags are a part of another place's that every compile
     * command carrying the decision carries: the commands were built with that place ({@code -G -g} besides
     * {@code -use_fast_math}: the Debug line), and the others are notes, not set in the analyzed configuration, that
     * name it (session 46: an image-processing code's fast math at both lines, each "in 10 of 10 compile commands").
     */
    private List<List<FlagHazard>> configurations(String key, List<List<FlagHazard>> places) {
        if (places.size() < 2) return places;
        Map<List<FlagHazard>, Set<String>> names = new LinkedHashMap<>();
        Map<List<FlagHazard>, java.util.Collection<FlagEntry>> flags = new LinkedHashMap<>();
        for (List<FlagHazard> hs : places) {
            FlagEntry e = hs.get(0).entry();
            java.util.Collection<FlagEntry> w =
                    written.getOrDefault(line(e.loc()), Map.of()).values();
            flags.put(hs, w);
            Set<String> n = new java.util.HashSet<>();
            for (FlagEntry f : w) n.add(BuildDatabase.name(f));
            names.put(hs, n);
        }
        List<List<FlagHazard>> kept = new ArrayList<>(places);
        for (List<FlagHazard> a : places) {
            for (List<FlagHazard> b : places) {
                if (a == b
                        || !names.get(b).containsAll(names.get(a))
                        || names.get(a).equals(names.get(b))) continue;
                if (!database.carries(key, flags.get(b))) continue;
                emit(a, Inactive.CONDITION, b.get(0).entry().loc(), null);
                kept.remove(a);
                break;
            }
        }
        return kept.isEmpty() ? places : kept;
    }

    /** The setting a hazard reports: rule, target and the flag's canonical name and value. */
    static String decision(FlagHazard h) {
        FlagEntry e = h.entry();
        String name = e.name().replace('-', '_');
        return h.ruleId() + "\u0000" + e.target() + "\u0000" + name + "\u0000"
                + (e.value() == null ? "" : e.value().toLowerCase(Locale.ROOT));
    }

    /** The files the analyzed build compiles with any of the settings of {@code hs}. */
    private static Set<Path> files(List<FlagHazard> hs, Map<Location, Set<Path>> used) {
        Set<Path> out = new HashSet<>();
        for (FlagHazard h : hs) out.addAll(used.getOrDefault(h.entry().loc(), Set.of()));
        return out;
    }

    /**
     * The settings of one decision key merged where they reach a common file (the same flag written twice for one
     * compilation is one decision); settings that reach different files, or no scanned file, stay apart.
     */
    private static List<List<FlagHazard>> overlapping(List<List<FlagHazard>> same, Map<Location, Set<Path>> used) {
        List<List<FlagHazard>> groups = new ArrayList<>();
        List<Set<Path>> reach = new ArrayList<>();
        for (List<FlagHazard> hs : same) {
            List<FlagHazard> g = new ArrayList<>(hs);
            Set<Path> fs = files(hs, used);
            for (int i = groups.size() - 1; i >= 0 && !fs.isEmpty(); i--) {
                if (java.util.Collections.disjoint(reach.get(i), fs)) continue;
                List<FlagHazard> other = groups.remove(i);
                other.addAll(g);
                g = other;
                fs.addAll(reach.remove(i));
            }
            groups.add(g);
            reach.add(fs);
        }
        return groups;
    }

    /**
     * The group with the setting that the affected files' contexts record first (the one source and PTX findings
     * cite as "set here") in front; without files, the first one collected.
     */
    private static List<FlagHazard> primaryFirst(
            List<FlagHazard> group, Map<Location, Set<Path>> used, Map<Path, List<Location>> order) {
        if (group.size() == 1) return group;
        java.util.TreeSet<Path> fs = new java.util.TreeSet<>(files(group, used));
        FlagHazard first = group.get(0);
        search:
        for (Path f : fs) {
            for (Location l : order.getOrDefault(f, List.of())) {
                for (FlagHazard h : group) {
                    if (h.entry().loc().equals(l)) {
                        first = h;
                        break search;
                    }
                }
            }
        }
        List<FlagHazard> out = new ArrayList<>();
        out.add(first);
        for (FlagHazard h : group) {
            if (h != first) out.add(h);
        }
        return out;
    }

    /** A make {@code include} (or {@code -include}, {@code sinclude}) line and what it names. */
    private static final java.util.regex.Pattern MAKE_INCLUDE =
            java.util.regex.Pattern.compile("(?m)^[ \\t]*(?:-|s)?include[ \\t]+(.+)$");

    /**
     * Whether a makefile in a directory the compile commands ran in includes the build file {@code rel} by its name
     * ({@code include $(PDLIBBUILDER_DIR)/Makefile.pdlibbuilder}): a fragment runs in its includer's directory, so its
     * own directory says nothing of the commands it produced (session 72 round C: an audio library's -ffast-math,
     * written in its build helper's makefile, was reported both in the build and "not in the analyzed build"). Only
     * makefiles inside the scanned tree are read.
     */
    private boolean includedWhereCommandsRan(String rel) {
        if (database == null || rel == null) return false;
        String name = Path.of(rel).getFileName().toString();
        for (Path dir : database.ranIn()) {
            for (String mk : List.of("GNUmakefile", "makefile", "Makefile")) {
                Path real = ctx.boundary().readable(dir.resolve(mk));
                String text;
                try {
                    if (real == null
                            || !java.nio.file.Files.isRegularFile(real)
                            || java.nio.file.Files.size(real) > 1 << 20) continue;
                    text = java.nio.file.Files.readString(real, java.nio.charset.StandardCharsets.ISO_8859_1);
                } catch (java.io.IOException | RuntimeException unreadable) {
                    continue;
                }
                java.util.regex.Matcher m = MAKE_INCLUDE.matcher(text);
                while (m.find()) {
                    for (String named : m.group(1).strip().split("\\s+")) {
                        if (named.equals(name) || named.endsWith("/" + name)) return true;
                    }
                }
            }
        }
        return false;
    }

    /** Reports the first hazard of a group; the others become related locations. */
    private void emit(List<FlagHazard> hs, Inactive inactive) {
        emit(hs, inactive, null, null);
    }

    /**
     * Reports the first hazard of a group; the others become related locations. {@code match}, {@code why}: for
     * {@link Inactive#UNMATCHED}, the place the compile commands match instead and the flag that contradicts them.
     */
    private void emit(List<FlagHazard> hs, Inactive inactive, Location match, String why) {
        FlagHazard h = hs.get(0);
        FlagEntry e = h.entry();
        FlagTok t = e.origin();
        Condition cond = t.condition() == null ? null : Condition.of(t.condition());
        RuleCatalog cat = RuleCatalog.get();
        String own = h.message();
        // a place another configuration takes (its condition read as false), or a build file the analyzed build does
        // not read (an examples/ project of its own), is not what the commands carry: they count another place's
        // flag (session 69 round D: "not in the analyzed build; in 17 of 17 compile commands")
        BuildDatabase.Count inDb = database == null
                        || database.isOwn(e.loc())
                        || inactive == Inactive.UNMATCHED
                        || inactive == Inactive.CONDITION
                        || inactive == Inactive.OTHER_BUILD
                ? null
                : database.count(decision(h));
        // under a condition numlint cannot evaluate, but in the compile commands: in this build, as the message says
        boolean taken = inactive == null && inDb != null && t.condition() != null;
        // the compile commands judge the setting where the build file's list cannot: which compiler and standard
        // apply (gcc -std=c99 contracts nothing, clang does)
        dev.numlint.model.Level level = h.level();
        FlagHazard built = inDb == null ? null : database.asBuilt(decision(h));
        if (built != null && !java.util.Objects.equals(built.level(), level)) {
            own = built.message();
            level = built.level();
        }
        if (inactive == Inactive.OTHER_BUILD) own = cat.phrase("flag-other-build", "message", own);
        if (inactive == Inactive.UNMATCHED) own = cat.phrase("flag-unmatched", "message", own, "site", at(match));
        Location test = null;
        if (h.finiteMath() && inactive == null) {
            Set<Path> compiled = files(hs, used);
            if (inDb != null) inDb.sites().forEach(l -> compiled.addAll(used.getOrDefault(l, Set.of())));
            NonFiniteTests.Found found = NonFiniteTests.first(ctx, compiled);
            if (found != null) {
                test = found.at();
                // the test the flag may fold is why the finding is a warning: its place stays in the message, the
                // flag's description gives way (session 71 round D: "may fold the NaN/inf test at ...")
                String bare = cat.phrase("flag-finite-test", "message", "", "site", found.site());
                own = cat.phrase(
                        "flag-finite-test",
                        "message",
                        Quote.fit(own, Math.max(40, Quote.MESSAGE - bare.length())),
                        "site",
                        found.site());
            }
        }
        if (inactive == Inactive.NOT_IN_DATABASE) {
            own = cat.phrase("flag-not-in-database", "message", own);
        } else if (inDb != null) {
            String counted = cat.phrase(
                    "flag-in-database", "message", own, "count", inDb.entries(), "of", database.entries(e.target()));
            // the count is the finding's evidence too: the message carries it where it fits
            if (counted.length() <= Quote.MESSAGE) own = counted;
        }
        // an unmatched place's condition is in its impact and related locations: the message names the matching place
        String msg = flagMessage(own, t.via(), hs.size() - 1, inactive == Inactive.UNMATCHED ? null : cond);
        // a flag found in a generated file (compile_commands.json, configure's Makefile) is reported where the
        // project's build sources write it, the generated site related
        Location at = e.loc();
        List<Location> writtenAt = List.of();
        if (at != null
                && ctx.root() != null
                && WrittenFlags.generated(ctx.root().resolve(at.file()))) {
            writtenAt = writtenFlags.places(e.flag());
            if (!writtenAt.isEmpty()) at = writtenAt.get(0);
        }
        Finding.Builder b = Finding.builder(h.ruleId())
                .location(at)
                .message(msg)
                .layer(Layer.BUILD_FLAGS)
                .evidence(new Evidence("flag", e.flag(), null))
                .confidence(t.condition() != null && !taken ? Confidence.MEDIUM : Confidence.HIGH)
                .fingerprintKey("flag|" + h.ruleId() + "|" + e.flag() + "|" + e.target() + "|" + t.via())
                .property(
                        "appliesTo",
                        switch (e.target()) {
                            case DEVICE -> "cuda-device";
                            case CU_HOST -> "cuda-host";
                            case HOST -> "host";
                        });
        b.property("setThrough", t.via());
        if (t.condition() != null) {
            b.property("condition", t.condition());
            if (cond.where() != null) b.related(cond.where(), "condition: " + cond.text());
        }
        if (level != null) b.level(level);
        if (inactive == null && h.hostRounding() && test == null && level != dev.numlint.model.Level.NOTE) {
            // consequence over existence: the sites it rounds differently are judged where they are (FlagHazard)
            b.impact(dev.numlint.model.Impact.bounded(RuleCatalog.get().phrase("flag-host-rounding")));
        } else if (inactive != null) {
            b.impact(dev.numlint.model.Impact.bounded(
                    switch (inactive) {
                        case CONDITION -> "not set in the build configuration numlint analyzed";
                        case OTHER_BUILD -> "the analyzed build compiles the scanned sources with other build files";
                        case NOT_IN_DATABASE -> "in none of the compile commands of " + database.file();
                        case UNMATCHED -> "written only under " + cond.head()
                                + ", which numlint does not evaluate; the compile commands match " + at(match)
                                + " instead, not its " + why;
                    }));
        }
        if (match != null) b.related(match, "the compile commands match this setting");
        if (!writtenAt.isEmpty()) {
            b.related(e.loc(), "generated by the build: the flag is written at " + at.shortText());
            for (Location w : writtenAt.subList(1, writtenAt.size())) b.related(w, "the flag is written here too");
            b.property(
                    "writtenAt",
                    at.shortText() + " (found by its text; " + e.loc().shortText() + " is generated)");
        }
        List<Location> alsoAt = new ArrayList<>();
        for (int i = 1; i < hs.size() && i <= 10; i++) {
            b.related(hs.get(i).entry().loc(), BuildFlagAnalyzer.SAME_FLAG);
            alsoAt.add(hs.get(i).entry().loc());
        }
        if (test != null) b.related(test, cat.phrase("flag-finite-test-site"));
        if (inDb != null) {
            // the compile commands that have the flag: evidence, and where the build context records it
            b.evidence(new Evidence(
                    "compile-commands",
                    cat.phrase(
                            "flag-in-database",
                            "message",
                            e.flag(),
                            "count",
                            inDb.entries(),
                            "of",
                            database.entries(e.target())),
                    inDb.sites().get(0)));
            b.related(inDb.sites().get(0), BuildDatabase.RELATED);
            b.property("compileCommands", inDb.entries());
            alsoAt.addAll(inDb.sites());
        }
        b.identity(b.identity()
                .withFlag(new Identity.Flag(
                        e.flag(),
                        switch (e.target()) {
                            case DEVICE -> Identity.Flag.Target.CUDA_DEVICE;
                            case CU_HOST -> Identity.Flag.Target.CUDA_HOST;
                            case HOST -> Identity.Flag.Target.HOST;
                        },
                        t.via(),
                        taken ? null : t.condition(),
                        alsoAt)));
        sink.report(b);
    }

    /**
     * Whether a condition's value is unknown (Makefiles: "whose value numlint cannot know", CMake: "(value
     * unknown)"): the analyzed build may well take it.
     */
    private static boolean unknown(String condition) {
        return condition.contains("cannot know") || condition.contains("(value unknown)");
    }

    /** Why a flag finding is about a build configuration other than the analyzed one (then it is a note). */
    private enum Inactive {
        /** written under a condition the default configuration does not take */
        CONDITION,
        /** always applies, but the analyzed build compiles every file it could apply to with other build files */
        OTHER_BUILD,
        /** in none of the compile commands of the compilation database the build context comes from */
        NOT_IN_DATABASE,
        /**
         * under a condition numlint cannot evaluate, beside flags the compile commands contradict, while another
         * place can supply the flag ({@link #unmatched})
         */
        UNMATCHED
    }

    /**
     * A build-file condition as the message shows it: the position it names ("... at src/Makefile:94") becomes a
     * related location, "which is false in the default configuration" becomes "(false by default)" ("which is false
     * in this configuration", decided by a value the configured build gives: "(false as configured)"), "Makefile target
     * 'debug' (not built by the default goal 'all')" becomes "Makefile target 'debug'", and the rest is quoted
     * shortened. The full text stays the finding's property {@code condition}.
     */
    record Condition(String head, String verdict, Location where) {
        private static final java.util.regex.Pattern AT =
                java.util.regex.Pattern.compile(" at ([^\\s,]+?):(\\d+)(?=[,\\s)]|$)");
        private static final java.util.regex.Pattern VERDICT = java.util.regex.Pattern.compile(
                "^(.*?)( \\((?:false|true|not taken) (?:by default|as configured)[^)]*\\)| \\(value unknown\\))$");

        static Condition of(String condition) {
            String t = condition;
            Location where = null;
            java.util.regex.Matcher m = AT.matcher(t);
            if (m.find()) {
                where = Location.line(m.group(1), Integer.parseInt(m.group(2)));
                t = t.substring(0, m.start()) + t.substring(m.end());
            }
            t = t.replaceAll(", which is (false|true|not taken) in the default configuration", " ($1 by default)")
                    .replaceAll(", which is (false|true) in this configuration", " ($1 as configured)")
                    .replaceFirst("\\((false|true) as configured\\) \\((.*)\\)$", "($1 as configured: $2)")
                    .replace(", whose value numlint cannot know", " (value unknown)")
                    .replaceFirst("\\((false|true) by default\\) \\((.*)\\)$", "($1 by default: $2)")
                    .replaceFirst("\\(not taken by default\\) \\(an earlier branch is\\)$", "(not taken by default)")
                    .replaceFirst("^Makefile target '([^']+)' \\(not built by .*\\)$", "Makefile target '$1'");
            m = VERDICT.matcher(t);
            if (m.matches()) {
                return new Condition(m.group(1), m.group(2), where);
            }
            return new Condition(t, "", where);
        }

        /**
         * The condition with its head shortened to {@code max} characters at a word's end and its verdict kept (session
         * 75 round C: "only under Makefile.old, which Makefile does no...").
         */
        String text(int max) {
            String h = head.replaceAll("\\s+", " ").strip();
            if (h.length() <= max) return h + verdict;
            int cut = h.lastIndexOf(' ', Math.max(0, max - 3));
            if (cut < max / 2) return Quote.shorten(head, max) + verdict;
            return h.substring(0, cut).replaceAll("[,;:]+$", "") + "..." + verdict;
        }

        /** The verdict without its detail: " (false by default)" for " (false by default: USE_HIP=OFF)". */
        Condition brief() {
            return new Condition(head, verdict.replaceFirst(":[^)]*\\)$", ")"), where);
        }

        String text() {
            return text(Quote.TEXT);
        }
    }

    /**
     * The message of a flag finding: the rule's own text, where the flag is set and the condition it is set under,
     * in at most {@link Quote#MESSAGE} characters. The origin is left out of the text when both do not fit (it is the
     * finding's property {@code setThrough}, and the finding's location is the flag itself), then the condition is
     * shortened further.
     */
    static String flagMessage(String own, String via, int more, Condition cond) {
        RuleCatalog cat = RuleCatalog.get();
        String m = cat.phrase("flag-via", "message", own, "via", Quote.shorten(via, Quote.TEXT));
        if (more > 0) m = cat.phrase("flag-more", "message", m, "count", more);
        if (cond != null) m = cat.phrase("flag-condition", "message", m, "condition", cond.text());
        if (m.length() <= Quote.MESSAGE) return m;
        m = more > 0 ? cat.phrase("flag-more", "message", own, "count", more) : own;
        if (cond == null) return m;
        for (Condition c : List.of(cond, cond.brief())) {
            String full = cat.phrase("flag-condition", "message", m, "condition", c.text());
            if (full.length() <= Quote.MESSAGE) return full;
        }
        Condition c = cond.brief();
        String bare = cat.phrase("flag-condition", "message", m, "condition", c.verdict());
        return cat.phrase(
                "flag-condition", "message", m, "condition", c.text(Math.max(12, Quote.MESSAGE - bare.length())));
    }
}
