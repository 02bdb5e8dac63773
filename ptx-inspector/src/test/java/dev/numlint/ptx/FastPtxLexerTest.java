package dev.numlint.ptx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.ptx.parser.FastPtxLexer;
import dev.numlint.ptx.parser.PtxLexer;
import dev.numlint.ptx.parser.PtxReader;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenSource;
import org.junit.jupiter.api.Test;

/** The hand-written lexer must produce exactly the generated lexer's tokens (the grammar is the specification). */
class FastPtxLexerTest {
    private static List<String> tokens(TokenSource src) {
        List<String> out = new ArrayList<>();
        for (Token t = src.nextToken(); ; t = src.nextToken()) {
            out.add(t.getType() + ":" + (t.getType() == Token.EOF ? "" : t.getText() + "@" + t.getStartIndex()) + ":"
                    + t.getLine() + ":" + t.getCharPositionInLine());
            if (t.getType() == Token.EOF) return out;
        }
    }

    private static void same(String text) {
        assertThat(tokens(new FastPtxLexer(text)))
                .as(text)
                .isEqualTo(tokens(new PtxLexer(CharStreams.fromString(text))));
    }

    @Test
    void agreesOnTrickyInput() {
        same("0f3F800000 0d3FF0000000000000 0F7F 0x1F 0b101 0b2 0x 12U 1.5 1.5e-3 2e10 1e 0d 0fz 9.0 -4 .5");
        same(".reg .regx .f32 .shared::cta .L2::evict_last .1d .global .globalx . .. %tid.x % %r1|%p2 @!%p");
        same("\"str\\\"ing\" \"unterminated\n/* block\n comment */ / * // line\r\n$L__BB0_1: _ a$b ~ # \u00e9");
        same("/* unterminated block");
        same("");
    }

    @Test
    void agreesOnEveryTestResource() throws IOException, URISyntaxException {
        Path root = Path.of(getClass().getResource("/fixtures").toURI()).getParent();
        int n = 0;
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s.filter(f -> f.toString().endsWith(".ptx"))::iterator) {
                same(Files.readString(p, StandardCharsets.UTF_8));
                n++;
            }
        }
        assertThat(n).isGreaterThanOrEqualTo(3);
    }

    @Test
    void bothLexersBuildTheSameModel() throws IOException, URISyntaxException {
        Path p = Path.of(getClass().getResource("/parser/constructs.ptx").toURI());
        String text = Files.readString(p, StandardCharsets.UTF_8);
        var a = PtxReader.read(text).module();
        var b = PtxReader.readWithAntlrLexer(text).module();
        assertThat(a.functions()).hasSameSizeAs(b.functions());
        for (int i = 0; i < a.functions().size(); i++) {
            assertThat(a.functions().get(i).instructions().stream()
                            .map(x -> x.text() + x.loc())
                            .toList())
                    .isEqualTo(b.functions().get(i).instructions().stream()
                            .map(x -> x.text() + x.loc())
                            .toList());
        }
    }
}
