package dev.numlint.cuda;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.Site;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;

/**
 * The function body {@link FunctionAnalyzer} walks, as the classes that compute its facts read it: the file scope and
 * the definition, the tokens and their text, the nested scopes of locals and the loops around the walk's current
 * point, the typed value of every expression walked so far, whether the code at that point runs on the device or the
 * host, and the {@link FunctionFacts} its sites are recorded in.
 */
final class FunctionBody {
    final FileScope scope;
    final TopLevelSplitter.FunctionDef f;
    final FunctionFacts facts;
    final IdentityHashMap<ParserRuleContext, E> memo;
    /** The loops around the walk's current point, outermost first. */
    final List<Loop> loops = new ArrayList<>();
    /** The scopes of locals around the walk's current point, innermost first. */
    final Deque<Map<String, Local>> scopes = new ArrayDeque<>();
    /** The parameters and locals declared with an integer type, or as a pointer to or array of integers. */
    final Set<String> integers = new HashSet<>();
    /** The variables of compensated (Kahan) sums ({@link TokenFacts#compensated}). */
    final Set<String> compensated;
    /** The class whose member function this is, or null. */
    final StructInfo cls;

    final ValueFlow flow;
    private final BodyText text;
    /** Whether the code at the walk's point runs on the device, on the host (a device lambda changes both). */
    boolean device;

    boolean host;

    FunctionBody(
            FileScope scope,
            TopLevelSplitter.FunctionDef f,
            BodyText text,
            IdentityHashMap<ParserRuleContext, E> memo,
            ValueFlow flow,
            Set<String> compensated) {
        this.scope = scope;
        this.f = f;
        this.text = text;
        this.memo = memo;
        this.flow = flow;
        this.compensated = compensated;
        this.device = f.runsOnDevice();
        this.host = f.runsOnHost();
        this.cls = f.className == null ? null : scope.structs.get(f.className);
        this.facts = new FunctionFacts(f.className != null ? f.className + "::" + f.name : f.name);
    }

    /** An integer type, or a pointer to or array of integers. */
    static boolean integral(CType t) {
        return t != null && (t.isInteger() || t.kind == CType.Kind.POINTER && t.elem != null && t.elem.isInteger());
    }

    /** Declares a local in the innermost scope (null without a name). */
    Local declare(String name, CType t, Double cval, int line) {
        if (name == null) return null;
        if (integral(t)) integers.add(name);
        Local l = new Local(name, t, loops.size(), cval, line);
        scopes.peek().put(name, l);
        return l;
    }

    Local lookup(String name) {
        for (Map<String, Local> m : scopes) {
            Local l = m.get(name);
            if (l != null) return l;
        }
        return null;
    }

    Site site(ParserRuleContext c) {
        Site[] self = new Site[1];
        // a test against 0 that SquareSums proved cannot flip is dropped from the uses and recorded on the site, as
        // Clang's sign classes record theirs: the PTX layer's "compared in a condition" there does not raise it
        self[0] = pos(c).inMacro(macroBody(c))
                .site(
                        text(c),
                        device,
                        host,
                        () -> {
                            List<dev.numlint.cuda.facts.ValueUse> u = flow.uses(c);
                            if (flow.droppedFixedSign) self[0].withTestsOfFixedSign();
                            return u;
                        },
                        () -> flow.drawn(c))
                .inStatementEndingAt(statementEnd(c));
        return self[0];
    }

    /**
     * The last line of the statement {@code c} is written in: the declaration, expression statement or return that
     * holds it, else the condition, initialisation or step of the if, loop or switch that holds it; 0 outside any
     * statement (a file-scope initialiser).
     */
    static int statementEnd(ParserRuleContext c) {
        ParserRuleContext x = c;
        for (ParserRuleContext p = x.getParent(); p != null; x = p, p = p.getParent()) {
            if (p instanceof dev.numlint.cuda.parser.CudaParser.DeclStmtContext
                    || p instanceof dev.numlint.cuda.parser.CudaParser.ExprStmtContext
                    || p instanceof dev.numlint.cuda.parser.CudaParser.ReturnStmtContext) {
                return p.stop == null ? 0 : p.stop.getLine();
            }
            if (p instanceof dev.numlint.cuda.parser.CudaParser.StatementContext) {
                return x.stop == null ? 0 : x.stop.getLine(); // the condition, init or step of p
            }
        }
        return 0;
    }

    /**
     * The macro whose body holds every token of {@code c} (none passed as an argument from the source), or null: the
     * expression is then written once, in the {@code #define}, however often the macro is used.
     */
    static String macroBody(ParserRuleContext c) {
        String macro = null;
        java.util.ArrayDeque<org.antlr.v4.runtime.tree.ParseTree> todo = new java.util.ArrayDeque<>();
        todo.push(c);
        while (!todo.isEmpty()) {
            org.antlr.v4.runtime.tree.ParseTree t = todo.pop();
            if (t instanceof org.antlr.v4.runtime.tree.TerminalNode n) {
                if (!(n.getSymbol() instanceof PToken p) || p.fromMacro == null) return null;
                if (macro == null) macro = p.fromMacro;
                else if (!macro.equals(p.fromMacro)) return null;
                continue;
            }
            for (int i = t.getChildCount() - 1; i >= 0; i--) todo.push(t.getChild(i));
        }
        return macro;
    }

    /** Line and columns of {@code c} for a finding. */
    static Reporter.Pos pos(ParserRuleContext c) {
        return Reporter.Pos.of(c.start, c.stop);
    }

    /** The function's tokens (after preprocessing). */
    List<PToken> tokens() {
        return text.tokens();
    }

    /** {@link BodyText#fullText}. */
    String fullText(ParserRuleContext c) {
        return text.fullText(c);
    }

    /** {@link BodyText#functionText}. */
    String functionText() {
        return text.functionText();
    }

    /** {@link BodyText#wholeText}. */
    String wholeText() {
        return text.wholeText();
    }

    /** {@link BodyText#text(ParserRuleContext)}. */
    String text(ParserRuleContext c) {
        return text.text(c);
    }

    /** {@link BodyText#text(int, int)}. */
    String text(int a, int b) {
        return text.text(a, b);
    }
}
