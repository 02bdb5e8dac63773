package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.Site;
import java.util.ArrayList;
import java.util.List;

/**
 * The explicit conversions of floating values to integers in the initializers of a file's variables outside every
 * function ({@code const unsigned filter_sum_full_u = (unsigned)(filter_sum_full * 0x10000);}, a static table's
 * {@code (uint8_t)(255 * 0.5)}): the program evaluates them before {@code main}, or the compiler folds them. Functions'
 * conversions are {@link ClangUnit#conversions()}; these were analyzed by no front end (session 59, round F: two such
 * casts of a sound library were not reported at any level). As file-level facts, host code, with no guard: a constant
 * operand is judged by its value, any other as unbounded.
 */
public final class ClangGlobalInitializers {
    private ClangGlobalInitializers() {}

    /** The file-level facts of {@code unit}: the conversions in its top-level variables' initializers. */
    public static FunctionFacts facts(ClangUnit unit) {
        FunctionFacts out = new FunctionFacts(null);
        List<ClangNode> vars = new ArrayList<>();
        for (ClangNode t : unit.top()) collect(t, vars);
        for (ClangNode v : vars) {
            v.forEach(n -> {
                if (!isExplicitCast(n) || !integral(n.canonKind)) return;
                ClangNode op = operandOf(n);
                ClangNode bare = strip(op);
                if (op == null || bare == null || !floating(bare.canonKind)) return;
                // as for a function Clang alone reads: unsigned and narrow signed targets (NL001, NL011)
                if (!unsignedKind(n.canonKind) && bytes(n.canonKind) >= 4) return;
                Double constant = folded(op);
                // a constant by its value; any other operand unbounded: what a file-scope variable it reads holds
                // when this initializer runs (another file's, a dynamic initializer's) is not followed here
                double[] range = constant != null
                        ? new double[] {constant, constant}
                        : new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY};
                Site site = new Site(
                        n.line,
                        unit.utf16Column(n),
                        n.endLine,
                        unit.utf16EndColumn(n),
                        null,
                        unit.quoted(n),
                        false,
                        true,
                        null);
                String how = n.kind == CXCursor_CStyleCastExpr
                        ? "(" + n.type + ")"
                        : n.kind == CXCursor_CXXStaticCastExpr ? "static_cast<" + n.type + ">" : n.type;
                String from = bare.canon == null
                        ? "double"
                        : bare.canon.replace("const ", "").trim();
                out.conversions.add(new FunctionFacts.Conversion(
                        site,
                        how,
                        unit.text(op),
                        from,
                        n.canon,
                        unsignedKind(n.canonKind),
                        bytes(n.canonKind),
                        constant,
                        false,
                        constant == null && floatData(op),
                        range[0] >= 0,
                        range[0],
                        range[1],
                        true,
                        null,
                        null,
                        false));
            });
        }
        return out;
    }

    /** The variables with an initializer among {@code n} and the namespaces and linkage blocks it holds. */
    private static void collect(ClangNode n, List<ClangNode> out) {
        if (n.offset < 0) return; // in another file
        if (n.kind == CXCursor_VarDecl && !n.children.isEmpty()) out.add(n);
        else if (n.kind == CXCursor_Namespace || n.kind == CXCursor_LinkageSpec || n.kind == CXCursor_UnexposedDecl)
            for (ClangNode c : n.children) collect(c, out);
    }
}
