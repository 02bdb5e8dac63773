package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.cuda.facts.CallerNeed;
import dev.numlint.model.DeclaredFunction;
import dev.numlint.model.FileCalls;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the review of the whole scan makes a finding that needs some parameters non-negative a note
 * ({@link CallerRanges}): in a program, where every call passes them non-negative and every file naming the function
 * had its calls read.
 */
class CallerRangesTest {
    @TempDir
    Path dir;

    private static final String USR = "c:@F@blocks";
    private static final List<DeclaredFunction> PROGRAM = List.of(
            DeclaredFunction.definition("main.c", "main", 5, 20),
            DeclaredFunction.definition("grid.c", "blocks", 3, 6));

    private static Finding finding() {
        return Finding.builder("NL001")
                .level(Level.ERROR)
                .location(Location.line("grid.c", 4))
                .message("'(unsigned int)(size * 2)': unguarded double to unsigned int, nothing bounds 'size' below")
                .layer(Layer.CUDA_SOURCE)
                .fingerprint("00112233445566778899aabbccddeeff")
                .property(CallerNeed.PROPERTY, CallerNeed.encode(List.of(new CallerNeed(USR, "blocks", 0, "size"))))
                .build();
    }

    private static FileCalls.Call call(int line, Double... lows) {
        return new FileCalls.Call(line, USR, "blocks", new ArrayList<>(Arrays.asList(lows)));
    }

    /** The tree: main.c and grid.c, with the text given (what the files name). */
    private Map<Path, String> tree(String main, String grid) throws IOException {
        Map<Path, String> t = new TreeMap<>();
        Files.writeString(dir.resolve("main.c"), main);
        Files.writeString(dir.resolve("grid.c"), grid);
        t.put(dir.resolve("main.c"), "main.c");
        t.put(dir.resolve("grid.c"), "grid.c");
        return t;
    }

    private static Finding only(List<Finding> out) {
        assertThat(out).hasSize(1);
        assertThat(out.get(0).properties()).doesNotContainKey(CallerNeed.PROPERTY);
        return out.get(0);
    }

    @Test
    void aNoteWhereEveryCallOfTheProgramPassesTheParameterNonNegative() throws IOException {
        Finding f = only(CallerRanges.review(
                List.of(finding()),
                tree("int main() { return blocks(4.0) + blocks(n); }", "unsigned blocks(double size) {}"),
                PROGRAM,
                List.of(
                        new FileCalls("main.c", List.of(call(7, 4.0), call(9, 0.0))),
                        new FileCalls("grid.c", List.of()))));
        assertThat(f.level()).isEqualTo(Level.NOTE);
        assertThat(f.message()).contains("all calls of 'blocks' pass 'size' >= 0 (main.c:7, main.c:9)");
        assertThat(f.properties().get("callersInRange").toString()).contains("main.c:7");
    }

    @Test
    void keepsItsLevelWhereACallMayPassANegativeValue() throws IOException {
        var t = tree("int main() { return blocks(x); }", "unsigned blocks(double size) {}");
        for (FileCalls.Call c : List.of(call(7, -1.0), call(7, (Double) null), call(7))) {
            Finding f = only(CallerRanges.review(
                    List.of(finding()),
                    t,
                    PROGRAM,
                    List.of(new FileCalls("main.c", List.of(c)), new FileCalls("grid.c", List.of()))));
            assertThat(f.level()).as("%s", c).isEqualTo(Level.ERROR);
        }
    }

    @Test
    void keepsItsLevelInALibraryWhereTheAddressIsTakenAndWithoutCalls() throws IOException {
        var t = tree("int main() { return blocks(4.0); }", "unsigned blocks(double size) {}");
        List<FileCalls> calls =
                List.of(new FileCalls("main.c", List.of(call(7, 4.0))), new FileCalls("grid.c", List.of()));
        // a library: no main the tree defines
        assertThat(only(CallerRanges.review(
                                List.of(finding()),
                                t,
                                List.of(DeclaredFunction.definition("grid.c", "blocks", 3, 6)),
                                calls))
                        .level())
                .isEqualTo(Level.ERROR);
        // its address taken, or an unresolved call of its name
        for (FileCalls.Call other :
                List.of(new FileCalls.Call(8, USR, "blocks", null), new FileCalls.Call(8, null, "blocks", null))) {
            List<FileCalls> with =
                    List.of(new FileCalls("main.c", List.of(call(7, 4.0), other)), new FileCalls("grid.c", List.of()));
            assertThat(only(CallerRanges.review(List.of(finding()), t, PROGRAM, with))
                            .level())
                    .isEqualTo(Level.ERROR);
        }
        // no call at all: the unreachable-code note's case, not this one
        assertThat(only(CallerRanges.review(
                                List.of(finding()),
                                t,
                                PROGRAM,
                                List.of(new FileCalls("main.c", List.of()), new FileCalls("grid.c", List.of()))))
                        .level())
                .isEqualTo(Level.ERROR);
    }

    @Test
    void keepsItsLevelWhereAFileThatNamesTheFunctionHadNoCallsRead() throws IOException {
        var t = tree("int main() { return blocks(4.0); }", "unsigned blocks(double size) {}");
        Files.writeString(dir.resolve("other.c"), "/* blocks */ int f(void) { return blocks(-3.0); }");
        t.put(dir.resolve("other.c"), "other.c");
        List<FileCalls> calls =
                List.of(new FileCalls("main.c", List.of(call(7, 4.0))), new FileCalls("grid.c", List.of()));
        assertThat(only(CallerRanges.review(List.of(finding()), t, PROGRAM, calls))
                        .level())
                .isEqualTo(Level.ERROR);
        // a file that does not name it is no matter
        Files.writeString(dir.resolve("other.c"), "int f(void) { return 3; }");
        assertThat(only(CallerRanges.review(List.of(finding()), t, PROGRAM, calls))
                        .level())
                .isEqualTo(Level.NOTE);
    }
}
