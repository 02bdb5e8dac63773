package dev.numlint.flags;

import static dev.numlint.flags.MakeSyntax.*;
import static dev.numlint.flags.MakeValues.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What reading a Makefile builds (make's "data base"): the global variables, the explicit and pattern rules with
 * their recipes, the target- and pattern-specific assignments, and the first ordinary target.
 */
final class MakeDatabase {

    /** A target- or pattern-specific assignment. */
    record TAssign(String target, String name, String op, PosText value, boolean override, int fi, int line) {}

    static final class Rule {
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

    final Scope global = new Scope(null);
    final Map<String, List<Rule>> explicit = new LinkedHashMap<>();
    final List<Rule> patterns = new ArrayList<>();
    final Map<String, List<TAssign>> targetVars = new LinkedHashMap<>();
    final List<TAssign> patternVars = new ArrayList<>();
    /** The first ordinary target: the goal when none is named. */
    String firstTarget;
}
