package dev.numlint.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.numlint.cuda.parser.CudaParser;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.antlr.v4.runtime.CommonToken;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ListTokenSource;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.ParseTree;
import org.junit.jupiter.api.Test;

class SyntaxQueriesTest {
    /** The tokens of the body last parsed. */
    private List<PToken> toks;

    private CudaParser.FunctionBodyContext parse(String body) {
        toks = new ArrayList<>(FastLexer.lex(body));
        for (int i = 0; i < toks.size(); i++) toks.get(i).setTokenIndex(i);
        PToken eof = new PToken(Token.EOF, "<EOF>", 1, 0, Set.of(), null);
        eof.setTokenIndex(toks.size());
        toks.add(eof);
        CudaParser p = new CudaParser(new CommonTokenStream(new ListTokenSource(new ArrayList<CommonToken>(toks))));
        p.setTypeNames(n -> n.equals("float3") || n.equals("State"));
        p.removeErrorListeners();
        CudaParser.FunctionBodyContext tree = p.functionBody();
        assertEquals(0, p.getNumberOfSyntaxErrors(), body);
        return tree;
    }

    private static void nodes(ParseTree t, List<ParserRuleContext> out) {
        if (!(t instanceof ParserRuleContext)) return;
        out.add((ParserRuleContext) t);
        for (int i = 0; i < t.getChildCount(); i++) nodes(t.getChild(i), out);
    }

    /** Positions within the token range of {@code c}, as FunctionAnalyzer counts them. */
    private static int within(int[] at, ParserRuleContext c) {
        int n = 0;
        if (at != null) {
            for (int i : at) if (i >= c.start.getTokenIndex() && i <= c.stop.getTokenIndex()) n++;
        }
        return n;
    }

    /**
     * One walk's positions answer {@link SyntaxQueries#definitions} for every statement and for the body: every
     * defining shape (declarations with and without initialisers, assignments, increments, addresses, call
     * arguments, members, elements, dereferences, lambdas) counted the same, whether or not expressions without
     * a defining token are skipped.
     */
    @Test
    void definitionPositionsCountWhatDefinitionsCounts() {
        String[] bodies = {
            "{ int i = 0, j, k = 2; float s = 0.f; for (int n = 0; n < 8; n++) { s += a[n]; j = n; } i++; ++k;"
                    + " --j; k--; }",
            "{ float c, d; sincosf(x, &c, &d); f((c), d + 1, g(d)); float3 p; p.x = 1.f; q->y = p.x; *r = 2;"
                    + " v[i] = v[i] * 2; (w) = 3; &(u); }",
            "{ int t = 0; while (t < 10) { t += 2; if (t > 4) { int t = 1; t = t * 2; } } do { t--; } while (t);"
                    + " auto l = [&](int z) { t = z; return t; }; l(t); State st; curand_init(1, 0, 0, &st); }",
            "{ for (int i = 0, j = 9; i < j; i++, j--) for (int k = i; k < j; k += 2) acc[k] += i * j;"
                    + " x = y = z = 0; a[b[c] = 1] = 2; return x; }",
        };
        int checked = 0;
        for (String b : bodies) {
            CudaParser.FunctionBodyContext tree = parse(b);
            Map<String, int[]> at = SyntaxQueries.definitionPositions(tree, SyntaxQueries.definitionMarks(toks));
            Map<String, int[]> walked = SyntaxQueries.definitionPositions(tree, null);
            assertEquals(walked.keySet(), at.keySet(), b);
            for (String n : at.keySet()) assertArrayEquals(walked.get(n), at.get(n), n + " in " + b);
            Set<String> names = new HashSet<>();
            SyntaxQueries.names(tree, names);
            List<ParserRuleContext> all = new ArrayList<>();
            nodes(tree, all);
            for (String n : names) {
                assertEquals(SyntaxQueries.definitions(tree, n), within(at.get(n), tree), n + " in " + b);
                for (ParserRuleContext c : all) {
                    if (!(c instanceof CudaParser.StatementContext) || c.stop == null) continue;
                    assertEquals(SyntaxQueries.definitions(c, n), within(at.get(n), c), n + " in " + c.getText());
                    checked++;
                }
            }
            for (Map.Entry<String, int[]> e : at.entrySet()) {
                int[] a = e.getValue();
                for (int i = 1; i < a.length; i++) assertTrue(a[i - 1] <= a[i], "ascending: " + e.getKey());
            }
        }
        assertTrue(checked > 100, "statements checked: " + checked);
        // tokens not indexed by their position give no marks: the walk then visits everything
        assertNull(SyntaxQueries.definitionMarks(FastLexer.lex("{ x = 1; }")));
        // the shapes above define these names, one count per defining place
        Map<String, int[]> at = SyntaxQueries.definitionPositions(parse(bodies[1]), null);
        assertEquals(3, at.get("c").length); // declared, &c, f((c))
        assertEquals(3, at.get("d").length); // declared, &d, g(d) (d + 1 is no name)
    }

    /** A pack's size as a template argument parses (session 72 round A: a template array library's size calculator). */
    @Test
    void aPackSizeIsATemplateArgument() {
        parse("{ return dim_getter<Ord, Ind, Dims...>::template get<sz>(d) *"
                + " size_calculator_<Ord, Ind + 1, sizeof...( Dims ) == Ind + 1, Dims...>::template get<sz>(d); }");
    }
}
