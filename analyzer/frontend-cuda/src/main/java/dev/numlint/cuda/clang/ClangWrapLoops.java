package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * A loop that wraps a value into range before it is used: {@code while (time_ < 0.0) time_ += TABLE_SIZE;} leaves
 * {@code time_ >= 0}, {@code while (time_ >= TABLE_SIZE) time_ -= TABLE_SIZE;} leaves {@code time_ < TABLE_SIZE}
 * (a wavetable oscillator's phase, STK's {@code SineWave::tick}, session 54: five false NL001 errors). The loop is
 * left only where its test fails, so the test's negation holds after it: a conditional clamp's guard ({@link
 * ClangGuards}). Only the certain case: a {@code while} whose body updates the variable once ({@code +=} below,
 * {@code -=} above) and writes it nowhere else, tested against a constant or against the very value it subtracts,
 * or against a constant no smaller than the constant it subtracts, so that an earlier lower bound of 0 survives the
 * loop that wraps from above.
 */
final class ClangWrapLoops {
    private ClangWrapLoops() {}

    /**
     * The guard the statement {@code k} of {@code block} gives {@code usr} when it is such a loop, as a {@link
     * ClangGuards.Clamp} (side -1: from below, +1: from above), or null.
     */
    static ClangGuards.Clamp of(ClangUnit unit, ClangNode block, int k, ClangGuards.Path usr) {
        ClangNode s = block.children.get(k);
        Loop l = parse(s, usr);
        if (l == null) return null;
        ClangNode update = l.update();
        boolean adds = l.adds();
        ClangNode bound = l.bound();
        boolean below = l.below();
        // below its bound it must grow, above it shrink: the loop that runs the other way never ends or never runs
        if (below != adds || ClangGuards.writes(s.children.get(0), usr)) return null;
        Double c = constant(bound);
        if (below) {
            // x < B, x += step: x >= B after it; a lower bound of 0 or more is the one a conversion needs
            return c != null && c >= 0 ? new ClangGuards.Clamp(unit.text(s.children.get(0)), s.line, -1) : null;
        }
        // x >= M, x -= M: x < M after it, and x - M >= 0 where it ran, so a lower bound of 0 before it holds still
        // or x > B, x -= S with constants B >= S > 0: x > B - S >= 0 where it ran (while (tone > 30.8) { tone -= 12;
        // ++octave; }: session 59, an FM synthesizer's frequency table index)
        Double step = constant(update.children.get(1));
        if (c != null && step != null && step > 0 && c - step >= 0)
            return new ClangGuards.Clamp(unit.text(s.children.get(0)), s.line, 1);
        String m = squash(unit.text(bare(bound)));
        if (m.isEmpty() || !m.equals(squash(unit.text(bare(update.children.get(1)))))) return null;
        ClangGuards.Path limit = ClangGuards.Path.of(bare(bound));
        if (c == null && (limit == null || ClangGuards.writes(s, limit))) return null;
        return new ClangGuards.Clamp(unit.text(s.children.get(0)), s.line, 1);
    }

    /**
     * The interval of the variable {@code ref} reads right after a run of such loops on it with constant bounds and
     * steps, in the statements just before the read's statement in its block: {@code while (d >= 360.0) d -= 360.0;
     * while (d < 0) d += 360.0; return d;} gives [0, 360] whatever d held (session 87 round AU: a lidar driver's angle
     * normalised by a helper, then stored as a 16-bit hundredth of a degree, "nothing bounds it below"). A loop that
     * runs while the value is below B and adds S > 0 leaves it in [B, max(hi, B + S)]; one that runs while it is at
     * least M and subtracts S > 0 leaves it in [min(lo, M - S), M]. Null where no such loop comes right before.
     */
    static double[] interval(ClangNode ref, ClangUnit.Function fn) {
        ClangGuards.Path usr = ClangGuards.Path.of(ref);
        if (usr == null || usr.indirect() || fn == null) return null;
        ClangNode statement = ClangForwardedStores.blockStatement(ref, fn);
        if (statement == null) return null;
        ClangNode block = statement.parent;
        int k = block.children.indexOf(statement);
        int first = k;
        while (first > 0 && loop(block.children.get(first - 1), usr) != null) first--;
        if (first == k) return null;
        double lo = Double.NEGATIVE_INFINITY;
        double hi = Double.POSITIVE_INFINITY;
        for (int j = first; j < k; j++) {
            double[] l = loop(block.children.get(j), usr); // {bound, step, below ? 1 : 0}
            if (l[2] == 1) {
                lo = l[0];
                hi = Math.max(hi, l[0] + l[1]);
            } else {
                hi = l[0];
                lo = Math.min(lo, l[0] - l[1]);
            }
        }
        return new double[] {lo, hi};
    }

    /**
     * {bound, step, 1} for {@code while (x < B) x += S;}, {bound, step, 0} for {@code while (x >= M) x -= S;} (also
     * {@code <=}, {@code >}, the bound first), constants with S > 0, the body's only write of {@code usr}; else null.
     */
    private static double[] loop(ClangNode s, ClangGuards.Path usr) {
        Loop l = parse(s, usr);
        if (l == null) return null;
        Double b = constant(l.bound());
        Double step = constant(l.update().children.get(1));
        if (l.below() != l.adds()
                || b == null
                || step == null
                || !(step > 0)
                || ClangGuards.writes(s.children.get(0), usr)) return null;
        return new double[] {b, step, l.below() ? 1 : 0};
    }

    /**
     * A {@code while} loop whose test compares {@code usr} with a bound and whose body's only write of it is a
     * compound {@code +=} or {@code -=}: the update, whether it adds, the bound, and whether the loop runs while the
     * value is below the bound; else null.
     */
    private record Loop(ClangNode update, boolean adds, ClangNode bound, boolean below) {}

    private static Loop parse(ClangNode s, ClangGuards.Path usr) {
        if (s.kind != CXCursor_WhileStmt || s.children.size() != 2) return null;
        ClangNode update = update(s.children.get(1), usr);
        if (update == null
                || update.kind != CXCursor_CompoundAssignOperator
                || update.children.size() != 2
                || !usr.key().equals(ClangGuards.Path.key(update.children.get(0)))) return null;
        boolean adds = update.spelling.equals("+=");
        if (!adds && !update.spelling.equals("-=")) return null;
        ClangNode test = bare(s.children.get(0));
        if (test == null || test.kind != CXCursor_BinaryOperator || test.children.size() != 2) return null;
        String op = test.spelling;
        if (usr.key().equals(ClangGuards.Path.key(bare(test.children.get(0))))) {
            boolean below = op.equals("<") || op.equals("<=");
            return below || op.equals(">") || op.equals(">=")
                    ? new Loop(update, adds, test.children.get(1), below)
                    : null;
        }
        if (usr.key().equals(ClangGuards.Path.key(bare(test.children.get(1))))) {
            boolean below = op.equals(">") || op.equals(">=");
            return below || op.equals("<") || op.equals("<=")
                    ? new Loop(update, adds, test.children.get(0), below)
                    : null;
        }
        return null;
    }

    /**
     * The one statement of the loop's body that writes {@code usr}, stripped, when it is its only write ({@code tone
     * -= 12.0;} beside {@code ++octave;}), or null.
     */
    private static ClangNode update(ClangNode body, ClangGuards.Path usr) {
        ClangNode sole = soleStatement(body);
        if (sole != null) return strip(sole);
        if (body.kind != CXCursor_CompoundStmt) return null;
        ClangNode found = null;
        for (ClangNode st : body.children) {
            if (!ClangGuards.writes(st, usr)) continue;
            if (found != null) return null;
            found = st;
        }
        return found == null ? null : strip(found);
    }
}
