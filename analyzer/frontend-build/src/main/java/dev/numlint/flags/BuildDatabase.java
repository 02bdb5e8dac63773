package dev.numlint.flags;

import dev.numlint.flags.checks.FlagEntry;
import dev.numlint.flags.checks.FlagHazard;
import dev.numlint.flags.checks.FlagTarget;
import dev.numlint.model.Location;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The compilation database the build context comes from ({@code -p}, or found automatically), as the judge of which
 * flags are in the build: the hazards its compile commands carry, by flag decision (rule, target, the flag's
 * canonical name and value; {@link FlagReporter#decision}), and how many commands each compiler has.
 *
 * <p>A flag written in a build file whose decision no compile command of its compiler carries is not in this build
 * (an {@code option()} that is off, a branch for another compiler); one that some command carries is in it, whatever
 * condition the build file was read to set it under. The database does not say which build-file line a command's
 * flag came from; a flag written at several lines with one decision is in the build at all of them.
 */
final class BuildDatabase {
    /** The related-location text of the first compile command with a flag reported at a build file. */
    static final String RELATED = "first compile command with this flag";

    private final String file;
    private final int cudaEntries;
    private final int hostEntries;
    /** The hazards of the database by decision, each with its commands (one hazard per command). */
    final Map<String, List<FlagHazard>> groups = new LinkedHashMap<>();
    /** Each compile command: the flag decisions it carries and the values it gives each single-valued option. */
    private final List<Command> commands = new ArrayList<>();

    /**
     * A compile command as {@link #contradiction} reads it: decisions, and the values of options by target and name
     * (every value written, not only the last: a later {@code -O3} appended to an assignment's {@code -O2} leaves
     * the assignment's value in the command).
     */
    private record Command(Set<String> decisions, Map<String, Set<String>> options, Set<String> names) {}

    /** Options that take one value, the last one written winning: other values of the same option contradict it. */
    private static final Set<String> SINGLE_VALUED =
            Set.of("std", "march", "mtune", "mcpu", "mfpmath", "ffp-contract", "mprefer-vector-width");

    BuildDatabase(String file, int cudaEntries, int hostEntries) {
        this.file = file;
        this.cudaEntries = cudaEntries;
        this.hostEntries = hostEntries;
    }

    /** How many compile commands carry a flag decision, and where (their lines, in order). */
    record Count(int entries, List<Location> sites) {}

    String file() {
        return file;
    }

    void add(String decision, List<FlagHazard> hs) {
        groups.computeIfAbsent(decision, k -> new ArrayList<>()).addAll(hs);
    }

    /** Records one compile command of the database, interpreted: its hazards' decisions and its option values. */
    void command(FlagInterpreter.Result r) {
        Set<String> decisions = new HashSet<>();
        for (FlagHazard h : r.hazards) decisions.add(FlagReporter.decision(h));
        Map<String, Set<String>> options = new HashMap<>();
        Set<String> names = new HashSet<>();
        for (FlagEntry e : r.entries) {
            String[] o = option(e);
            if (o != null)
                options.computeIfAbsent(e.target() + "\u0000" + o[0], k -> new HashSet<>())
                        .add(o[1]);
            names.add(name(e));
        }
        commands.add(new Command(decisions, options, names));
    }

    /** A single-valued option and its value ({@code -std=gnu11}: std, gnu11; {@code -O3}: O, 3), or null. */
    private static String[] option(FlagEntry e) {
        String n = e.name();
        if (n.equals("Ofast") || n.matches("O[0-3sgz]?"))
            return new String[] {"O", n.length() == 1 ? "1" : n.substring(1)};
        if (e.value() == null || !SINGLE_VALUED.contains(n)) return null;
        return new String[] {n, e.value().toLowerCase(Locale.ROOT)};
    }

    /**
     * A flag written beside a setting (the other flags of its assignment, {@code written}) that the compile commands
     * carrying the setting's {@code decision} contradict: none of them gives its option its value, and some give the
     * option another value ({@code -std=gnu11} where the commands have {@code -std=gnu99}). That place is not where
     * the commands' flags come from. Returns the flag and the commands' value, or null when none contradicts.
     * {@code own}, the setting's own flag, is left out with its option.
     */
    String contradiction(String decision, FlagEntry own, Collection<FlagEntry> written) {
        String[] self = option(own);
        String ownOption = self == null ? own.name() : self[0];
        for (FlagEntry w : written) {
            String[] o = option(w);
            if (o == null || o[0].equals(ownOption)) continue;
            String key = w.target() + "\u0000" + o[0];
            boolean same = false;
            String other = null;
            for (Command c : commands) {
                Set<String> vs = c.decisions.contains(decision) ? c.options.get(key) : null;
                if (vs == null) continue;
                if (vs.contains(o[1])) same = true;
                else if (other == null) other = vs.iterator().next();
            }
            if (!same && other != null) return w.flag() + " (the compile commands have " + value(o[0], other) + ")";
        }
        return null;
    }

    /** A flag as {@link #carries} compares it: its target and name. */
    static String name(FlagEntry e) {
        return e.target() + "\u0000" + e.name();
    }

    /** Whether every compile command carrying {@code decision} carries every flag of {@code written} (by name). */
    boolean carries(String decision, Collection<FlagEntry> written) {
        boolean any = false;
        for (Command c : commands) {
            if (!c.decisions.contains(decision)) continue;
            any = true;
            for (FlagEntry w : written) if (!c.names.contains(name(w))) return false;
        }
        return any;
    }

    private static String value(String option, String v) {
        return option.equals("O") ? "-O" + v : "-" + option + "=" + v;
    }

    /** Whether the database has compile commands of the compiler that a flag of {@code target} goes to. */
    boolean covers(FlagTarget target) {
        return entries(target) > 0;
    }

    /** The database's compile commands of the compiler a flag of {@code target} goes to. */
    int entries(FlagTarget target) {
        return target == FlagTarget.HOST ? hostEntries : cudaEntries;
    }

    boolean has(String decision) {
        return groups.containsKey(decision);
    }

    /** The directories the commands ran in and the directories of the files they compile (absolute, normalized). */
    private final Set<java.nio.file.Path> ranIn = new HashSet<>();

    private final Set<java.nio.file.Path> compiledIn = new HashSet<>();

    /** Whether some compiled file of the database exists: its paths are this tree's (not a database moved here). */
    private boolean real;

    /** Whether CMake wrote the commands: its generators put every object under {@code CMakeFiles/<target>.dir/}. */
    private boolean cmake;

    /** Records where the database's commands ran and what they compile ({@link #couldProduce}). */
    void places(List<CompileCommandsAudit.Entry> entries) {
        for (CompileCommandsAudit.Entry e : entries) {
            for (FlagTok t : e.toks()) cmake |= t.text().contains("CMakeFiles/");
            try {
                java.nio.file.Path dir = e.directory() == null ? null : java.nio.file.Path.of(e.directory());
                if (dir != null && dir.isAbsolute()) ranIn.add(dir.normalize());
                if (e.file() == null) continue;
                java.nio.file.Path f = java.nio.file.Path.of(e.file());
                if (!f.isAbsolute() && dir != null) f = dir.resolve(f);
                if (!f.isAbsolute()) continue;
                f = f.normalize();
                if (f.getParent() != null) compiledIn.add(f.getParent());
                real |= java.nio.file.Files.isRegularFile(f);
            } catch (RuntimeException bad) {
                // a path the platform cannot read names no place
            }
        }
    }

    /**
     * Whether the build file {@code buildFile} (absolute) can have given the database's commands their flags: a make
     * runs in its Makefile's directory, and a build file compiles files in its directory or below it. A build file
     * of a sibling project (another benchmark's Makefile, a port's Makefile for another platform) whose directory
     * holds none of the compiled files and none of the directories the commands ran in produced none of them; nor did
     * a CMake file when CMake wrote none of them (a project's alternative CMake build beside the Makefile that ran).
     * True when the database's paths are not this tree's (a database written elsewhere), where nothing can be told.
     */
    boolean couldProduce(java.nio.file.Path buildFile) {
        java.nio.file.Path d = buildFile == null
                ? null
                : buildFile.toAbsolutePath().normalize().getParent();
        if (!real || d == null) return true;
        String name = buildFile.getFileName().toString();
        if (!cmake && (name.equals("CMakeLists.txt") || name.endsWith(".cmake"))) return false;
        // a module (include(naivedspTargetProperties) from cmake/Modules/) runs in its includer's directory: its own
        // directory says nothing about which commands it produced (session 51)
        if (cmake && name.endsWith(".cmake")) return true;
        if (ranIn.contains(d)) return true;
        for (java.nio.file.Path c : compiledIn) {
            if (c.startsWith(d)) return true;
        }
        return false;
    }

    /** The directories the commands ran in (absolute, normalized). */
    Set<java.nio.file.Path> ranIn() {
        return java.util.Collections.unmodifiableSet(ranIn);
    }

    /** Whether {@code loc} is in the database itself (a flag no build file writes is reported there). */
    boolean isOwn(Location loc) {
        return loc.file().equals(file);
    }

    /**
     * How the compile commands judge the setting of {@code decision}: the hazard of the first command that keeps its
     * rule's default level (a warning somewhere in the build is a warning), else the first one's; null when no
     * command has it. A build file's list does not know the compiler or the language standard a command adds (gcc
     * or clang, {@code -std=c99} set elsewhere); the command does.
     */
    FlagHazard asBuilt(String decision) {
        List<FlagHazard> hs = groups.get(decision);
        if (hs == null || hs.isEmpty()) return null;
        for (FlagHazard h : hs) {
            if (h.level() == null) return h;
        }
        return hs.get(0);
    }

    /** The commands that carry {@code decision} and where, or null when none does. */
    Count count(String decision) {
        List<FlagHazard> hs = groups.get(decision);
        if (hs == null) return null;
        Map<Integer, Location> lines = new TreeMap<>();
        for (FlagHazard h : hs)
            lines.putIfAbsent(h.entry().loc().startLine(), h.entry().loc());
        // the commands that carry it, each once: a command can write the flag twice, on two lines of its arguments
        // (session 70 round B: CFLAGS and OPTIM_SIZE both gave -ffast-math, "in 38 of 34 compile commands")
        int carrying = 0;
        for (Command c : commands) if (c.decisions.contains(decision)) carrying++;
        return new Count(carrying > 0 ? carrying : lines.size(), List.copyOf(lines.values()));
    }

    /**
     * The hazards with the condition they were read under dropped: the compile commands prove the flag is set (a
     * CMake {@code macro()} numlint saw no call of, a condition it read as false).
     */
    static List<FlagHazard> unconditional(List<FlagHazard> hs) {
        List<FlagHazard> out = new ArrayList<>(hs.size());
        for (FlagHazard h : hs) {
            FlagTok t = h.entry().origin();
            if (t.condition() == null) {
                out.add(h);
                continue;
            }
            FlagTok bare = new FlagTok(t.text(), t.loc(), t.lang(), null, t.via());
            out.add(new FlagHazard(
                    h.ruleId(),
                    h.level(),
                    new dev.numlint.flags.checks.FlagEntry(
                            h.entry().target(),
                            h.entry().flag(),
                            h.entry().name(),
                            h.entry().value(),
                            bare,
                            h.entry().loc()),
                    h.message(),
                    h.finiteMath(),
                    h.hostRounding()));
        }
        return out;
    }
}
