package dev.numlint.flags;

import static dev.numlint.flags.MakeSyntax.*;
import static dev.numlint.flags.MakeValues.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The evaluator of a Makefile: expands variable references ({@code $(VAR)}, {@code ${VAR}}, {@code $(VAR:a=b)},
 * automatic variables) and hands functions to {@link MakeFunctions}, within the {@link MakeBudget}. {@code $(eval
 * ...)} is read by the {@link Reader} it is given (the Makefile's reader), while the makefiles are read.
 */
final class MakeExpander implements MakeEvaluator {
    /** Reads makefile lines of {@code $(eval ...)}, written in file {@code fi}. */
    interface Reader {
        void read(List<PosText> lines, int fi);
    }

    private final MakeBudget budget;
    private final MakeNotices notices;
    private final Path dir;
    private final Reader reader;
    /** make's built-in functions, evaluated with this evaluator. */
    private final MakeFunctions functions;

    MakeExpander(MakeBudget budget, MakeNotices notices, Path dir, Predicate<Path> inTree, Reader reader) {
        this.budget = budget;
        this.notices = notices;
        this.dir = dir;
        this.reader = reader;
        this.functions = new MakeFunctions(this, dir, inTree, notices);
    }

    MakeFunctions functions() {
        return functions;
    }

    /** The makefiles are read: from now on $(eval) is not read (the goal's recipes are being expanded). */
    void readingDone() {
        reading = false;
    }

    /** How many $(shell ...)/!= values were met, and the first one's file and line. */
    int shellCount() {
        return shellCount;
    }

    int shellFile() {
        return shellFile;
    }

    int shellLine() {
        return shellLine;
    }

    @Override
    public void checkTime() {
        budget.checkTime();
    }

    private int shellCount;
    /** The recursively expanded variables being expanded, innermost last: the flag variable an $(if) belongs to. */
    private final java.util.ArrayDeque<String> expanding = new java.util.ArrayDeque<>();
    /**
     * Branches of undecidable $(if)s, each with the variable whose value it is part of: the innermost flag variable
     * being expanded, else the innermost variable ({@code PARAMS_SIMD} expanded straight into a recipe line), else
     * {@link #IN_RECIPE} (the $(if) is written in the recipe line itself).
     */
    private final List<Map.Entry<String, PosText>> undecided = new ArrayList<>();
    /** Where each recorded branch is written: a branch a recipe expands again is recorded once. */
    private final java.util.Set<String> undecidedAt = new java.util.HashSet<>();

    /** The carrier of an undecidable $(if) written in a recipe line or a simply expanded value. */
    static final String IN_RECIPE = "the recipe line";

    /** At most this many undecidable branches are audited per Makefile. */
    private static final int MAX_UNDECIDED = 64;

    @Override
    public void undecided(PosText branch) {
        if (undecided.size() >= MAX_UNDECIDED || branch.text.isBlank() || MakeValues.unknown(branch.text)) return;
        String carrier = expanding.isEmpty() ? IN_RECIPE : expanding.peekLast();
        for (java.util.Iterator<String> it = expanding.descendingIterator(); it.hasNext(); ) {
            String name = it.next();
            if (MakeFlags.isFlagVar(name)) {
                carrier = name;
                break;
            }
        }
        String at =
                carrier + ' ' + branch.fileAt(0) + ':' + branch.lineAt(0) + ':' + branch.colAt(0) + ' ' + branch.text;
        if (undecidedAt.add(at)) undecided.add(Map.entry(carrier, branch));
    }

    /** The branches of undecidable $(if)s met so far, each with its flag variable. */
    List<Map.Entry<String, PosText>> undecided() {
        return undecided;
    }

    private int shellLine;
    private int shellFile;
    /** Whether the makefiles are being read ($(eval) is read then; not once the goal's recipes are expanded). */
    private boolean reading = true;

    private int evalDepth;
    private static final int MAX_EVAL_DEPTH = 8;

    /** {@code $(eval TEXT)} while the makefiles are read: TEXT is read as makefile lines, where it was written. */
    @Override
    public PosText eval(PosText body) {
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
            if (notices.once("eval:" + fi + ":" + line)) {
                notices.problem(
                        fi, line, "NOTE", "not-evaluated", "$(eval ...) of a value numlint cannot know: not read");
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
            reader.read(lines, fi);
        } finally {
            evalDepth--;
        }
        return PosText.EMPTY;
    }

    @Override
    public PosText join(PosText a, PosText b) {
        if (a.text.isEmpty()) return b;
        if (b.text.isEmpty()) return a;
        if (a.length() + b.length() + 1 > MakeBudget.MAX_EXPANSION) {
            throw new MakeBudget.OverBudget("a value grows beyond " + MakeBudget.MAX_EXPANSION + " characters");
        }
        return a.concat(PosText.of(" ", -1, 0, 0)).concat(b);
    }

    @Override
    public void shell(int fi, int line) {
        if (shellCount++ == 0) {
            shellFile = fi;
            shellLine = line;
        }
    }

    /** Expands variable references and functions; unknown values become {@value MakeValues#UNKNOWN}. */
    @Override
    public PosText expand(PosText t, Scope scope, Auto auto, int depth) {
        if (t.text.indexOf('$') < 0) return t;
        if (depth > MakeBudget.MAX_DEPTH)
            throw new MakeBudget.OverBudget("variables nested deeper than " + MakeBudget.MAX_DEPTH + " levels");
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
                budget.countReference();
                PosText ref = reference(t.sub(i + 2, close), d == '(' ? ',' : ',', scope, auto, depth);
                appendBounded(b, ref);
                i = close + 1;
                continue;
            }
            // single-character variable: $@ $< $^ $* $? or $X
            budget.countReference();
            appendBounded(b, variable(String.valueOf(d), scope, auto, depth, t, i));
            i += 2;
        }
        return b.build();
    }

    @Override
    public void appendBounded(PosText.Builder b, PosText v) {
        if (b.length() + v.length() > MakeBudget.MAX_EXPANSION) {
            throw new MakeBudget.OverBudget("an expansion grows beyond " + MakeBudget.MAX_EXPANSION + " characters");
        }
        budget.charge(v.length());
        b.append(v);
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
        expanding.addLast(name);
        try {
            return expand(v.value(), scope, auto, depth + 1);
        } finally {
            expanding.removeLast();
        }
    }
}
