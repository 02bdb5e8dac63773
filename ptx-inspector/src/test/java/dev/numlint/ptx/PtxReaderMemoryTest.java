package dev.numlint.ptx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.parser.PtxReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: a .ptx of one huge function must be read in memory proportional to its model, not to its parse tree.
 * A child JVM with a small heap reads a 3 MB function of 66,000 instructions: the parse tree of the whole function
 * alone took about 250 MB, so the read ran out of memory under 160 MB before the reader streamed the body.
 */
class PtxReaderMemoryTest {
    static final int INSTRUCTIONS = 66_000;

    /** The child's entry point: reads the file and prints the function's instruction count. */
    public static void main(String[] args) throws IOException {
        PtxReader.Result r = PtxReader.read(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8));
        PtxFunction k = r.module().function("k");
        System.out.println("instructions " + (k == null ? -1 : k.instructions().size()) + " problems "
                + r.problems().size() + " loops " + (k == null ? -1 : k.loops().size()));
    }

    static String hugeFunction(int n) {
        StringBuilder b = new StringBuilder(".version 7.0\n.target sm_70\n.address_size 64\n.file 1 \"k.cu\"\n")
                .append(".visible .entry k(.param .u64 k_param_0)\n{\n")
                .append(".reg .pred %p<" + (n + 2) + ">;\n.reg .f32 %f<" + (n + 2) + ">;\n")
                .append(".reg .b32 %r<" + (n + 2) + ">;\n.reg .b64 %rd<4>;\n")
                .append("ld.param.u64 %rd1, [k_param_0];\n");
        for (int j = 1; j < n; j++) {
            b.append(".loc 1 ").append(j).append(" 5\n");
            switch (j % 4) {
                case 0 -> b.append("$L__BB0_")
                        .append(j)
                        .append(":\nadd.s32 %r")
                        .append(j)
                        .append(", %r")
                        .append(j - 1)
                        .append(", 1;\n");
                case 1 -> b.append("fma.rn.f32 %f")
                        .append(j)
                        .append(", %f")
                        .append(j - 1)
                        .append(", 0f3F800000, %f")
                        .append(j - 1)
                        .append(";\n");
                case 2 -> b.append("setp.lt.s32 %p")
                        .append(j)
                        .append(", %r")
                        .append(j - 1)
                        .append(", 100;\n@%p")
                        .append(j)
                        .append(" bra $L__BB0_")
                        .append(j - 2)
                        .append(";\n");
                default -> b.append("mul.f32 %f")
                        .append(j)
                        .append(", %f")
                        .append(j - 1)
                        .append(", %f")
                        .append(j - 2)
                        .append(";\n");
            }
        }
        return b.append("ret;\n}\n").toString();
    }

    /** 40,000 one-block loops: their bodies as bit sets over the whole function took 400 MB. */
    static String manyLoops(int n) {
        StringBuilder b = new StringBuilder(".version 7.0\n.target sm_70\n.address_size 64\n")
                .append(".visible .entry k()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<2>;\nmov.u32 %r1, 0;\n");
        for (int j = 0; j < n; j++) {
            b.append("$L")
                    .append(j)
                    .append(":\nadd.s32 %r1, %r1, 1;\nsetp.lt.s32 %p1, %r1, 100;\n@%p1 bra $L")
                    .append(j)
                    .append(";\n");
        }
        return b.append("ret;\n}\n").toString();
    }

    @Test
    void manyLoopsInOneFunctionTakeTheirOwnSpanOnly(@TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("loops.ptx");
        Files.writeString(ptx, manyLoops(40_000), StandardCharsets.UTF_8);
        assertThat(readInChild(ptx)).contains("instructions " + (2 + 3 * 40_000) + " problems 0 loops 40000");
    }

    @Test
    void oneHugeFunctionIsReadInASmallHeap(@TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("huge.ptx");
        int n = INSTRUCTIONS * 4 / 5;
        Files.writeString(ptx, hugeFunction(n), StandardCharsets.UTF_8);
        int expected = 2; // ld.param and ret
        for (int j = 1; j < n; j++) expected += j % 4 == 2 ? 2 : 1; // a branch follows each setp
        assertThat(readInChild(ptx)).contains("instructions " + expected + " problems 0");
    }

    /** Reads the file in a child JVM of 160 MB heap; its output. */
    private static String readInChild(Path ptx) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(List.of(
                        java,
                        "-Xmx160m",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        PtxReaderMemoryTest.class.getName(),
                        ptx.toString()))
                .redirectErrorStream(true);
        String out = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            Process p = pb.start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(60, TimeUnit.SECONDS);
            return text;
        });
        return out;
    }
}
