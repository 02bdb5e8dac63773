package dev.numlint.ptx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.model.Param;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.model.PtxModule;
import dev.numlint.ptx.model.Variable;
import dev.numlint.ptx.parser.PtxReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Parser tests: every construct of parser/constructs.ptx ends up in the model. */
class PtxReaderTest {
    private static PtxReader.Result result;
    private static PtxModule m;
    private static PtxFunction k;

    @BeforeAll
    static void read() throws IOException {
        try (InputStream in = PtxReaderTest.class.getResourceAsStream("/parser/constructs.ptx")) {
            result = PtxReader.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        m = result.module();
        k = m.function("kernel");
    }

    private static Instruction find(PtxFunction f, String textStart) {
        return f.instructions().stream()
                .filter(i -> i.text().startsWith(textStart))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no instruction " + textStart));
    }

    @Test
    void parsesWithoutProblems() {
        assertThat(result.problems()).isEmpty();
        assertThat(result.skippedFunctions()).isEmpty();
        assertThat(m.functions())
                .extracting(PtxFunction::name)
                .containsExactly("vprintf", "_Z4weakv", "_Z6helperff", "kernel");
    }

    @Test
    void headerDirectives() {
        assertThat(m.version()).isEqualTo("9.0");
        assertThat(m.target()).isEqualTo("sm_90a");
        assertThat(m.targetOptions()).containsExactly("texmode_independent");
        assertThat(m.addressSize()).isEqualTo(64);
        assertThat(m.files()).containsEntry(1, "/src/kernel.cu").containsEntry(2, "/src/helpers.cuh");
    }

    @Test
    void externWeakAndReturnParams() {
        PtxFunction printf = m.function("vprintf");
        assertThat(printf.isDeclarationOnly()).isTrue();
        assertThat(printf.linkage()).isEqualTo("extern");
        assertThat(printf.returnParams()).extracting(Param::name).containsExactly("func_retval0");
        assertThat(m.function("_Z4weakv").linkage()).isEqualTo("weak");
        PtxFunction h = m.function("_Z6helperff");
        assertThat(h.isEntry()).isFalse();
        Param ret = h.returnParams().get(0);
        assertThat(ret.size()).isEqualTo(16);
        assertThat(ret.align()).isEqualTo(8);
        Param p1 = h.params().get(1);
        assertThat(p1.type()).isEqualTo("b64");
        assertThat(p1.ptrSpace()).isEqualTo("global");
        assertThat(p1.ptrAlign()).isEqualTo(16);
        assertThat(p1.offset()).isEqualTo(8);
        assertThat(h.directives()).containsKey("noreturn");
    }

    @Test
    void kernelParamsLayoutAndPerformanceDirectives() {
        assertThat(k.isEntry()).isTrue();
        assertThat(k.linkage()).isEqualTo("visible");
        assertThat(k.params()).extracting(Param::offset).containsExactly(0, 8, 16);
        assertThat(k.params()).extracting(Param::size).containsExactly(8, 4, 24);
        assertThat(k.paramBufferSize()).isEqualTo(40);
        assertThat(k.directives())
                .containsEntry("maxntid", List.of(256L, 1L, 1L))
                .containsEntry("reqntid", List.of(256L))
                .containsEntry("minnctapersm", List.of(2L))
                .containsEntry("maxnreg", List.of(64L));
    }

    @Test
    void variablesWithInitializers() {
        Variable table = m.variable("table");
        assertThat(table.space()).isEqualTo("global");
        assertThat(table.size()).isEqualTo(16);
        assertThat(table.init()).startsWith(0, 0, (byte) 128, 63);
        assertThat(Float.intBitsToFloat(java.nio.ByteBuffer.wrap(table.init(), 0, 4)
                        .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                        .getInt()))
                .isEqualTo(1.0f);
        Variable scale = m.variable("scale");
        assertThat(scale.space()).isEqualTo("const");
        assertThat(java.nio.ByteBuffer.wrap(scale.init())
                        .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                        .getFloat())
                .isEqualTo((float) Math.PI);
        Variable ptrs = m.variable("ptrs");
        assertThat(ptrs.initSymbols()).containsEntry(0, "table").containsKey(8);
        // a VTT of nvcc 13 (session 51): generic(symbol) plus an offset, which stopped the whole module's parse
        assertThat(m.variable("_ZTT5Table").initSymbols())
                .containsEntry(0, "_ZTV5Table")
                .containsEntry(8, "_ZTV5Table");
        Variable dyn = m.variable("dynsmem");
        assertThat(dyn.linkage()).isEqualTo("extern");
        assertThat(dyn.length()).isEqualTo(-1);
        assertThat(m.variable("managed_counter").type()).isEqualTo("u32");
        assertThat(m.variable("packed").length()).isEqualTo(2);
        assertThat(k.locals()).extracting(Variable::name).contains("__local_depot0", "_ZZ6kernelE4tile");
        assertThat(k.locals().stream()
                        .filter(v -> v.name().equals("__local_depot0"))
                        .findFirst()
                        .get()
                        .size())
                .isEqualTo(28);
    }

    @Test
    void registerDeclarations() {
        assertThat(k.registerType("%f11")).isEqualTo("f32");
        assertThat(k.registerType("%f12")).isNull();
        assertThat(k.registerType("%SP")).isEqualTo("b64");
        assertThat(k.registerType("%p3")).isEqualTo("pred");
        assertThat(k.registerType("%fd2")).isEqualTo("f64");
    }

    @Test
    void labelsGuardsAndBranches() {
        Instruction bra = find(k, "@%p1 bra");
        assertThat(bra.guard().name()).isEqualTo("%p1");
        assertThat(bra.guardNegated()).isFalse();
        Operand.Label l = (Operand.Label) bra.operand(0);
        assertThat(l.name()).isEqualTo("$L__BB0_4");
        assertThat(k.instruction(l.target()).opcode()).isEqualTo("ret");
        assertThat(k.labelTarget("$L__BB0_2")).isEqualTo(find(k, "add.s32 %r5").index());
        Instruction neg = find(k, "@!%p1 mov.f32");
        assertThat(neg.guardNegated()).isTrue();
    }

    @Test
    void operandsAreTyped() {
        assertThat(find(k, "mov.f32 %f1").operand(1)).isEqualTo(new Operand.FloatImm(0x3F800000L, false));
        Operand.FloatImm d = (Operand.FloatImm) find(k, "mov.f64 %fd1").operand(1);
        assertThat(d.isDouble()).isTrue();
        assertThat(d.value()).isEqualTo(-1.0);
        Instruction v4 = find(k, "ld.global.nc.v4.f32");
        assertThat(v4.vectorWidth()).isEqualTo(4);
        assertThat(((Operand.Vector) v4.operand(0)).elements()).hasSize(4);
        assertThat(v4.defs()).containsExactly("%f2", "%f3", "%f4", "%f5");
        assertThat(v4.operand(1)).isEqualTo(new Operand.Address(new Operand.Reg("%rd1", null), 16, List.of()));
        assertThat(find(k, "ld.global.f32 %f6").operand(1))
                .isEqualTo(new Operand.Address(new Operand.Reg("%rd1", null), -4, List.of()));
        assertThat(find(k, "ld.const.f32").operand(1))
                .isEqualTo(new Operand.Address(new Operand.Symbol("scale"), 0, List.of()));
        assertThat(find(k, "ld.global.u32 %r4").operand(1))
                .isEqualTo(new Operand.Address(new Operand.Symbol("table"), 8, List.of()));
        Operand.Reg tid = (Operand.Reg) find(k, "mov.u32 %r2").operand(1);
        assertThat(tid.name()).isEqualTo("%tid");
        assertThat(tid.component()).isEqualTo("x");
        assertThat(tid.isSpecial()).isTrue();
        Instruction unknown = find(k, "frobnicate");
        assertThat(unknown.modifiers()).containsExactly("new", "opcode", "x2");
        assertThat(unknown.operand(1)).isInstanceOf(Operand.Sink.class);
        assertThat(unknown.operand(2)).isEqualTo(new Operand.IntImm(-12));
        assertThat(unknown.operand(3)).isEqualTo(new Operand.IntImm(31));
        Instruction setp = find(k, "setp.eq.f32");
        assertThat(setp.operand(0)).isInstanceOf(Operand.PredPair.class);
        assertThat(setp.defs()).containsExactly("%p3", "%p1");
        assertThat(setp.compare()).isEqualTo("eq");
        assertThat(find(k, "ld.shared::cta").space()).isEqualTo("shared::cta");
        assertThat(find(k, "cp.async.bulk").modifiers()).contains("shared::cluster", "mbarrier::complete_tx::bytes");
        Instruction st = find(k, "st.global.v2.f32");
        assertThat(st.defs()).isEmpty();
        assertThat(st.uses()).contains("%rd1", "%f9", "%f10");
    }

    @Test
    void callsWithReturnValuesAndPrototypes() {
        Instruction call = find(k, "call.uni");
        assertThat(call.operand(0)).isEqualTo(new Operand.ParenList(List.of(new Operand.Symbol("retval0"))));
        assertThat(call.operand(1)).isEqualTo(new Operand.Symbol("_Z6helperff"));
        assertThat(((Operand.ParenList) call.operand(2)).elements()).hasSize(2);
        Instruction indirect = k.instructions().stream()
                .filter(i -> i.opcode().equals("call") && !i.has("uni"))
                .findFirst()
                .orElseThrow();
        assertThat(indirect.operand(1)).isEqualTo(new Operand.Reg("%rd2", null));
        assertThat(indirect.operand(3)).isEqualTo(new Operand.Symbol("prototype_1"));
        assertThat(k.locals()).extracting(Variable::name).contains("param0", "retval0");
    }

    @Test
    void inlineAsmScopesUsePlainRegisterNames() {
        Instruction shfl = find(k, "shfl.sync.up.b32");
        assertThat(shfl.defs()).containsExactly("r0", "p");
        Instruction add = find(k, "@p add.u32");
        assertThat(add.guard().name()).isEqualTo("p");
        assertThat(add.uses()).contains("r0", "%r4");
    }

    @Test
    void modifiersAreDecoded() {
        Instruction mma = find(k, "mma.sync");
        assertThat(mma.types()).containsExactly("f32", "tf32", "tf32", "f32");
        Map<String, Integer> unused = Map.of();
        assertThat(unused).isEmpty();
        Instruction setp = find(k, "setp.lt.s32");
        assertThat(setp.compare()).isEqualTo("lt");
        assertThat(setp.type()).isEqualTo("s32");
    }

    @Test
    void instructionModifiersForArithmetic() {
        PtxModule mm = PtxReader.read(".version 8.0\n.target sm_80\n.address_size 64\n"
                        + ".entry e() {\n .reg .f32 %f<9>; .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
                        + " cvt.rzi.ftz.sat.u16.f32 %r1, %f1;\n div.full.f32 %f2, %f1, %f3;\n div.rn.ftz.f32 %f2, %f1, %f3;\n"
                        + " mul.wide.s32 %rd1, %r1, 4;\n mad.hi.u32 %r2, %r1, %r1, %r1;\n rcp.approx.ftz.f64 %fd1, %fd1;\n"
                        + " cvt.rmi.f32.f32 %f4, %f1;\n add.rp.f32 %f5, %f4, 0fBF800000;\n ret;\n}\n")
                .module();
        List<Instruction> in = mm.function("e").instructions();
        assertThat(in.get(0).rounding()).isEqualTo(Instruction.Rounding.RZI);
        assertThat(in.get(0).ftz()).isTrue();
        assertThat(in.get(0).sat()).isTrue();
        assertThat(in.get(0).types()).containsExactly("u16", "f32");
        assertThat(in.get(1).full()).isTrue();
        assertThat(in.get(2).rounding()).isEqualTo(Instruction.Rounding.RN);
        assertThat(in.get(3).mulMode()).isEqualTo("wide");
        assertThat(in.get(4).mulMode()).isEqualTo("hi");
        assertThat(in.get(5).approx()).isTrue();
        assertThat(in.get(6).rounding()).isEqualTo(Instruction.Rounding.RMI);
        assertThat(in.get(7).rounding()).isEqualTo(Instruction.Rounding.RP);
        assertThat(((Operand.FloatImm) in.get(7).operand(2)).floatValue()).isEqualTo(-1.0f);
    }

    @Test
    void syntaxErrorSkipsOnlyTheBrokenFunction() {
        PtxReader.Result r = PtxReader.read(".version 8.0\n.target sm_80\n.address_size 64\n"
                + ".entry broken() {\n add.f32 %f1, , ;\n ret;\n}\n"
                + ".entry fine() {\n .reg .f32 %f<3>;\n add.f32 %f1, %f2, %f2;\n ret;\n}\n");
        assertThat(r.problems()).isNotEmpty();
        assertThat(r.problems().get(0).line()).isEqualTo(5);
        assertThat(r.problems().get(0).token()).isEqualTo(",");
        assertThat(r.skippedFunctions()).containsExactly("broken");
        assertThat(r.module().function("fine")).isNotNull();
        assertThat(r.module().function("fine").instructions()).hasSize(2);
    }

    @Test
    void anUnreadableStatementInANestedBlockSkipsOnlyItsFunction() {
        PtxReader.Result r = PtxReader.read(".version 8.0\n.target sm_80\n.address_size 64\n"
                + ".entry broken() {\n { { ) ) ] ;\n } }\n ret;\n}\n"
                + ".visible .entry 42 (.param .u32 x) {\n ret;\n}\n"
                + ".entry fine() {\n .reg .pred %p<2>;\n @%p1 bra $L_end;\n { ret; }\n$L_end:\n ret;\n}\n");
        assertThat(r.problems()).isNotEmpty();
        assertThat(r.problems().get(0).line()).isEqualTo(5);
        assertThat(r.skippedFunctions()).as(r.problems().toString()).contains("broken");
        PtxFunction fine = r.module().function("fine");
        assertThat(fine).isNotNull();
        assertThat(fine.instructions()).hasSize(3);
        // a forward branch resolves to the label's instruction index, also across a nested block
        assertThat(fine.instructions().get(0).operand(0)).isEqualTo(new Operand.Label("$L_end", 2));
    }

    @Test
    void garbageNeverThrows() {
        PtxReader.Result r = PtxReader.read("\u0001\u0002 this is { not ] PTX ;;; \"unterminated\n/* open");
        assertThat(r.failed()).isTrue();
        assertThat(r.module().functions()).isEmpty();
        assertThat(PtxReader.read("").module().functions()).isEmpty();
    }
}
