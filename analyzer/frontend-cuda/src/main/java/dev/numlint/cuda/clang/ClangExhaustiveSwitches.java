package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.HashSet;
import java.util.Set;

/**
 * A {@code return} that follows a switch on an enumeration whose cases name every enumerator and leave the function
 * (no {@code break}, no {@code default}, the last statement a return): the function reaches it only with a value no
 * enumerator has, so what it returns is not among what the function gives for the enumeration's values (session 56:
 * a texture codec's {@code get_quant_level(quant_method)} returns 2 to 256 from its cases and 0 after the switch,
 * commented "Unreachable - the enum is fully described"; the 0 made {@code levels - 1.0f} negative and a
 * quantization's add-half rounding of non-negative weights a warning). The enumeration is found by its name among
 * the declarations of the units of the parse; an enumeration not found decides nothing.
 */
final class ClangExhaustiveSwitches {
    private ClangExhaustiveSwitches() {}

    /** Whether the return statement {@code ret} of a function of {@code unit} is such a return. */
    static boolean after(ClangUnit unit, ClangNode ret) {
        ClangNode block = ret.parent;
        if (block == null || block.kind != CXCursor_CompoundStmt) return false;
        int i = block.children.indexOf(ret);
        if (i < 1) return false;
        ClangNode sw = block.children.get(i - 1);
        if (sw.kind != CXCursor_SwitchStmt || sw.children.size() != 2) return false;
        String name = enumeration(sw.children.get(0));
        ClangNode body = sw.children.get(1);
        if (name == null || body.kind != CXCursor_CompoundStmt || body.children.isEmpty()) return false;
        boolean[] leaves = {false};
        Set<Double> cases = new HashSet<>();
        body.forEach(n -> {
            if (n.kind == CXCursor_BreakStmt
                    || n.kind == CXCursor_DefaultStmt
                    || n.kind == CXCursor_GotoStmt
                    || n.kind == CXCursor_ContinueStmt) leaves[0] = true;
            if (n.kind == CXCursor_CaseStmt && !n.children.isEmpty()) {
                Double v = strip(n.children.get(0)) == null ? null : strip(n.children.get(0)).value;
                if (v == null) leaves[0] = true;
                else cases.add(v);
            }
        });
        if (leaves[0] || !returns(body.children.get(body.children.size() - 1))) return false;
        Set<Double> values = enumerators(unit, name);
        return values != null && !values.isEmpty() && cases.containsAll(values);
    }

    /** Whether {@code s} is a return, or a case label (chain) whose statement is one. */
    private static boolean returns(ClangNode s) {
        ClangNode x = s;
        while (x != null && x.kind == CXCursor_CaseStmt && x.children.size() == 2) x = x.children.get(1);
        return x != null && x.kind == CXCursor_ReturnStmt;
    }

    /** The canonical name of the enumeration the switch's condition reads ({@code quant_method}), or null. */
    private static String enumeration(ClangNode cond) {
        ClangNode x = cond;
        for (int d = 0; x != null && d < 8; d++) {
            if (x.canonKind == CXType_Enum && x.canon != null) return x.canon;
            x = x.children.size() == 1 ? x.children.get(0) : null;
        }
        return null;
    }

    /** The values of the enumeration {@code name} declared in a unit of {@code unit}'s parse, or null. */
    private static Set<Double> enumerators(ClangUnit unit, String name) {
        for (ClangUnit u : ClangIncludes.sameParse(unit)) {
            for (ClangNode t : u.top()) {
                Set<Double> v = enumerators(t, name, 0);
                if (v != null) return v;
            }
        }
        return null;
    }

    private static Set<Double> enumerators(ClangNode n, String name, int depth) {
        if (n.kind == CXCursor_EnumDecl && name.equals(n.canon)) {
            Set<Double> out = new HashSet<>();
            Double previous = null;
            for (ClangNode c : n.children) {
                if (c.kind != CXCursor_EnumConstantDecl) continue;
                // an enumerator without an initializer is the one before it plus one, the first 0
                Double v = c.children.isEmpty()
                        ? (previous == null ? Double.valueOf(0) : Double.valueOf(previous + 1))
                        : constantOf(c.children.get(c.children.size() - 1));
                if (v == null) return null; // a value not known here
                out.add(v);
                previous = v;
            }
            return out;
        }
        // enumerations declared in a namespace or a class
        if (depth > 4 || n.kind != CXCursor_Namespace && n.kind != CXCursor_ClassDecl && n.kind != CXCursor_StructDecl)
            return null;
        for (ClangNode c : n.children) {
            Set<Double> v = enumerators(c, name, depth + 1);
            if (v != null) return v;
        }
        return null;
    }

    private static Double constantOf(ClangNode e) {
        for (ClangNode x = e; x != null; x = x.children.size() == 1 ? x.children.get(0) : null) {
            if (x.value != null) return x.value;
        }
        return null;
    }
}
