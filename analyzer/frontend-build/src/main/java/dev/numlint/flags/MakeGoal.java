package dev.numlint.flags;

import static dev.numlint.flags.MakeSyntax.*;
import static dev.numlint.flags.MakeValues.*;

import dev.numlint.flags.MakeDatabase.Rule;
import dev.numlint.flags.MakeDatabase.TAssign;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The build phase of a Makefile's evaluation: the goal ({@code --make-target}, else {@code .DEFAULT_GOAL}, else the
 * first ordinary target) and its prerequisite chain are walked as make would; each target on the chain sees the
 * target-specific values of the targets that led to it; recipes on the chain that run nvcc or a host compiler give
 * the flags of the sources they compile. The target-specific values and recipes the goal never reaches are audited
 * with the configuration named.
 */
final class MakeGoal {
    private final MakeDatabase db;
    private final MakeEvaluator eval;
    private final MakeFlags flags;
    private final MakeNotices notices;
    private final MakeResult out;
    private final String makeTarget;
    private final Path dir;
    private final Predicate<Path> inTree;

    MakeGoal(
            MakeDatabase db,
            MakeEvaluator eval,
            MakeFlags flags,
            MakeNotices notices,
            MakeResult out,
            String makeTarget,
            Path dir,
            Predicate<Path> inTree) {
        this.db = db;
        this.eval = eval;
        this.flags = flags;
        this.notices = notices;
        this.out = out;
        this.makeTarget = makeTarget;
        this.dir = dir;
        this.inTree = inTree;
    }

    private static final int MAX_CHAIN = 10_000;

    // ------------------------------------------------------------------------------------------ the build

    void build() {
        String goal = makeTarget;
        String how;
        if (goal != null) {
            how = "--make-target";
        } else {
            Var dg = db.global.get(".DEFAULT_GOAL");
            String v = dg == null
                    ? null
                    : eval.expand(dg.value(), db.global, null, 0).text.trim();
            if (v != null && !v.isEmpty() && !unknown(v)) {
                goal = v;
                how = ".DEFAULT_GOAL";
            } else {
                goal = db.firstTarget;
                how = "the first target";
            }
        }
        Set<String> visited = new LinkedHashSet<>();
        if (goal != null) {
            out.goal = goal + (how.equals("the first target") ? "" : " (" + how + ")");
            if (makeTarget != null && !db.explicit.containsKey(goal) && patternFor(goal) == null) {
                notices.problem(
                        0,
                        0,
                        "WARNING",
                        "not-evaluated",
                        "--make-target '" + goal + "': no such target in " + notices.relative(0));
            }
            visit(goal, new ArrayList<>(), visited);
        }
        // the flag variables as the goal sees them: context of sources no command of the chain names
        Scope goalScope = goal == null ? db.global : scopeFor(List.of(goal));
        Set<String> recipeVars = MakeFlags.compileRecipeVariables(goalScope);
        for (String name : new TreeSet<>(allNames(goalScope))) {
            Var v = goalScope.get(name);
            boolean recipe = recipeVars.contains(name);
            if (!MakeFlags.isFlagVar(name) && !MakeFlags.COMPILER_VARS.contains(name) && !recipe) continue;
            try {
                PosText value = v.recursive() ? eval.expand(v.value(), goalScope, null, 0) : v.value();
                if (recipe && !MakeFlags.isFlagVar(name) && !MakeFlags.COMPILER_VARS.contains(name))
                    flags.recipeTokens(value, name, out.variables);
                else flags.tokens(value, name, null, out.variables);
            } catch (MakeBudget.OverBudget e) {
                notices.notFullyEvaluated(0, 0, e.getMessage());
            }
        }
        // target-specific values and recipes the goal never reaches: audited, with the configuration named
        String goalName = goal == null ? "none" : "'" + goal + "'";
        for (Map.Entry<String, List<TAssign>> e : db.targetVars.entrySet()) {
            if (visited.contains(e.getKey())) continue;
            String cond = "Makefile target '" + e.getKey() + "' (not built by the default goal " + goalName + ")";
            if (makeTarget != null)
                cond = "Makefile target '" + e.getKey() + "' (not built by --make-target " + goalName + ")";
            for (TAssign a : e.getValue()) unselectedAssign(a, cond);
        }
        for (TAssign a : db.patternVars) {
            boolean used = visited.stream().anyMatch(t -> match(a.target(), t) != null);
            if (!used)
                unselectedAssign(
                        a,
                        "Makefile pattern '" + a.target() + "' (no target the goal " + goalName
                                + " builds matches it)");
        }
        Set<Rule> seen = new HashSet<>();
        for (Map.Entry<String, List<Rule>> e : db.explicit.entrySet()) {
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
                        for (List<PosText> cmd : commands(eval.expand(line, sc, auto, 0))) {
                            flags.commandToks(cmd, cond, out.unselected);
                        }
                    } catch (MakeBudget.OverBudget ex) {
                        notices.notFullyEvaluated(line.fileAt(0), line.lineAt(0), ex.getMessage());
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
        if (!MakeFlags.isFlagVar(a.name()) && !MakeFlags.COMPILER_VARS.contains(a.name())) return;
        try {
            Scope sc = new Scope(db.global);
            flags.tokens(eval.expand(a.value(), sc, null, 0), a.name(), cond, out.unselected);
        } catch (MakeBudget.OverBudget e) {
            notices.notFullyEvaluated(a.fi(), a.line(), e.getMessage());
        }
    }

    /** The scope of a target reached through {@code chain} (outermost first). */
    private Scope scopeFor(List<String> chain) {
        Scope s = db.global;
        for (String t : chain) {
            List<TAssign> own = new ArrayList<>();
            for (TAssign a : db.patternVars) {
                if (match(a.target(), t) != null) own.add(a);
            }
            own.addAll(db.targetVars.getOrDefault(t, List.of()));
            if (own.isEmpty()) continue;
            Scope next = new Scope(s);
            for (TAssign a : own) {
                try {
                    applyTarget(next, a);
                } catch (MakeBudget.OverBudget e) {
                    notices.notFullyEvaluated(a.fi(), a.line(), e.getMessage());
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
                    PosText v = old.recursive() ? a.value() : eval.expand(a.value(), scope, null, 0);
                    scope.vars.put(a.name(), new Var(eval.join(old.value(), v), old.recursive(), a.override()));
                }
            }
            case "?=" -> {
                if (old == null) scope.vars.put(a.name(), new Var(a.value(), true, a.override()));
            }
            case "=" -> scope.vars.put(a.name(), new Var(a.value(), true, a.override()));
            default -> scope.vars.put(
                    a.name(), new Var(eval.expand(a.value(), scope.parent, null, 0), false, a.override()));
        }
    }

    /** A pattern rule that can make {@code target}, with the stem: prerequisites exist or are targets. */
    private Object[] patternFor(String target) {
        for (Rule r : db.patterns) {
            if (r.recipe.isEmpty()) continue;
            for (String tp : r.targets) {
                String stem = match(tp, target);
                if (stem == null) continue;
                List<String> ps = new ArrayList<>();
                boolean ok = true;
                for (String p : r.prereqs) {
                    String x = p.replace("%", stem);
                    ps.add(x);
                    if (!db.explicit.containsKey(x) && !exists(x)) ok = false;
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
        eval.checkTime();
        if (visited.size() > MAX_CHAIN || !visited.add(target)) return;
        List<Rule> rs = db.explicit.getOrDefault(target, List.of());
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
                for (List<PosText> cmd : commands(eval.expand(line, sc, auto, 0))) {
                    List<FlagTok> toks = new ArrayList<>();
                    int[] lang = new int[1];
                    List<String> srcs = flags.commandToks(cmd, null, toks, lang);
                    if (lang[0] == 0) continue;
                    List<Path> paths = new ArrayList<>();
                    for (String s : srcs) {
                        try {
                            paths.add(dir.resolve(s).normalize());
                        } catch (RuntimeException e) {
                            // not a path
                        }
                    }
                    out.commands.add(new MakeResult.Command(toks, paths, config, lang[0] == 1));
                }
            } catch (MakeBudget.OverBudget e) {
                notices.notFullyEvaluated(line.fileAt(0), line.lineAt(0), e.getMessage());
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
}
