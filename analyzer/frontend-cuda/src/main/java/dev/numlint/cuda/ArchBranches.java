package dev.numlint.cuda;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.Site;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines of a file that nvcc compiles for one side only, by the {@code __CUDA_ARCH__} branches around them: in a
 * {@code __host__ __device__} function, {@code #ifdef __CUDA_ARCH__ ... #else ... #endif} gives the device pass the
 * first branch and the host pass the second. A site in the host branch never runs on the GPU, so no device setting
 * ({@code --use_fast_math}, {@code -prec-div=false}, {@code -ftz}) reaches it; a site in the device branch never runs
 * on the CPU (session 76 round A: a path tracer's {@code 1.0f / x}, the host side of {@code __frcp_rn(x)}, was "an
 * approximate division under --use_fast_math").
 *
 * <p>A branch is device-only when its condition is a conjunction one of whose terms tests {@code __CUDA_ARCH__}
 * positively ({@code defined(__CUDA_ARCH__)}, {@code __CUDA_ARCH__ >= 700}), host-only when one term is {@code
 * !defined(__CUDA_ARCH__)}; the branches after a condition that is exactly one definedness test are the other
 * side's. Anything else ({@code #else} of {@code __CUDA_ARCH__ >= 700}, a disjunction) says nothing. The lines are read
 * from the file's text as written (a directive continued with backslashes, comments removed).
 */
public final class ArchBranches {
    private final BitSet hostLines;
    private final BitSet deviceLines;

    private ArchBranches(BitSet hostLines, BitSet deviceLines) {
        this.hostLines = hostLines;
        this.deviceLines = deviceLines;
    }

    /** Which side a branch is compiled for. */
    private enum Side {
        ANY,
        HOST,
        DEVICE
    }

    private static final Pattern DIRECTIVE = Pattern.compile("^\\s*#\\s*(ifdef|ifndef|if|elif|else|endif)\\b(.*)$");
    private static final Pattern DEFINED = Pattern.compile("^defined\\s*\\(?\\s*__CUDA_ARCH__\\s*\\)?$");
    private static final Pattern NOT_DEFINED = Pattern.compile("^!\\s*defined\\s*\\(?\\s*__CUDA_ARCH__\\s*\\)?$");
    private static final Pattern ARCH_COMPARED = Pattern.compile("^__CUDA_ARCH__(?:\\s*(>=|>|==|!=)\\s*(\\d+))?$");

    /** The branches of {@code text}, or null when it never names {@code __CUDA_ARCH__}. */
    public static ArchBranches of(byte[] text) {
        String s = new String(text, StandardCharsets.UTF_8);
        if (!s.contains("__CUDA_ARCH__")) return null;
        String[] lines = s.split("\r?\n|\r", -1);
        BitSet host = new BitSet();
        BitSet device = new BitSet();
        // per open conditional: the side of the branch being read, and the side of the branches still to come
        Deque<Side[]> open = new ArrayDeque<>();
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int first = i;
            while (line.endsWith("\\") && i + 1 < lines.length)
                line = line.substring(0, line.length() - 1) + lines[++i];
            Matcher m = DIRECTIVE.matcher(line);
            if (m.matches()) {
                String cond = condition(m.group(2));
                switch (m.group(1)) {
                    case "ifdef" -> open.push(new Side[] {
                        cond.equals("__CUDA_ARCH__") ? Side.DEVICE : Side.ANY,
                        cond.equals("__CUDA_ARCH__") ? Side.HOST : Side.ANY
                    });
                    case "ifndef" -> open.push(new Side[] {
                        cond.equals("__CUDA_ARCH__") ? Side.HOST : Side.ANY,
                        cond.equals("__CUDA_ARCH__") ? Side.DEVICE : Side.ANY
                    });
                    case "if" -> open.push(new Side[] {side(cond), rest(cond)});
                    case "elif" -> {
                        Side[] f = open.peek();
                        if (f != null) f[0] = meet(f[1], side(cond));
                    }
                    case "else" -> {
                        Side[] f = open.peek();
                        if (f != null) f[0] = f[1];
                    }
                    default -> open.poll(); // endif
                }
                continue;
            }
            Side here = Side.ANY;
            for (Side[] f : open) here = meet(here, f[0]);
            for (int k = first; k <= i; k++) {
                if (here == Side.HOST) host.set(k + 1);
                if (here == Side.DEVICE) device.set(k + 1);
            }
        }
        return host.isEmpty() && device.isEmpty() ? null : new ArchBranches(host, device);
    }

    /** The side both of two nested branches are compiled for; a contradiction (dead code) says nothing. */
    private static Side meet(Side a, Side b) {
        if (a == Side.ANY) return b;
        if (b == Side.ANY || a == b) return a;
        return Side.ANY;
    }

    /** The condition without comments and outer parentheses, its whitespace squeezed. */
    private static String condition(String raw) {
        String c = raw.replaceAll("/\\*.*?\\*/", " ")
                .replaceAll("//.*$", "")
                .trim()
                .replaceAll("\\s+", " ");
        while (c.startsWith("(") && c.endsWith(")") && dev.numlint.rules.Quote.balanced(c.substring(1, c.length() - 1)))
            c = c.substring(1, c.length() - 1).trim();
        return c;
    }

    /** The side of the branch an {@code #if} or {@code #elif} condition selects. */
    private static Side side(String cond) {
        if (cond.contains("||")) return Side.ANY;
        Side s = Side.ANY;
        for (String term : conjuncts(cond)) {
            if (DEFINED.matcher(term).matches()) s = meet(s, Side.DEVICE);
            else if (NOT_DEFINED.matcher(term).matches()) s = meet(s, Side.HOST);
            else s = meet(s, compared(term));
        }
        return s;
    }

    /**
     * The side of a comparison of {@code __CUDA_ARCH__} with a number, which the host pass reads as 0: true on the
     * device only for {@code >= N}, {@code > N}, {@code == N} (N > 0) and {@code != 0} (and the bare name), on the
     * host only for {@code == 0}.
     */
    private static Side compared(String term) {
        Matcher m = ARCH_COMPARED.matcher(term);
        if (!m.matches()) return Side.ANY;
        if (m.group(1) == null) return Side.DEVICE;
        long n;
        try {
            n = Long.parseLong(m.group(2));
        } catch (NumberFormatException e) {
            return Side.ANY;
        }
        return switch (m.group(1)) {
            case ">=", "==" -> n > 0 ? Side.DEVICE : m.group(1).equals("==") ? Side.HOST : Side.ANY;
            case ">" -> Side.DEVICE;
            default -> n == 0 ? Side.DEVICE : Side.ANY; // !=
        };
    }

    /** The side of the branches after the first, when the condition is exactly one definedness test. */
    private static Side rest(String cond) {
        if (DEFINED.matcher(cond).matches() || cond.equals("__CUDA_ARCH__")) return Side.HOST;
        if (NOT_DEFINED.matcher(cond).matches()) return Side.DEVICE;
        return Side.ANY;
    }

    private static List<String> conjuncts(String cond) {
        List<String> out = new ArrayList<>();
        for (String t : cond.split("&&")) out.add(condition(t));
        return out;
    }

    /**
     * Marks the sites of {@code facts} in a branch compiled for one side only ({@link Site#inArchBranch}); only the
     * sites of code compiled for both sides change.
     */
    public void mark(FunctionFacts facts) {
        for (Site s : facts.sites()) {
            if (hostLines.get(s.line())) s.inArchBranch(false);
            else if (deviceLines.get(s.line())) s.inArchBranch(true);
        }
    }
}
