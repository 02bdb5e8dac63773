package dev.numlint.cuda.clang;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenMP reduction a loop is written under: {@code #pragma omp parallel for reduction(+:total)} right before the
 * loop, naming the accumulator. Clang parses host files without {@code -fopenmp} (the command's {@code -fopenmp}
 * only defines {@code _OPENMP}, {@link ClangFrontEnd}), so its tree holds no directive: this reads the lines written
 * before the loop, as the compiler attaches a loop directive to the statement that follows it (session 74: a
 * benchmark's RMSE summed under {@code reduction(+:total_error)} was called a serial sum).
 */
final class ClangOpenMp {
    private ClangOpenMp() {}

    /** Lines of comments or blank lines allowed between a directive and its loop. */
    private static final int GAP = 4;

    private static final Pattern DIRECTIVE = Pattern.compile("^#\\s*pragma\\s+omp\\s+(.*)$", Pattern.DOTALL);
    /** A directive word that makes the statement after it a worksharing or SIMD loop. */
    private static final Pattern LOOP_WORD = Pattern.compile("\\b(for|simd|loop|taskloop|distribute)\\b");

    private static final Pattern REDUCTION = Pattern.compile("\\breduction\\s*\\(([^()]*)\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_]\\w*");

    /**
     * The directive (its text after {@code #pragma omp}, on one line) of the loop written at {@code loopLine} when it
     * is a loop directive whose {@code +} or {@code -} reduction lists the variable {@code target} is rooted at
     * ({@code total}, {@code sums[k]}: {@code sums}), else null.
     */
    static String reduction(ClangUnit unit, int loopLine, String target) {
        byte[] text = unit.source();
        if (text == null || target == null) return null;
        Matcher root = IDENTIFIER.matcher(target.startsWith("this->") ? target.substring(6) : target);
        if (!root.find()) return null;
        ClangNode loop = null;
        for (ClangUnit.Loop l : unit.loops()) {
            if (l.node().line == loopLine && l.node().offset >= 0) {
                loop = l.node();
                break;
            }
        }
        if (loop == null || loop.offset > text.length) return null;
        Directive d = directiveBefore(text, loop.offset);
        if (d == null || unit.inactiveLines().contains(loopLine - d.linesBefore())) return null;
        return lists(d.text(), root.group()) ? d.text() : null;
    }

    /** A directive's text after {@code #pragma omp}, on one line, and how many lines before the loop it starts. */
    record Directive(String text, int linesBefore) {}

    /**
     * The OpenMP directive written on the lines right before the statement at {@code offset} (continuation lines
     * joined; comments, blank lines and an {@code #endif} between skipped: {@code #ifdef _OPENMP} around the
     * directive), else null.
     */
    static Directive directiveBefore(byte[] text, int offset) {
        int end = lineStart(text, offset);
        if (!new String(text, end, offset - end, StandardCharsets.UTF_8).isBlank()) return null;
        for (int skipped = 0; end > 0 && skipped <= GAP; skipped++) {
            int start = lineStart(text, end - 1);
            String line = new String(text, start, end - 1 - start, StandardCharsets.UTF_8).strip();
            // a continued directive: the lines before that end in a backslash belong to it
            while (start > 0) {
                int prev = lineStart(text, start - 1);
                String p = new String(text, prev, start - 1 - prev, StandardCharsets.UTF_8).strip();
                if (!p.endsWith("\\")) break;
                line = p.substring(0, p.length() - 1).strip() + " " + line;
                start = prev;
            }
            if (line.isEmpty()
                    || line.startsWith("//")
                    || line.startsWith("/*") && line.endsWith("*/")
                    || line.matches("#\\s*endif\\b.*")) {
                end = start;
                continue;
            }
            Matcher m = DIRECTIVE.matcher(line);
            if (!m.matches()) return null;
            int lines = 0;
            for (int i = start; i < offset; i++) if (text[i] == '\n') lines++;
            return new Directive(m.group(1).replaceAll("\\s+", " ").strip(), lines);
        }
        return null;
    }

    /** Whether {@code directive} makes a loop and reduces {@code name} with {@code +} or {@code -}. */
    static boolean lists(String directive, String name) {
        int clause = directive.indexOf('(');
        if (!LOOP_WORD
                .matcher(clause < 0 ? directive : directive.substring(0, clause))
                .find()) return false;
        Matcher r = REDUCTION.matcher(directive);
        while (r.find()) {
            String inside = r.group(1);
            int colon = inside.indexOf(':');
            if (colon < 0) continue;
            // reduction([modifier,] operator : list); an inscan reduction is a scan, not a sum of the loop's terms
            String[] head = inside.substring(0, colon).split(",");
            String op = head[head.length - 1].strip();
            if (head.length > 1 && head[0].strip().equals("inscan")) continue;
            if (!op.equals("+") && !op.equals("-")) continue;
            for (String item : inside.substring(colon + 1).split(",")) {
                Matcher id = IDENTIFIER.matcher(item.strip());
                if (id.lookingAt() && id.group().equals(name)) return true;
            }
        }
        return false;
    }

    private static int lineStart(byte[] text, int offset) {
        int i = Math.min(offset, text.length);
        while (i > 0 && text[i - 1] != '\n') i--;
        return i;
    }
}
