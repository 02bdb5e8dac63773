package dev.numlint.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuleMessageTest {
    private final Rule rule = new Rule(
            "NL001",
            "float-to-unsigned-conversion",
            Level.ERROR,
            "conversion",
            List.of(),
            "s",
            "d",
            List.of(Layer.CUDA_SOURCE),
            List.of(),
            "md",
            Map.of("cast", "({type}) {expr}: negative values become 0 on the GPU, {wrap} on x86"));

    @Test
    void placeholdersAreFilled() {
        assertThat(rule.message("cast", "type", "unsigned short", "expr", "v", "wrap", "65467"))
                .isEqualTo("(unsigned short) v: negative values become 0 on the GPU, 65467 on x86");
    }

    @Test
    void unknownKeysAndMissingValuesAreBugs() {
        assertThatThrownBy(() -> rule.message("nope")).hasMessageContaining("no message 'nope'");
        assertThatThrownBy(() -> rule.message("cast", "type", "t")).hasMessageContaining("needs 'expr'");
    }

    @Test
    void sharedPhrasesComeFromTheCatalogAndAreFilledLikeMessages() {
        RuleCatalog cat = RuleCatalog.get();
        assertThat(cat.phrase("use-integer", "to", "unsigned short", "line", 34))
                .isEqualTo("one ulp can change the unsigned short at line 34");
        assertThat(cat.phrase("ptx-confirmed")).isEqualTo("(PTX confirms)");
        assertThatThrownBy(() -> cat.phrase("nope")).hasMessageContaining("no phrase 'nope'");
        assertThatThrownBy(() -> cat.phrase("use-integer", "to", "short")).hasMessageContaining("needs 'line'");
    }

    @Test
    void templatesAndPhrasesLeaveRoomForTheQuotedCode() {
        // a template's fixed text, without its placeholders, stays well below the 160-character message limit, so
        // that the quoted expression (at most Quote.EXPRESSION characters) and the consequence fit
        RuleCatalog cat = RuleCatalog.get();
        for (Rule r : cat.all()) {
            r.messages().forEach((k, t) -> assertThat(
                            t.replaceAll("\\{[a-zA-Z]+}", "").length())
                    .as(r.id() + "." + k + ": " + t)
                    .isLessThanOrEqualTo(110));
        }
        for (String k : cat.phraseKeys()) {
            assertThat(cat.phrase(
                                    k,
                                    "message",
                                    "",
                                    "line",
                                    1,
                                    "to",
                                    "t",
                                    "fn",
                                    "f",
                                    "test",
                                    "x",
                                    "op",
                                    "min",
                                    "trip",
                                    "n",
                                    "consequence",
                                    "",
                                    "via",
                                    "v",
                                    "count",
                                    2,
                                    "condition",
                                    "c",
                                    "file",
                                    "f.h",
                                    "where",
                                    "line 12 of f.h",
                                    "first",
                                    "line 12",
                                    "second",
                                    "line 14 of f.h",
                                    "site",
                                    "host.c:7",
                                    "of",
                                    3,
                                    "type",
                                    "t",
                                    "names",
                                    "n",
                                    "lines",
                                    "l",
                                    "loop",
                                    1,
                                    "sum",
                                    "s",
                                    "kernel",
                                    "k",
                                    "launch",
                                    "<<<1,1>>>",
                                    "what",
                                    "a stored 16-bit integer")
                            .length())
                    .as("phrase " + k)
                    .isLessThanOrEqualTo(70);
        }
    }

    @Test
    void quotedCodeIsShortenedAlikeInEveryLayer() {
        assertThat(Quote.expression("a  +\n b")).isEqualTo("a + b");
        String e = Quote.expression("absorbTemp += volume[i*g.nx+px]*rayLength[ray]");
        assertThat(e)
                .hasSize(Quote.EXPRESSION)
                .startsWith("absorbTemp += volume[")
                .endsWith("...");
        assertThat(Quote.instruction("add.rn.f32 %f88, %f88, %f43;")).isEqualTo("add.rn.f32 %f88, %f88, %f43");
        assertThat(Quote.instruction("mul.f64 %fd125, %fd113, 0dBE910318CA62757C;"))
                .isEqualTo("mul.f64 %fd125, %fd113, ...");
        assertThat(Quote.instructionHead("cvt.rn.f32.f64 %f2150, %fd363;")).isEqualTo("cvt.rn.f32.f64 %f2150");
    }
}
