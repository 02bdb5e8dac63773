package dev.numlint.flags;

import static dev.numlint.flags.MakeSyntax.*;

import dev.numlint.model.Location;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Evaluates a Makefile the way GNU make reads it for one goal, without running anything, and finds the compiler
 * flags each compiled source gets.
 *
 * <p>Read phase: logical lines (backslash-newline), comments, {@code define}/{@code endef}, variables ({@code =
 * := ::= :::= ?= += !=}, {@code override}, {@code export}, {@code private}), target-specific and pattern-specific
 * values ({@code goal: FLAGS += ...}, {@code %.o: FLAGS += ...}), {@code include}/{@code -include}/
 * {@code sinclude} of files inside the scanned tree, rules (explicit, pattern, static pattern, double-colon) and
 * their recipes, and {@code ifeq/ifneq/ifdef/ifndef/else/endif} evaluated with the values known at that point.
 * References {@code $(VAR)}, {@code ${VAR}}, {@code $(VAR:a=b)}, automatic variables and the common functions
 * (subst, patsubst, strip, findstring, filter, filter-out, sort, word, words, wordlist, firstword, lastword, dir,
 * notdir, suffix, basename, addsuffix, addprefix, join, wildcard inside the tree, if, or, and, foreach, call) are
 * expanded. {@code $(shell ...)}, {@code !=} and backticks are never executed: their value is unknown, and so is
 * every condition that depends on them (a notice says so). An undefined variable is empty, except names that
 * usually come from the environment (CUDA*, *PATH, *DIR, *HOME), which are unknown.
 *
 * <p>Build phase: the goal ({@code --make-target}, else {@code .DEFAULT_GOAL}, else the first ordinary target) and
 * its prerequisite chain are walked as make would; each target on the chain sees the target-specific values of
 * the targets that led to it; recipes on the chain that run nvcc or a host compiler give the flags of the sources
 * they compile.
 *
 * <p>Flags written where the selected configuration does not reach (a false conditional branch, the target-specific
 * values and recipes of targets the goal does not build) are returned separately, with the configuration in their
 * condition: they are audited but never become a build context. Flags under a condition whose value is unknown are
 * conditional.
 *
 * <p>Bounded: every expansion is limited in size ({@link #MAX_EXPANSION}) and depth, the total work per Makefile
 * and its includes in characters ({@link #MAX_WORK}) and time; past a limit the value is unknown and a "not fully
 * evaluated" notice names the place.
 */
final class MakefileAudit {
    /** Longest value one expansion may produce. */
    static final int MAX_EXPANSION = 256 * 1024;
    /** Characters all expansions of one Makefile (with its includes) may produce together. */
    static final long MAX_WORK = 16L << 20;
    /**
     * Variable and function references one Makefile (with its includes) may expand: doubling chains whose values stay
     * empty or blank produce almost no characters, so {@link #MAX_WORK} alone let them run for seconds (fuzzing).
     */
    static final long MAX_REFERENCES = 500_000;

    static final int MAX_DEPTH = 64;
    static final long TIME_BUDGET_NANOS = 5_000_000_000L;
    /** The build-flags layer's max-file-size, for the Makefile and every file it includes. */
    private long maxBytes = dev.numlint.spi.ScanContext.defaultMaxFileSize(dev.numlint.model.Layer.BUILD_FLAGS);

    private static final int MAX_INCLUDE_DEPTH = 16;
    private static final int MAX_CHAIN = 10_000;
    private static final String UNKNOWN = "$(?)";

    static final Set<String> CUDA_VARS = Set.of(
            "NVCCFLAGS",
            "NVCC_FLAGS",
            "NVFLAGS",
            "NV_FLAGS",
            "CUDAFLAGS",
            "CUDA_FLAGS",
            "CUFLAGS",
            "CU_FLAGS",
            "GENCODE_FLAGS",
            "SMVERSIONFLAGS",
            "NVCC_OPTS",
            "NVCCOPTS",
            "CUDA_NVCC_FLAGS",
            "NVCC_ARCH",
            "CUDA_ARCH",
            "ARCH_FLAGS",
            "CUCCOPT",
            "CUGENCODE",
            "NVCCOPT");
    private static final Set<String> HOST_VARS = Set.of(
            "CFLAGS",
            "CXXFLAGS",
            "CPPFLAGS",
            "CCFLAGS",
            "C_FLAGS",
            "CXX_FLAGS",
            "CC_FLAGS",
            "HOST_FLAGS",
            "HOSTFLAGS",
            "OPTFLAGS",
            "OPT_FLAGS",
            "CPPOPT");
    private static final Set<String> COMPILER_VARS = Set.of(
            "CC", "CXX", "NVCC", "CUDACC", "HOST_COMPILER", "HOSTCC", "HOSTCXX", "MPICC", "MPICXX", "CUCC", "NVCC_BIN");
    private static final Pattern HOST_COMPILER = Pattern.compile(
            "(?:[A-Za-z0-9_]+-){0,4}(?:gcc|g\\+\\+|cc|c\\+\\+|clang|clang\\+\\+|icpx|icx|icc|icpc|mpicc|mpicxx|mpic\\+\\+)"
                    + "(?:-\\d{1,3}(?:\\.\\d{1,3}){0,3})?");

    /** A problem with the input, for a notification. */
    record Problem(String file, int line, String level, String id, String message) {}

    /** One compiler command the selected configuration runs. */
    record Command(List<FlagTok> toks, List<Path> sources, String configuration, boolean nvcc) {}

    static final class Out {
        /** Flag variables evaluated for the goal: the context of sources no command of the chain names. */
        final List<FlagTok> variables = new ArrayList<>();
        /** Compiler commands of the recipes on the goal's prerequisite chain. */
        final List<Command> commands = new ArrayList<>();
        /** Flags written where the selected configuration does not go; each has its condition. */
        final List<FlagTok> unselected = new ArrayList<>();

        final List<Problem> problems = new ArrayList<>();
        /** Files read: the Makefile and what it includes. */
        final List<Path> read = new ArrayList<>();
        /** The goal and how it was chosen, e.g. "goal all (.DEFAULT_GOAL)"; null when the file has no rule. */
        String goal;
    }

    /** A budget ran out: the value being computed is unknown. */
    private static final class OverBudget extends RuntimeException {
        OverBudget(String m) {
            super(m, null, false, false);
        }
    }

    record Var(PosText value, boolean recursive, boolean override) {}

    /** A target- or pattern-specific assignment. */
    private record TAssign(String target, String name, String op, PosText value, boolean override, int fi, int line) {}

    private static final class Rule {
        final List<String> targets;
        final List<String> prereqs;
        final List<PosText> recipe = new ArrayList<>();
        final boolean pattern;
        final int fi;
        final int line;

        Rule(List<String> targets, List<String> prereqs, boolean pattern, int fi, int line) {
            this.targets = targets;
            this.prereqs = prereqs;
            this.pattern = pattern;
            this.fi = fi;
            this.line = line;
        }
    }

    /** Variable scope: the global variables, and one layer per target on the chain. */
    static final class Scope {
        final Scope parent;
        final Map<String, Var> vars = new HashMap<>();

        Scope(Scope parent) {
            this.parent = parent;
        }

        Var get(String n) {
            for (Scope s = this; s != null; s = s.parent) {
                Var v = s.vars.get(n);
                if (v != null) return v;
            }
            return null;
        }
    }

    record Auto(String target, List<String> prereqs, String stem) {}

    /** Conditional frame: state 0 taking, 1 skipping (known false), 2 unknown. */
    private static final class Frame {
        int state;
        boolean anyTrue;
        boolean anyUnknown;
        String desc;
        final boolean parentSkips;

        Frame(boolean parentSkips) {
            this.parentSkips = parentSkips;
        }
    }

    private final Function<Path, String> relativize;
    final Predicate<Path> inTree;
    final Path dir;
    /** make's built-in functions, evaluated against this audit. */
    private final MakeFunctions functions = new MakeFunctions(this);

    private final String makeTarget;
    private final List<Path> fileTable = new ArrayList<>();
    private final Scope global = new Scope(null);
    private final Deque<Frame> frames = new ArrayDeque<>();
    private final Map<String, List<Rule>> explicit = new LinkedHashMap<>();
    private final List<Rule> patterns = new ArrayList<>();
    private final Map<String, List<TAssign>> targetVars = new LinkedHashMap<>();
    private final List<TAssign> patternVars = new ArrayList<>();
    /** Condition per (file, line) for lines under a conditional whose value is unknown. */
    private final Map<Long, String> lineCondition = new HashMap<>();

    private final Out out = new Out();
    private final long deadline;
    final Set<String> noticed = new HashSet<>();
    private long work;
    private long references;
    private String firstTarget;
    private List<Rule> currentRules = List.of();
    private int shellCount;
    private int shellLine;
    private int shellFile;
    /** Whether the makefiles are being read ($(eval) is read then; not once the goal's recipes are expanded). */
    private boolean reading = true;

    private int evalDepth;
    private static final int MAX_EVAL_DEPTH = 8;

    private MakefileAudit(Path file, Function<Path, String> relativize, Predicate<Path> inTree, String makeTarget) {
        this.relativize = relativize;
        this.inTree = inTree;
        this.dir = file.toAbsolutePath().normalize().getParent();
        this.makeTarget = makeTarget;
        this.deadline = dev.numlint.model.CpuClock.now() + TIME_BUDGET_NANOS;
        // make's built-in defaults, and the goals of this run
        for (String[] d : new String[][] {
            {"CC", "cc"},
            {"CXX", "g++"},
            {"AR", "ar"},
            {"RM", "rm -f"},
            {"MAKECMDGOALS", makeTarget == null ? "" : makeTarget}
        }) {
            global.vars.put(d[0], new Var(PosText.of(d[1], -1, 0, 0), false, false));
        }
    }

    /**
     * Evaluates {@code file}. {@code inTree} says whether a path may be read (includes and $(wildcard) outside
     * the scanned tree are not); {@code makeTarget} is {@code --make-target} or null for the default goal.
     */
    static Out audit(
            Path file, Function<Path, String> relativize, Predicate<Path> inTree, String makeTarget, long maxBytes) {
        MakefileAudit a = new MakefileAudit(file, relativize, inTree, makeTarget);
        a.maxBytes = maxBytes;
        a.readFile(file.toAbsolutePath().normalize(), 0);
        if (!a.frames.isEmpty()) {
            a.problem(0, 0, "WARNING", "parse-error", "unterminated conditional: " + a.frames.peekLast().desc);
        }
        if (a.shellCount > 0) {
            a.problem(
                    a.shellFile,
                    a.shellLine,
                    "NOTE",
                    "not-evaluated",
                    a.shellCount + " $(shell ...)/!= value"
                            + (a.shellCount == 1 ? " is" : "s are")
                            + " not run (numlint never executes build commands): "
                            + "treated as unknown, and so is every condition that depends on "
                            + (a.shellCount == 1 ? "it" : "them"));
        }
        try {
            a.build();
        } catch (OverBudget e) {
            a.notFullyEvaluated(0, 0, e.getMessage());
        }
        return a.out;
    }

    /** Convenience for text without a file on disk (tests, fuzzing): includes and $(wildcard) find nothing. */
    static Out audit(String relFile, String text) {
        Path p = Path.of(relFile).toAbsolutePath().normalize();
        MakefileAudit a = new MakefileAudit(p, f -> relFile, f -> false, null);
        a.fileTable.add(p);
        a.listed(p);
        a.run(text, 0, 0);
        a.build();
        return a.out;
    }

    void problem(int fi, int line, String level, String id, String message) {
        String f = fi < fileTable.size() ? relativize.apply(fileTable.get(fi)) : "Makefile";
        out.problems.add(new Problem(f, line, level, id, message));
    }

    private void notFullyEvaluated(int fi, int line, String why) {
        if (noticed.add("budget")) {
            problem(
                    fi,
                    line,
                    "WARNING",
                    "not-evaluated",
                    "Makefile not fully evaluated: " + why + "; the values involved are treated as unknown");
        }
    }

    void checkTime() {
        if (dev.numlint.model.CpuClock.now() > deadline) {
            throw new OverBudget(
                    "the time budget of " + TIME_BUDGET_NANOS / 1_000_000_000L + " s per Makefile ran out");
        }
    }

    // ------------------------------------------------------------------------------------------ reading

    private void readFile(Path file, int depth) {
        String text;
        try {
            long size = Files.size(file);
            if (size > maxBytes) {
                out.problems.add(new Problem(
                        relativize.apply(file),
                        0,
                        "ERROR",
                        "file-too-large",
                        "not analyzed: the file has " + size + " bytes, more than max-file-size for build-flags ("
                                + maxBytes + ")"));
                return;
            }
            byte[] b = Files.readAllBytes(file);
            for (int i = 0; i < Math.min(b.length, 8192); i++) {
                if (b[i] == 0) {
                    out.problems.add(new Problem(
                            relativize.apply(file),
                            0,
                            "ERROR",
                            "binary-file",
                            "binary content, not a Makefile; not analyzed"));
                    return;
                }
            }
            try {
                text = StandardCharsets.UTF_8
                        .newDecoder()
                        .decode(java.nio.ByteBuffer.wrap(b))
                        .toString();
            } catch (java.nio.charset.CharacterCodingException e) {
                text = new String(b, StandardCharsets.ISO_8859_1);
            }
        } catch (IOException | RuntimeException e) {
            out.problems.add(new Problem(
                    relativize.apply(file), 0, "ERROR", "unreadable-file", "cannot read: " + e.getMessage()));
            return;
        }
        int fi = fileTable.size();
        fileTable.add(file);
        out.read.add(file);
        listed(file);
        try {
            run(text, fi, depth);
        } catch (OverBudget e) {
            notFullyEvaluated(fi, 0, e.getMessage());
        }
    }

    /**
     * Appends a file make reads to {@code $(MAKEFILE_LIST)}, as make does before reading it: a simple variable of
     * the names relative to make's working directory (the directory of the Makefile being evaluated).
     */
    private void listed(Path file) {
        String name;
        try {
            name = dir.relativize(file).toString();
        } catch (IllegalArgumentException e) {
            name = file.toString();
        }
        if (name.isEmpty()) name = file.getFileName().toString();
        Var old = global.vars.get("MAKEFILE_LIST");
        String v = (old == null ? "" : old.value().text) + " " + name;
        global.vars.put("MAKEFILE_LIST", new Var(PosText.of(v, -1, 0, 0), false, false));
    }

    private int skipState() {
        for (Frame f : frames) {
            if (f.state == 1) return 1;
        }
        for (Frame f : frames) {
            if (f.state == 2) return 2;
        }
        return 0;
    }

    private String innermost(int state) {
        for (Frame f : frames) {
            if (f.state == state) return f.desc;
        }
        return null;
    }

    private static long key(int fi, int line) {
        return ((long) fi << 32) | (line & 0xffffffffL);
    }

    private void run(String text, int fi, int depth) {
        runLines(logicalLines(text, fi), fi, depth);
    }

    private void runLines(List<PosText> lines, int fi, int depth) {
        boolean inDefine = false;
        String defineName = null;
        String defineOp = null;
        boolean defineOverride = false;
        PosText.Builder defineBody = null;
        int defineDepth = 0;
        boolean inRule = false;
        for (PosText line : lines) {
            checkTime();
            String s = line.text;
            int lineNo = line.length() > 0 ? line.lineAt(0) : 0;
            int state = skipState();
            if (state == 2 && line.length() > 0) {
                for (int l = line.lineAt(0); l <= line.lineAt(line.length() - 1); l++) {
                    lineCondition.put(key(fi, l), innermost(2));
                }
            }
            if (inDefine) {
                String t = s.trim();
                if (t.startsWith("define ") || t.equals("define")) defineDepth++;
                if (t.equals("endef") || t.startsWith("endef ") || t.startsWith("endef\t")) {
                    if (defineDepth-- == 0) {
                        inDefine = false;
                        if (state != 1) {
                            assign(global, defineName, defineOp, defineBody.build(), defineOverride, fi, lineNo);
                        }
                        continue;
                    }
                }
                if (defineBody.length() > 0) defineBody.appendSynthetic('\n');
                defineBody.append(line);
                continue;
            }
            if (s.startsWith("\t") && inRule) {
                PosText body = line.sub(1);
                if (state == 1) {
                    auditSkippedRecipe(body, innermost(1));
                } else {
                    for (Rule r : currentRules) r.recipe.add(body);
                }
                continue;
            }
            PosText code = stripComment(line);
            String t = code.text.trim();
            if (t.isEmpty()) continue;
            // conditionals
            String word = firstWord(t);
            if (word.equals("ifeq") || word.equals("ifneq") || word.equals("ifdef") || word.equals("ifndef")) {
                Frame f = new Frame(state == 1);
                f.desc = describe(t, fi, lineNo);
                if (state == 1) {
                    f.state = 1;
                    f.desc = innermost(1);
                } else {
                    int v = condition(t, word);
                    f.state = v == 1 ? 0 : v == 0 ? 1 : 2;
                    f.anyTrue = v == 1;
                    f.anyUnknown = v == 2;
                    if (v == 0) f.desc = f.desc + ", which is false in the default configuration";
                    else if (v == 2) f.desc = f.desc + ", whose value numlint cannot know";
                }
                frames.push(f);
                continue;
            }
            if (word.equals("else")) {
                inRule = false;
                Frame f = frames.peek();
                if (f == null) {
                    problem(fi, lineNo, "WARNING", "parse-error", "'else' without a matching conditional");
                    continue;
                }
                if (f.parentSkips) continue;
                String rest = t.substring(4).trim();
                String base = "the else branch of "
                        + f.desc.replaceFirst(", which is .*|, whose value .*", "")
                                .replaceFirst("^the else branch of ", "");
                if (f.anyTrue) {
                    f.state = 1;
                    f.desc = base + " (an earlier branch is taken in the default configuration)";
                } else if (f.anyUnknown) {
                    f.state = 2;
                    f.desc = base + " (an earlier condition's value numlint cannot know)";
                } else if (rest.isEmpty()) {
                    f.state = 0;
                    f.desc = base;
                } else {
                    String w2 = firstWord(rest);
                    int v = condition(rest, w2);
                    String d = describe(rest, fi, lineNo);
                    f.state = v == 1 ? 0 : v == 0 ? 1 : 2;
                    f.anyTrue = v == 1;
                    f.anyUnknown = v == 2;
                    f.desc = v == 0
                            ? d + ", which is false in the default configuration"
                            : v == 2 ? d + ", whose value numlint cannot know" : d;
                }
                continue;
            }
            if (word.equals("endif")) {
                if (frames.isEmpty()) {
                    problem(fi, lineNo, "WARNING", "parse-error", "'endif' without a matching conditional");
                } else {
                    frames.pop();
                }
                continue;
            }
            if (word.equals("define")) {
                inDefine = true;
                defineDepth = 0;
                defineBody = new PosText.Builder();
                String rest = t.substring(6).trim();
                defineOverride = false;
                String[] parts = rest.split("\\s+");
                String name = parts.length > 0 ? parts[0] : "";
                defineOp = parts.length > 1 ? parts[1] : "=";
                defineName = name;
                continue;
            }
            if (state == 1) {
                auditSkipped(code, innermost(1));
                if (!isAssignment(code) && ruleColon(code.text) >= 0) {
                    inRule = true; // its recipe lines are skipped too
                    currentRules = List.of();
                } else {
                    inRule = false;
                }
                continue;
            }
            // include
            if (word.equals("include") || word.equals("-include") || word.equals("sinclude")) {
                inRule = false;
                PosText names = expand(code.trim().sub(word.length()), global, null, 0);
                for (String n : ShellWords.split(names.text)) include(n, !word.equals("include"), fi, lineNo, depth);
                continue;
            }
            if (word.equals("override")
                    || word.equals("export")
                    || word.equals("private")
                    || word.equals("unexport")
                    || word.equals("vpath")
                    || word.equals("undefine")) {
                if (!isAssignment(code)) {
                    if (word.equals("undefine"))
                        global.vars.remove(t.substring(8).trim());
                    continue;
                }
            }
            Object[] as = parseAssignment(code);
            if (as != null) {
                assign(global, (String) as[0], (String) as[1], (PosText) as[2], (Boolean) as[3], fi, lineNo);
                inRule = false;
                continue;
            }
            int colon = ruleColon(code.text);
            if (colon >= 0) {
                inRule = rule(code, colon, fi, lineNo);
            } else if (code.text.contains("$(") || code.text.contains("${")) {
                // a line of only references, such as $(foreach t,$(TARGETS),$(eval $(call RULE,$(t)))): expanded
                // for what its $(eval ...) defines
                inRule = false;
                expand(code, global, null, 0);
            }
        }
    }

    /** {@code $(eval TEXT)} while the makefiles are read: TEXT is read as makefile lines, where it was written. */
    PosText eval(PosText body) {
        int fi = 0;
        for (int i = 0; i < body.length(); i++) {
            if (body.fileAt(i) >= 0) {
                fi = body.fileAt(i);
                break;
            }
        }
        if (!reading || evalDepth >= MAX_EVAL_DEPTH) return unknownText();
        if (body.text.contains(UNKNOWN)) {
            int line = body.length() > 0 ? body.lineAt(0) : 0;
            if (noticed.add("eval:" + fi + ":" + line)) {
                problem(fi, line, "NOTE", "not-evaluated", "$(eval ...) of a value numlint cannot know: not read");
            }
            return PosText.EMPTY;
        }
        List<PosText> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= body.length(); i++) {
            if (i == body.length() || body.charAt(i) == '\n') {
                lines.add(body.sub(start, i));
                start = i + 1;
            }
        }
        evalDepth++;
        try {
            runLines(lines, fi, 0);
        } finally {
            evalDepth--;
        }
        return PosText.EMPTY;
    }

    private String describe(String t, int fi, int line) {
        String c = t.replaceAll("\\s+", " ");
        if (c.length() > 80) c = c.substring(0, 77) + "...";
        return c + " at " + relativize.apply(fileTable.get(fi)) + ":" + line;
    }

    /** A rule line; returns whether following tab lines are its recipe. */
    private boolean rule(PosText code, int colon, int fi, int line) {
        List<String> targets = words(expand(code.sub(0, colon), global, null, 0).text);
        int after = colon + 1;
        if (after < code.length() && code.charAt(after) == ':') after++; // double-colon rule
        PosText rest = code.sub(after);
        Object[] ta = parseAssignment(rest);
        if (ta != null) {
            String name = (String) ta[0];
            for (String t : targets) {
                TAssign a = new TAssign(t, name, (String) ta[1], (PosText) ta[2], (Boolean) ta[3], fi, line);
                if (t.indexOf('%') >= 0) patternVars.add(a);
                else targetVars.computeIfAbsent(t, k -> new ArrayList<>()).add(a);
            }
            currentRules = List.of();
            return false;
        }
        PosText prereqText = rest;
        PosText inline = null;
        int semi = indexOutsideRefs(rest.text, ';');
        if (semi >= 0) {
            prereqText = rest.sub(0, semi);
            inline = rest.sub(semi + 1);
        }
        // static pattern rule: targets: target-pattern: prereq-patterns
        int second = ruleColon(prereqText.text);
        List<String> prereqs;
        List<Rule> rules = new ArrayList<>();
        if (second >= 0) {
            String tp = expand(prereqText.sub(0, second), global, null, 0).text.trim();
            List<String> pps = words(expand(prereqText.sub(second + 1), global, null, 0).text);
            for (String t : targets) {
                String stem = match(tp, t);
                List<String> ps = new ArrayList<>();
                for (String pp : pps) ps.add(stem == null ? pp : pp.replace("%", stem));
                Rule r = new Rule(List.of(t), ps, false, fi, line);
                explicit.computeIfAbsent(t, k -> new ArrayList<>()).add(r);
                rules.add(r);
            }
        } else {
            prereqs = new ArrayList<>();
            for (String p : words(expand(prereqText, global, null, 0).text)) {
                if (!p.equals("|")) prereqs.add(p);
            }
            boolean pattern = targets.stream().anyMatch(t -> t.indexOf('%') >= 0);
            Rule r = new Rule(targets, prereqs, pattern, fi, line);
            if (pattern) {
                patterns.add(r);
            } else {
                for (String t : targets)
                    explicit.computeIfAbsent(t, k -> new ArrayList<>()).add(r);
            }
            rules.add(r);
            if (firstTarget == null && !pattern) {
                for (String t : targets) {
                    if (!t.startsWith(".") || t.contains("/")) {
                        firstTarget = t;
                        break;
                    }
                }
            }
        }
        if (inline != null && !inline.text.isBlank()) {
            for (Rule r : rules) r.recipe.add(inline);
        }
        currentRules = rules;
        return true;
    }

    private void include(String name, boolean optional, int fi, int line, int depth) {
        if (name.contains(UNKNOWN) || name.contains("$(") || name.contains("${")) {
            problem(
                    fi,
                    line,
                    "NOTE",
                    "not-evaluated",
                    "include of '" + name + "' whose name numlint cannot know: " + "not read");
            return;
        }
        if ((name.contains("*") || name.contains("?") || name.contains("[")) && !name.startsWith("~")) {
            // make expands wildcards in include names (inside the tree here, as $(wildcard))
            List<String> found = words(functions.wildcard(List.of(PosText.of(name, -1, 0, 0))).text);
            for (String f : found) {
                if (!f.contains("*") && !f.contains("?") && !f.contains("[")) include(f, optional, fi, line, depth);
            }
            if (found.isEmpty() && !optional) {
                problem(
                        fi,
                        line,
                        "NOTE",
                        "not-evaluated",
                        "include of '" + name + "' matches no file in the scanned " + "tree: nothing read");
            }
            return;
        }
        Path p;
        try {
            p = name.startsWith("~") ? null : dir.resolve(name).normalize(); // ~: a home directory, never the tree
        } catch (RuntimeException e) {
            return;
        }
        if (p == null || !inTree.test(p)) {
            if (!optional) {
                problem(
                        fi,
                        line,
                        "NOTE",
                        "not-evaluated",
                        "included file '" + name + "' lies outside the scanned "
                                + "tree: not read, its variables are unknown");
            }
            return;
        }
        if (!Files.isRegularFile(p)) {
            if (!optional) {
                problem(
                        fi,
                        line,
                        "NOTE",
                        "not-evaluated",
                        "included file '" + name + "' does not exist (it may be "
                                + "generated by the build): not read");
            }
            return;
        }
        if (fileTable.contains(p) || depth >= MAX_INCLUDE_DEPTH) {
            if (depth >= MAX_INCLUDE_DEPTH) {
                problem(
                        fi,
                        line,
                        "WARNING",
                        "not-evaluated",
                        "includes nested deeper than " + MAX_INCLUDE_DEPTH + ": '" + name + "' not read");
            }
            return;
        }
        readFile(p, depth + 1);
    }

    // ------------------------------------------------------------------------------------------ conditions

    /** 1 true, 0 false, 2 unknown. */
    private int condition(String t, String word) {
        String rest = t.substring(word.length()).trim();
        try {
            if (word.equals("ifdef") || word.equals("ifndef")) {
                String name =
                        expand(PosText.of(rest, -1, 0, 0), global, null, 0).text.trim();
                if (unknown(name)) return 2;
                Var v = global.get(name);
                int r;
                if (v == null) {
                    if (environmentLike(name)) return 2;
                    r = 0;
                } else {
                    r = v.value().text.isEmpty() ? 0 : 1;
                }
                return word.equals("ifdef") ? r : 1 - r;
            }
            String[] args = condArgs(rest);
            if (args == null) return 2;
            String a = expand(PosText.of(args[0], -1, 0, 0), global, null, 0).text;
            String b = expand(PosText.of(args[1], -1, 0, 0), global, null, 0).text;
            if (unknown(a) || unknown(b)) return 2;
            boolean eq = a.equals(b);
            return (word.equals("ifeq") == eq) ? 1 : 0;
        } catch (OverBudget e) {
            notFullyEvaluated(0, 0, e.getMessage());
            return 2;
        }
    }

    static boolean unknown(String s) {
        return s.contains(UNKNOWN) || s.contains("$(") || s.contains("${") || s.indexOf('`') >= 0;
    }

    /** Variables usually set by the environment: unknown when undefined (not empty). */
    private static boolean environmentLike(String n) {
        return n.startsWith("CUDA")
                || n.endsWith("PATH")
                || n.endsWith("DIR")
                || n.endsWith("HOME")
                || n.equals("SHELL")
                || n.equals("OS");
    }

    // ------------------------------------------------------------------------------------------ variables

    private void assign(Scope scope, String name, String op, PosText value, boolean override, int fi, int line) {
        Var old = scope.get(name);
        if (old != null && old.override() && !override) return;
        switch (op) {
            case "?=" -> {
                if (old == null) scope.vars.put(name, new Var(value, true, override));
            }
            case "+=" -> {
                if (skipState() == 2 && !isFlagVar(name) && old != null) {
                    return; // see below: only flag variables collect the values of unknown branches
                }
                if (old == null) {
                    scope.vars.put(name, new Var(value, true, override));
                } else {
                    PosText v = old.recursive() ? value : expand(value, scope, null, 0);
                    scope.vars.put(name, new Var(join(old.value(), v), old.recursive(), override || old.override()));
                }
            }
            case "!=" -> {
                shell(fi, line);
                scope.vars.put(name, new Var(PosText.of(UNKNOWN, -1, 0, 0), false, override));
            }
            default -> {
                boolean recursive = op.equals("=");
                PosText v = recursive ? value : expand(value, scope, null, 0);
                if (skipState() == 2 && old != null && !old.value().text.isEmpty()) {
                    // the condition's value is unknown: a flag variable keeps the previous flags too (either
                    // branch may run; the new ones are conditional); another variable (a file list, a suffix, a
                    // compiler) keeps its previous value, since a mixture of both would be neither
                    if (!isFlagVar(name)) return;
                    v = join(old.value(), v);
                }
                scope.vars.put(name, new Var(v, recursive, override));
            }
        }
    }

    private PosText join(PosText a, PosText b) {
        if (a.text.isEmpty()) return b;
        if (b.text.isEmpty()) return a;
        if (a.length() + b.length() + 1 > MAX_EXPANSION) {
            throw new OverBudget("a value grows beyond " + MAX_EXPANSION + " characters");
        }
        return a.concat(PosText.of(" ", -1, 0, 0)).concat(b);
    }

    void shell(int fi, int line) {
        if (shellCount++ == 0) {
            shellFile = fi;
            shellLine = line;
        }
    }

    private void charge(int n) {
        work += n;
        if (work > MAX_WORK)
            throw new OverBudget("variable expansion produced more than " + (MAX_WORK >> 20) + " MiB of text");
    }

    /** Expands variable references and functions; unknown values become {@value #UNKNOWN}. */
    PosText expand(PosText t, Scope scope, Auto auto, int depth) {
        if (t.text.indexOf('$') < 0) return t;
        if (depth > MAX_DEPTH) throw new OverBudget("variables nested deeper than " + MAX_DEPTH + " levels");
        PosText.Builder b = new PosText.Builder();
        int i = 0;
        int n = t.length();
        while (i < n) {
            char c = t.charAt(i);
            if (c != '$' || i + 1 >= n) {
                b.append(t, i);
                i++;
                continue;
            }
            char d = t.charAt(i + 1);
            if (d == '$') {
                b.append('$', t.fileAt(i), t.lineAt(i), t.colAt(i), true);
                i += 2;
                continue;
            }
            if (d == '(' || d == '{') {
                int close = matchClose(t.text, i + 1);
                if (close < 0) {
                    b.append(t, i);
                    i++;
                    continue;
                }
                countReference();
                PosText ref = reference(t.sub(i + 2, close), d == '(' ? ',' : ',', scope, auto, depth);
                appendBounded(b, ref);
                i = close + 1;
                continue;
            }
            // single-character variable: $@ $< $^ $* $? or $X
            countReference();
            appendBounded(b, variable(String.valueOf(d), scope, auto, depth, t, i));
            i += 2;
        }
        return b.build();
    }

    private void countReference() {
        if (++references > MAX_REFERENCES) {
            throw new OverBudget("more than " + MAX_REFERENCES + " variable references expanded");
        }
    }

    void appendBounded(PosText.Builder b, PosText v) {
        if (b.length() + v.length() > MAX_EXPANSION) {
            throw new OverBudget("an expansion grows beyond " + MAX_EXPANSION + " characters");
        }
        charge(v.length());
        b.append(v);
    }

    PosText unknownText() {
        return PosText.of(UNKNOWN, -1, 0, 0);
    }

    private PosText reference(PosText inner, char sep, Scope scope, Auto auto, int depth) {
        String s = inner.text;
        int sp = 0;
        while (sp < s.length()
                && !Character.isWhitespace(s.charAt(sp))
                && s.charAt(sp) != ':'
                && s.charAt(sp) != '$'
                && s.charAt(sp) != '(') sp++;
        String fname = s.substring(0, sp);
        if (sp < s.length() && Character.isWhitespace(s.charAt(sp)) && MakeFunctions.FUNCTIONS.contains(fname)) {
            return functions.function(fname, inner.sub(sp + 1), scope, auto, depth);
        }
        // $(VAR:a=b) substitution reference
        int colon = indexOutsideRefs(s, ':');
        if (colon > 0 && s.indexOf('=', colon) > colon) {
            PosText name = expand(inner.sub(0, colon), scope, auto, depth + 1);
            int eq = s.indexOf('=', colon);
            String from = expand(inner.sub(colon + 1, eq), scope, auto, depth + 1).text;
            String to = expand(inner.sub(eq + 1), scope, auto, depth + 1).text;
            PosText v = variable(name.text.trim(), scope, auto, depth, null, 0);
            if (!from.contains("%")) {
                from = "%" + from;
                to = "%" + to;
            }
            return functions.patsubst(from, to, v);
        }
        PosText name = expand(inner, scope, auto, depth + 1);
        return variable(name.text.trim(), scope, auto, depth, null, 0);
    }

    private PosText variable(String name, Scope scope, Auto auto, int depth, PosText at, int pos) {
        if (auto != null) {
            String base = name.length() == 2 && (name.charAt(1) == 'D' || name.charAt(1) == 'F')
                    ? name.substring(0, 1)
                    : name;
            String v =
                    switch (base) {
                        case "@" -> auto.target();
                        case "<" -> auto.prereqs().isEmpty()
                                ? ""
                                : auto.prereqs().get(0);
                        case "^", "+", "?" -> String.join(" ", new LinkedHashSet<>(auto.prereqs()));
                        case "*" -> auto.stem() == null ? "" : auto.stem();
                        default -> null;
                    };
            if (v != null) {
                if (name.length() == 2) {
                    List<String> ws = new ArrayList<>();
                    for (String w : words(v)) {
                        int sl = w.lastIndexOf('/');
                        ws.add(name.charAt(1) == 'D' ? (sl < 0 ? "." : w.substring(0, sl)) : w.substring(sl + 1));
                    }
                    v = String.join(" ", ws);
                }
                return PosText.of(v, -1, 0, 0);
            }
        }
        if ("@<^+?*%|".contains(name) && name.length() == 1) return unknownText();
        Var v = scope.get(name);
        if (v == null) {
            if (name.equals("MAKE")) return PosText.of("make", -1, 0, 0);
            if (name.equals("CURDIR")) return PosText.of(dir.toString(), -1, 0, 0);
            return environmentLike(name) ? unknownText() : PosText.EMPTY;
        }
        if (!v.recursive()) return v.value();
        return expand(v.value(), scope, auto, depth + 1);
    }

    // ------------------------------------------------------------------------------------------ unselected text

    /** Flags in a line the default configuration skips: audited with the condition, never applied. */
    private void auditSkipped(PosText code, String why) {
        Object[] as = parseAssignment(code);
        String name = null;
        PosText value = null;
        int colon = ruleColon(code.text);
        if (as != null) {
            name = (String) as[0];
            value = (PosText) as[2];
        } else if (colon >= 0) {
            PosText rest = code.sub(colon + 1);
            Object[] ta = parseAssignment(rest);
            if (ta != null) {
                name = (String) ta[0];
                value = (PosText) ta[2];
            }
        }
        if (name == null) return;
        String cond = why;
        try {
            tokens(expand(value, global, null, 0), name, cond, out.unselected);
        } catch (OverBudget e) {
            notFullyEvaluated(code.fileAt(0), code.lineAt(0), e.getMessage());
        }
    }

    private void auditSkippedRecipe(PosText body, String why) {
        try {
            for (List<PosText> cmd : commands(expand(body, global, null, 0))) {
                commandToks(cmd, why, out.unselected);
            }
        } catch (OverBudget e) {
            notFullyEvaluated(body.fileAt(0), body.lineAt(0), e.getMessage());
        }
    }

    /** Tokens of a flag variable's or compiler variable's value. */
    private void tokens(PosText value, String name, String cond, List<FlagTok> into) {
        List<PosText> words = ShellWords.split(value);
        if (isFlagVar(name)) {
            FlagTok.Lang lang = varLang(name);
            for (PosText w : words) add(into, w, lang, name, cond);
        } else if (COMPILER_VARS.contains(name) && !words.isEmpty()) {
            FlagTok.Lang lang = compilerOf(words.get(0).text);
            if (lang != null) {
                for (PosText w : words.subList(1, words.size())) add(into, w, lang, name, cond);
            }
        }
    }

    private void add(List<FlagTok> into, PosText w, FlagTok.Lang lang, String via, String cond) {
        if (w.text.isEmpty() || w.fileAt(0) < 0 || w.text.contains(UNKNOWN)) return;
        String written = lineCondition.get(key(w.fileAt(0), w.lineAt(0)));
        String c = cond == null ? written : written == null ? cond : cond + " and " + written;
        into.add(new FlagTok(
                w.text,
                Location.of(relativize.apply(fileTable.get(w.fileAt(0))), w.lineAt(0), w.colAt(0)),
                lang,
                c,
                via));
    }

    static FlagTok.Lang varLang(String name) {
        if (CUDA_VARS.contains(name)
                || name.startsWith("NVCC")
                || name.startsWith("CUDA")
                || name.startsWith("NV_")
                || name.startsWith("GENCODE")
                || name.startsWith("CUCC")) {
            return FlagTok.Lang.CUDA;
        }
        if (HOST_VARS.contains(name)) return FlagTok.Lang.HOST;
        return FlagTok.Lang.ANY;
    }

    static boolean isFlagVar(String name) {
        return CUDA_VARS.contains(name) || HOST_VARS.contains(name) || name.endsWith("FLAGS");
    }

    /** The compiler a command word names: CUDA for nvcc, HOST for gcc/clang/icpx..., null otherwise. */
    static FlagTok.Lang compilerOf(String word) {
        String base = word.substring(word.lastIndexOf('/') + 1);
        if (base.length() > 64) return null;
        if (base.equals("nvcc") || base.equals("nvcc.exe")) return FlagTok.Lang.CUDA;
        if (HOST_COMPILER.matcher(base).matches()) return FlagTok.Lang.HOST;
        return null;
    }

    // ------------------------------------------------------------------------------------------ the build

    private void build() {
        reading = false;
        String goal = makeTarget;
        String how;
        if (goal != null) {
            how = "--make-target";
        } else {
            Var dg = global.get(".DEFAULT_GOAL");
            String v =
                    dg == null ? null : expand(dg.value(), global, null, 0).text.trim();
            if (v != null && !v.isEmpty() && !unknown(v)) {
                goal = v;
                how = ".DEFAULT_GOAL";
            } else {
                goal = firstTarget;
                how = "the first target";
            }
        }
        Set<String> visited = new LinkedHashSet<>();
        if (goal != null) {
            out.goal = goal + (how.equals("the first target") ? "" : " (" + how + ")");
            if (makeTarget != null && !explicit.containsKey(goal) && patternFor(goal) == null) {
                problem(
                        0,
                        0,
                        "WARNING",
                        "not-evaluated",
                        "--make-target '" + goal + "': no such target in " + relativize.apply(fileTable.get(0)));
            }
            visit(goal, new ArrayList<>(), visited);
        }
        // the flag variables as the goal sees them: context of sources no command of the chain names
        Scope goalScope = goal == null ? global : scopeFor(List.of(goal));
        for (String name : new TreeSet<>(allNames(goalScope))) {
            Var v = goalScope.get(name);
            if (!isFlagVar(name) && !COMPILER_VARS.contains(name)) continue;
            try {
                tokens(v.recursive() ? expand(v.value(), goalScope, null, 0) : v.value(), name, null, out.variables);
            } catch (OverBudget e) {
                notFullyEvaluated(0, 0, e.getMessage());
            }
        }
        // target-specific values and recipes the goal never reaches: audited, with the configuration named
        String goalName = goal == null ? "none" : "'" + goal + "'";
        for (Map.Entry<String, List<TAssign>> e : targetVars.entrySet()) {
            if (visited.contains(e.getKey())) continue;
            String cond = "Makefile target '" + e.getKey() + "' (not built by the default goal " + goalName + ")";
            if (makeTarget != null)
                cond = "Makefile target '" + e.getKey() + "' (not built by --make-target " + goalName + ")";
            for (TAssign a : e.getValue()) unselectedAssign(a, cond);
        }
        for (TAssign a : patternVars) {
            boolean used = visited.stream().anyMatch(t -> match(a.target(), t) != null);
            if (!used)
                unselectedAssign(
                        a,
                        "Makefile pattern '" + a.target() + "' (no target the goal " + goalName
                                + " builds matches it)");
        }
        Set<Rule> seen = new HashSet<>();
        for (Map.Entry<String, List<Rule>> e : explicit.entrySet()) {
            if (visited.contains(e.getKey())) continue;
            for (Rule r : e.getValue()) {
                if (r.recipe.isEmpty() || !seen.add(r)) continue;
                if (r.targets.stream().anyMatch(visited::contains)) continue;
                String t = r.targets.get(0);
                String cond = "the recipe of Makefile target '" + t + "' (not built by the "
                        + (makeTarget != null ? "--make-target " : "default goal ") + goalName + ")";
                Scope sc = scopeFor(List.of(t));
                Auto auto = new Auto(t, r.prereqs, null);
                for (PosText line : r.recipe) {
                    try {
                        for (List<PosText> cmd : commands(expand(line, sc, auto, 0))) {
                            commandToks(cmd, cond, out.unselected);
                        }
                    } catch (OverBudget ex) {
                        notFullyEvaluated(line.fileAt(0), line.lineAt(0), ex.getMessage());
                    }
                }
            }
        }
    }

    private static Set<String> allNames(Scope s) {
        Set<String> names = new HashSet<>();
        for (Scope x = s; x != null; x = x.parent) names.addAll(x.vars.keySet());
        return names;
    }

    private void unselectedAssign(TAssign a, String cond) {
        if (!isFlagVar(a.name()) && !COMPILER_VARS.contains(a.name())) return;
        try {
            Scope sc = new Scope(global);
            tokens(expand(a.value(), sc, null, 0), a.name(), cond, out.unselected);
        } catch (OverBudget e) {
            notFullyEvaluated(a.fi(), a.line(), e.getMessage());
        }
    }

    /** The scope of a target reached through {@code chain} (outermost first). */
    private Scope scopeFor(List<String> chain) {
        Scope s = global;
        for (String t : chain) {
            List<TAssign> own = new ArrayList<>();
            for (TAssign a : patternVars) {
                if (match(a.target(), t) != null) own.add(a);
            }
            own.addAll(targetVars.getOrDefault(t, List.of()));
            if (own.isEmpty()) continue;
            Scope next = new Scope(s);
            for (TAssign a : own) {
                try {
                    applyTarget(next, a);
                } catch (OverBudget e) {
                    notFullyEvaluated(a.fi(), a.line(), e.getMessage());
                }
            }
            s = next;
        }
        return s;
    }

    private void applyTarget(Scope scope, TAssign a) {
        Var old = scope.get(a.name());
        if (old != null && old.override() && !a.override()) return;
        switch (a.op()) {
            case "+=" -> {
                if (old == null) {
                    scope.vars.put(a.name(), new Var(a.value(), true, a.override()));
                } else {
                    PosText v = old.recursive() ? a.value() : expand(a.value(), scope, null, 0);
                    scope.vars.put(a.name(), new Var(join(old.value(), v), old.recursive(), a.override()));
                }
            }
            case "?=" -> {
                if (old == null) scope.vars.put(a.name(), new Var(a.value(), true, a.override()));
            }
            case "=" -> scope.vars.put(a.name(), new Var(a.value(), true, a.override()));
            default -> scope.vars.put(a.name(), new Var(expand(a.value(), scope.parent, null, 0), false, a.override()));
        }
    }

    /** A pattern rule that can make {@code target}, with the stem: prerequisites exist or are targets. */
    private Object[] patternFor(String target) {
        for (Rule r : patterns) {
            if (r.recipe.isEmpty()) continue;
            for (String tp : r.targets) {
                String stem = match(tp, target);
                if (stem == null) continue;
                List<String> ps = new ArrayList<>();
                boolean ok = true;
                for (String p : r.prereqs) {
                    String x = p.replace("%", stem);
                    ps.add(x);
                    if (!explicit.containsKey(x) && !exists(x)) ok = false;
                }
                if (ok) return new Object[] {r, stem, ps};
            }
        }
        return null;
    }

    private boolean exists(String name) {
        try {
            Path p = dir.resolve(name).normalize();
            return inTree.test(p) && Files.exists(p);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void visit(String target, List<String> chain, Set<String> visited) {
        checkTime();
        if (visited.size() > MAX_CHAIN || !visited.add(target)) return;
        List<Rule> rs = explicit.getOrDefault(target, List.of());
        List<String> prereqs = new ArrayList<>();
        Rule recipeRule = null;
        String stem = null;
        for (Rule r : rs) {
            prereqs.addAll(r.prereqs);
            if (!r.recipe.isEmpty()) recipeRule = r;
        }
        if (recipeRule == null) {
            Object[] pf = patternFor(target);
            if (pf != null) {
                recipeRule = (Rule) pf[0];
                stem = (String) pf[1];
                @SuppressWarnings("unchecked")
                List<String> ps = (List<String>) pf[2];
                List<String> all = new ArrayList<>(ps);
                all.addAll(prereqs);
                prereqs = all;
            }
        }
        List<String> here = new ArrayList<>(chain);
        here.add(target);
        for (String p : prereqs) visit(p, here, visited);
        if (recipeRule == null) return;
        Scope sc = scopeFor(here);
        Auto auto = new Auto(target, prereqs, stem);
        String config = "Makefile " + configName(here);
        for (PosText line : recipeRule.recipe) {
            try {
                for (List<PosText> cmd : commands(expand(line, sc, auto, 0))) {
                    List<FlagTok> toks = new ArrayList<>();
                    int[] lang = new int[1];
                    List<String> srcs = commandToks(cmd, null, toks, lang);
                    if (lang[0] == 0) continue;
                    List<Path> paths = new ArrayList<>();
                    for (String s : srcs) {
                        try {
                            paths.add(dir.resolve(s).normalize());
                        } catch (RuntimeException e) {
                            // not a path
                        }
                    }
                    out.commands.add(new Command(toks, paths, config, lang[0] == 1));
                }
            } catch (OverBudget e) {
                notFullyEvaluated(line.fileAt(0), line.lineAt(0), e.getMessage());
            }
        }
    }

    private String configName(List<String> chain) {
        List<String> c = chain;
        if (c.size() > 6) {
            c = new ArrayList<>(chain.subList(0, 3));
            c.add("...");
            c.addAll(chain.subList(chain.size() - 2, chain.size()));
        }
        return "goal " + String.join(" -> ", c);
    }

    private void commandToks(List<PosText> words, String cond, List<FlagTok> into) {
        commandToks(words, cond, into, new int[1]);
    }

    /** Flags of one command into {@code into}; returns its source files; lang[0] = 1 nvcc, 2 host, 0 none. */
    private List<String> commandToks(List<PosText> words, String cond, List<FlagTok> into, int[] lang) {
        int k = 0;
        while (k < words.size()) {
            String w = stripPrefix(words.get(k).text);
            if (w.isEmpty() || w.contains("=") && !w.startsWith("-")) {
                k++;
                continue;
            }
            break;
        }
        if (k >= words.size()) return List.of();
        FlagTok.Lang l = compilerOf(stripPrefix(words.get(k).text));
        if (l == null) return List.of();
        lang[0] = l == FlagTok.Lang.CUDA ? 1 : 2;
        boolean deviceOnly = false;
        for (PosText w : words) {
            String s = w.text;
            if (s.equals("-cubin")
                    || s.equals("--cubin")
                    || s.equals("-ptx")
                    || s.equals("--ptx")
                    || s.equals("-fatbin")
                    || s.equals("--fatbin")) {
                deviceOnly = true;
            }
        }
        List<String> sources = new ArrayList<>();
        String via = words.get(k).text.substring(words.get(k).text.lastIndexOf('/') + 1) + " command";
        for (PosText w : words.subList(k + 1, words.size())) {
            String s = w.text;
            if (deviceOnly
                    && (s.equals("-m32")
                            || s.equals("-m64")
                            || s.startsWith("-Xcompiler")
                            || s.startsWith("--compiler-options"))) {
                continue; // no host code is compiled for -cubin/-ptx/-fatbin
            }
            if (!s.startsWith("-") && isSourceName(s)) sources.add(s);
            add(into, w, l, via.replaceFirst("^@", ""), cond);
        }
        return sources;
    }
}
