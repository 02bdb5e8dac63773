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
