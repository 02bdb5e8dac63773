package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.knowledge.WrittenCode;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One hazard of one statement is one finding (session 28): a PTX finding at a lower line of the statement a source
 * finding's code is written in ({@link Identity#statementEnd}) joins it when it is of the same operation, and one
 * value written twice in neighbouring statements (a common subexpression) is one finding ({@link
 * RepeatedCode#commonSubexpressions}).
 */
class StatementMergeTest {
    private static Finding source(String rule, int line, String expr, int statementEnd, Level level) {
        return Finding.builder(rule)
                .level(level)
                .layer(Layer.CUDA_SOURCE)
                .function("project")
                .location(Location.of("p.cu", line, 15))
                .message("'" + expr + "' may become one fma (-fmad=true default): one ulp can move the index at line 9")
                .evidence(Evidence.source(expr))
                .impact(new Impact(Impact.Kind.AMPLIFIED, "one ulp can move the index at line 9", null, null))
                .identity(Identity.NONE
                        .withExpression(expr)
                        .withCode(WrittenCode.tokens(expr))
                        .withStatementEnd(statementEnd))
                .build();
    }

    private static Finding ptx(String rule, int line, String instr, Boolean lineHolds, boolean library) {
        String opcode = instr.split("[.\\s]", 2)[0];
        return Finding.builder(rule)
                .level(Level.WARNING)
                .layer(Layer.PTX)
                .function("project")
                .location(Location.of("p.cu", line, 15))
                .message("`" + instr + "`: nvcc contracted a*b+c into one fma (one rounding, not two)")
                .evidence(new Evidence("ptx", instr, null))
                .identity(Identity.NONE
                        .withInstruction(opcode)
                        .withOperations(dev.numlint.model.Operation.computedBy(opcode))
                        .withLibraryCode(library)
                        .withOrigin(new Identity.Origin(lineHolds, List.of())))
                .build();
    }

    @Test
    void aPtxFmaAtTheNextLineOfTheStatementJoinsTheSourceFinding() {
        List<Finding> out = LayerMerge.merge(List.of(
                source("NL003", 4, "x0+orig0*d0", 5, Level.WARNING),
                ptx("NL003", 5, "fma.rn.f32 %f7, %f6, %f3, %f5", true, false)));
        assertThat(out).hasSize(1);
        Finding f = out.get(0);
        assertThat(f.layer()).isEqualTo(Layer.CUDA_SOURCE);
        assertThat(f.location().startLine()).isEqualTo(4);
        assertThat(f.message()).endsWith("(PTX confirms)");
        assertThat(f.related()).extracting(r -> r.location().startLine()).contains(5);
    }

    @Test
    void aLineBelowTheStatementOrOfAnotherOperationStaysApart() {
        // the statement ends at line 4: the fma at line 5 is the next statement's
        assertThat(LayerMerge.merge(List.of(
                        source("NL003", 4, "x0+orig0*d0", 0, Level.WARNING),
                        ptx("NL003", 5, "fma.rn.f32 %f7, %f6, %f3, %f5", true, false))))
                .hasSize(2);
        // a step of an inlined library routine is not the programmer's operation
        assertThat(LayerMerge.merge(List.of(
                        source("NL003", 4, "x0+orig0*d0", 5, Level.WARNING),
                        ptx("NL003", 5, "fma.rn.f32 %f7, %f6, %f3, %f5", true, true))))
                .hasSize(2);
        // an instruction that computes an operation the source code does not spell (ex2 of an exp written below)
        Finding sine = source("NL008", 4, "sin(a)", 5, Level.WARNING);
        sine = sine.toBuilder()
                .identity(sine.identity().withOperations(dev.numlint.model.Operation.spelledIn("sin(a)")))
                .build();
        assertThat(LayerMerge.merge(List.of(sine, ptx("NL008", 5, "ex2.approx.f32 %f7, %f6", true, false))))
                .hasSize(2);
        assertThat(LayerMerge.merge(List.of(sine, ptx("NL008", 5, "sin.approx.f32 %f7, %f6", true, false))))
                .hasSize(1);
        // a rule that keeps every site (NL002's approximate divisions) keeps a division at the statement's next line
        Finding div = source("NL002", 4, "a/b", 5, Level.WARNING);
        div = div.toBuilder()
                .identity(div.identity().withOperations(dev.numlint.model.Operation.spelledIn("a/b")))
                .build();
        assertThat(LayerMerge.merge(List.of(div, ptx("NL002", 5, "div.approx.f32 %f7, %f6, %f5", true, false))))
                .hasSize(2);
    }

    private static Finding contraction(int line, String expr, String accumulator, Level level) {
        Finding f = source("NL003", line, expr, 0, level);
        return f.toBuilder().identity(f.identity().withAccumulator(accumulator)).build();
    }

    @Test
    void oneProductAndSumWrittenInTwoNeighbouringStatementsIsOneFinding() {
        List<Finding> out = RepeatedCode.commonSubexpressions(List.of(
                contraction(13, "img_origin0+i0*voxsize0", null, Level.NOTE),
                contraction(14, "img_origin0 + i0 * voxsize0", null, Level.WARNING)));
        assertThat(out).hasSize(1);
        Finding f = out.get(0);
        assertThat(f.location().startLine()).isEqualTo(13);
        assertThat(f.level()).isEqualTo(Level.WARNING); // the graver of the two
        assertThat(f.message()).endsWith("(and line 14: one value)");
        assertThat(f.related()).extracting(r -> r.location().startLine()).containsExactly(14);
    }

    @Test
    void updatesFarStatementsAndOtherCodeStayApart() {
        // two sums are two values
        assertThat(RepeatedCode.commonSubexpressions(List.of(
                        contraction(13, "s += a*b", "s", Level.WARNING),
                        contraction(14, "s += a*b", "s", Level.WARNING))))
                .hasSize(2);
        // a line between them, which may change an operand ('i += 4;')
        assertThat(RepeatedCode.commonSubexpressions(List.of(
                        contraction(13, "o+i*v", null, Level.WARNING), contraction(15, "o+i*v", null, Level.WARNING))))
                .hasSize(2);
        // another token
        assertThat(RepeatedCode.commonSubexpressions(List.of(
                        contraction(13, "o+i*v", null, Level.WARNING), contraction(14, "o+j*v", null, Level.WARNING))))
                .hasSize(2);
        // a rule whose policy does not say so (NL001's conversions)
        Finding a = contraction(13, "(int)(o+i*v)", null, Level.WARNING).toBuilder()
                .ruleId("NL001")
                .build();
        Finding b = a.toBuilder().location(Location.of("p.cu", 14, 15)).build();
        assertThat(RepeatedCode.commonSubexpressions(List.of(a, b))).hasSize(2);
    }
}
