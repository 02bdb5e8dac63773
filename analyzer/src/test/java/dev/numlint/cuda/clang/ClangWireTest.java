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
        ClangUnit back = ClangWire.readAnswer(in(bytes(o -> ClangWire.writeUnit(o, u))), Path.of("/t/a.cu"), text);
        assertThat(back.failure()).isNull();
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
        assertThat(ClangWire.readRequest(i)).isNull();
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
