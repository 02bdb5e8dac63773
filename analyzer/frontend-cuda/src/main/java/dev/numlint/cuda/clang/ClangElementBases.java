package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * Bases and sizes of the subscripts {@link ClangElements} reads: the row a pointer local points at ({@code r = &B[j*n]}
 * in a loop's body, so that {@code r[i]} is {@code B[j*n + i]}) and an element of an integer array that the loops do
 * not change ({@code q->d[axis]}, a size in a row-major subscript). Tuned on the session-34 evaluation's code.
 */
final class ClangElementBases {
    private ClangElementBases() {}

    /**
     * The offset {@code e} of a row pointer {@code b}: a pointer local written once in the loops, in the body of one
     * of them before the update ({@code float *r = &B[e];}, {@code r = B + e}, {@code B - e}), from an array or
     * pointer {@code B} of one address through the loops ({@link ClangElements#fixedBase}): {@code r[i]} is then {@code B[e + i]},
     * with {@code e} read where {@code r} is written. Null when not such (a second write, a base the loops change, an
     * offset that is no polynomial of the counters).
     */
    static Poly rowStart(ClangNode b, ClangElements.Context cx) {
        return rowStart(b, cx, 0);
    }

    /** {@link #rowStart}, {@code depth} row pointers deep ({@code bh = b_ptr + t * q} of {@code b_ptr = B + e}). */
    private static Poly rowStart(ClangNode b, ClangElements.Context cx, int depth) {
        ClangNode x = strip(b);
        if (x == null || x.kind != CXCursor_DeclRefExpr || x.canonKind != CXType_Pointer || x.refUsr == null)
            return null;
        ClangNode def = cx.onlyWrite(x.refUsr, true);
        if (def == null || def.offset < 0 || def.offset >= cx.update.offset) return null;
        ClangNode value = def.kind == CXCursor_VarDecl
                ? (def.children.isEmpty() ? null : def.children.get(def.children.size() - 1))
                : def.kind == CXCursor_BinaryOperator && def.spelling.equals("=") && def.children.size() == 2
                        ? def.children.get(1)
                        : null;
        ClangNode v = value == null ? null : strip(value);
        if (v == null) return null;
        ClangNode base;
        ClangNode offset;
        long sign = 1;
        if (v.kind == CXCursor_UnaryOperator && v.spelling.equals("&") && v.children.size() == 1) {
            ClangNode e = strip(v.children.get(0));
            if (e == null || e.kind != CXCursor_ArraySubscriptExpr || e.children.size() != 2) return null;
            base = e.children.get(0);
            offset = e.children.get(1);
        } else if (v.kind == CXCursor_BinaryOperator
                && (v.spelling.equals("+") || v.spelling.equals("-"))
                && v.children.size() == 2) {
            ClangNode l = strip(v.children.get(0));
            ClangNode r = strip(v.children.get(1));
            if (l == null || r == null) return null;
            boolean lp = l.canonKind == CXType_Pointer || ClangElements.array(l.canonKind);
            boolean rp = r.canonKind == CXType_Pointer || ClangElements.array(r.canonKind);
            if (lp == rp || rp && v.spelling.equals("-")) return null;
            base = lp ? l : r;
            offset = lp ? r : l;
            if (v.spelling.equals("-")) sign = -1;
        } else {
            return null;
        }
        // B + e1 + e2: pointer arithmetic in steps (b_ptr + i * w * q + t * q, session 72 round E: a descriptor's
        // histogram rows), each step's offset added
        java.util.List<ClangNode> more = new java.util.ArrayList<>();
        java.util.List<Long> signs = new java.util.ArrayList<>();
        ClangNode bb = strip(base);
        while (bb != null
                && bb.kind == CXCursor_BinaryOperator
                && (bb.spelling.equals("+") || bb.spelling.equals("-"))
                && bb.children.size() == 2
                && more.size() < 8) {
            ClangNode l = strip(bb.children.get(0));
            ClangNode r = strip(bb.children.get(1));
            if (l == null || r == null || r.canonKind == CXType_Pointer || ClangElements.array(r.canonKind))
                return null;
            if (l.canonKind != CXType_Pointer && !ClangElements.array(l.canonKind)) return null;
            more.add(r);
            signs.add(bb.spelling.equals("-") ? -1L : 1L);
            bb = l;
        }
        // the base itself subscripted (&B[i][j]): not followed; another row pointer of the loops (float *bh = b_ptr +
        // t * q; after float *b_ptr = B + i * cols + j * size;): its own start added, two deep at most
        if (bb == null || bb.kind == CXCursor_ArraySubscriptExpr) return null;
        Poly outer = null;
        if (!ClangElements.fixedBase(bb, cx)) {
            outer = depth < 2 ? rowStart(bb, cx, depth + 1) : null;
            if (outer == null) return null;
        }
        ClangNode loop = innermostLoop(def);
        int p = cx.chain.indexOf(loop);
        if (p < 0) return null;
        ClangNode body = loop.children.get(loop.children.size() - 1);
        if (!body.contains(def) || !body.contains(cx.update)) return null;
        if (!dominates(ClangOutParams.anchor(def), cx.update, loop)) return null;
        Poly off = cx.poly(offset, def, p, 1);
        if (off == null) return null;
        Poly start = (outer == null ? Poly.constant(0) : outer).plus(off, sign);
        for (int k = 0; k < more.size(); k++) {
            Poly o = cx.poly(more.get(k), def, p, 1);
            if (o == null) return null;
            start = start.plus(o, signs.get(k));
        }
        return start;
    }

    /**
     * Whether {@code ref}, a variable in a call's argument, is only read there for a member's value ({@code
     * log2(S[i * dim.w + j])}): a member that is no array, whose address the argument does not take. The call gets a
     * value, not the variable (session 65 round G: a video metric's {@code entropy[i * dim.w + j] += log2(...)} read
     * as a serial sum because {@code dim} appeared in the call's argument).
     */
    static boolean read(ClangNode ref) {
        ClangNode m = ref.parent;
        while (m != null && (m.kind == CXCursor_UnexposedExpr || m.kind == CXCursor_ParenExpr)) m = m.parent;
        if (m == null || m.kind != CXCursor_MemberRefExpr || ClangElements.array(m.canonKind)) return false;
        ClangNode p = m.parent;
        while (p != null && p.kind == CXCursor_ParenExpr) p = p.parent;
        return p == null || p.kind != CXCursor_UnaryOperator || !"&".equals(p.spelling);
    }

    /**
     * The place in {@code chain} (outermost first) of the innermost loop whose body declares the local pointer {@code
     * b} that is subscripted with a fresh allocation in each iteration ({@code float *p = (float *)malloc(n *
     * sizeof(float))}, {@code new float[n]}) and writes it nowhere else, or -1. No two iterations of that loop, or of
     * the loops around it, then address the same memory that holds a sum (gtom's {@code h_scaledinput[i] -=
     * h_baseline[i]}, a buffer allocated and filled per batch); the loops inside it see one address.
     */
    static int freshIn(ClangNode b, java.util.List<ClangNode> chain) {
        ClangNode x = strip(b);
        if (x == null || x.kind != CXCursor_DeclRefExpr || x.refUsr == null || chain.isEmpty()) return -1;
        ClangNode[] decl = new ClangNode[1];
        chain.get(0).forEach(n -> {
            if (decl[0] == null && n.kind == CXCursor_VarDecl && x.refUsr.equals(n.usr)) decl[0] = n;
        });
        if (decl[0] == null || decl[0].canonKind != CXType_Pointer || decl[0].children.isEmpty()) return -1;
        int k = chain.size() - 1;
        while (k >= 0
                && !chain.get(k).children.get(chain.get(k).children.size() - 1).contains(decl[0])) k--;
        if (k < 0) return -1;
        ClangNode init = strip(decl[0].children.get(decl[0].children.size() - 1));
        while (init != null && isExplicitCast(init) && operandOf(init) != null) init = strip(operandOf(init));
        boolean allocated = init != null
                && (init.kind == CXCursor_CXXNewExpr
                        || init.kind == CXCursor_CallExpr && ALLOCATORS.contains(callee(init)));
        // written again after its declaration: another address
        boolean[] again = new boolean[1];
        chain.get(k).forEach(n -> {
            if (ClangLoops.writes(n, x.refUsr)) again[0] = true;
        });
        return allocated && !again[0] ? k : -1;
    }

    /**
     * The place in {@code chain} of the innermost loop whose body declares the local pointer {@code b} that is
     * subscripted from a row of a table of pointers ({@code float *qeM = quant[Mi];} in a coupling loop's body) or
     * from a call ({@code float *const row = img->Row(y);}, {@link #row}) and writes it nowhere else, or -1: the
     * loops inside that loop see one address, whatever the address is in each of its iterations (session 52: a Vorbis
     * coupling's {@code qeM[j] = qeM[j] + qeA[j]} in the j loop inside it was reported as a sum over the j loop).
     */
    static int declaredIn(ClangNode b, java.util.List<ClangNode> chain) {
        ClangNode x = strip(b);
        if (x == null || x.kind != CXCursor_DeclRefExpr || x.refUsr == null || chain.isEmpty()) return -1;
        if (x.canonKind != CXType_Pointer) return -1;
        ClangNode[] decl = new ClangNode[1];
        chain.get(0).forEach(n -> {
            if (decl[0] == null && n.kind == CXCursor_VarDecl && x.refUsr.equals(n.usr)) decl[0] = n;
        });
        // a row of a table of pointers (quant[Mi]), read once per iteration; not an address computed by arithmetic,
        // whose rows the loops around may make overlap
        if (decl[0] == null) return assignedIn(x, chain);
        ClangNode init = decl[0].children.isEmpty() ? null : strip(decl[0].children.get(decl[0].children.size() - 1));
        while (init != null && isExplicitCast(init) && operandOf(init) != null) init = strip(operandOf(init));
        if (init == null || !row(init, null)) return assignedIn(x, chain);
        int k = chain.size() - 1;
        while (k >= 0
                && !chain.get(k).children.get(chain.get(k).children.size() - 1).contains(decl[0])) k--;
        if (k < 0 || !row(init, chain.get(k))) return -1;
        boolean[] again = new boolean[1];
        chain.get(k).forEach(n -> {
            if (ClangLoops.writes(n, x.refUsr)) again[0] = true;
        });
        return again[0] ? -1 : k;
    }

    /**
     * As {@link #declaredIn}, for a pointer declared elsewhere and assigned a row by a statement of a loop's body,
     * its only write in that loop ({@code mfcp = mfc[f];} before the loop over a frame's coefficients, session 53: a
     * speech front end's mean subtraction), or -1.
     */
    private static int assignedIn(ClangNode x, java.util.List<ClangNode> chain) {
        for (int k = chain.size() - 1; k >= 0; k--) {
            ClangNode body = chain.get(k).children.get(chain.get(k).children.size() - 1);
            if (body.kind != CXCursor_CompoundStmt) continue;
            ClangNode row = null;
            for (ClangNode st : body.children) {
                ClangNode e = strip(st);
                if (e != null && ClangLoops.writes(e, x.refUsr) && e.spelling.equals("=") && e.children.size() == 2)
                    row = strip(e.children.get(1));
            }
            if (row == null) continue;
            while (row != null && isExplicitCast(row) && operandOf(row) != null) row = strip(operandOf(row));
            if (row == null || !row(row, chain.get(k))) return -1;
            int[] writes = new int[1];
            chain.get(k).forEach(n -> {
                if (ClangLoops.writes(n, x.refUsr)) writes[0]++;
            });
            return writes[0] == 1 ? k : -1;
        }
        return -1;
    }

    /**
     * A row: an element of a table of pointers ({@code quant[Mi]}) or what a call returns ({@code img->Row(y)},
     * {@code rowOf(base, y)}: an image's row accessor, session 57) that reads a variable {@code loop} (when given)
     * writes, read once per iteration of that loop.
     */
    private static boolean row(ClangNode init, ClangNode loop) {
        if (init.kind == CXCursor_ArraySubscriptExpr) return true;
        if (init.kind != CXCursor_CallExpr) return false;
        if (loop == null) return true;
        // one that reads a variable the loop changes (its counter): a getAccumulator() without one is one buffer
        boolean[] varies = new boolean[1];
        init.forEach(n -> {
            if (n.kind == CXCursor_DeclRefExpr && n.refUsr != null && writesIn(loop, n.refUsr)) varies[0] = true;
        });
        return varies[0];
    }

    private static final java.util.Set<String> ALLOCATORS =
            java.util.Set.of("malloc", "calloc", "aligned_alloc", "std::malloc", "std::calloc");

    /**
     * An element of an integer array read with a subscript the loops do not change ({@code q->d[axis]} of a
     * struct {@code q} the loops do not change, {@link ClangElements.Context#member}; {@code d[1]} of an array or pointer the loops do
     * not write) when the loops store into no integer element and call nothing: a symbol, as the member itself would be (a size in a row-major subscript).
     */
    static Poly element(ClangElements.Context cx, ClangNode s, int depth) {
        if (s.children.size() != 2) return null;
        ClangNode arr = strip(s.children.get(0));
        if (arr == null) return null;
        boolean fixed = arr.kind == CXCursor_MemberRefExpr
                ? ClangElements.array(arr.canonKind) && cx.member(arr) != null
                : arr.kind == CXCursor_DeclRefExpr
                        && arr.refUsr != null
                        && (ClangElements.array(arr.canonKind) || arr.canonKind == CXType_Pointer)
                        && cx.invariant(arr.refUsr);
        if (!fixed) return null;
        Poly ix = cx.poly(s.children.get(1), null, -1, depth);
        if (ix == null) return null;
        boolean[] bad = new boolean[1];
        cx.chain.get(0).forEach(n -> {
            if (bad[0]) return;
            if (n.kind == CXCursor_CallExpr && reachesThis(n)) bad[0] = true;
            boolean assign = assignment(n);
            if (!assign || n.children.isEmpty()) return;
            ClangNode t = strip(n.children.get(0));
            boolean store = t != null
                    && (t.kind == CXCursor_ArraySubscriptExpr
                            || t.kind == CXCursor_UnaryOperator && t.spelling.equals("*"));
            if (store && !floating(t.canonKind)) bad[0] = true;
        });
        if (bad[0]) return null;
        String at = ix.terms.toString().replace(Poly.SEP, "*");
        String key;
        String shown;
        if (arr.kind == CXCursor_DeclRefExpr) {
            key = "\u0002" + arr.refUsr + "\u0002[]\u0002" + at;
            shown = arr.spelling;
        } else {
            ClangNode owner = strip(arr.children.get(0));
            key = "\u0002" + owner.refUsr + "\u0002" + arr.spelling + "\u0002" + at;
            shown = owner.spelling + (owner.canonKind == CXType_Pointer ? "->" : ".") + arr.spelling;
        }
        String sub = "...";
        if (ix.zero()) sub = "0";
        else if (ix.terms.size() == 1 && ix.terms.containsKey("")) sub = Long.toString(ix.terms.get(""));
        else if (ix.terms.size() == 1 && ix.terms.firstEntry().getValue() == 1)
            sub = cx.names.getOrDefault(ix.terms.firstKey(), sub);
        cx.names.putIfAbsent(key, shown + "[" + sub + "]");
        return Poly.symbol(key);
    }

    /**
     * Whether {@code usr} names a non-type template parameter of the function {@code fn} or of a template around
     * it ({@code T} of {@code template<int T>}): a constant of each instantiation, which nothing can write or take
     * the address of.
     */
    static boolean templateConstant(ClangNode fn, String usr) {
        for (ClangNode a = fn; a != null && usr != null; a = a.parent) {
            for (ClangNode c : a.children) {
                if (c.kind == CXCursor_NonTypeTemplateParameter && usr.equals(c.usr)) return true;
            }
        }
        return false;
    }

    /**
     * The array, pointer or object whose element {@code lhs} is, with the subscripts that select the element added to
     * {@code subscripts} (last first): {@code a[j][i]}; a member of an element, {@code a[i].x} (a struct value: the
     * element's address decides); an accessor's call ({@code v[i]}, {@code g.at(j, i)}, {@code g(j, i)}:
     * {@link #accessed}), also of an element ({@code w.e[i][j]} of a {@code std::array} of them, {@code v[i][j]});
     * an element of the buffer a getter of an object returns, {@code images[img]->host()[i]} (each object's buffer
     * its own, as each row of {@code a[img][i]} is its own: {@link #getterObject}). {@code lhs} itself when nothing
     * selects an element.
     */
    static ClangNode element(ClangNode lhs, java.util.List<ClangNode> subscripts) {
        ClangNode x = strip(lhs);
        // a member of an element: p[m].x, also of a container's (particle_data[m].x of a std::vector, session 85
        // round AH: a box wrap of each particle's coordinates, taken for a sum the m loop carries)
        ClangNode owner0 = x != null && x.kind == CXCursor_MemberRefExpr && x.children.size() == 1
                ? strip(x.children.get(0))
                : null;
        if (owner0 != null
                && (owner0.kind == CXCursor_ArraySubscriptExpr || owner0.kind == CXCursor_CallExpr)
                && owner0.canonKind == CXType_Record) x = owner0;
        for (int depth = 0; depth < 16 && x != null; depth++) {
            while (x != null && x.kind == CXCursor_ArraySubscriptExpr && x.children.size() == 2) {
                subscripts.add(x.children.get(1));
                x = strip(x.children.get(0));
            }
            if (x == null) break;
            // an array member of an element (position[i].f[k], of an array or a std::vector): the element's
            // subscripts select it too, as a row's of a[i][k] do (session 50 round K: a per-instance offset added to
            // position[i].f[0] in the i loop was taken for a sum the loop carries)
            if (!subscripts.isEmpty()
                    && x.kind == CXCursor_MemberRefExpr
                    && x.children.size() == 1
                    && ClangElements.array(x.canonKind)) {
                ClangNode owner = strip(x.children.get(0));
                if (owner != null
                        && owner.canonKind == CXType_Record
                        && (owner.kind == CXCursor_ArraySubscriptExpr || owner.kind == CXCursor_CallExpr)) {
                    x = owner;
                    continue;
                }
            }
            // an accessor's element, also of an element (w.e[i][j] of nested std::arrays, m[i][j] of vectors)
            ClangNode object = accessed(x, subscripts);
            // the buffer a getter of an object returns, once an element of it is selected
            if (object == x && !subscripts.isEmpty()) object = getterObject(x);
            if (object == null || object == x) break;
            x = object;
        }
        return x;
    }

    /**
     * The object {@code x} is called on when {@code x} is a call of a method without arguments that returns a pointer
     * ({@code images[img]->host()}, {@code m.data()}), else null.
     */
    static ClangNode getterObject(ClangNode x) {
        if (x == null || x.kind != CXCursor_CallExpr || x.children.size() != 1 || x.canonKind != CXType_Pointer)
            return null;
        ClangNode f = strip(x.children.get(0));
        if (f == null || f.kind != CXCursor_MemberRefExpr || f.children.size() != 1) return null;
        return strip(f.children.get(0));
    }

    /**
     * The object whose element {@code x} is when {@code x} is a call of an accessor that returns an element by
     * reference, with its integer arguments added to {@code subscripts} (last first, as subscripts are collected):
     * {@code v[i]} of a {@code std::vector} ({@code operator[]}), {@code g(j, i)} ({@code operator()}), {@code g.at(j,
     * i)}, {@code m.coeffRef(i, j)}. Distinct argument tuples are taken as distinct elements, as distinct rows of
     * {@code m[i][j]} are. {@code x} itself, with no subscript added, for any other expression.
     */
    static ClangNode accessed(ClangNode x, java.util.List<ClangNode> subscripts) {
        if (x.kind != CXCursor_CallExpr) return x;
        int first = x.spelling.equals("operator[]") || x.spelling.equals("operator()") ? 2 : 1;
        ClangNode object = first == 2 && x.children.size() > 2
                ? x.children.get(0)
                : (x.spelling.equals("at") || x.spelling.equals("coeffRef"))
                                && x.children.size() > 1
                                && x.children.get(0).kind == CXCursor_MemberRefExpr
                                && x.children.get(0).children.size() == 1
                        ? x.children.get(0).children.get(0)
                        : null;
        if (object == null) return x;
        java.util.List<ClangNode> args = new java.util.ArrayList<>();
        for (int k = x.children.size() - 1; k >= first; k--) {
            if (!integral(x.children.get(k).canonKind)) return x;
            args.add(x.children.get(k));
        }
        subscripts.addAll(args);
        return strip(object);
    }

    /**
     * Whether {@code s} is a member of the object a method runs on ({@code m_iNumPatches}, {@code this->base}) that the
     * loops of {@code cx} neither assign nor could change: no assignment to a member of that name, and no call in them
     * that reaches the object ({@link #reachesThis}: a method of it called there may write any member). Such a member
     * holds one value through the loops, as a parameter does.
     */
    /**
     * Whether {@code p}, the pointer a dereference {@code *p} reads, names one array through the loops of {@code cx}:
     * a variable they do not write, and no {@code *p = ...} in them.
     */
    static boolean pointedOnce(ClangNode p, ClangElements.Context cx) {
        if (p == null || p.kind != CXCursor_DeclRefExpr || p.refUsr == null || !cx.invariant(p.refUsr)) return false;
        boolean[] repointed = new boolean[1];
        cx.chain.get(0).forEach(n -> {
            if (repointed[0] || !ClangSyntax.assignment(n) || n.children.isEmpty()) return;
            ClangNode t = strip(n.children.get(0));
            while (t != null && t.kind == CXCursor_ParenExpr && t.children.size() == 1) t = strip(t.children.get(0));
            // *tab = other: the array the loops index is another one after it
            if (t != null && t.kind == CXCursor_UnaryOperator && t.spelling.equals("*") && t.children.size() == 1) {
                ClangNode q = strip(t.children.get(0));
                repointed[0] = q != null && p.refUsr.equals(q.refUsr);
            }
        });
        return !repointed[0];
    }

    static boolean thisMember(ClangNode s, ClangElements.Context cx) {
        return thisMemberIn(s, cx.chain.get(0));
    }

    /** {@link #thisMember} in {@code scope}: a member of the object the method runs on that nothing there changes. */
    static boolean thisMemberIn(ClangNode s, ClangNode scope) {
        if (s == null || s.kind != CXCursor_MemberRefExpr || s.spelling == null) return false;
        ClangNode owner = s.children.isEmpty() ? null : strip(s.children.get(0));
        if (!s.children.isEmpty() && (owner == null || owner.kind != CXCursor_CXXThisExpr)) return false;
        boolean[] bad = new boolean[1];
        scope.forEach(n -> {
            if (bad[0]) return;
            if (n.kind == CXCursor_CallExpr && reachesThis(n)) bad[0] = true;
            boolean assign = assignment(n);
            if (assign && !n.children.isEmpty()) {
                ClangNode t = strip(n.children.get(0));
                if (t != null && t.kind == CXCursor_MemberRefExpr && s.spelling.equals(t.spelling)) bad[0] = true;
            }
        });
        return !bad[0];
    }

    /**
     * Whether the call {@code n} may write a member of the object the method runs on: a method of that object ({@code
     * update()}, {@code this->update()}), or {@code this} or {@code *this} passed. A method or operator of another
     * object, also of a member object ({@code Pot_u[i]} of a {@code std::vector} member, {@code WGD->u0[f]}), gets
     * that object alone (session 56: a fire model's {@code u0[iadd + jadd * nx + (kadd - 1) * nx * ny]} with members
     * {@code nx}, {@code ny} in a loop that reads vector elements was reported as a serial sum over kadd).
     */
    private static boolean reachesThis(ClangNode n) {
        if (n.children.isEmpty()) return true;
        for (int k = 0; k < n.children.size(); k++) {
            ClangNode c = strip(n.children.get(k));
            if (c == null) continue;
            if (c.kind == CXCursor_CXXThisExpr) return true;
            if (c.kind == CXCursor_UnaryOperator
                    && "*".equals(c.spelling)
                    && c.children.size() == 1
                    && strip(c.children.get(0)) != null
                    && strip(c.children.get(0)).kind == CXCursor_CXXThisExpr) return true;
            if (k == 0 && c.kind == CXCursor_MemberRefExpr && c.spelling != null && c.spelling.equals(n.spelling)) {
                // the method called: of this object when written without an object or with this
                ClangNode owner = c.children.isEmpty() ? null : strip(c.children.get(0));
                if (owner == null || owner.kind == CXCursor_CXXThisExpr) return true;
                if (owner.kind == CXCursor_UnaryOperator
                        && "*".equals(owner.spelling)
                        && owner.children.size() == 1
                        && strip(owner.children.get(0)) != null
                        && strip(owner.children.get(0)).kind == CXCursor_CXXThisExpr) return true;
            }
        }
        return false;
    }

    /** The pointer variable {@code p} that {@code lhs} = {@code *p} dereferences, or null. */
    static ClangNode dereferenced(ClangNode lhs) {
        ClangNode x = strip(lhs);
        if (x == null || x.kind != CXCursor_UnaryOperator || !"*".equals(x.spelling) || x.children.size() != 1)
            return null;
        ClangNode p = strip(x.children.get(0));
        return p != null && p.kind == CXCursor_DeclRefExpr && p.canonKind == CXType_Pointer ? p : null;
    }

    /**
     * The pointer variable {@code b} when a statement of a loop's body steps it by elements and nothing else writes
     * it ({@link ClangElementStrides#bodyCounters}: {@code B += 4} after {@code B[0] += ...}), or the increment of a
     * for header steps it monotonically ({@code for (i = 0; i < n; i++, o++) *o += x;}: a counter of the loop,
     * session 60, an oscillator's band-limited step table and a frame buffer's channel mix), else null.
     */
    static String steppedBase(ClangNode b, ClangElements.Context cx) {
        ClangNode x = strip(b);
        if (x == null || x.kind != CXCursor_DeclRefExpr || x.canonKind != CXType_Pointer || x.refUsr == null)
            return null;
        return cx.counters.containsKey(x.refUsr) ? x.refUsr : null;
    }
}
