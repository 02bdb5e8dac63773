package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A sum of partial results, from Clang's AST: the one loop that carries the sum adds one result per thread, core,
 * worker or task, and each term is such a result. Two shapes:
 *
 * <ul>
 *   <li>a for loop whose bound counts the workers ({@code i < numCores}, {@code t < num_threads}, {@code i <
 *       omp_get_max_threads()}, {@code k < GetConcurrencyLevel()}, {@code i < blockDim.x}, {@code w < warpSize}),
 *       whose term is an element indexed by a plain name ({@code parts[i]}, {@code this->probs[thrd]});
 *   <li>a range for over futures ({@code for (std::future<float> &f : futures) s += f.get();}).
 * </ul>
 *
 * <p>The number of workers is the machine's or the launch's (tens to about a thousand), not the data's: the sum is
 * short, and the long sums are the workers' own, reported at their loops. A count of blocks or chunks is not taken
 * (a grid of blocks grows with the data). The names are the programmer's: this is a fact read from the code, and the
 * message names the bound it read.
 */
final class ClangPartialResults {
    private ClangPartialResults() {}

    /** A bound that counts workers: the last name of the bound, optionally called ({@code numCores}, {@code f()}). */
    private static final Pattern WORKERS = Pattern.compile(
            "(?i)(?:n|num|number|numberof|max|total|count)?_?(?:cores?|cpus?|threads?|thrds?|workers?|procs?"
                    + "|processors?|devices?|gpus?|warps?|ranks?|work_?groups?|wgs)(?:_?(?:count|num|number))?");

    /** Names and calls that count workers whatever their spelling. */
    private static final Pattern WORKER_CALLS = Pattern.compile(
            "(?i)concurrency|omp_get_(?:num|max)_threads|blockDim\\s*\\.|warpSize|mpi_comm_size|nprocs");

    /** An element indexed by a plain name: {@code parts[i]}, {@code this->buf[thrd]}, {@code s.p[k]}. */
    private static final Pattern ELEMENT = Pattern.compile("[A-Za-z_][\\w.>\\-]*\\s*\\[\\s*[A-Za-z_]\\w*\\s*\\]");

    /** A future's value: {@code f.get()}, {@code futures[i].get()}. */
    private static final Pattern FUTURE_GET = Pattern.compile("[A-Za-z_][\\w.>\\-\\[\\]]*\\s*\\.\\s*get\\s*\\(\\s*\\)");

    /**
     * The text that counts the partial results the update {@code update} (a compound assignment) adds in the loop
     * {@code loop}, the one loop that carries its sum; null when the loop or the term is not of that shape.
     */
    static String of(ClangUnit unit, ClangNode loop, ClangNode update) {
        if (update.kind != CXCursor_CompoundAssignOperator || update.children.size() != 2) return null;
        String term = unit.text(update.children.get(1)).strip();
        if (loop.kind == CXCursor_CXXForRangeStmt) {
            if (loop.children.isEmpty()) return null;
            ClangNode var = loop.children.get(0);
            String type = var.type == null ? "" : var.type;
            if (!type.contains("future") || !FUTURE_GET.matcher(term).matches()) return null;
            return loop.children.size() > 1
                    ? "the futures in '" + unit.text(loop.children.get(1)).strip() + "'"
                    : null;
        }
        if (loop.kind != CXCursor_ForStmt || !ELEMENT.matcher(term).matches()) return null;
        List<ClangNode> ch = loop.children;
        for (int k = 0; k < ch.size() - 1 && k < 2; k++) {
            ClangNode c = ch.get(k);
            if (c.kind != CXCursor_BinaryOperator || c.children.size() != 2) continue;
            if (!c.spelling.equals("<") && !c.spelling.equals("<=") && !c.spelling.equals("!=")) continue;
            String bound = unit.text(c.children.get(1)).strip();
            return counts(bound) ? bound : null;
        }
        return null;
    }

    /** Whether {@code bound} counts workers (its last name, or a call or name that counts them anywhere in it). */
    static boolean counts(String bound) {
        if (WORKER_CALLS.matcher(bound).find()) return true;
        java.util.regex.Matcher m =
                Pattern.compile("([A-Za-z_]\\w*)\\s*(?:\\(\\s*\\))?\\s*$").matcher(bound);
        return m.find() && WORKERS.matcher(m.group(1)).matches();
    }
}
