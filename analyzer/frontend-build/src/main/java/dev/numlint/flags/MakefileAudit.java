package dev.numlint.flags;

import static dev.numlint.flags.MakeFlags.*;
import static dev.numlint.flags.MakeSyntax.*;
import static dev.numlint.flags.MakeValues.*;

import dev.numlint.flags.MakeDatabase.Rule;
import dev.numlint.flags.MakeDatabase.TAssign;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

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
 * <p>Bounded: every expansion is limited in size ({@link MakeBudget#MAX_EXPANSION}) and depth, the total work per Makefile
 * and its includes in characters ({@link MakeBudget#MAX_WORK}) and time; past a limit the value is unknown and a "not fully
 * evaluated" notice names the place.
 *
 * <p>This class reads: lines, conditionals ({@link MakeConditionals}), assignments, rules and includes into a
 * {@link MakeDatabase}. The values are {@link MakeValues}, expanded by {@link MakeExpander} (with
 * {@link MakeFunctions}) within a {@link MakeBudget}; the build phase is {@link MakeGoal}; the flags found are
 * reported by {@link MakeFlags} into a {@link MakeResult}. Each gets the evaluator as {@link MakeEvaluator}.
 */
final class MakefileAudit {
    /** The build-flags layer's max-file-size, for the Makefile and every file it includes. */
    private long maxBytes = dev.numlint.spi.ScanContext.defaultMaxFileSize(dev.numlint.model.Layer.BUILD_FLAGS);

    private static final int MAX_INCLUDE_DEPTH = 16;

    private final Function<Path, String> relativize;
    private final Predicate<Path> inTree;
    private final Path dir;
    private final String makeTarget;

    private final MakeResult out = new MakeResult();
    /** The files read, by index: the Makefile and what it includes. */
    private final List<Path> fileTable = new ArrayList<>();

    private final MakeNotices notices;
    private final MakeDatabase db = new MakeDatabase();
    private final MakeExpander expander;
    private final MakeConditionals conditionals;
    private final MakeFlags flags;
    /** The rules whose recipe the following tab lines are. */
    private List<Rule> currentRules = List.of();

    private MakefileAudit(Path file, Function<Path, String> relativize, Predicate<Path> inTree, String makeTarget) {
        this.relativize = relativize;
        this.inTree = inTree;
        this.dir = file.toAbsolutePath().normalize().getParent();
        this.makeTarget = makeTarget;
        this.notices = new MakeNotices(relativize, fileTable, out.problems);
        this.expander = new MakeExpander(new MakeBudget(), notices, dir, inTree, (lines, fi) -> runLines(lines, fi, 0));
        this.conditionals = new MakeConditionals(expander, db.global, notices);
        this.flags = new MakeFlags(notices, conditionals);
        // make's built-in defaults, and the goals of this run
        for (String[] d : new String[][] {
            {"CC", "cc"},
            {"CXX", "g++"},
            {"AR", "ar"},
            {"RM", "rm -f"},
            {"MAKECMDGOALS", makeTarget == null ? "" : makeTarget}
        }) {
            db.global.vars.put(d[0], new Var(PosText.of(d[1], -1, 0, 0), false, false));
        }
    }

    /** The condition of the flags of an $(if ...) whose condition reads a $(shell ...) numlint does not run. */
    static final String UNDECIDED = "an $(if) on a $(shell ...) not run";

    /**
     * Evaluates {@code file}. {@code inTree} says whether a path may be read (includes and $(wildcard) outside
     * the scanned tree are not); {@code makeTarget} is {@code --make-target} or null for the default goal.
     */
    static MakeResult audit(
            Path file, Function<Path, String> relativize, Predicate<Path> inTree, String makeTarget, long maxBytes) {
        MakefileAudit a = new MakefileAudit(file, relativize, inTree, makeTarget);
        a.maxBytes = maxBytes;
        a.readFile(file.toAbsolutePath().normalize(), 0);
        String open = a.conditionals.unterminated();
        if (open != null) {
            a.notices.problem(0, 0, "WARNING", "parse-error", "unterminated conditional: " + open);
        }
        try {
            a.build();
        } catch (MakeBudget.OverBudget e) {
            a.notices.notFullyEvaluated(0, 0, e.getMessage());
        }
        // after the build: a recursive variable's $(shell ...) is only met when the goal's recipes expand it
        int shells = a.expander.shellCount();
        if (shells > 0) {
            a.notices.problem(
                    a.expander.shellFile(),
                    a.expander.shellLine(),
                    "NOTE",
                    "not-evaluated",
                    shells + " $(shell ...)/!= value"
                            + (shells == 1 ? " is" : "s are")
                            + " not run (numlint never executes build commands): "
                            + "treated as unknown, and so is every condition that depends on "
                            + (shells == 1 ? "it" : "them"));
        }
        for (java.util.Map.Entry<String, PosText> u : a.expander.undecided()) {
            a.flags.undecidedTokens(u.getValue(), u.getKey(), UNDECIDED, a.out.unselected);
        }
        return a.out;
    }

    /** Convenience for text without a file on disk (tests, fuzzing): includes and $(wildcard) find nothing. */
    static MakeResult audit(String relFile, String text) {
        Path p = Path.of(relFile).toAbsolutePath().normalize();
        MakefileAudit a = new MakefileAudit(p, f -> relFile, f -> false, null);
        a.fileTable.add(p);
        a.listed(p);
        a.run(text, 0, 0);
        a.build();
        return a.out;
    }

    /** The build phase: the goal's chain, once the makefiles are read. */
    private void build() {
        expander.readingDone();
        new MakeGoal(db, expander, flags, notices, out, makeTarget, dir, inTree).build();
    }

    // ------------------------------------------------------------------------------------------ reading

    private void readFile(Path file, int depth) {
        String text;
        try {
            long size = Files.size(file);
            if (size > maxBytes) {
                out.problems.add(new MakeResult.Problem(
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
                    out.problems.add(new MakeResult.Problem(
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
            out.problems.add(new MakeResult.Problem(
                    relativize.apply(file), 0, "ERROR", "unreadable-file", "cannot read: " + e.getMessage()));
            return;
        }
        int fi = fileTable.size();
        fileTable.add(file);
        out.read.add(file);
        listed(file);
        try {
            run(text, fi, depth);
        } catch (MakeBudget.OverBudget e) {
            notices.notFullyEvaluated(fi, 0, e.getMessage());
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
        Var old = db.global.vars.get("MAKEFILE_LIST");
        String v = (old == null ? "" : old.value().text) + " " + name;
        db.global.vars.put("MAKEFILE_LIST", new Var(PosText.of(v, -1, 0, 0), false, false));
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
            expander.checkTime();
            String s = line.text;
            int lineNo = line.length() > 0 ? line.lineAt(0) : 0;
            int state = conditionals.skipState();
            if (state == 2 && line.length() > 0) {
                conditionals.writtenUnderUnknown(fi, line.lineAt(0), line.lineAt(line.length() - 1));
            }
            if (inDefine) {
                String t = s.trim();
                if (t.startsWith("define ") || t.equals("define")) defineDepth++;
                if (t.equals("endef") || t.startsWith("endef ") || t.startsWith("endef\t")) {
                    if (defineDepth-- == 0) {
                        inDefine = false;
                        if (state != 1) {
                            assign(db.global, defineName, defineOp, defineBody.build(), defineOverride, fi, lineNo);
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
                    auditSkippedRecipe(body, conditionals.innermost(1));
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
                conditionals.open(t, word, fi, lineNo, state);
                continue;
            }
            if (word.equals("else")) {
                inRule = false;
                conditionals.elseBranch(t, fi, lineNo);
                continue;
            }
            if (word.equals("endif")) {
                conditionals.endif(fi, lineNo);
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
                auditSkipped(code, conditionals.innermost(1));
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
                PosText names = expander.expand(code.trim().sub(word.length()), db.global, null, 0);
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
                        db.global.vars.remove(t.substring(8).trim());
                    continue;
                }
            }
            Object[] as = parseAssignment(code);
            if (as != null) {
                assign(db.global, (String) as[0], (String) as[1], (PosText) as[2], (Boolean) as[3], fi, lineNo);
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
                expander.expand(code, db.global, null, 0);
            }
        }
    }

    /** A rule line; returns whether following tab lines are its recipe. */
    private boolean rule(PosText code, int colon, int fi, int line) {
        List<String> targets = words(expander.expand(code.sub(0, colon), db.global, null, 0).text);
        int after = colon + 1;
        if (after < code.length() && code.charAt(after) == ':') after++; // double-colon rule
        PosText rest = code.sub(after);
        Object[] ta = parseAssignment(rest);
        if (ta != null) {
            String name = (String) ta[0];
            for (String t : targets) {
                TAssign a = new TAssign(t, name, (String) ta[1], (PosText) ta[2], (Boolean) ta[3], fi, line);
                if (t.indexOf('%') >= 0) db.patternVars.add(a);
                else db.targetVars.computeIfAbsent(t, k -> new ArrayList<>()).add(a);
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
        // static pattern rule: targets: target-pattern: prereq-db.patterns
        int second = ruleColon(prereqText.text);
        List<String> prereqs;
        List<Rule> rules = new ArrayList<>();
        if (second >= 0) {
            String tp = expander.expand(prereqText.sub(0, second), db.global, null, 0)
                    .text
                    .trim();
            List<String> pps = words(expander.expand(prereqText.sub(second + 1), db.global, null, 0).text);
            for (String t : targets) {
                String stem = match(tp, t);
                List<String> ps = new ArrayList<>();
                for (String pp : pps) ps.add(stem == null ? pp : pp.replace("%", stem));
                Rule r = new Rule(List.of(t), ps, false, fi, line);
                db.explicit.computeIfAbsent(t, k -> new ArrayList<>()).add(r);
                rules.add(r);
            }
        } else {
            prereqs = new ArrayList<>();
            for (String p : words(expander.expand(prereqText, db.global, null, 0).text)) {
                if (!p.equals("|")) prereqs.add(p);
            }
            boolean pattern = targets.stream().anyMatch(t -> t.indexOf('%') >= 0);
            Rule r = new Rule(targets, prereqs, pattern, fi, line);
            if (pattern) {
                db.patterns.add(r);
            } else {
                for (String t : targets)
                    db.explicit.computeIfAbsent(t, k -> new ArrayList<>()).add(r);
            }
            rules.add(r);
            if (db.firstTarget == null && !pattern) {
                for (String t : targets) {
                    if (!t.startsWith(".") || t.contains("/")) {
                        db.firstTarget = t;
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
            notices.problem(
                    fi,
                    line,
                    "NOTE",
                    "not-evaluated",
                    "include of '" + name + "' whose name numlint cannot know: " + "not read");
            return;
        }
        if ((name.contains("*") || name.contains("?") || name.contains("[")) && !name.startsWith("~")) {
            // make expands wildcards in include names (inside the tree here, as $(wildcard))
            List<String> found = words(expander.functions().wildcard(List.of(PosText.of(name, -1, 0, 0))).text);
            for (String f : found) {
                if (!f.contains("*") && !f.contains("?") && !f.contains("[")) include(f, optional, fi, line, depth);
            }
            if (found.isEmpty() && !optional) {
                notices.problem(
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
                notices.problem(
                        fi,
                        line,
                        "NOTE",
                        "not-evaluated",
                        "included file '" + name + "' lies outside the scanned "
                                + "tree: not read, its variables are unknown");
            }
            return;
        }
        // make resolves a relative include against the directory it runs in: the Makefile's own for 'make' there or
        // 'make -C', an ancestor's for 'make -f sub/Makefile' (session 85 round AG: a game's per-platform Makefiles
        // under misc/*/ include misc/makefiles/common_build.mk from the top; 90 notices said it did not exist)
        if (!Files.isRegularFile(p) && !Path.of(name).isAbsolute()) {
            for (Path up = dir.getParent(); up != null && inTree.test(up); up = up.getParent()) {
                Path q = up.resolve(name).normalize();
                if (inTree.test(q) && Files.isRegularFile(q)) {
                    p = q;
                    break;
                }
            }
        }
        if (!Files.isRegularFile(p)) {
            if (!optional) {
                notices.problem(
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
                notices.problem(
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

    // ------------------------------------------------------------------------------------------ variables

    private void assign(Scope scope, String name, String op, PosText value, boolean override, int fi, int line) {
        Var old = scope.get(name);
        if (old != null && old.override() && !override) return;
        switch (op) {
            case "?=" -> {
                if (old == null) scope.vars.put(name, new Var(value, true, override));
            }
            case "+=" -> {
                if (conditionals.skipState() == 2 && !isFlagVar(name) && old != null) {
                    return; // see below: only flag variables collect the values of unknown branches
                }
                if (old == null) {
                    scope.vars.put(name, new Var(value, true, override));
                } else {
                    PosText v = old.recursive() ? value : expander.expand(value, scope, null, 0);
                    scope.vars.put(
                            name, new Var(expander.join(old.value(), v), old.recursive(), override || old.override()));
                }
            }
            case "!=" -> {
                expander.shell(fi, line);
                scope.vars.put(name, new Var(PosText.of(UNKNOWN, -1, 0, 0), false, override));
            }
            default -> {
                boolean recursive = op.equals("=");
                PosText v = recursive ? value : expander.expand(value, scope, null, 0);
                if (conditionals.skipState() == 2
                        && old != null
                        && !old.value().text.isEmpty()) {
                    // the condition's value is unknown: a flag variable keeps the previous flags too (either
                    // branch may run; the new ones are conditional); another variable (a file list, a suffix, a
                    // compiler) keeps its previous value, since a mixture of both would be neither
                    if (!isFlagVar(name)) return;
                    v = expander.join(old.value(), v);
                }
                scope.vars.put(name, new Var(v, recursive, override));
            }
        }
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
            flags.tokens(expander.expand(value, db.global, null, 0), name, cond, out.unselected);
        } catch (MakeBudget.OverBudget e) {
            notices.notFullyEvaluated(code.fileAt(0), code.lineAt(0), e.getMessage());
        }
    }

    private void auditSkippedRecipe(PosText body, String why) {
        try {
            for (List<PosText> cmd : commands(expander.expand(body, db.global, null, 0))) {
                flags.commandToks(cmd, why, out.unselected);
            }
        } catch (MakeBudget.OverBudget e) {
            notices.notFullyEvaluated(body.fileAt(0), body.lineAt(0), e.getMessage());
        }
    }
}
