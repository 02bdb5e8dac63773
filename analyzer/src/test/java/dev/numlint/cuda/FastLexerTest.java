package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.cuda.parser.CudaLexer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Token;
import org.junit.jupiter.api.Test;

/** The hand-written lexer must agree with the ANTLR lexer grammar (the specification) token for token. */
class FastLexerTest {
    private static List<String> antlr(String text) {
        CudaLexer l = new CudaLexer(CharStreams.fromString(text));
        l.removeErrorListeners();
        List<String> out = new ArrayList<>();
        for (Token t : l.getAllTokens()) {
            // a name split by backslash-newline is one name; the fast lexer gives its text without the splice
            String tt = t.getType() == CudaLexer.IDENTIFIER ? t.getText().replaceAll("\\\\\r?\n", "") : t.getText();
            out.add(t.getLine() + ":" + CudaLexer.VOCABULARY.getSymbolicName(t.getType()) + ":" + tt);
        }
        return out;
    }

    private static List<String> fast(String text) {
        return FastLexer.lex(text).stream()
                .map(t -> t.getLine() + ":" + CudaLexer.VOCABULARY.getSymbolicName(t.getType()) + ":" + t.getText())
                .collect(Collectors.toList());
    }

    @Test
    void agreesOnTrickyInput() {
        String src = "#define AS(i, j) As[i][j] \\\n   + 1 /* c */\n"
                + "x = 0x1Fu + 1.5e-3f + .5 + 1e10 + 0.5L + 3ULL + 1'000 + 07 + 'a' + L\"w\" + u8\"s\";\n"
                + "k<<<g, b>>>(p); a >>= 2; b <<= 1; p->x; q.*m; r->*m; i++ && j-- || !k; c ? d : e;\n"
                + "// comment \\\n continued\n"
                + "__global__ void __launch_bounds__(256) f(float * __restrict__ p) { return; }\n"
                + "s = \"a\\\"b\"; c = '\\''; ::std::vector<int> v{1, 2};\n"
                + "if (a and b or not c) android = order + notice;\n";
        assertThat(fast(src)).isEqualTo(antlr(src));
    }

    @Test
    void agreesOnFixtures() throws Exception {
        Path root = Path.of(FastLexerTest.class.getResource("/fixtures/cuda").toURI());
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(Files::isRegularFile).collect(Collectors.toList())) {
                String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
                assertThat(fast(text)).as(f.toString()).isEqualTo(antlr(text));
            }
        }
    }

    @Test
    void asciiFastPathsAnswerAsCharacterDoes() {
        for (int i = 0; i <= Character.MAX_VALUE; i++) {
            char c = (char) i;
            assertThat(FastLexer.nameStart(c)).as("%04x", i).isEqualTo(Character.isLetter(c) || c == '_' || c == '$');
            assertThat(FastLexer.namePart(c))
                    .as("%04x", i)
                    .isEqualTo(Character.isLetterOrDigit(c) || c == '_' || c == '$');
            assertThat(FastLexer.digit(c)).as("%04x", i).isEqualTo(Character.isDigit(c));
            assertThat(FastLexer.letterOrDigit(c)).as("%04x", i).isEqualTo(Character.isLetterOrDigit(c));
        }
    }
}
