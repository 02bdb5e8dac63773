package dev.numlint.flags;

import static dev.numlint.flags.MakeSyntax.*;
import static dev.numlint.flags.MakeValues.*;

import dev.numlint.flags.MakeValues.Scope;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * The conditionals of a Makefile ({@code ifeq/ifneq/ifdef/ifndef/else/endif}) as they are read: each evaluated with
 * the values known at that point (true, false in the default configuration, or unknown), what the lines under them
 * are skipped for, and the condition of each line written under a conditional whose value is unknown.
 */
final class MakeConditionals {
    private final MakeEvaluator eval;
    private final Scope global;
    private final MakeNotices notices;

    MakeConditionals(MakeEvaluator eval, Scope global, MakeNotices notices) {
        this.eval = eval;
        this.global = global;
        this.notices = notices;
    }

    /** Conditional frame: state 0 taking, 1 skipping (known false), 2 unknown. */
    private static final class Frame {
        int state;
        boolean anyTrue;
        boolean anyUnknown;
        String desc;
        final boolean parentSkips;

        Frame(boolean parentSkips) {
            this.parentSkips = parentSkips;
        }
    }

    private final Deque<Frame> frames = new ArrayDeque<>();
    /** Condition per (file, line) for lines under a conditional whose value is unknown. */
    private final Map<Long, String> lineCondition = new HashMap<>();

    int skipState() {
        for (Frame f : frames) {
            if (f.state == 1) return 1;
        }
        for (Frame f : frames) {
            if (f.state == 2) return 2;
        }
        return 0;
    }

    String innermost(int state) {
        for (Frame f : frames) {
            if (f.state == state) return f.desc;
        }
        return null;
    }

    private static long key(int fi, int line) {
        return ((long) fi << 32) | (line & 0xffffffffL);
    }

    String describe(String t, int fi, int line) {
        String c = t.replaceAll("\\s+", " ");
        if (c.length() > 80) c = c.substring(0, 77) + "...";
        return c + " at " + notices.relative(fi) + ":" + line;
    }

    // ------------------------------------------------------------------------------------------ conditions

    /** 1 true, 0 false, 2 unknown. */
    private int condition(String t, String word) {
        String rest = t.substring(word.length()).trim();
        try {
            if (word.equals("ifdef") || word.equals("ifndef")) {
                String name = eval.expand(PosText.of(rest, -1, 0, 0), global, null, 0)
                        .text
                        .trim();
                if (unknown(name)) return 2;
                Var v = global.get(name);
                int r;
                if (v == null) {
                    if (environmentLike(name)) return 2;
                    r = 0;
                } else {
                    r = v.value().text.isEmpty() ? 0 : 1;
                }
                return word.equals("ifdef") ? r : 1 - r;
            }
            String[] args = condArgs(rest);
            if (args == null) return 2;
            String a = eval.expand(PosText.of(args[0], -1, 0, 0), global, null, 0).text;
            String b = eval.expand(PosText.of(args[1], -1, 0, 0), global, null, 0).text;
            if (unknown(a) || unknown(b)) return 2;
            boolean eq = a.equals(b);
            return (word.equals("ifeq") == eq) ? 1 : 0;
        } catch (MakeBudget.OverBudget e) {
            notices.notFullyEvaluated(0, 0, e.getMessage());
            return 2;
        }
    }

    /** Lines {@code first..last} of file {@code fi} are written under the innermost unknown condition. */
    void writtenUnderUnknown(int fi, int first, int last) {
        for (int l = first; l <= last; l++) lineCondition.put(key(fi, l), innermost(2));
    }

    /** The condition line {@code line} of file {@code fi} is written under, or null. */
    String writtenUnder(int fi, int line) {
        return lineCondition.get(key(fi, line));
    }

    /** The innermost conditional still open at the end of the Makefile, or null. */
    String unterminated() {
        return frames.isEmpty() ? null : frames.peekLast().desc;
    }

    /** {@code ifeq/ifneq/ifdef/ifndef} line {@code t} (its first word {@code word}); {@code state} is the state there. */
    void open(String t, String word, int fi, int lineNo, int state) {
        Frame f = new Frame(state == 1);
        f.desc = describe(t, fi, lineNo);
        if (state == 1) {
            f.state = 1;
            f.desc = innermost(1);
        } else {
            int v = condition(t, word);
            f.state = v == 1 ? 0 : v == 0 ? 1 : 2;
            f.anyTrue = v == 1;
            f.anyUnknown = v == 2;
            if (v == 0) f.desc = f.desc + ", which is false in the default configuration";
            else if (v == 2) f.desc = f.desc + ", whose value numlint cannot know";
        }
        frames.push(f);
    }

    /** An {@code else} line {@code t}, possibly {@code else ifeq ...}. */
    void elseBranch(String t, int fi, int lineNo) {
        Frame f = frames.peek();
        if (f == null) {
            notices.problem(fi, lineNo, "WARNING", "parse-error", "'else' without a matching conditional");
            return;
        }
        if (f.parentSkips) return;
        String rest = t.substring(4).trim();
        String base = "the else branch of "
                + f.desc.replaceFirst(", which is .*|, whose value .*", "").replaceFirst("^the else branch of ", "");
        if (f.anyTrue) {
            f.state = 1;
            f.desc = base + " (an earlier branch is taken in the default configuration)";
        } else if (f.anyUnknown) {
            f.state = 2;
            f.desc = base + " (an earlier condition's value numlint cannot know)";
        } else if (rest.isEmpty()) {
            f.state = 0;
            f.desc = base;
        } else {
            String w2 = firstWord(rest);
            int v = condition(rest, w2);
            String d = describe(rest, fi, lineNo);
            f.state = v == 1 ? 0 : v == 0 ? 1 : 2;
            f.anyTrue = v == 1;
            f.anyUnknown = v == 2;
            f.desc = v == 0
                    ? d + ", which is false in the default configuration"
                    : v == 2 ? d + ", whose value numlint cannot know" : d;
        }
    }

    /** An {@code endif} line. */
    void endif(int fi, int lineNo) {
        if (frames.isEmpty()) {
            notices.problem(fi, lineNo, "WARNING", "parse-error", "'endif' without a matching conditional");
        } else {
            frames.pop();
        }
    }
}
