package dev.numlint.ptx;

import dev.numlint.knowledge.WrittenCode;
import dev.numlint.ptx.PtxAnalyzer.SourceCache;
import dev.numlint.ptx.model.DebugLoc;
import dev.numlint.ptx.model.SourcePos;
import dev.numlint.ptx.rules.PtxHit;
import dev.numlint.rules.RuleCatalog;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where a constant nvcc folded into an inlined function is written ({@link PtxFindings}): the PTX shows it at the
 * callee's line, the source at the call that passes it.
 */
final class FoldedConstants {
    private final Map<Integer, String> files;
    private final Map<Integer, Path> fileIndex;
    private final SourceCache sources;

    FoldedConstants(Map<Integer, String> files, Map<Integer, Path> fileIndex, SourceCache sources) {
        this.files = files;
        this.fileIndex = fileIndex;
        this.sources = sources;
    }

    /**
     * Where the constant of a rule whose written line must hold it ({@code relocate-ptx} of a construct that follows
     * arguments: a float constant) is written: nvcc propagates an argument into the callee it inlines, so {@code
     * newton(a, 0.05f)} shows the constant at the solver's line, which writes none. The innermost call site on the
     * instruction's inlining chain whose line holds the construct, else {@code written} as it is.
     */
    SourcePos writtenAt(PtxHit h, DebugLoc loc, SourcePos written) {
        WrittenCode.Construct c = RuleCatalog.get().policy(h.ruleId()).relocatePtx();
        if (c == null || !c.followsArguments() || written == null || loc == null || !loc.inlined()) return written;
        if (literalLine(written, 0) > 0) return written;
        // a call site up the chain whose statement writes a float literal (a call over several lines: the line of
        // the argument), else the shown line if it may hold the constant otherwise (a macro), else the first call
        // site that may
        for (SourcePos site : loc.inlinedAt()) {
            SourcePos p = PtxFindings.writtenPos(new DebugLoc(site, null, List.of()), files);
            int line = p == null || p.line() <= 0 ? -1 : literalLine(p, STATEMENT_LINES);
            if (line > 0) return new SourcePos(p.fileIndex(), p.file(), line, line == p.line() ? p.column() : 0);
        }
        if (holdsAt(c, written)) return written;
        for (SourcePos site : loc.inlinedAt()) {
            SourcePos p = PtxFindings.writtenPos(new DebugLoc(site, null, List.of()), files);
            if (p != null && p.line() > 0 && holdsAt(c, p)) return p;
        }
        return written;
    }

    /** The most lines of a call written over several that {@link #literalLine} reads below its first. */
    private static final int STATEMENT_LINES = 12;

    /**
     * The line of the statement starting at {@code pos} that writes a float literal: its own, or one of the next
     * {@code more} lines while the parentheses opened on it stay open; -1 when none does.
     */
    private int literalLine(SourcePos pos, int more) {
        Path f = fileIndex.get(pos.fileIndex());
        if (f == null) return -1;
        int depth = 0;
        for (int l = pos.line(); l <= pos.line() + more; l++) {
            String text = sources.line(f, l);
            if (text == null) return -1;
            if (WrittenCode.holdsFloatLiteral(text)) return l;
            depth += WrittenCode.openParentheses(text);
            if (depth <= 0) return -1;
        }
        return -1;
    }

    private boolean holdsAt(WrittenCode.Construct c, SourcePos pos) {
        Path f = fileIndex.get(pos.fileIndex());
        String text = f == null ? null : sources.line(f, pos.line());
        return text != null && WrittenCode.mayHold(c, text);
    }
}
