package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.cuda.clang.ClangGuards.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The guard a variable's definition gives a conversion of it ({@link ClangGuards}): the clamp or conditional it
 * assigns, what limits the assigned value where it is assigned ({@code low = floorf(x)} after a test on {@code x}),
 * or an early exit between the definition and the conversion on a variable the definition reads, neither written
 * in between:
 *
 * <pre>
 * const double block_loc = (et - start) / step;
 * if (et &lt; start || et &gt; end) return OUTSIDE;
 * nr = (uint32_t) block_loc;           // limited by the early return, as when the test came first
 * </pre>
 *
 * (session 64 round B: an ephemeris reader's record index was an error "nothing bounds 'block_loc' below", while the
 * same test before the definition made it a note.)
 */
final class ClangDefinitionGuards {
    private ClangDefinitionGuards() {}

    /**
     * Where the definition is: statement {@code k} of {@code block}, whose statement {@code at} holds the conversion;
     * {@code exits}: the early exits ({check, its statement}) passed on the way back from the conversion.
     */
    record Place(ClangNode block, int k, int at, List<ClangNode[]> exits) {}

    /**
     * The guard the statement at {@code place} gives {@code usr} when it is its definition, "" when nothing limits
     * it; null when it defines no {@code usr}.
     */
    static String of(ClangUnit unit, Place place, Path usr, ClangUnit.Function fn, int depth) {
        ClangNode s = ClangSyntax.labelled(place.block().children.get(place.k()));
        // if (full) { y = ...; y = CLIP3(y, 0, 1023); } else { ...; y = CLIP3(y, 64, 940); }: each branch ends with
        // a definition that limits it (session 75 round D: an HDR library's luma, clamped in both arms)
        if (s.kind == CXCursor_IfStmt && s.children.size() == 3 && depth > 0) {
            String a = arm(unit, s, 1, usr, fn, depth - 1), b = a == null ? null : arm(unit, s, 2, usr, fn, depth - 1);
            if (a != null && b != null) return "the definitions in both branches of the if at line " + s.line;
        }
        ClangNode rhs = null;
        ClangNode e = strip(s);
        if (e != null && e.kind == CXCursor_BinaryOperator && e.spelling.equals("=") && e.children.size() == 2) {
            ClangNode l = strip(e.children.get(0));
            if (l != null && usr.key().equals(Path.key(l))) rhs = e.children.get(1);
        }
        if (s.kind == CXCursor_DeclStmt) {
            for (ClangNode d : s.children) {
                if (d.kind == CXCursor_VarDecl && usr.key().equals(d.usr)) {
                    rhs = d.children.isEmpty() ? null : d.children.get(d.children.size() - 1);
                    if (rhs == null) return "";
                }
            }
        }
        if (rhs == null) return null;
        if (ClangGuards.constantTerm(rhs)) return ClangGuards.CONSTANT;
        ClangNode r = strip(rhs);
        if (r != null && r.kind == CXCursor_CallExpr && ClangGuards.clampCall(unit, r))
            return "'" + unit.text(s) + "' (line " + s.line + ")";
        // a conditional limits the value when each branch does (ClangConditionals): "s = x > 0 ? a : b" limits
        // nothing where a and b are open (session 75: any conditional with a comparison counted as a guard)
        if (r != null
                && r.kind == CXCursor_ConditionalOperator
                && ClangConditionals.limits(
                                unit, r, x -> depth > 0 && ClangGuards.of(unit, x, x, fn, depth - 1) != null)
                        != null) return "'" + unit.text(s) + "' (line " + s.line + ")";
        if (depth > 0) {
            String g = ClangGuards.of(unit, rhs, rhs, fn, depth - 1);
            if (g != null) return g;
            g = laterExits(unit, place, rhs, fn, depth - 1);
            if (g != null) return g;
        }
        return "";
    }

    /**
     * The guard the last statement that writes {@code usr} in branch {@code i} of {@code ifStmt} gives it as its
     * definition, when that branch is a block or one statement; null when none limits it or the branch does not
     * define it there.
     */
    private static String arm(ClangUnit unit, ClangNode ifStmt, int i, Path usr, ClangUnit.Function fn, int depth) {
        ClangNode branch = ifStmt.children.get(i);
        Place at = null;
        if (branch.kind == CXCursor_CompoundStmt) {
            for (int k = branch.children.size() - 1; k >= 0 && at == null; k--)
                if (ClangGuards.writes(branch.children.get(k), usr))
                    at = new Place(branch, k, branch.children.size(), List.of());
        } else {
            at = new Place(ifStmt, i, ifStmt.children.size(), List.of());
        }
        String g = at == null ? null : of(unit, at, usr, fn, depth);
        return g == null || g.isEmpty() ? null : g;
    }

    /**
     * The guard of {@code rhs} from the early exits after its definition: each floating variable it reads is limited
     * by the first exit that tests it, else by what limits it at the definition; none written from the definition
     * to the conversion's statement.
     */
    private static String laterExits(ClangUnit unit, Place place, ClangNode rhs, ClangUnit.Function fn, int depth) {
        if (place.exits().isEmpty()) return null;
        Map<String, Path> paths = new HashMap<>();
        rhs.forEach(x -> {
            if (!ClangGuards.valued(x)) return;
            Path v = Path.of(x);
            if (v != null) paths.putIfAbsent(v.key(), v);
        });
        Map<String, String> vars = new HashMap<>();
        boolean tested = false;
        for (Path v : paths.values()) {
            for (int j = place.k() + 1; j <= place.at(); j++) {
                if (ClangGuards.writes(place.block().children.get(j), v)) return null;
            }
            String g = null;
            for (ClangNode[] x : place.exits()) {
                if ((g = ClangGuards.chainExit(unit, x[0], v, x[0] != x[1])) != null) break;
            }
            tested |= g != null;
            vars.put(v.key(), g != null ? g : ClangGuards.guardOf(unit, rhs, v, fn, depth));
        }
        return tested ? ClangGuards.limited(unit, rhs, vars) : null;
    }
}
