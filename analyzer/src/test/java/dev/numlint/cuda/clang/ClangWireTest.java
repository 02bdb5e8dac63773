package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Clang worker's wire format: what goes in comes out typed, and a malformed or foreign answer is refused. */
class ClangWireTest {
    private static ClangNode node(int kind, String spelling, int line, Double value) {
        return new ClangNode(
                kind, spelling, "float", 8, "float", 0, null, line, 3, line, 9, 10, 20, value, null, null, "c:@F@f");
    }

    private static byte[] bytes(IOConsumer w) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        w.accept(new DataOutputStream(b));
        return b.toByteArray();
    }

    interface IOConsumer {
        void accept(DataOutputStream out) throws IOException;
    }

    private static DataInputStream in(byte[] b) {
        return new DataInputStream(new ByteArrayInputStream(b));
    }

    @Test
    void theUnlockedBuffersReadWhatWasWrittenWhateverTheChunksTheProcessGives() throws IOException {
        // ClangWire.Buffered replaces BufferedInputStream (whose lock at every read() was a quarter of a C scan's CPU):
        // ints, doubles, byte runs longer and shorter than its buffer, over a pipe that gives 1 to 13 bytes at a time
        // written through ClangWire.BufferedOut (the worker's side) with a 16-byte buffer too
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(new ClangWire.BufferedOut(bytes, 16));
        byte[] run = new byte[100];
        for (int k = 0; k < run.length; k++) run[k] = (byte) (k * 7);
        for (int k = 0; k < 500; k++) {
            out.writeInt(k * 31 - 7);
            out.writeDouble(k / 3.0);
            out.write(run, 0, k % run.length);
        }
        out.flush();
        byte[] all = bytes.toByteArray();
        java.io.InputStream pipe = new java.io.InputStream() {
            int pos;
            int call;

            @Override
            public int read() {
                return pos < all.length ? all[pos++] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= all.length) return -1;
                int n = Math.min(Math.min(len, 1 + (call++ % 13)), all.length - pos);
                System.arraycopy(all, pos, b, off, n);
                pos += n;
                return n;
            }
        };
        DataInputStream in = new DataInputStream(new ClangWire.Buffered(pipe, 16));
        for (int k = 0; k < 500; k++) {
            assertThat(in.readInt()).isEqualTo(k * 31 - 7);
            assertThat(in.readDouble()).isEqualTo(k / 3.0);
            byte[] got = new byte[k % run.length];
            in.readFully(got);
            assertThat(got).isEqualTo(Arrays.copyOf(run, got.length));
        }
        assertThat(in.read()).isEqualTo(-1);
    }

    @Test
    void aUnitComesBackWithItsCursorsTypesValuesAndTemplateArguments() throws IOException {
        ClangNode f = node(8, "f", 1, null);
        ClangNode lit = node(107, "1.5", 2, 1.5);
        lit.parent = f;
        f.children.add(lit);
        f.children.add(node(107, "1.5", 3, null)); // a repeated string goes by number
        byte[] text = "float f() { return 1.5f; }".getBytes(StandardCharsets.UTF_8);
        ClangUnit u = new ClangUnit(
                Path.of("/t/a.cu"),
                List.of(f),
                Map.of("c:@FT@>1#Tsplat", List.of(Arrays.asList("float", null))),
                2,
                "line 4: expected ';'",
                11,
                12,
                text);
        ClangHeaderHelpers.with(u, Map.of("min_gpu", "min", "first", ""));
        ClangUnit back = ClangWire.readAnswer(in(bytes(o -> ClangWire.writeUnit(o, u))), Path.of("/t/a.cu"), text);
        assertThat(back.failure()).isNull();
        assertThat(ClangHeaderHelpers.of(back))
                .containsExactlyInAnyOrderEntriesOf(Map.of("min_gpu", "min", "first", ""));
        assertThat(back.errors()).isEqualTo(2);
        assertThat(back.firstError()).isEqualTo("line 4: expected ';'");
        assertThat(back.parseNanos()).isEqualTo(11);
        assertThat(back.templateArguments()).containsEntry("c:@FT@>1#Tsplat", List.of(Arrays.asList("float", null)));
        ClangNode g = back.top().get(0);
        assertThat(g.toString()).isEqualTo(f.toString());
        assertThat(g.usr).isEqualTo("c:@F@f");
        assertThat(g.children()).hasSize(2);
        assertThat(g.children().get(0).value).isEqualTo(1.5);
        assertThat(g.children().get(0).parent()).isSameAs(g);
        assertThat(g.children().get(1).value).isNull();
        assertThat(g.children().get(1).spelling).isEqualTo("1.5");
    }

    @Test
    void aFailureComesBackWithItsReason() throws IOException {
        ClangUnit back = ClangWire.readAnswer(
                in(bytes(o -> ClangWire.writeFailed(o, "refused: #include \"/etc/passwd\" names an absolute path"))),
                Path.of("/t/a.cu"),
                new byte[0]);
        assertThat(back.failure()).isEqualTo("refused: #include \"/etc/passwd\" names an absolute path");
    }

    @Test
    void requestsRoundTrip() throws IOException {
        ClangWire.Request r = new ClangWire.Request(
                Path.of("/t/a.cu"),
                Path.of("/t"),
                Path.of("/c"),
                List.of("-x", "cuda", "-x"),
                "k".getBytes(StandardCharsets.UTF_8));
        DataInputStream i = in(bytes(o -> {
            ClangWire.writeRequest(o, r);
            ClangWire.writeQuit(o);
        }));
        ClangWire.Request back = ClangWire.readRequest(i);
        assertThat(back.file()).isEqualTo(r.file());
        assertThat(back.root()).isEqualTo(r.root());
        assertThat(back.cacheDir()).isEqualTo(r.cacheDir());
        assertThat(back.args()).isEqualTo(r.args());
        assertThat(back.text()).isEqualTo(r.text());
        assertThat(back.boundary()).containsExactly(Path.of("/t"));
        assertThat(ClangWire.readRequest(i)).isNull();
    }

    @Test
    void theHeadersReadFromTheSameParseComeBackInTheOrderAskedFor() throws IOException {
        Map<Path, byte[]> headers = new java.util.LinkedHashMap<>();
        headers.put(Path.of("/t/b.h"), "int b;".getBytes(StandardCharsets.UTF_8));
        headers.put(Path.of("/t/a.h"), "int a;".getBytes(StandardCharsets.UTF_8));
        ClangWire.Request r = new ClangWire.Request(
                Path.of("/t/m.c"),
                Path.of("/t"),
                null,
                List.of("-x", "c"),
                new byte[] {'m'},
                null,
                null,
                headers,
                List.of(Path.of("/t/src"), Path.of("/t/build")));
        ClangWire.Request back = ClangWire.readRequest(in(bytes(o -> ClangWire.writeRequest(o, r))));
        assertThat(back.roots()).containsExactly(Path.of("/t/src"), Path.of("/t/build"));
        assertThat(back.boundary()).isEqualTo(back.roots());
        assertThat(back.headers().keySet()).containsExactly(Path.of("/t/b.h"), Path.of("/t/a.h"));
        assertThat(back.headers().get(Path.of("/t/a.h"))).isEqualTo(headers.get(Path.of("/t/a.h")));
        ClangUnit u =
                new ClangUnit(Path.of("/t/m.c"), List.of(node(8, "m", 1, null)), Map.of(), 0, null, 0, 0, new byte[0]);
        Map<Path, ClangUnit> units = new java.util.LinkedHashMap<>();
        units.put(
                Path.of("/t/b.h"),
                new ClangUnit(
                        Path.of("/t/b.h"),
                        List.of(node(8, "b", 1, null)),
                        Map.of(),
                        1,
                        "line 1: x",
                        0,
                        5,
                        new byte[0]));
        units.put(
                Path.of("/t/a.h"),
                ClangUnit.failed(Path.of("/t/a.h"), "its includer m.c" + ClangIncludes.NOT_INCLUDED));
        ClangIncludes.with(u, units);
        ClangUnit got = ClangWire.readAnswer(in(bytes(o -> ClangWire.writeUnit(o, u))), r.file(), r.text(), headers);
        assertThat(got.top().get(0).spelling).isEqualTo("m");
        assertThat(ClangIncludes.of(got).keySet()).containsExactly(Path.of("/t/b.h"), Path.of("/t/a.h"));
        ClangUnit b = ClangIncludes.of(got).get(Path.of("/t/b.h"));
        assertThat(b.top().get(0).spelling).isEqualTo("b");
        assertThat(b.errors()).isEqualTo(1);
        assertThat(b.file()).isEqualTo(Path.of("/t/b.h"));
        assertThat(ClangIncludes.notIncluded(b)).isFalse();
        assertThat(ClangIncludes.notIncluded(ClangIncludes.of(got).get(Path.of("/t/a.h"))))
                .isTrue();
        // an answer with another number of header units than asked for is refused
        assertThatThrownBy(() -> ClangWire.readAnswer(
                        in(bytes(o -> ClangWire.writeUnit(o, u))),
                        r.file(),
                        r.text(),
                        Map.of(Path.of("/t/b.h"), new byte[0])))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("malformed");
    }

    @Test
    void aForeignOrTruncatedAnswerIsRefused() throws IOException {
        byte[] other = bytes(o -> {
            o.writeInt(ClangWire.MAGIC);
            o.writeInt(ClangWire.VERSION + 1);
            o.writeByte(0);
        });
        assertThat(ClangWire.readHello(in(other))).contains("version " + (ClangWire.VERSION + 1));
        assertThat(ClangWire.readHello(in(bytes(o -> ClangWire.writeHello(o, null)))))
                .isNull();
        assertThat(ClangWire.readHello(in(bytes(o -> ClangWire.writeHello(o, "no natives")))))
                .isEqualTo("no natives");
        assertThatThrownBy(() -> ClangWire.readHello(in(bytes(o -> o.writeInt(42)))))
                .isInstanceOf(IOException.class);
        ClangUnit u =
                new ClangUnit(Path.of("/t/a.cu"), List.of(node(8, "f", 1, null)), Map.of(), 0, null, 0, 0, new byte[0]);
        byte[] whole = bytes(o -> ClangWire.writeUnit(o, u));
        byte[] cut = Arrays.copyOf(whole, whole.length - 3);
        assertThatThrownBy(() -> ClangWire.readAnswer(in(cut), Path.of("/t/a.cu"), new byte[0]))
                .isInstanceOf(IOException.class);
        // a count beyond the bounds is refused before anything is allocated for it
        byte[] huge = bytes(o -> {
            o.writeByte(ClangWire.ANSWER_FAILED);
            o.writeInt(-2);
            o.writeInt(Integer.MAX_VALUE);
        });
        assertThatThrownBy(() -> ClangWire.readAnswer(in(huge), Path.of("/t/a.cu"), new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("malformed");
    }
}
