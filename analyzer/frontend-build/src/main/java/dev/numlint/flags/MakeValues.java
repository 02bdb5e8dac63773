package dev.numlint.flags;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of a Makefile's evaluation: a variable (its text, recursive or simple, override), the scopes
 * (global, one layer per target on the goal's chain), the automatic variables of a recipe, and the unknown value
 * ({@value #UNKNOWN}) that {@code $(shell ...)}, the environment and exhausted budgets produce.
 */
final class MakeValues {
    private MakeValues() {}

    static final String UNKNOWN = "$(?)";

    record Var(PosText value, boolean recursive, boolean override) {}

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

    static boolean unknown(String s) {
        return s.contains(UNKNOWN) || s.contains("$(") || s.contains("${") || s.indexOf('`') >= 0;
    }

    /** Variables usually set by the environment: unknown when undefined (not empty). */
    static boolean environmentLike(String n) {
        return n.startsWith("CUDA")
                || n.endsWith("PATH")
                || n.endsWith("DIR")
                || n.endsWith("HOME")
                || n.equals("SHELL")
                || n.equals("OS");
    }

    static PosText unknownText() {
        return PosText.of(UNKNOWN, -1, 0, 0);
    }
}
