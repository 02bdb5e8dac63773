package dev.numlint.cuda;

import static dev.numlint.cuda.SyntaxQueries.collectModified;
import static dev.numlint.cuda.SyntaxQueries.collectOverwritten;
import static dev.numlint.cuda.parser.CudaParser.*;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;

/** A loop: its line, constant trip count (-1 unknown, 1 for logarithmic loops) and induction variables. */
final class Loop {
    final int line;
    /** The loop statement, for the names it modifies (computed on first use). */
    final ParserRuleContext node;

    long trip = -1;
    final Set<String> induction = new HashSet<>();
    private Set<String> modified;
    private Set<String> overwritten;
    /** What finds clean-up loops ({@link CleanUpLoops}), set for for statements; the answer, once asked. */
    CleanUpLoops cleanUps;

    private dev.numlint.cuda.facts.CleanUpLoop cleanUp;
    private boolean cleanUpAsked;

    Loop(int line, ParserRuleContext node) {
        this.line = line;
        this.node = node;
    }

    /** The clean-up bound of this for loop ({@link CleanUpLoops}), computed on first request; null when none. */
    dev.numlint.cuda.facts.CleanUpLoop cleanUp() {
        if (!cleanUpAsked) {
            cleanUpAsked = true;
            if (cleanUps != null && node instanceof ForStmtContext f) cleanUp = cleanUps.of(f);
        }
        return cleanUp;
    }

    /** Names assigned, incremented or passed by name/address to a call anywhere in the loop. */
    Set<String> modified() {
        if (modified == null) {
            modified = new HashSet<>();
            if (node != null) collectModified(node, modified);
        }
        return modified;
    }

    /**
     * Names assigned a value that does not read them, unconditionally in every iteration: {@code t = f(k);}
     * as a statement of the loop body (not inside an if, switch or inner loop).
     */
    Set<String> overwritten(Map<String, java.util.BitSet> outParams) {
        if (overwritten == null) {
            overwritten = new HashSet<>();
            StatementContext body = node instanceof ForStmtContext
                    ? ((ForStmtContext) node).statement()
                    : node instanceof WhileStmtContext
                            ? ((WhileStmtContext) node).statement()
                            : node instanceof DoStmtContext ? ((DoStmtContext) node).statement() : null;
            if (body != null) collectOverwritten(body, overwritten, outParams);
        }
        return overwritten;
    }
}
