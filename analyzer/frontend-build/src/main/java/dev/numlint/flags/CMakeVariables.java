package dev.numlint.flags;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The variables of a CMake project as {@link CMakeAudit} evaluates it: {@code ${VAR}}, {@code $ENV{VAR}} and
 * {@code $CACHE{VAR}} expansion within the audit's budget, a command's arguments as CMake passes them, and the
 * commands that set variables ({@code set}, {@code string}, {@code list}). Inside a conditional block an assignment
 * adds to the old value (both branches may run).
 */
final class CMakeVariables {
    private final Map<String, PosText> vars;
    private final CMakeCondition conditions;
    /** The condition of the innermost conditional block, or null where commands run unconditionally. */
    private final java.util.function.Supplier<String> condition;
    /** Charges characters produced against the audit's work and time budget. */
    private final java.util.function.IntConsumer charge;

    CMakeVariables(
            Map<String, PosText> vars,
            CMakeCondition conditions,
            java.util.function.Supplier<String> condition,
            java.util.function.IntConsumer charge) {
        this.vars = vars;
        this.conditions = conditions;
        this.condition = condition;
        this.charge = charge;
    }

    /** Expands ${VAR}, $ENV{VAR}, $CACHE{VAR} (nested). Escaped characters are never syntax. */
    PosText expand(PosText t) {
        if (t.text.indexOf('$') < 0) return t;
        PosText.Builder b = new PosText.Builder();
        int i = 0;
        int n = t.length();
        while (i < n) {
            char c = t.charAt(i);
            if (c == '$' && !t.literalAt(i)) {
                int open = -1;
                boolean env = false;
                if (i + 1 < n && t.charAt(i + 1) == '{') open = i + 1;
                else if (t.text.startsWith("ENV{", i + 1)) {
                    open = i + 4;
                    env = true;
                } else if (t.text.startsWith("CACHE{", i + 1)) open = i + 6;
                if (open >= 0) {
                    int close = matchBrace(t, open);
                    if (close > 0) {
                        PosText name = expand(t.sub(open + 1, close));
                        PosText v = env ? null : vars.get(name.text);
                        if (v != null) {
                            if (b.length() + v.length() > CMakeAudit.MAX_EXPANSION) {
                                throw new CMakeAudit.OverBudget("the value of ${" + name.text + "} grows beyond "
                                        + CMakeAudit.MAX_EXPANSION + " characters");
                            }
                            charge.accept(v.length());
                            b.append(v);
                        } else if (env || conditions.unknown(name.text)) {
                            b.append(PosText.of(CMakeCondition.UNKNOWN, -1, 0, 0));
                        }
                        i = close + 1;
                        continue;
                    }
                }
            }
            b.append(c, t.fileAt(i), t.lineAt(i), t.colAt(i), t.literalAt(i));
            i++;
        }
        return b.build();
    }

    private static int matchBrace(PosText t, int open) {
        int depth = 0;
        for (int i = open; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '{') depth++;
            else if (c == '}' && --depth == 0) return i;
        }
        return -1;
    }

    /** The argument list as CMake passes it to the command: unquoted arguments are split at ';'. */
    List<PosText> values(List<CMakeLexer.Arg> args) {
        List<PosText> out = new ArrayList<>();
        for (CMakeLexer.Arg a : args) {
            switch (a.kind()) {
                case BRACKET -> out.add(a.text());
                case QUOTED -> out.add(expand(a.text()));
                case UNQUOTED -> out.addAll(expand(a.text()).splitList());
                default -> out.add(a.text());
            }
        }
        return out;
    }

    static PosText join(List<PosText> items, int from, int to, char sep) {
        PosText.Builder b = new PosText.Builder();
        for (int i = from; i < to; i++) {
            if (i > from && sep != '\0') b.appendSynthetic(sep);
            b.append(items.get(i));
        }
        return b.build();
    }

    void set(List<PosText> v) {
        if (v.isEmpty()) return;
        String var = v.get(0).text;
        int end = v.size();
        boolean cache = false;
        boolean force = false;
        for (int i = 1; i < v.size(); i++) {
            String s = v.get(i).text;
            if (s.equals("CACHE")) {
                end = Math.min(end, i);
                cache = true;
            } else if (s.equals("PARENT_SCOPE")) {
                end = Math.min(end, i);
            } else if (s.equals("FORCE") && cache) {
                force = true;
            }
        }
        if (end <= 1) {
            if (!cache) vars.remove(var);
            return;
        }
        if (cache && !force && vars.containsKey(var)) return;
        assign(var, join(v, 1, end, ';'));
    }

    /** Assignment; inside a conditional block the new value adds to the old one (both branches may run). */
    private void assign(String var, PosText value) {
        PosText old = vars.get(var);
        if (condition.get() != null && old != null && !old.text.isEmpty() && !value.text.contains(old.text)) {
            PosText.Builder b = new PosText.Builder().append(old);
            b.appendSynthetic(isStringFlagVar(var) ? ' ' : ';');
            b.append(value);
            value = b.build();
        }
        vars.put(var, value);
    }

    private static boolean isStringFlagVar(String var) {
        return var.startsWith("CMAKE_") && var.contains("_FLAGS");
    }

    void string(List<PosText> v) {
        if (v.size() < 2) return;
        String op = v.get(0).text;
        String var = v.get(1).text;
        PosText old = vars.getOrDefault(var, PosText.EMPTY);
        switch (op) {
            case "APPEND" -> vars.put(var, old.concat(join(v, 2, v.size(), '\0')));
            case "PREPEND" -> vars.put(var, join(v, 2, v.size(), '\0').concat(old));
            case "REPLACE" -> {
                if (v.size() < 4) return;
                String match = v.get(1).text;
                PosText repl = v.get(2);
                String outVar = v.get(3).text;
                PosText input = join(v, 4, v.size(), '\0');
                if (match.isEmpty()) return;
                PosText.Builder b = new PosText.Builder();
                int i = 0;
                while (i < input.length()) {
                    if (input.text.startsWith(match, i)) {
                        b.append(repl);
                        i += match.length();
                    } else {
                        b.append(input, i);
                        i++;
                    }
                }
                vars.put(outVar, b.build());
            }
            default -> {
                // other string() operations: the output variable (the last argument) is unknown
                conditions.unknownVar(v.get(v.size() - 1).text);
            }
        }
    }

    void list(List<PosText> v) {
        if (v.size() < 2) return;
        String op = v.get(0).text;
        String var = v.get(1).text;
        PosText old = vars.getOrDefault(var, PosText.EMPTY);
        switch (op) {
            case "APPEND" -> {
                if (v.size() < 3) return;
                PosText add = join(v, 2, v.size(), ';');
                vars.put(
                        var,
                        old.text.isEmpty()
                                ? add
                                : old.concat(PosText.of(";", -1, 0, 0)).concat(add));
            }
            case "PREPEND" -> {
                if (v.size() < 3) return;
                PosText add = join(v, 2, v.size(), ';');
                vars.put(
                        var,
                        old.text.isEmpty()
                                ? add
                                : add.concat(PosText.of(";", -1, 0, 0)).concat(old));
            }
            case "REMOVE_ITEM" -> {
                if (condition.get() != null) return; // may not run: keep the items (they may apply)
                Set<String> remove = new java.util.HashSet<>();
                for (int i = 2; i < v.size(); i++) remove.add(v.get(i).text);
                List<PosText> keep = new ArrayList<>();
                for (PosText p : old.splitList()) {
                    if (!remove.contains(p.text)) keep.add(p);
                }
                vars.put(var, join(keep, 0, keep.size(), ';'));
            }
            default -> {
                if (!op.equals("REMOVE_DUPLICATES") && !op.equals("SORT") && !op.equals("REVERSE")) {
                    conditions.unknownVar(v.get(v.size() - 1).text);
                }
            }
        }
    }
}
