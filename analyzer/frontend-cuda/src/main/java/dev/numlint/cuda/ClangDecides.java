package dev.numlint.cuda;

import dev.numlint.cuda.clang.ClangSupplement;
import dev.numlint.cuda.clang.ClangUnit;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Which functions of a file Clang read the hand-written front end still analyzes (issue 26, session 34): those Clang
 * could not fully see. Clang's facts decide every other function ({@link ClangSupplement#missing}), as with
 * {@code -Dnumlint.clang.alone=true}; {@code -Dnumlint.clang.both=true} gives every function to both, as before.
 *
 * <ul>
 *   <li>a function whose body holds a conditional directive after which some code is not compiled in one
 *       configuration ({@link Preprocessor#conditionalLines}): Clang compiles one configuration and never saw the
 *       other branch ({@code #if __CUDA_ARCH__ >= 700 ... #else ... #endif}), which the hand-written front end reads;
 *   <li>a function whose lines hold one of Clang's errors ({@link ClangUnit#errorLines}): its recovery may have
 *       dropped statements (a {@code for} whose condition names an undeclared macro of a header compiled at run time);
 *   <li>a function Clang has no definition over: it did not read it (Clang's own functions the hand-written parser
 *       missed are Clang's, as before).
 * </ul>
 *
 * A file Clang refused ({@link ClangSupplement#notCompiled}) is the hand-written front end's, every function of it.
 */
final class ClangDecides {
    private ClangDecides() {}

    /** The functions of {@code order} the hand-written front end analyzes, in order. */
    static List<TopLevelSplitter.FunctionDef> handWritten(
            List<TopLevelSplitter.FunctionDef> order, List<PToken> toks, BitSet conditionals, ClangSupplement clang) {
        if (clang.notCompiled() != null) return order;
        ClangUnit unit = clang.unit();
        List<ClangUnit.Function> fns = unit.functions();
        BitSet errors = new BitSet();
        for (int l : unit.errorLines()) if (l > 0) errors.set(l);
        List<TopLevelSplitter.FunctionDef> out = new ArrayList<>();
        for (TopLevelSplitter.FunctionDef f : order) {
            int from = toks.get(f.bodyStart).getLine();
            int to = toks.get(f.bodyEnd).getLine();
            if (seen(conditionals, from, to) || seen(errors, Math.min(f.line, from), to) || !read(fns, from, to))
                out.add(f);
        }
        return out;
    }

    /**
     * Of the functions {@link #handWritten} returns, those it returns only for a conditional directive in their body:
     * Clang read them without an error and decides them; the hand-written front end adds only what it reads on the
     * lines Clang compiled no code on ({@link #compiledLines}), the branch Clang's configuration left out (session
     * 62: a whole function read by the hand-written front end for one {@code #if __CUDA_ARCH__} lost Clang's types
     * and macro quotes everywhere else in it).
     */
    static java.util.Set<TopLevelSplitter.FunctionDef> branchesOnly(
            List<TopLevelSplitter.FunctionDef> order, List<PToken> toks, BitSet conditionals, ClangSupplement clang) {
        java.util.Set<TopLevelSplitter.FunctionDef> out =
                java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        if (clang.notCompiled() != null) return out;
        ClangUnit unit = clang.unit();
        BitSet errors = new BitSet();
        for (int l : unit.errorLines()) if (l > 0) errors.set(l);
        for (TopLevelSplitter.FunctionDef f : order) {
            int from = toks.get(f.bodyStart).getLine();
            int to = toks.get(f.bodyEnd).getLine();
            if (seen(conditionals, from, to)
                    && !seen(errors, Math.min(f.line, from), to)
                    && read(unit.functions(), from, to)) out.add(f);
        }
        return out;
    }

    /**
     * The lines Clang compiled code on in the functions it read: every line an expression, a declaration or a simple
     * statement spans (not the blocks, branches and loops around them, which also span the lines Clang skipped).
     */
    static BitSet compiledLines(ClangUnit unit) {
        BitSet b = new BitSet();
        for (ClangUnit.Function f : unit.functions()) {
            f.node().forEach(n -> {
                if (n.line <= 0 || CONTAINERS.contains(n.kind)) return;
                b.set(n.line, Math.max(n.line, n.endLine) + 1);
            });
        }
        return b;
    }

    private static final java.util.Set<Integer> CONTAINERS = java.util.Set.of(
            org.bytedeco.llvm.global.clang.CXCursor_CompoundStmt,
            org.bytedeco.llvm.global.clang.CXCursor_IfStmt,
            org.bytedeco.llvm.global.clang.CXCursor_ForStmt,
            org.bytedeco.llvm.global.clang.CXCursor_WhileStmt,
            org.bytedeco.llvm.global.clang.CXCursor_DoStmt,
            org.bytedeco.llvm.global.clang.CXCursor_SwitchStmt,
            org.bytedeco.llvm.global.clang.CXCursor_CaseStmt,
            org.bytedeco.llvm.global.clang.CXCursor_DefaultStmt,
            org.bytedeco.llvm.global.clang.CXCursor_LabelStmt,
            org.bytedeco.llvm.global.clang.CXCursor_CXXTryStmt,
            org.bytedeco.llvm.global.clang.CXCursor_CXXCatchStmt,
            org.bytedeco.llvm.global.clang.CXCursor_CXXForRangeStmt,
            org.bytedeco.llvm.global.clang.CXCursor_FunctionDecl,
            org.bytedeco.llvm.global.clang.CXCursor_FunctionTemplate,
            org.bytedeco.llvm.global.clang.CXCursor_CXXMethod,
            org.bytedeco.llvm.global.clang.CXCursor_Constructor,
            org.bytedeco.llvm.global.clang.CXCursor_Destructor,
            org.bytedeco.llvm.global.clang.CXCursor_ConversionFunction,
            org.bytedeco.llvm.global.clang.CXCursor_LambdaExpr,
            org.bytedeco.llvm.global.clang.CXCursor_StmtExpr);

    private static boolean seen(BitSet lines, int from, int to) {
        int n = lines.nextSetBit(from);
        return n >= 0 && n <= to;
    }

    /** Whether Clang has a function definition over the lines {@code from..to} (a body). */
    private static boolean read(List<ClangUnit.Function> fns, int from, int to) {
        for (ClangUnit.Function g : fns) {
            if (g.startLine() <= from && g.endLine() >= to) return true;
        }
        return false;
    }
}
