package dev.numlint.toolchain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bodies of the host functions of a CUDA file, found by matching braces on its text with comments, literals and
 * preprocessor lines left out: what {@link PtxCompiler} empties in a private copy when nvcc's only errors are in host
 * code (a member CUDA 13 removed, {@code cudaDeviceProp::clockRate}, read by a function that prints the device), so
 * that the kernels still reach the PTX layer. PTX holds device code only, so a host body does not change it, except
 * for the kernel template instantiations a host function's launches ask for, which the notice names.
 *
 * <p>Deliberately conservative: a body is a host function's only when its declaration, read back to the previous
 * {@code ;}, <code>}</code> or namespace/class brace, has a parameter list directly before the brace and names neither
 * {@code __global__} nor {@code __device__}. A device function whose execution space comes from a macro looks like a
 * host function here; {@link PtxCompiler} therefore rejects the copy's PTX when it defines a function of an emptied
 * name.
 */
final class HostBodies {
    private HostBodies() {}

    /** One function body: the offsets of its braces, the lines they are on, its name and whether it is device code. */
    record Body(String name, int open, int close, int firstLine, int lastLine, boolean device) {}

    private static final Pattern CONTAINER =
            Pattern.compile("(?s)^(?:.*[;\\s])?(?:namespace\\b[\\w:\\s]*|extern\\s*\"\\s*\"\\s*)$");
    private static final Pattern CLASS = Pattern.compile("(?s)\\b(?:class|struct|union)\\b");
    private static final Pattern AFTER_PARAMETERS =
            Pattern.compile("(?s)\\s*(?:(?:const|volatile|noexcept|override|final|mutable|&&?|->[\\w:<>,\\s*&]+)\\s*"
                    + "|(?:noexcept|throw)\\s*\\([^()]*\\)\\s*|__attribute__\\s*\\(\\(.*\\)\\)\\s*)*");
    private static final Pattern NAME = Pattern.compile("([A-Za-z_]\\w*)\\s*(?:<[^()]*>\\s*)?$");

    private static final Pattern DEFINE =
            Pattern.compile("(?m)^[ \\t]*#[ \\t]*define[ \\t]+([A-Za-z_]\\w*)(?:\\([^)]*\\))?(.*(?:\\\\\\n.*)*)");

    /**
     * The names of the macros of {@code texts} (the file and the project headers it reaches) that expand to a
     * device execution space ({@code #define DEVICE __device__}, {@code #define HD __host__ __device__}, through other
     * such macros): a declaration naming one is device code.
     */
    static Set<String> deviceMacros(List<String> texts) {
        java.util.Map<String, String> defs = new java.util.HashMap<>();
        for (String t : texts) {
            Matcher m = DEFINE.matcher(t);
            // every definition counts: a header defines the macro empty for the host pass and __device__ under
            // __CUDA_ARCH__, and nvcc -ptx reads the device pass
            while (m.find()) defs.merge(m.group(1), m.group(2), (a, b) -> a + " " + b);
        }
        Set<String> out = new java.util.HashSet<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (var e : defs.entrySet()) {
                if (out.contains(e.getKey())) continue;
                if (device(e.getValue(), out)) {
                    out.add(e.getKey());
                    grew = true;
                }
            }
        }
        return out;
    }

    /** The function bodies of {@code text}, in order (nested classes' member functions included). */
    static List<Body> of(String text) {
        return of(text, Set.of());
    }

    /** As {@link #of(String)}, a declaration naming one of {@code deviceMacros} being device code. */
    static List<Body> of(String text, Set<String> deviceMacros) {
        String clean = clean(text);
        List<Body> out = new ArrayList<>();
        Deque<int[]> stack = new ArrayDeque<>(); // {kind, open offset, head start}; kinds below
        final int container = 0, function = 1, other = 2;
        int headStart = 0;
        for (int i = 0; i < clean.length(); i++) {
            char c = clean.charAt(i);
            boolean atContainerLevel = stack.isEmpty() || stack.peek()[0] == container;
            if (c == ';' && atContainerLevel) {
                headStart = i + 1;
            } else if (c == '{') {
                if (!atContainerLevel) {
                    stack.push(new int[] {other, i, headStart});
                    continue;
                }
                String head = clean.substring(headStart, i);
                int kind = kindOf(head);
                stack.push(new int[] {kind == 0 ? container : kind == 1 ? function : other, i, headStart});
                if (kind == 0) headStart = i + 1;
            } else if (c == '}') {
                if (stack.isEmpty()) return List.of(); // unbalanced: read nothing rather than guess
                int[] f = stack.pop();
                if (f[0] == function) {
                    String head = clean.substring(f[2], f[1]);
                    out.add(new Body(name(head), f[1], i, line(text, f[1]), line(text, i), device(head, deviceMacros)));
                }
                if (stack.isEmpty() || stack.peek()[0] == container) headStart = i + 1;
            }
        }
        return stack.isEmpty() ? out : List.of();
    }

    /**
     * The host bodies to empty so that none of {@code errorLines} is left, or null when one of them is not inside a
     * host function's body (device code, a declaration, a header's line).
     */
    static List<Body> holding(String text, Set<Integer> errorLines, Set<String> deviceMacros) {
        if (errorLines.isEmpty()) return null;
        List<Body> bodies = of(text, deviceMacros);
        List<Body> chosen = new ArrayList<>();
        for (int l : new java.util.TreeSet<>(errorLines)) {
            Body in = null;
            for (Body b : bodies) {
                if (b.firstLine() <= l && l <= b.lastLine() && (in == null || b.open() > in.open())) in = b;
            }
            // the innermost body holding the line must be a host function's (a lambda inside one is its body)
            Body outer = in;
            for (Body b : bodies) {
                if (b.firstLine() <= l && l <= b.lastLine() && (outer == null || b.open() < outer.open())) outer = b;
            }
            // a body whose declaration names no return type (a macro that writes the declaration, a constructor)
            // is not emptied: what it is cannot be read from the text
            if (in == null || in.device() || outer.device() || outer.name().isEmpty()) return null;
            if (!chosen.contains(outer)) chosen.add(outer);
        }
        return chosen;
    }

    /** {@code text} with the interior of each body blanked (newlines kept, so every line keeps its number). */
    static String emptied(String text, List<Body> bodies) {
        StringBuilder sb = new StringBuilder(text);
        for (Body b : bodies) {
            for (int i = b.open() + 1; i < b.close(); i++) {
                char c = sb.charAt(i);
                if (c != '\n' && c != '\r') sb.setCharAt(i, ' ');
            }
        }
        return sb.toString();
    }

    /** 0: a namespace, linkage block or class; 1: a function body; 2: anything else (an initializer, an enum). */
    private static int kindOf(String head) {
        String h = head.strip();
        if (CONTAINER.matcher(h).matches()) return 0;
        int close = h.lastIndexOf(')');
        boolean params =
                close >= 0 && AFTER_PARAMETERS.matcher(h.substring(close + 1)).matches();
        if (!params) {
            Matcher m = CLASS.matcher(h);
            return m.find() && !h.contains("=") && !h.startsWith("enum") && !h.contains(" enum ") ? 0 : 2;
        }
        int open = h.indexOf('(');
        if (open < 0 || h.substring(0, open).contains("=")) return 2;
        return 1;
    }

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_]\\w*");

    private static boolean device(String head, Set<String> deviceMacros) {
        Matcher m = IDENTIFIER.matcher(head);
        while (m.find()) {
            String w = m.group();
            if (w.equals("__global__") || w.equals("__device__") || deviceMacros.contains(w)) return true;
        }
        return false;
    }

    private static String name(String head) {
        String h = head.strip();
        int open = h.indexOf('(');
        // the operator's name or the declarator's: the last identifier before the parameter list
        String before = open < 0 ? h : h.substring(0, open);
        Matcher m = NAME.matcher(before);
        if (!m.find()) return "";
        // a return type (or a qualifier) before the name: else the head may be a macro's use that writes it all
        String type =
                before.substring(0, m.start()).replaceAll("[\\w:]*::\\s*$", "").strip();
        return IDENTIFIER.matcher(type).find() ? m.group(1) : "";
    }

    private static int line(String text, int offset) {
        int n = 1;
        for (int i = 0; i < offset; i++) if (text.charAt(i) == '\n') n++;
        return n;
    }

    /**
     * {@code text} with comments, the contents of string and character literals and preprocessor lines (with their
     * continuations) replaced by spaces, offsets and newlines kept.
     */
    static String clean(String text) {
        StringBuilder sb = new StringBuilder(text);
        int n = text.length();
        boolean lineStart = true;
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                lineStart = true;
                continue;
            }
            if (lineStart && c == '#') {
                int j = i;
                while (j < n && !(text.charAt(j) == '\n' && text.charAt(j - 1) != '\\')) {
                    if (text.charAt(j) != '\n') sb.setCharAt(j, ' ');
                    j++;
                }
                i = j - 1;
                continue;
            }
            if (!Character.isWhitespace(c)) lineStart = false;
            if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
                while (i < n && text.charAt(i) != '\n') sb.setCharAt(i++, ' ');
                i--;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                for (int j = i; j < end; j++) if (text.charAt(j) != '\n') sb.setCharAt(j, ' ');
                i = end - 1;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && text.charAt(j) != c && text.charAt(j) != '\n') {
                    if (text.charAt(j) == '\\') j++;
                    j++;
                }
                for (int k = i + 1; k < Math.min(j, n); k++) if (text.charAt(k) != '\n') sb.setCharAt(k, ' ');
                i = Math.min(j, n - 1);
            }
        }
        return sb.toString();
    }
}
