package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.RandomGenerators;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Random draws and random variates in a {@link ClangUnit} (the fact the hand-written front end's
 * {@code RandomDraws}/{@code RandomVariates} compute from tokens): whether an expression's value is computed from a
 * random draw. A draw is a call of a generator by its name ({@link RandomGenerators}: {@code curand_uniform},
 * {@code rand_next}, {@code rng.next()}, a {@code <random>} distribution or engine called), or of a function of the
 * unit that returns a value computed from one; a read of a local variable is a variate when a definition that
 * reaches it is (the last whole assignment before it and the updates since; inside a loop also what the loop assigns
 * later, unless a whole assignment in the loop comes before the read). A read inside a subscript does not count (a
 * table entry at a random index is one of the table's values). Computed on request, memoized per function.
 */
final class ClangRandom {
    private static final int DEPTH = 4;

    private final ClangUnit unit;
    private final Map<String, Boolean> returnsDraw = new HashMap<>();
    private final Set<String> inProgress = new HashSet<>();
    private final Map<ClangUnit.Function, Map<String, List<Def>>> defs = new HashMap<>();

    /**
     * The parameters that hold a variate at every call site ({@link ClangVariateParams}), by function name and
     * position; null until the first question.
     */
    private Map<String, List<Set<String>>> seeds;

    /** The parameters (by USR) whose members are seeded: {@code p->x} reads the member's own definitions. */
    private final Set<String> memberSeeded = new HashSet<>();

    ClangRandom(ClangUnit unit) {
        this.unit = unit;
    }

    /** One round of {@link ClangVariateParams}: the draws with the parameters {@code seeds} known so far. */
    ClangRandom(ClangUnit unit, Map<String, List<Set<String>>> seeds) {
        this.unit = unit;
        seed(seeds);
    }

    private void seed(Map<String, List<Set<String>>> s) {
        seeds = s;
        if (s.isEmpty()) return;
        for (ClangUnit.Function f : unit.functions()) {
            List<Set<String>> keys = s.get(ClangVariateParams.simpleName(f));
            if (keys == null) continue;
            List<ClangNode> params = parameters(f);
            for (int k = 0; k < Math.min(keys.size(), params.size()); k++) {
                for (String key : keys.get(k)) if (!key.isEmpty()) memberSeeded.add(params.get(k).usr);
            }
        }
    }

    private static List<ClangNode> parameters(ClangUnit.Function f) {
        List<ClangNode> params = new ArrayList<>();
        for (ClangNode c : f.node().children) if (c.kind == CXCursor_ParmDecl && c.usr != null) params.add(c);
        return params;
    }

    /**
     * A definition of a local: its node, the value it stores, and whether it replaces the variable whole; a
     * parameter's {@code seed} holds a variate at every call site.
     */
    private record Def(ClangNode at, ClangNode value, boolean plain, boolean seed) {
        Def(ClangNode at, ClangNode value, boolean plain) {
            this(at, value, plain, false);
        }
    }

    /** Whether the value of {@code e} in {@code fn} is computed from a random draw. */
    synchronized boolean drawn(ClangNode e, ClangUnit.Function fn) {
        if (seeds == null) seed(ClangVariateParams.of(unit));
        return e != null && fn != null && drawn(e, fn, DEPTH);
    }

    /**
     * Whether the value of {@code e} in {@code fn} is a continuous random variate: computed from a draw, not read
     * only through integer variables (a voxel index floored from a random position is discrete: a read of a local or
     * parameter of an integer type, or of a pointer to or array of integers, carries no variate here).
     */
    synchronized boolean continuous(ClangNode e, ClangUnit.Function fn) {
        if (seeds == null) seed(ClangVariateParams.of(unit));
        if (e == null || fn == null) return false;
        discrete = true;
        try {
            return drawn(e, fn, DEPTH);
        } finally {
            discrete = false;
        }
    }

    /** While {@link #continuous} runs: reads of integer variables carry no variate. */
    private boolean discrete;

    /** Whether the variable or expression {@code n} has an integer type, or is a pointer to or array of integers. */
    static boolean integral(ClangNode n) {
        return integerKind(n.canonKind)
                || (n.canonKind == CXType_Pointer
                                || n.canonKind == CXType_ConstantArray
                                || n.canonKind == CXType_IncompleteArray)
                        && integerKind(n.pointeeKind);
    }

    private static boolean integerKind(int k) {
        return k >= CXType_Bool && k <= CXType_Int128;
    }

    /** Whether a function of the unit calls a generator (or a function of the unit that returns a draw). */
    boolean anyDraw() {
        for (ClangUnit.Function f : unit.functions()) {
            boolean[] hit = new boolean[1];
            f.node().forEach(x -> {
                if (!hit[0] && draws(x)) hit[0] = true;
            });
            if (hit[0]) return true;
        }
        return false;
    }

    /**
     * What the argument {@code a} of {@code call} in {@code fn} carries that is a variate: {@code ""} when its value
     * is one, and the members of the variable it passes ({@code &v}, {@code v}) that are; a member updated by the call
     * itself in a loop (the previous iteration's {@code rotate(&v, ...)}) reaches it too.
     */
    Set<String> carried(ClangNode a, ClangNode call, ClangUnit.Function fn) {
        Set<String> out = new java.util.LinkedHashSet<>();
        ClangNode u = strip(a);
        ClangNode v = u;
        if (u != null && u.kind == CXCursor_UnaryOperator && u.spelling.equals("&") && u.children.size() == 1)
            v = strip(u.children.get(0));
        if (v == null || v.kind != CXCursor_DeclRefExpr || v.refUsr == null) {
            if (drawn(a, fn, DEPTH)) out.add("");
            return out;
        }
        if (variateRead(v, v.refUsr, fn, DEPTH) || seed(v.refUsr, fn, "")) out.add("");
        String prefix = v.refUsr + ".";
        Set<String> members = new java.util.TreeSet<>();
        for (String key : definitions(fn).keySet())
            if (key.startsWith(prefix)) members.add(key.substring(prefix.length()));
        for (String m : members) {
            if (variateRead(v, prefix + m, fn, DEPTH) || carriedByItself(call, prefix + m, fn)) out.add(m);
        }
        return out;
    }

    /** Whether the parameter {@code usr} of {@code fn} is seeded with {@code key}. */
    private boolean seed(String usr, ClangUnit.Function fn, String key) {
        for (Def d : definitions(fn).getOrDefault(key.isEmpty() ? usr : usr + "." + key, List.of()))
            if (d.seed) return true;
        return false;
    }

    /** Whether {@code call}, inside a loop of {@code fn}, updates {@code key} with a drawn value (the next read). */
    private boolean carriedByItself(ClangNode call, String key, ClangUnit.Function fn) {
        if (innermostLoop(call) == null) return false;
        for (Def d : definitions(fn).getOrDefault(key, List.of())) {
            if (d.at == call && !d.seed && drawn(d.value, fn, DEPTH - 1)) return true;
        }
        return false;
    }

    private boolean drawn(ClangNode e, ClangUnit.Function fn, int depth) {
        // a node's answer at a depth is asked again through every definition that reaches it: a sum updated 3,000
        // times in one function made the walk exponential in the depth without this
        Reached key = new Reached(e, depth, discrete);
        Boolean known = reached.get(key);
        if (known == null) known = cutShort.get(key);
        if (known == null) {
            known = drawnOnce(e, fn, depth);
            // an answer found while a function's returns are being read (a call cycle cut short) is not kept past
            // that reading: it is kept for the reading itself (cutShort), which asked it again through every
            // definition without that (session 85 round AK: a plotting program's scan ran for 16 minutes here)
            if (inProgress.isEmpty()) reached.put(key, known);
            else cutShort.put(key, known);
        }
        return known;
    }

    /** The answers found while a function's returns are being read, until that reading ends ({@link #returnsDraw}). */
    private final Map<Reached, Boolean> cutShort = new HashMap<>();

    /** A node asked about, and the depth left (the answer depends on nothing else: the node fixes its function). */
    private record Reached(ClangNode e, int depth, boolean discrete) {}

    private final Map<Reached, Boolean> reached = new HashMap<>(); // under drawn(e, fn)'s lock

    private boolean drawnOnce(ClangNode e, ClangUnit.Function fn, int depth) {
        boolean[] hit = new boolean[1];
        java.util.ArrayDeque<ClangNode> todo = new java.util.ArrayDeque<>();
        todo.push(e);
        dev.numlint.model.WorkBudget.Meter budget = dev.numlint.model.WorkBudget.meter();
        while (!todo.isEmpty() && !hit[0]) {
            budget.check(); // the walk recurses through definitions below one node of a tree walk: its own checks
            ClangNode n = todo.pop();
            if (draws(n)) return true;
            if (n.kind == CXCursor_DeclRefExpr && n.refUsr != null && depth > 0 && !callee(n)) {
                if (!(discrete && integral(n)) && variateRead(n, n.refUsr, fn, depth)) return true;
            }
            String member = memberKey(n);
            if (member != null && depth > 0 && variateRead(n, member, fn, depth)) return true;
            for (int i = n.children.size() - 1; i >= 0; i--) {
                // a table entry at a random index is one of the table's values, not a continuous variate
                if (n.kind == CXCursor_ArraySubscriptExpr && i == 1) continue;
                todo.push(n.children.get(i));
            }
        }
        return hit[0];
    }

    /** Whether {@code n} is a call that draws (a generator, or a function of the unit returning a draw). */
    private boolean draws(ClangNode n) {
        if (n.kind != CXCursor_CallExpr && !(n.kind == CXCursor_UnexposedExpr && !n.children.isEmpty())) return false;
        if (n.children.isEmpty()) return false;
        ClangNode f = strip(n.children.get(0));
        if (f == null) return false;
        if (f.kind == CXCursor_MemberRefExpr) {
            ClangNode object = f.children.isEmpty() ? null : strip(f.children.get(0));
            String o = object == null ? null : unit.text(object);
            return RandomGenerators.isGeneratorMember(o, f.spelling);
        }
        if (f.kind != CXCursor_DeclRefExpr && f.kind != CXCursor_OverloadedDeclRef) return false;
        // an unresolved call (its callee undeclared: a library header not read) names it by reference
        if (n.kind == CXCursor_UnexposedExpr && f.kind != CXCursor_OverloadedDeclRef) return false;
        String name = !f.spelling.isEmpty() ? f.spelling : f.ref != null ? f.ref : "";
        if (n.kind == CXCursor_CallExpr && "operator()".equals(n.spelling)) {
            // dist(gen), gen(): a call of a <random> distribution or engine variable
            String type = f.type.replaceAll("<.*", "").replaceAll("\\b(const|volatile)\\b|[&\\s]", "");
            return RandomGenerators.isGeneratorType(type);
        }
        if (RandomGenerators.isGenerator(name)) return true;
        return returnsDraw(name);
    }

    /** Whether a function of the unit named {@code name} returns a value computed from a draw. */
    private boolean returnsDraw(String name) {
        Boolean known = returnsDraw.get(name);
        if (known != null) return known;
        if (!inProgress.add(name)) return false;
        boolean r = false;
        boolean wasDiscrete = discrete; // what a function returns is a draw whatever the caller asks
        discrete = false;
        for (ClangUnit.Function fn : unit.functions()) {
            String simple = fn.name().substring(fn.name().lastIndexOf(':') + 1);
            if (!simple.equals(name)) continue;
            boolean[] hit = new boolean[1];
            fn.node().forEach(x -> {
                if (!hit[0] && x.kind == CXCursor_ReturnStmt && !x.children.isEmpty())
                    hit[0] = drawn(x.children.get(0), fn, DEPTH);
            });
            r |= hit[0];
        }
        inProgress.remove(name);
        if (inProgress.isEmpty()) cutShort.clear();
        discrete = wasDiscrete;
        returnsDraw.put(name, r);
        return r;
    }

    private static boolean callee(ClangNode ref) {
        ClangNode c = ref;
        ClangNode p = ref.parent;
        while (p != null && p.kind == CXCursor_UnexposedExpr && p.children.size() == 1) {
            c = p;
            p = p.parent;
        }
        return p != null && p.kind == CXCursor_CallExpr && !p.children.isEmpty() && p.children.get(0) == c;
    }

    /**
     * {@code usr.member} for a member of a local struct read or written with a dot ({@code p.x}), else null: its
     * definitions are its own and those of the whole variable. A member of a member ({@code photon.position.x}) is
     * keyed by the variable's own member ({@code photon.position}), as the hand-written front end keys it.
     */
    private String memberKey(ClangNode n) {
        if (n.kind != CXCursor_MemberRefExpr || n.children.size() != 1) return null;
        ClangNode m = n;
        ClangNode base = strip(m.children.get(0));
        for (int depth = 0;
                depth < 8 && base != null && base.kind == CXCursor_MemberRefExpr && base.children.size() == 1;
                depth++) {
            m = base;
            base = strip(m.children.get(0));
        }
        if (base == null || base.kind != CXCursor_DeclRefExpr || base.refUsr == null) return null;
        if (unit.text(m).contains("->") && !memberSeeded.contains(base.refUsr)) return null;
        return base.refUsr + "." + m.spelling;
    }

    /** Whether a definition of the variable or member {@code key} that reaches the read at {@code ref} is drawn. */
    private boolean variateRead(ClangNode ref, String key, ClangUnit.Function fn, int depth) {
        Map<String, List<Def>> all = definitions(fn);
        List<Def> ds = all.get(key);
        int dot = key.indexOf('.');
        if (dot > 0 && all.containsKey(key.substring(0, dot))) {
            ds = new ArrayList<>(ds == null ? List.of() : ds);
            ds.addAll(all.get(key.substring(0, dot)));
            ds.sort(java.util.Comparator.comparingInt(d -> d.at.offset));
        }
        if (ds == null || ds.isEmpty()) return false;
        List<Def> reaching = new ArrayList<>();
        // the last whole definition before the read and the updates since
        for (Def d : ds) {
            if (d.at.endOffset > ref.offset) break;
            if (d.plain) reaching.clear();
            reaching.add(d);
        }
        // a loop around the read: what it assigns after the read reaches the next iteration's read
        for (ClangNode p = ref.parent; p != null && p != fn.node(); p = p.parent) {
            if (p.kind != CXCursor_ForStmt && p.kind != CXCursor_WhileStmt && p.kind != CXCursor_DoStmt) continue;
            boolean killed = false;
            for (Def d : ds) {
                if (d.plain && d.at.offset > p.offset && d.at.endOffset <= ref.offset) killed = true;
            }
            if (killed) break;
            for (Def d : ds) if (d.at.offset > ref.endOffset && d.at.endOffset <= p.endOffset) reaching.add(d);
        }
        for (Def d : reaching) {
            if (d.seed) return true; // a parameter that holds a variate at every call site
            if (d.at.offset <= ref.offset && d.at.endOffset >= ref.endOffset) continue; // x = x + ...: the read itself
            if (drawn(d.value, fn, depth - 1)) return true;
        }
        return false;
    }

    /**
     * The members a function of the unit named {@code name} writes through its parameter {@code index}
     * ({@code p->x = ...}, {@code p->x += ...}), or null when no such function is in view or it passes the pointer on.
     */
    private Set<String> membersWritten(String name, int index) {
        Set<String> out = null;
        for (ClangUnit.Function f : unit.functions()) {
            String simple = f.name().substring(f.name().lastIndexOf(':') + 1);
            if (!simple.equals(name)) continue;
            List<ClangNode> params = new ArrayList<>();
            for (ClangNode c : f.node().children) if (c.kind == CXCursor_ParmDecl) params.add(c);
            if (index >= params.size() || params.get(index).usr == null) return null;
            String usr = params.get(index).usr;
            Set<String> written = out == null ? new HashSet<>() : out;
            boolean[] escapes = new boolean[1];
            f.node().forEach(x -> {
                if (x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr)) {
                    ClangNode p = x.parent;
                    while (p != null && p.kind == CXCursor_UnexposedExpr) p = p.parent;
                    if (p == null || p.kind != CXCursor_MemberRefExpr) escapes[0] = true;
                }
                if ((x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                                || x.kind == CXCursor_CompoundAssignOperator)
                        && x.children.size() == 2) {
                    ClangNode l = strip(x.children.get(0));
                    if (l != null && l.kind == CXCursor_MemberRefExpr && usr.equals(rootUsr(l)))
                        written.add(l.spelling);
                }
            });
            if (escapes[0]) return null;
            out = written;
        }
        return out;
    }

    /** The definitions of each local and parameter of {@code fn}, in source order. */
    private Map<String, List<Def>> definitions(ClangUnit.Function fn) {
        return defs.computeIfAbsent(fn, f -> {
            Map<String, List<Def>> out = new HashMap<>();
            List<Set<String>> keys = seeds == null ? null : seeds.get(ClangVariateParams.simpleName(f));
            List<ClangNode> params = keys == null ? List.of() : parameters(f);
            for (int k = 0; k < Math.min(params.size(), keys == null ? 0 : keys.size()); k++) {
                ClangNode p = params.get(k);
                for (String key : keys.get(k)) {
                    out.computeIfAbsent(key.isEmpty() ? p.usr : p.usr + "." + key, x -> new ArrayList<>())
                            .add(new Def(p, null, true, true));
                }
            }
            f.node().forEach(x -> {
                if (x.kind == CXCursor_VarDecl && x.usr != null && !x.children.isEmpty()) {
                    ClangNode init = x.children.get(x.children.size() - 1);
                    if (clang_isExpressionKind(init.kind))
                        out.computeIfAbsent(x.usr, k -> new ArrayList<>()).add(new Def(x, init, true));
                } else if ((x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                                || x.kind == CXCursor_CompoundAssignOperator)
                        && x.children.size() == 2) {
                    ClangNode l = strip(x.children.get(0));
                    String key = l == null ? null : l.kind == CXCursor_DeclRefExpr ? l.refUsr : memberKey(l);
                    if (key != null) {
                        out.computeIfAbsent(key, k -> new ArrayList<>())
                                .add(new Def(x, x.children.get(1), x.kind == CXCursor_BinaryOperator));
                    }
                } else if (x.kind == CXCursor_CallExpr) {
                    // a call writing through &v (rotate(&v, curand_uniform(&s))): an update of v by what it passes,
                    // of the members a function of the unit writes through that parameter (v->x = ...), else of v
                    List<ClangNode> args = arguments(x);
                    for (int i = 0; i < args.size(); i++) {
                        ClangNode u = strip(args.get(i));
                        if (u == null
                                || u.kind != CXCursor_UnaryOperator
                                || !u.spelling.equals("&")
                                || u.children.size() != 1) continue;
                        ClangNode v = strip(u.children.get(0));
                        if (v == null || v.kind != CXCursor_DeclRefExpr || v.refUsr == null) continue;
                        Set<String> members = membersWritten(ClangSyntax.callee(x), i);
                        if (members == null) {
                            out.computeIfAbsent(v.refUsr, k -> new ArrayList<>())
                                    .add(new Def(x, x, false));
                        } else {
                            for (String m : members)
                                out.computeIfAbsent(v.refUsr + "." + m, k -> new ArrayList<>())
                                        .add(new Def(x, x, false));
                        }
                    }
                }
            });
            return out;
        });
    }
}
