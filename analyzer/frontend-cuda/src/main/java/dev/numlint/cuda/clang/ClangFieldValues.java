package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.ValueBounds;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The interval of a member of a local structure read in straight-line code ({@code c.r}, {@code xl.m_c[0]}): the
 * definition of that member that reaches the read, found by walking back through the statements before it as {@link
 * ClangIntervals} does for a scalar local. A definition is an assignment to the member ({@code c.r = s * r;}), a
 * clamp of it ({@code if (c.r < 0.0f) { c.r = 0.0f; }}, both sides; as NL001's own clamp rule, a NaN is not taken
 * into account), the structure's declaration or assignment from a copy or from a call that returns a structure by
 * value ({@code frgba = frgba.ClampRGB().ScaleRGB(15.0f).RoundRGB();}: the member of the local the callee returns,
 * evaluated in the callee with its parameters bound to the call's arguments and its {@code this} to the call's
 * receiver), or a call that writes the member through the structure's address ({@code vec4F_saturate_in_place(&xl);}
 * whose body stores {@code pV->m_c[0] = saturate(pV->m_c[0]);} at its top level, or in a counted loop over the
 * elements). Session 57's etc2comp and bc7enc_rdo: 21 false findings of conversions after such clamps. Any other
 * write of the structure or the member between (a call given the structure by reference, a method that may change
 * it, a write through an index that is not constant), a loop around the read that writes it, or an address taken
 * elsewhere leaves the member unknown here (null).
 */
final class ClangFieldValues {
    private final ClangUnit unit;
    private final ClangIntervals intervals;

    ClangFieldValues(ClangUnit unit, ClangIntervals intervals) {
        this.unit = unit;
        this.intervals = intervals;
    }

    /** A call's receiver while its callee is evaluated: the object expression, where, and in which function. */
    private record Frame(
            ClangNode object,
            ClangNode at,
            ClangUnit.Function caller,
            ClangFieldValues owner,
            ClangUnit.Function callee) {}

    /** The receivers of the calls being evaluated on this thread, innermost first. */
    private static final ThreadLocal<Deque<Frame>> FRAMES = ThreadLocal.withInitial(ArrayDeque::new);

    /** Whether a receiver is bound on this thread: memoised intervals are then neither consulted nor kept. */
    static boolean receiving() {
        return !FRAMES.get().isEmpty();
    }

    /** The object a member read is rooted in: {@code c} of {@code c.r[0]}; null for an implicit {@code this}. */
    static ClangNode object(ClangNode read) {
        ClangNode n = strip(read);
        for (int i = 0; i < 16 && n != null; i++) {
            if (n.kind == CXCursor_MemberRefExpr) {
                if (n.children.isEmpty()) return null;
                n = strip(n.children.get(0));
            } else if (n.kind == CXCursor_ArraySubscriptExpr && n.children.size() == 2) {
                n = strip(n.children.get(0));
            } else return n;
        }
        return n;
    }

    /**
     * The member path of {@code read} below its object ({@code .r}, {@code .m_c[0.0]}), with constant indices only;
     * null otherwise. {@code open} takes a variable index as {@code [?]}.
     */
    static String suffix(ClangNode read, ClangNode object, boolean open) {
        ClangNode n = strip(read);
        if (n == object) return "";
        if (n == null) return null;
        if (n.kind == CXCursor_MemberRefExpr) {
            if (n.refUsr == null || !n.refUsr.contains("@FI@")) return null;
            String b = n.children.isEmpty() ? "" : suffix(n.children.get(0), object, open);
            return b == null ? null : b + "." + n.spelling;
        }
        if (n.kind == CXCursor_ArraySubscriptExpr && n.children.size() == 2) {
            String b = suffix(n.children.get(0), object, open);
            Double k = folded(n.children.get(1));
            if (b == null || k == null && !open) return null;
            return b + "[" + (k == null ? "?" : k) + "]";
        }
        return null;
    }

    /** Whether the paths {@code a} and {@code b} (with {@code [?]} for any index) may name overlapping memory. */
    static boolean overlap(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i), y = b.charAt(j);
            if (x == '[' && y == '[') {
                int ea = a.indexOf(']', i), eb = b.indexOf(']', j);
                String p = a.substring(i + 1, ea), q = b.substring(j + 1, eb);
                if (!p.equals(q) && !p.equals("?") && !q.equals("?")) return false;
                i = ea + 1;
                j = eb + 1;
            } else if (x != y) return false;
            else {
                i++;
                j++;
            }
        }
        // one path is the other's prefix: they overlap where it ends at a name's end (.r and .r.x, not .r and .rg)
        if (i == a.length() && j == b.length()) return true;
        String rest = i == a.length() ? b.substring(j) : a.substring(i);
        return rest.charAt(0) == '.' || rest.charAt(0) == '[';
    }

    /** The interval of {@code read}, a member read of a local structure or of {@code this} in {@code fn}, or null. */
    double[] read(ClangNode read, ClangUnit.Function fn, int depth) {
        if (depth <= 0 || !floating(read.canonKind) && !integral(read.canonKind)) return null;
        ClangNode obj = object(read);
        String path = suffix(read, obj, false);
        if (path == null && obj != null && obj.kind == CXCursor_DeclRefExpr && obj.canonKind != CXType_Pointer)
            return everyElement(read, obj, fn, depth);
        if (path == null || path.isEmpty()) return null;
        if (self(obj)) {
            Effect own = ownMember(path, fn, read, depth);
            return own == Effect.NONE ? receiver(path, fn, depth) : own.value;
        }
        // p->m through a local pointer: the assignment through it that reaches the read (ClangPointedMembers)
        if (obj.kind == CXCursor_DeclRefExpr && obj.canonKind == CXType_Pointer)
            return ClangPointedMembers.read(unit, intervals, obj.refUsr, path, fn, read, depth);
        return obj.kind == CXCursor_DeclRefExpr ? local(obj.refUsr, path, fn, read, depth) : of(obj, path, fn, depth);
    }

    /** The most elements a read with a variable index is evaluated over, one by one. */
    private static final int ELEMENTS = 16;

    /** An array type's first extent ({@code float [4]}). */
    private static final java.util.regex.Pattern EXTENT = java.util.regex.Pattern.compile("\\[(\\d+)\\]");

    /**
     * A member element of a local structure read with a variable index ({@code xl.m_c[c]} in a loop over the
     * channels): the hull of every element's definition that reaches the read, when the member is an array of at
     * most {@link #ELEMENTS} elements and the read has one variable index (session 73 round D: a texture encoder's
     * endpoints after {@code vec4F_saturate_in_place(&xl)}, read channel by channel); null otherwise.
     */
    private double[] everyElement(ClangNode read, ClangNode obj, ClangUnit.Function fn, int depth) {
        String open = suffix(read, obj, true);
        if (open == null || open.indexOf("[?]") < 0 || open.indexOf("[?]") != open.lastIndexOf("[?]")) return null;
        ClangNode sub = strip(read);
        while (sub != null
                && !(sub.kind == CXCursor_ArraySubscriptExpr
                        && sub.children.size() == 2
                        && folded(sub.children.get(1)) == null)) {
            sub = sub.children.isEmpty() ? null : strip(sub.children.get(0));
        }
        ClangNode base = sub == null ? null : strip(sub.children.get(0));
        java.util.regex.Matcher m = base == null || base.canon == null ? null : EXTENT.matcher(base.canon);
        if (m == null || !m.find()) return null;
        int n = Integer.parseInt(m.group(1));
        if (n < 1 || n > ELEMENTS) return null;
        double[] hull = null;
        for (int k = 0; k < n; k++) {
            double[] v = local(obj.refUsr, open.replace("[?]", "[" + (double) k + "]"), fn, read, depth);
            if (v == null) return null;
            hull = hull == null ? v : new double[] {Math.min(hull[0], v[0]), Math.max(hull[1], v[1])};
        }
        return hull;
    }

    /** The member {@code path} of the object {@code expr} evaluates to in {@code fn}, or null. */
    private double[] of(ClangNode expr, String path, ClangUnit.Function fn, int depth) {
        ClangNode e = copied(expr);
        if (e == null || depth <= 0) return null;
        if (e.kind == CXCursor_DeclRefExpr) return local(e.refUsr, path, fn, e, depth);
        if (e.kind == CXCursor_UnaryOperator && e.spelling.equals("*") && e.children.size() == 1) {
            ClangNode t = strip(e.children.get(0));
            return t != null && t.kind == CXCursor_CXXThisExpr ? receiver(path, fn, depth) : null;
        }
        // a lane of a vector library's clamp, arithmetic or constructor (glm::clamp(c, glm::vec3(), glm::vec3(1)))
        double[] lane =
                ClangVectorLanes.of(e, path, x -> of(x, path, fn, depth - 1), x -> intervals.of(x, fn, depth - 1));
        if (lane != null) return lane;
        return e.kind == CXCursor_CallExpr && !callee(e).startsWith("operator") ? returned(e, path, fn, depth) : null;
    }

    /**
     * {@code e} without a copy or move construction around it ({@code C c = in;}, {@code return c;}; before C++17 an
     * elidable move of a returned temporary, which libclang shows as an unnamed call of one argument of the type).
     */
    private static ClangNode copied(ClangNode e) {
        ClangNode n = strip(e);
        for (int i = 0; i < 4 && n != null && n.kind == CXCursor_CallExpr && n.children.size() == 1; i++) {
            ClangNode a = strip(n.children.get(0));
            boolean named = n.refUsr != null && n.refUsr.contains("@F@" + n.spelling + "#&");
            boolean elided = n.refUsr == null
                    && n.spelling.isEmpty()
                    && a != null
                    && a.canon != null
                    && a.canon.replace("const ", "").equals(n.canon);
            if (!named && !elided) return n;
            n = a;
        }
        return n;
    }

    /** Whether {@code o}, an object from {@link #object}, is {@code this}: implicit (null) or written. */
    private static boolean self(ClangNode o) {
        return o == null || o.kind == CXCursor_CXXThisExpr;
    }

    /**
     * The member {@code path} of {@code this} where {@code at} reads it in the method {@code fn}: the assignment to it
     * in the blocks around the read that reaches it ({@code _drap = sqrt(_ghost_area); _dphi = _drap;} before {@code
     * int(twopi/_dphi + 0.5)}, a jet-clustering library's ghost grid: session 83 round W). NONE when no statement before
     * the read in the method writes it (the receiver's value is asked then); UNKNOWN where a statement may change it
     * ({@link #changesOwn}), a loop around the read or the condition of an if or switch around it does, or the read or
     * a statement before it is under a label.
     */
    private Effect ownMember(String path, ClangUnit.Function fn, ClangNode at, int depth) {
        ClangNode cur = at;
        for (ClangNode p = at.parent; p != null && p != fn.node(); cur = p, p = p.parent) {
            if (ClangSyntax.isLoop(p) && changesOwn(p, path)) return Effect.UNKNOWN;
            if ((p.kind == CXCursor_IfStmt || p.kind == CXCursor_SwitchStmt)
                    && p.children.get(0) != cur
                    && changesOwn(p.children.get(0), path)) return Effect.UNKNOWN;
            if (p.kind != CXCursor_CompoundStmt) continue;
            if (ClangSyntax.labelled(cur) != cur) return Effect.UNKNOWN;
            for (int j = p.children.indexOf(cur) - 1; j >= 0; j--) {
                ClangNode st = p.children.get(j);
                if (ClangSyntax.labelled(st) != st) return Effect.UNKNOWN;
                ClangNode v = assignedMember(st, path, l -> self(object(l)));
                if (v != null && !changesOwn(v, path)) return Effect.of(intervals.of(v, fn, depth - 1));
                if (changesOwn(st, path)) return Effect.UNKNOWN;
            }
        }
        return Effect.NONE;
    }

    /**
     * Whether {@code n} may change the member {@code path} of {@code this}: writes it or a member that overlaps it,
     * takes its address or hands it to a call, calls a method on {@code this}, or hands {@code this} itself on. A call
     * of another object's method or of a free function that is given none of them is taken to leave it alone.
     */
    private static boolean changesOwn(ClangNode n, String path) {
        boolean[] hit = new boolean[1];
        n.forEach(x -> {
            if (hit[0]) return;
            if (x.kind == CXCursor_CXXThisExpr) {
                ClangNode p = x.parent;
                while (p != null && (p.kind == CXCursor_ParenExpr || p.kind == CXCursor_UnexposedExpr)) p = p.parent;
                if (p == null || p.kind != CXCursor_MemberRefExpr) hit[0] = true; // g(this), *this
                return;
            }
            if (x.kind != CXCursor_MemberRefExpr || x.refUsr == null || !self(object(x))) return;
            if (x.refUsr.contains("@F@")) {
                hit[0] = true; // a method called on this
                return;
            }
            ClangNode m = accessed(x);
            if (!written(m) && !aliases(m)) return;
            String s = suffix(m, object(m), true);
            hit[0] = s == null || overlap(s, path);
        });
        return hit[0];
    }

    /** The member {@code path} of {@code this} in {@code fn}: of the receiver of the call being evaluated. */
    private double[] receiver(String path, ClangUnit.Function fn, int depth) {
        Deque<Frame> frames = FRAMES.get();
        Frame f = frames.peek();
        if (f == null || f.callee != fn || f.object == null || writesThis(fn)) return null;
        frames.pop();
        try {
            return f.owner.of(f.object, path, f.caller, depth);
        } finally {
            frames.push(f);
        }
    }

    /**
     * Whether the method {@code fn} may change its object before it reads or copies it: it writes a member of
     * {@code this} ({@code r *= s; return *this;}), takes one's address, or calls another method on it. Its reads of
     * {@code this} are then not the receiver's values at the call. Once per function.
     */
    private boolean writesThis(ClangUnit.Function fn) {
        return unit.perFunction("field-value-writes-this", fn.node(), () -> {
            boolean[] hit = new boolean[1];
            fn.node().forEach(x -> {
                if (hit[0] || x.kind != CXCursor_MemberRefExpr || x.refUsr == null) return;
                ClangNode base = x.children.isEmpty() ? null : strip(x.children.get(0));
                if (base != null && base.kind != CXCursor_CXXThisExpr) return;
                if (x.refUsr.contains("@F@")) {
                    hit[0] = true; // a method called on this
                    return;
                }
                ClangNode m = accessed(x);
                hit[0] = written(m) || aliases(m);
            });
            return hit[0];
        });
    }

    /** The member {@code path} of what {@code call}, a call of a function of this parse, returns; or null. */
    private double[] returned(ClangNode call, String path, ClangUnit.Function fn, int depth) {
        ClangIntervals.Callee c = intervals.defining(call.refUsr);
        if (c == null) return null;
        ClangNode head = call.children.isEmpty() ? null : strip(call.children.get(0));
        ClangNode receiver = head != null
                        && head.kind == CXCursor_MemberRefExpr
                        && head.children.size() == 1
                        && head.refUsr != null
                        && head.refUsr.contains("@F@")
                ? head.children.get(0)
                : null;
        List<double[]> args = new java.util.ArrayList<>();
        for (ClangNode a : arguments(call)) args.add(intervals.of(a, fn, depth - 1));
        ClangFieldValues callee = c.unit().intervals.fields;
        Deque<Frame> frames = FRAMES.get();
        frames.push(new Frame(receiver, call, fn, this, c.function()));
        try {
            return intervals.bound(c.function(), args, () -> callee.returns(c.function(), path, depth - 1));
        } finally {
            frames.pop();
        }
    }

    /** The union of the member {@code path} of what every return statement of {@code fn} returns, or null. */
    private double[] returns(ClangUnit.Function fn, String path, int depth) {
        double[] u = null;
        List<ClangNode> rs = new java.util.ArrayList<>();
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_ReturnStmt) rs.add(x);
        });
        for (ClangNode r : rs) {
            if (unit.functionOf(r) != fn) continue;
            double[] v = r.children.isEmpty() ? null : of(r.children.get(0), path, fn, depth);
            if (v == null) return null;
            u = u == null ? v : new double[] {Math.min(u[0], v[0]), Math.max(u[1], v[1])};
        }
        return u;
    }

    /**
     * The member {@code path} of the local structure {@code usr} of {@code fn} where {@code at} reads it: the
     * definition before it in the blocks around it; null when none is known.
     */
    private double[] local(String usr, String path, ClangUnit.Function fn, ClangNode at, int depth) {
        if (usr == null || depth <= 0 || !structures(fn).contains(usr)) return null;
        ClangNode cur = at;
        for (ClangNode p = at.parent; p != null && p != fn.node(); cur = p, p = p.parent) {
            if (ClangSyntax.isLoop(p) && touches(p, usr, path)) return null;
            if (p.kind != CXCursor_CompoundStmt) continue;
            // a read under a label (case K: ...) is entered past the statements before it
            if (ClangSyntax.labelled(cur) != cur) return null;
            for (int j = p.children.indexOf(cur) - 1; j >= 0; j--) {
                ClangNode st = p.children.get(j);
                if (ClangSyntax.labelled(st) != st) return null;
                Effect e = effect(st, usr, path, fn, depth);
                if (e == Effect.UNKNOWN) return null;
                if (e != Effect.NONE) return e.value;
            }
        }
        return null;
    }

    /** What a statement does to a member: nothing, an unknown write, or a definition with its interval. */
    private static final class Effect {
        static final Effect NONE = new Effect(null);
        static final Effect UNKNOWN = new Effect(null);
        final double[] value;

        Effect(double[] value) {
            this.value = value;
        }

        static Effect of(double[] v) {
            return v == null ? UNKNOWN : new Effect(v);
        }
    }

    private Effect effect(ClangNode st, String usr, String path, ClangUnit.Function fn, int depth) {
        if (st.kind == CXCursor_DeclStmt) {
            for (ClangNode d : st.children) {
                if (d.kind != CXCursor_VarDecl || !usr.equals(d.usr)) continue;
                ClangNode init = d.children.isEmpty() ? null : d.children.get(d.children.size() - 1);
                return init == null || !clang_isExpressionKind(init.kind)
                        ? Effect.UNKNOWN
                        : Effect.of(of(init, path, fn, depth));
            }
            return touches(st, usr, path) ? Effect.UNKNOWN : Effect.NONE;
        }
        ClangNode x = strip(st);
        ClangNode v = assignedMember(st, path, l -> rooted(l, usr));
        if (v != null && !touches(v, usr, path)) return Effect.of(intervals.of(v, fn, depth));
        if (x != null && x.kind == CXCursor_CallExpr && callee(x).equals("operator=") && x.children.size() == 3) {
            ClangNode l = strip(x.children.get(0));
            if (l != null && l.kind == CXCursor_DeclRefExpr && usr.equals(l.refUsr))
                return Effect.of(of(x.children.get(2), path, fn, depth));
        }
        if (x != null && x.kind == CXCursor_CallExpr) {
            double[] w = ClangFieldWrites.through(intervals, x, usr, path, fn, depth);
            if (w != null) return new Effect(w);
        }
        if (x != null && x.kind == CXCursor_IfStmt) {
            Effect c = clamp(x, usr, path, fn, depth);
            if (c == null && touches(x, usr, path)) c = branches(x, usr, path, fn, depth);
            if (c != null) return c;
        }
        return touches(st, usr, path) ? Effect.UNKNOWN : Effect.NONE;
    }

    /**
     * The member where an if statement that writes it ends, any branches: the hull of what each branch leaves at its
     * end (its last effect on the member, else the value before the if), a branch that always leaves aside, and of the
     * value before the if where there is no else (session 84 round AB: a viewport's {@code if (lock) { ...; if (r >
     * t) avail.x = floor(avail.y * t); else avail.y = floor(avail.x / t); }} after both were set to at least 1, a
     * false NL001 error). Null when a branch's effect is not known.
     */
    private Effect branches(ClangNode st, String usr, String path, ClangUnit.Function fn, int depth) {
        if (depth <= 1 || st.children.size() < 2 || touches(st.children.get(0), usr, path)) return null;
        double[] hull = null;
        for (int k = 1; k <= 2; k++) {
            ClangNode branch = k < st.children.size() ? st.children.get(k) : null;
            if (branch != null && ClangGuards.leaves(branch)) continue;
            double[] v = branch == null ? local(usr, path, fn, st, depth - 1) : atEnd(branch, usr, path, fn, st, depth);
            if (v == null) return null;
            hull = hull == null ? v : new double[] {Math.min(hull[0], v[0]), Math.max(hull[1], v[1])};
        }
        return hull == null ? null : new Effect(hull);
    }

    /** What the branch {@code branch} of the if {@code st} leaves in the member at its end, or null. */
    private double[] atEnd(ClangNode branch, String usr, String path, ClangUnit.Function fn, ClangNode st, int depth) {
        List<ClangNode> body = branch.kind == CXCursor_CompoundStmt ? branch.children : List.of(branch);
        for (int j = body.size() - 1; j >= 0; j--) {
            ClangNode s = body.get(j);
            if (ClangSyntax.labelled(s) != s) return null;
            Effect e = effect(s, usr, path, fn, depth - 1);
            if (e == Effect.UNKNOWN) return null;
            if (e != Effect.NONE) return e.value;
        }
        return local(usr, path, fn, st, depth - 1);
    }

    /**
     * {@code if (c.r < 0.0f) { c.r = 0.0f; }}: the branch's value, or the value before it where the test failed
     * (finite values, as NL001's clamp rule); {@code if (t) c.r = a; else c.r = b;}: either. Null for another if.
     */
    private Effect clamp(ClangNode st, String usr, String path, ClangUnit.Function fn, int depth) {
        if (st.children.size() < 2 || touches(st.children.get(0), usr, path)) return null;
        ClangNode a = assigned(st.children.get(1), usr, path);
        if (a == null) return null;
        double[] x = intervals.of(a, fn, depth - 1);
        if (st.children.size() == 3) {
            ClangNode b = assigned(st.children.get(2), usr, path);
            if (b == null) return null;
            double[] y = intervals.of(b, fn, depth - 1);
            return new Effect(new double[] {Math.min(x[0], y[0]), Math.max(x[1], y[1])});
        }
        double[] before = local(usr, path, fn, st, depth - 1);
        double[] y = failed(st.children.get(0), usr, path, before != null ? before : ValueBounds.unknown());
        return new Effect(new double[] {Math.min(x[0], y[0]), Math.max(x[1], y[1])});
    }

    /** The value a branch assigns to the member as its one statement ({@code c.r = 0.0f;}), or null. */
    private static ClangNode assigned(ClangNode body, String usr, String path) {
        ClangNode s = soleStatement(body);
        return s == null ? null : assignedMember(s, path, l -> rooted(l, usr));
    }

    /**
     * The value the statement {@code st} assigns to the member {@code path} of an object {@code object} accepts
     * ({@code c.r = v;}: {@code v}), or null when it is no such assignment.
     */
    static ClangNode assignedMember(ClangNode st, String path, java.util.function.Predicate<ClangNode> object) {
        ClangNode x = strip(st);
        if (x == null || x.kind != CXCursor_BinaryOperator || !x.spelling.equals("=") || x.children.size() != 2)
            return null;
        ClangNode l = x.children.get(0);
        return object.test(l) && path.equals(suffix(l, object(l), false)) ? x.children.get(1) : null;
    }

    /**
     * The member or element access {@code x} is the innermost part of ({@code x.c[0]} for {@code x}), through
     * parentheses.
     */
    private static ClangNode accessed(ClangNode x) {
        ClangNode m = x;
        while (m.parent != null
                && (m.parent.kind == CXCursor_MemberRefExpr && m.parent.children.get(0) == m
                        || m.parent.kind == CXCursor_ArraySubscriptExpr && m.parent.children.get(0) == m
                        || m.parent.kind == CXCursor_ParenExpr)) m = m.parent;
        return m;
    }

    /** {@code x} narrowed by the comparison {@code test} of the member with a constant having failed. */
    private static double[] failed(ClangNode test, String usr, String path, double[] x) {
        ClangNode t = strip(test);
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return x;
        String op = t.spelling;
        if (!List.of("<", "<=", ">", ">=").contains(op)) return x;
        ClangNode l = t.children.get(0), r = t.children.get(1);
        Double c;
        if (rooted(l, usr) && path.equals(suffix(l, object(l), false))) c = folded(r);
        else if (rooted(r, usr) && path.equals(suffix(r, object(r), false))) {
            c = folded(l);
            op = op.startsWith("<") ? op.replace('<', '>') : op.replace('>', '<');
        } else return x;
        if (c == null) return x;
        // the test failed: v < c fails where v >= c, v > c where v <= c
        double lo = op.startsWith("<") ? Math.max(x[0], c) : x[0];
        double hi = op.startsWith(">") ? Math.min(x[1], c) : x[1];
        return lo <= hi ? new double[] {lo, hi} : x;
    }

    /** Whether the lvalue {@code l} is a member of the local {@code usr}. */
    static boolean rooted(ClangNode l, String usr) {
        ClangNode o = object(l);
        return o != null && o.kind == CXCursor_DeclRefExpr && usr.equals(o.refUsr);
    }

    /**
     * Whether {@code n} may change the member {@code path} of {@code usr}: writes it or a member that overlaps it,
     * the whole structure, takes an address, passes the structure by reference or calls a method on it (any method:
     * libclang types the callee of a member call as a bound member function, whatever its qualifiers).
     */
    static boolean touches(ClangNode n, String usr, String path) {
        boolean[] hit = new boolean[1];
        n.forEach(x -> {
            if (hit[0] || x.kind != CXCursor_DeclRefExpr || !usr.equals(x.refUsr)) return;
            ClangNode m = member(x, true);
            ClangNode p = m.parent;
            // an array member used whole (decayed to a pointer: float *q = v.c;) may be written through
            if (m != outermost(x)
                    && strip(m) != null
                    && strip(m).canonKind == CXType_ConstantArray
                    && !inSizeof(m, n)) {
                String s = suffix(m, x, true);
                hit[0] = s == null || overlap(s, path);
                return;
            }
            if (p != null && p.kind == CXCursor_MemberRefExpr) {
                hit[0] = true; // a method called on the structure may change it
                return;
            }
            if (p != null && p.kind == CXCursor_CallExpr && p.children.size() == 1 && p.children.get(0) == m) return;
            // a number the call receives converted (by value, or as a const reference): it cannot write the member
            // (session 84 round AB: avail.x = std::max(1.0f, std::floor(avail.x)) was taken as a write)
            if (p != null
                    && p.kind == CXCursor_CallExpr
                    && m.kind == CXCursor_UnexposedExpr
                    && (floating(m.canonKind) || integral(m.canonKind))) return;
            if (!written(m) && !aliases(m) && !(p != null && p.kind == CXCursor_CallExpr)) return;
            String s = suffix(m, x, true);
            hit[0] = s == null || overlap(s, path);
        });
        return hit[0];
    }

    /**
     * The local structures of {@code fn} (variables and by-value parameters of a record type) whose address is taken
     * only as a call's argument ({@code g(&v)}, which {@link #effect} reads at the call) and to which no reference is
     * bound, once per function.
     */
    private Set<String> structures(ClangUnit.Function fn) {
        return unit.perFunction("field-value-structures", fn.node(), () -> {
            Set<String> locals = new HashSet<>();
            Set<String> escaping = new HashSet<>();
            fn.node().forEach(x -> {
                if ((x.kind == CXCursor_VarDecl || x.kind == CXCursor_ParmDecl)
                        && x.usr != null
                        && x.canonKind == CXType_Record
                        && !x.type.contains("&")) locals.add(x.usr);
                if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null && x.canonKind == CXType_Record && escapes(x))
                    escaping.add(x.refUsr);
            });
            locals.removeAll(escaping);
            return locals;
        });
    }

    /**
     * The member or element read of the structure that the reference {@code x} is the base of ({@code x.m_c[0]} for
     * {@code x}), through parentheses and, with {@code conversions}, implicit conversions; {@code x} itself when none.
     */
    private static ClangNode member(ClangNode x, boolean conversions) {
        ClangNode m = outermost(x);
        while (m.parent != null
                && (m.parent.kind == CXCursor_MemberRefExpr
                                && m.parent.refUsr != null
                                && m.parent.refUsr.contains("@FI@")
                        || m.parent.kind == CXCursor_ArraySubscriptExpr && m.parent.children.get(0) == m
                        || m.parent.kind == CXCursor_ParenExpr
                        || conversions && m.parent.kind == CXCursor_UnexposedExpr && m.parent.children.size() == 1))
            m = m.parent;
        return m;
    }

    /** Whether the reference {@code x} lets the structure escape: {@code &v} not as a call's argument, {@code T &r = v}. */
    private static boolean escapes(ClangNode x) {
        ClangNode m = member(x, false);
        ClangNode p = m.parent;
        if (p == null) return false;
        if (p.kind == CXCursor_VarDecl && p.type.contains("&")) return true;
        if (p.kind != CXCursor_UnaryOperator || !p.spelling.equals("&")) return false;
        // an argument converted on its way (vec4F * to const vec4F *): the call is above the implicit conversion
        ClangNode a = p;
        while (a.parent != null
                && (a.parent.kind == CXCursor_ParenExpr
                        || a.parent.kind == CXCursor_UnexposedExpr && a.parent.children.size() == 1)) a = a.parent;
        ClangNode q = a.parent;
        return q == null || q.kind != CXCursor_CallExpr || q.children.indexOf(a) <= 0;
    }
}
