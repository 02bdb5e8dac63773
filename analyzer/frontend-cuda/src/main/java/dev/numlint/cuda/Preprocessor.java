package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.antlr.v4.runtime.Token;

/**
 * A C preprocessor sufficient for analysis: object- and function-like macros (with #, ## and __VA_ARGS__) are
 * expanded and every produced token keeps the line of the macro invocation, so findings stay at original lines;
 * #include "..." is handed to an {@link IncludeHandler}; #if/#ifdef/#elif are evaluated when decidable and both
 * branches are kept otherwise (e.g. __CUDA_ARCH__, CUDART_VERSION).
 */
final class Preprocessor {

    /** A macro definition. {@code params} is null for object-like macros. */
    record Macro(String name, List<String> params, boolean variadic, List<PToken> body) {}

    interface IncludeHandler {
        /**
         * Called for an active {@code #include "name"} at {@code line}, and for an {@code #include <dir/name>} of a
         * path, with its brackets ({@code "<dir/name>"}).
         */
        void include(String name, int line);
    }

    /** Identifiers whose value the analysis cannot know (device vs host pass, toolkit version). */
    static boolean undecidable(String id) {
        return id.equals("__CUDA_ARCH__")
                || id.startsWith("__CUDA_ARCH")
                || id.startsWith("CUDART_VERSION")
                || id.startsWith("__CUDACC_VER")
                || id.equals("CUDA_VERSION")
                || id.startsWith("__CUDA_API_VER");
    }

    /**
     * Predefined macros of the compilers on x86-64 Linux (nvcc preprocesses both passes with its host compiler):
     * among them the SSE baseline every x86-64 GCC and Clang define, so an {@code #ifdef __SSE__ ... #else} reads
     * the branch the build compiles (session 34 evaluation: a float loop of the {@code #else} was reported).
     */
    private static final Map<String, Long> PREDEFINED = Map.ofEntries(
            Map.entry("__CUDACC__", 1L),
            Map.entry("__NVCC__", 1L),
            Map.entry("__cplusplus", 201703L),
            Map.entry("__linux__", 1L),
            Map.entry("__x86_64__", 1L),
            Map.entry("__LP64__", 1L),
            Map.entry("__SSE__", 1L),
            Map.entry("__SSE2__", 1L),
            Map.entry("__SSE_MATH__", 1L),
            Map.entry("__SSE2_MATH__", 1L),
            Map.entry("__STDC__", 1L),
            // C only: GCC's default dialect, gnu17 (session 58 round D: '#if !(__STDC_VERSION__ >= 201112L) #define
            // max_align_t long double' read as a pre-C11 compiler made a long double that the build never declares)
            Map.entry("__STDC_VERSION__", 201710L),
            Map.entry("__GNUC__", 12L),
            // C++ only, as GCC and Clang define it (session 80 round H: an integration package's headers include
            // their template definitions under '#ifdef __GNUG__', which read as undefined left them to be read alone)
            Map.entry("__GNUG__", 12L),
            Map.entry("__CUDACC_RTC__", 0L));

    /** Predefined macros of nvcc's CUDA pass that the host compiler does not define. */
    private static final Set<String> CUDA_ONLY = Set.of(
            "__CUDACC__", "__NVCC__", "__CUDACC_RTC__", "__CUDA_ARCH__", "__CUDA_ARCH_LIST__", "__STDC_VERSION__");

    /** Predefined macros of C that C++ and nvcc's passes do not define. */
    private static final Set<String> NOT_CUDA = Set.of("__STDC_VERSION__");

    private static final Set<String> C_ONLY = Set.of(
            "__CUDACC__",
            "__NVCC__",
            "__CUDACC_RTC__",
            "__cplusplus",
            "__GNUG__",
            "__CUDA_ARCH__",
            "__CUDA_ARCH_LIST__");

    /** The language a file is compiled as: decides which predefined macros exist. */
    enum Dialect {
        /** .cu/.cuh and headers that may be included from them: nvcc's view. */
        CUDA,
        /** .cpp/.cc/.cxx: the host C++ compiler's view (no __CUDACC__). */
        HOST_CXX,
        /** .c: the host C compiler's view (no __CUDACC__, no __cplusplus). */
        HOST_C
    }

    private final Map<String, Macro> macros;
    private final IncludeHandler includes;
    private Set<String> undefinedPredefined = Set.of();
    private final List<String> problems = new ArrayList<>();
    private int expansions;

    Preprocessor(Map<String, Macro> macros, IncludeHandler includes) {
        this.macros = macros;
        this.includes = includes;
    }

    /** Sets the dialect (default {@link Dialect#CUDA}); returns this. */
    Preprocessor dialect(Dialect d) {
        undefinedPredefined = d == Dialect.HOST_C ? C_ONLY : d == Dialect.HOST_CXX ? CUDA_ONLY : NOT_CUDA;
        return this;
    }

    private Long predefined(String id) {
        return undefinedPredefined.contains(id) ? null : PREDEFINED.get(id);
    }

    List<String> problems() {
        return problems;
    }

    static List<PToken> lex(String text) {
        return FastLexer.lex(text);
    }

    // ---------------------------------------------------------------- conditionals
    private static final int TAKING = 0;
    private static final int WAITING = 1;
    private static final int DONE = 2;
    private static final int BOTH = 3;

    private static final class Cond {
        final boolean parentActive;
        /** The enclosing code is emitted (active, or an inactive branch analyzed under all-configurations). */
        final boolean parentEmitted;

        int state;
        /** The condition of the current branch as written ("defined(FAST_PATH)", "N > 2", "!(N > 2)"). */
        String text;

        final List<String> prior = new ArrayList<>();

        Cond(boolean parentActive, boolean parentEmitted, int state, String text) {
            this.parentActive = parentActive;
            this.parentEmitted = parentEmitted;
            this.state = state;
            this.text = text;
        }

        boolean active() {
            return parentActive && (state == TAKING || state == BOTH);
        }

        void branch(String newText) {
            prior.add(text);
            text = newText;
        }
    }

    private boolean allConfigurations;

    /**
     * Also emits the code of inactive conditional branches (their #define/#undef/#include are not applied), each
     * token tagged with the condition it depends on ({@link PToken#condition}); returns this.
     */
    Preprocessor allConfigurations(boolean on) {
        allConfigurations = on;
        return this;
    }

    private boolean emitted(Deque<Cond> conds) {
        if (conds.isEmpty()) return true;
        Cond c = conds.peek();
        return c.active() || allConfigurations && c.parentEmitted;
    }

    /** The conditions of the inactive branches enclosing the current position, or null when it is active. */
    private static String condition(Deque<Cond> conds) {
        StringBuilder sb = null;
        java.util.Iterator<Cond> it = conds.descendingIterator();
        while (it.hasNext()) {
            Cond c = it.next();
            boolean tag = !c.parentActive || !(c.state == TAKING || c.state == BOTH);
            if (!tag || c.state == BOTH) continue;
            if (sb == null) sb = new StringBuilder();
            else sb.append(" && ");
            sb.append(c.text);
        }
        return sb == null ? null : sb.toString();
    }

    /**
     * The first {@code #error} directive that the analyzed configuration reaches with certainty (every enclosing
     * condition known and true), e.g. a header for another CPU ({@code #if !defined(__sparc__) #error ...}); null
     * when there is none. The compiler stops there, so the file is not compiled in this configuration.
     */
    String activeError;
    /** The line of {@link #activeError}. */
    int activeErrorLine;

    /**
     * The lines of the conditional directives after which this preprocessor reads code Clang, which compiles one
     * configuration, may not have seen ({@link #conditional}): a function whose body holds one is read by both front
     * ends ({@code ClangDecides}). A branch decided by the command's macros is not one (session 53: a
     * nearest-neighbour library's Hamming distances, whose {@code #ifdef __ARM_NEON__} gave both functions to the
     * hand-written front end, and its class-scoped {@code ResultType} to a float).
     */
    final java.util.BitSet conditionalLines = new java.util.BitSet();

    /**
     * The code tokens of the branches this configuration does not compile and does not emit (all of them but under
     * all-configurations), as lexed, in order; {@link #inactiveConditions} holds the condition of each one's branch
     * ({@link InactiveSites} names what they hold).
     */
    final List<PToken> inactiveTokens = new ArrayList<>();

    final List<String> inactiveConditions = new ArrayList<>();

    /**
     * Records a conditional directive after which this preprocessor reads code Clang does not see: a branch it cannot
     * decide ({@code #if __CUDA_ARCH__ >= 700}: both are read), or under all-configurations any branch not taken. A
     * branch it decides is decided for Clang too (the same command's macros), and Clang read the same code.
     */
    private void conditional(int line, int state) {
        if (state == BOTH || allConfigurations && state != TAKING) conditionalLines.set(line);
    }

    /** Preprocesses {@code text}; returns the code tokens (directives consumed). */
    List<PToken> run(String text) {
        List<PToken> raw = lex(text);
        List<PToken> out = new ArrayList<>(raw.size());
        Deque<Cond> conds = new ArrayDeque<>();
        List<PToken> segment = new ArrayList<>();
        for (PToken t : raw) {
            boolean active = conds.isEmpty() || conds.peek().active();
            if (t.getType() == CudaLexer.DIRECTIVE) {
                if (!segment.isEmpty()) {
                    flush(segment, out, conds);
                    segment.clear();
                }
                directive(t, conds, active);
                continue;
            }
            if (active || allConfigurations && emitted(conds)) {
                segment.add(t);
            } else if (!conds.isEmpty()) {
                inactiveTokens.add(t);
                inactiveConditions.add(conds.peek().text);
            }
        }
        if (!segment.isEmpty()) flush(segment, out, conds);
        return dropPragmaOperators(out);
    }

    private void flush(List<PToken> segment, List<PToken> out, Deque<Cond> conds) {
        int from = out.size();
        expandAll(segment, out);
        String cond = allConfigurations ? condition(conds) : null;
        if (cond != null) {
            for (int i = from; i < out.size(); i++) {
                PToken t = out.get(i).copy();
                t.condition = cond;
                out.set(i, t);
            }
        }
    }

    /** Removes {@code _Pragma("...")} and {@code __pragma(...)} (pragma operators, often produced by macros). */
    private static List<PToken> dropPragmaOperators(List<PToken> toks) {
        List<PToken> out = null;
        for (int i = 0; i < toks.size(); i++) {
            PToken t = toks.get(i);
            if (t.getType() == CudaLexer.IDENTIFIER
                    && (t.getText().equals("_Pragma") || t.getText().equals("__pragma"))
                    && i + 1 < toks.size()
                    && toks.get(i + 1).getType() == CudaLexer.LPAREN) {
                int depth = 0;
                int j = i + 1;
                for (; j < toks.size(); j++) {
                    int ty = toks.get(j).getType();
                    if (ty == CudaLexer.LPAREN) depth++;
                    else if (ty == CudaLexer.RPAREN && --depth == 0) break;
                }
                if (j < toks.size()) {
                    if (out == null) out = new ArrayList<>(toks.subList(0, i));
                    i = j;
                    continue;
                }
            }
            if (out != null) out.add(t);
        }
        return out == null ? toks : out;
    }

    private static final java.util.regex.Pattern CONTINUATION = java.util.regex.Pattern.compile("\\\\\\r?\\n");
    private static final java.util.regex.Pattern COMMENT = java.util.regex.Pattern.compile("(?s)/\\*.*?\\*/");

    static String directiveText(String raw) {
        String s = raw.indexOf('\\') >= 0 ? CONTINUATION.matcher(raw).replaceAll(" ") : raw;
        if (s.indexOf("/*") >= 0) s = COMMENT.matcher(s).replaceAll(" ");
        return s.substring(1).trim();
    }

    private void directive(Token t, Deque<Cond> conds, boolean active) {
        String d = directiveText(t.getText());
        int i = 0;
        while (i < d.length() && Character.isLetter(d.charAt(i))) i++;
        String kw = d.substring(0, i);
        String rest = d.substring(i).trim();
        int line = t.getLine();
        switch (kw) {
            case "if": {
                Long v = active ? evalCondition(rest) : Long.valueOf(0);
                conds.push(new Cond(active, emitted(conds), v == null ? BOTH : v != 0 ? TAKING : WAITING, rest));
                conditional(line, conds.peek().state);
                break;
            }
            case "ifdef":
            case "ifndef": {
                String id = firstIdent(rest);
                int state;
                // __CUDA_ARCH__ is undecidable in nvcc's view (host and device passes), not defined for a host compiler
                if (undecidable(id) && !undefinedPredefined.contains(id)) state = BOTH;
                else {
                    boolean def = isDefined(id);
                    state = def == kw.equals("ifdef") ? TAKING : WAITING;
                }
                conds.push(new Cond(
                        active, emitted(conds), state, (kw.equals("ifdef") ? "" : "!") + "defined(" + id + ")"));
                conditional(line, state);
                break;
            }
            case "elif": {
                Cond c = conds.peek();
                if (c == null) break;
                c.branch(rest);
                if (c.state == TAKING) c.state = DONE;
                else if (c.state == WAITING) {
                    Long v = c.parentActive ? evalCondition(rest) : Long.valueOf(0);
                    c.state = v == null ? BOTH : v != 0 ? TAKING : WAITING;
                }
                conditional(line, c.state);
                break;
            }
            case "else": {
                Cond c = conds.peek();
                if (c == null) break;
                List<String> all = new ArrayList<>(c.prior);
                all.add(c.text);
                c.branch(all.size() == 1 ? "!(" + all.get(0) + ")" : "!(" + String.join(" || ", all) + ")");
                if (c.state == TAKING) c.state = DONE;
                else if (c.state == WAITING) c.state = TAKING;
                conditional(line, c.state);
                break;
            }
            case "endif":
                if (!conds.isEmpty()) conds.pop();
                break;
            case "define":
                if (active) define(rest);
                break;
            case "undef":
                if (active) macros.remove(firstIdent(rest));
                break;
            case "error":
                if (active && activeError == null && conds.stream().allMatch(c -> c.state == TAKING)) {
                    activeError = "#error " + rest;
                    activeErrorLine = line;
                }
                break;
            case "include":
                if (active && rest.startsWith("\"")) {
                    int end = rest.indexOf('"', 1);
                    if (end > 1 && includes != null) includes.include(rest.substring(1, end), line);
                } else if (active && rest.startsWith("<")) {
                    // an angle include (<lib/types.h>, <grid.hpp> through -I): the handler reads it when an include
                    // directory in the scanned tree holds it (a JIT kernel header's own library headers, a CMake
                    // project's -I src); "<name>" tells it from a quoted include
                    int end = rest.indexOf('>', 1);
                    if (end > 1 && includes != null) includes.include(rest.substring(0, end + 1), line);
                } else if (active && includes != null) {
                    // #include PLUGIN_SOURCE of a macro that is one string ("gui/meter.c", a -D of the unit's
                    // command: a GUI host unit compiled once per plugin GUI, session 63 round B): that include
                    Macro m = macros.get(rest.strip());
                    String v = m == null || m.params() != null || m.body().size() != 1
                            ? ""
                            : m.body().get(0).getText();
                    if (v.length() > 2 && v.startsWith("\"") && v.endsWith("\"") && v.indexOf('\\') < 0)
                        includes.include(v.substring(1, v.length() - 1), line);
                }
                break;
            default:
                break;
        }
    }

    private static String firstIdent(String s) {
        int i = 0;
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) i++;
        return s.substring(0, i);
    }

    private boolean isDefined(String id) {
        return macros.containsKey(id) || predefined(id) != null;
    }

    private void define(String rest) {
        String name = firstIdent(rest);
        if (name.isEmpty()) return;
        String after = rest.substring(name.length());
        List<String> params = null;
        boolean variadic = false;
        String body;
        if (after.startsWith("(")) {
            int close = after.indexOf(')');
            if (close < 0) return;
            params = new ArrayList<>();
            for (String p : after.substring(1, close).split(",")) {
                p = p.trim();
                if (p.isEmpty()) continue;
                if (p.equals("...")) {
                    variadic = true;
                    params.add("__VA_ARGS__");
                } else if (p.endsWith("...")) {
                    variadic = true;
                    params.add(p.substring(0, p.length() - 3).trim());
                } else {
                    params.add(p);
                }
            }
            body = after.substring(close + 1);
        } else {
            body = after;
        }
        List<PToken> toks = FastLexer.lex(body, false);
        macros.put(name, new Macro(name, params, variadic, toks));
    }

    // ---------------------------------------------------------------- #if evaluation
    /** Value of an #if expression, or null when it depends on something the analysis cannot know. */
    Long evalCondition(String expr) {
        List<PToken> toks = lex(expr);
        List<PToken> pre = new ArrayList<>();
        for (int i = 0; i < toks.size(); i++) {
            PToken t = toks.get(i);
            if (t.getType() == CudaLexer.IDENTIFIER && t.getText().equals("defined")) {
                int j = i + 1;
                boolean paren = j < toks.size() && toks.get(j).getType() == CudaLexer.LPAREN;
                if (paren) j++;
                if (j >= toks.size()) return null;
                String id = toks.get(j).getText();
                if (paren) j++;
                i = j; // past the name (defined X) or its closing parenthesis (defined(X))
                if (undecidable(id) && !undefinedPredefined.contains(id))
                    pre.add(new PToken(CudaLexer.IDENTIFIER, "__undecidable__", 0, 0, Set.of(), null));
                else pre.add(new PToken(CudaLexer.INTEGER_LITERAL, isDefined(id) ? "1" : "0", 0, 0, Set.of(), null));
            } else {
                pre.add(t);
            }
        }
        List<PToken> expanded = new ArrayList<>();
        expandAll(pre, expanded);
        try {
            IfExpression ev = new IfExpression(expanded, undefinedPredefined, this::predefined);
            Long v = ev.ternary();
            return ev.pos == expanded.size() ? v : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    // ---------------------------------------------------------------- macro expansion
    /** Bounds of macro expansion per file: expansions, tokens they produce, nesting of macro arguments. */
    static final int MAX_EXPANSIONS = 200_000;

    static final long MAX_PRODUCED = 4_000_000;
    static final int MAX_ARG_DEPTH = 64;
    private long produced;
    private int depth;
    private String truncated;
    private int truncatedLine;

    /** Why macro expansion stopped early (a bound was reached), or null when everything was expanded. */
    String truncated() {
        return truncated;
    }

    /** The line where expansion stopped. */
    int truncatedLine() {
        return truncatedLine;
    }

    private void truncate(String why, PToken at) {
        if (truncated == null) {
            truncated = why;
            truncatedLine = at.getLine();
        }
    }

    /** Expands macros in {@code in} and appends the result to {@code out}. */
    void expandAll(List<PToken> in, List<PToken> out) {
        if (++depth > MAX_ARG_DEPTH) {
            if (!in.isEmpty()) truncate("macro arguments nested deeper than " + MAX_ARG_DEPTH + " levels", in.get(0));
            out.addAll(in);
            depth--;
            return;
        }
        try {
            Deque<PToken> front = new ArrayDeque<>();
            int[] pos = {0};
            while (true) {
                PToken t = next(front, in, pos);
                if (t == null) return;
                if (truncated == null && (t.getType() == CudaLexer.IDENTIFIER || isKeywordLike(t))) {
                    Macro m = macros.get(t.getText());
                    if (m != null && !t.hide.contains(m.name())) {
                        if (expansions >= MAX_EXPANSIONS) {
                            truncate("more than " + MAX_EXPANSIONS + " macro expansions", t);
                        } else if (m.params() == null) {
                            expansions++;
                            if (expanded(front, substitute(m, null, t), t)) continue;
                        } else {
                            PToken after = peek(front, in, pos);
                            if (after != null && after.getType() == CudaLexer.LPAREN) {
                                next(front, in, pos);
                                List<List<PToken>> args = collectArgs(front, in, pos);
                                if (args != null) {
                                    expansions++;
                                    if (expanded(front, substitute(m, args, t), t)) continue;
                                }
                            }
                        }
                    }
                }
                out.add(t);
            }
        } finally {
            depth--;
        }
    }

    /** Queues an expansion unless it exceeds the size bound (then expansion stops, and false is returned). */
    private boolean expanded(Deque<PToken> front, List<PToken> expansion, PToken at) {
        produced += expansion.size();
        if (produced > MAX_PRODUCED || front.size() + expansion.size() > MAX_PRODUCED) {
            truncate("macro expansions would produce more than " + MAX_PRODUCED + " tokens", at);
            return false;
        }
        pushFront(front, expansion);
        return true;
    }

    private static boolean isKeywordLike(PToken t) {
        int ty = t.getType();
        return ty < CudaLexer.LAUNCH_OPEN && ty > CudaLexer.DIRECTIVE;
    }

    private static PToken next(Deque<PToken> front, List<PToken> in, int[] pos) {
        if (!front.isEmpty()) return front.pollFirst();
        return pos[0] < in.size() ? in.get(pos[0]++) : null;
    }

    private static PToken peek(Deque<PToken> front, List<PToken> in, int[] pos) {
        if (!front.isEmpty()) return front.peekFirst();
        return pos[0] < in.size() ? in.get(pos[0]) : null;
    }

    private static void pushFront(Deque<PToken> front, List<PToken> toks) {
        for (int i = toks.size() - 1; i >= 0; i--) front.addFirst(toks.get(i));
    }

    private static List<List<PToken>> collectArgs(Deque<PToken> front, List<PToken> in, int[] pos) {
        List<List<PToken>> args = new ArrayList<>();
        List<PToken> cur = new ArrayList<>();
        int depth = 0;
        while (true) {
            PToken t = next(front, in, pos);
            if (t == null) return null;
            int ty = t.getType();
            if (ty == CudaLexer.LPAREN || ty == CudaLexer.LBRACKET || ty == CudaLexer.LBRACE) depth++;
            else if (ty == CudaLexer.RPAREN || ty == CudaLexer.RBRACKET || ty == CudaLexer.RBRACE) {
                if (depth == 0) {
                    if (ty != CudaLexer.RPAREN) return null;
                    args.add(cur);
                    return args;
                }
                depth--;
            } else if (ty == CudaLexer.COMMA && depth == 0) {
                args.add(cur);
                cur = new ArrayList<>();
                continue;
            }
            cur.add(t);
        }
    }

    private List<PToken> substitute(Macro m, List<List<PToken>> args, PToken inv) {
        Set<String> hide = new HashSet<>(inv.hide);
        hide.add(m.name());
        Map<String, List<PToken>> argMap = new HashMap<>();
        if (args != null) {
            List<String> ps = m.params();
            for (int i = 0; i < ps.size(); i++) {
                List<PToken> a;
                if (m.variadic() && i == ps.size() - 1 && i < args.size()) {
                    a = new ArrayList<>();
                    for (int k = i; k < args.size(); k++) {
                        if (k > i) a.add(new PToken(CudaLexer.COMMA, ",", inv.getLine(), 0, Set.of(), null));
                        a.addAll(args.get(k));
                    }
                } else {
                    a = i < args.size() ? args.get(i) : List.of();
                }
                argMap.put(ps.get(i), a);
            }
        }
        List<PToken> body = m.body();
        List<PToken> res = new ArrayList<>(body.size() + 8);
        String macroName = inv.fromMacro != null ? inv.fromMacro : m.name();
        for (int i = 0; i < body.size(); i++) {
            PToken b = body.get(i);
            int ty = b.getType();
            if (ty == CudaLexer.HASH
                    && args != null
                    && i + 1 < body.size()
                    && argMap.containsKey(body.get(i + 1).getText())) {
                StringBuilder sb = new StringBuilder("\"");
                for (PToken a : argMap.get(body.get(i + 1).getText())) {
                    if (sb.length() > 1) sb.append(' ');
                    sb.append(a.getText().replace("\\", "\\\\").replace("\"", "\\\""));
                }
                sb.append('"');
                res.add(new PToken(
                        CudaLexer.STRING_LITERAL,
                        sb.toString(),
                        inv.getLine(),
                        inv.getCharPositionInLine(),
                        hide,
                        macroName));
                i++;
                continue;
            }
            if (ty == CudaLexer.HASH_HASH && !res.isEmpty() && i + 1 < body.size()) {
                PToken left = res.remove(res.size() - 1);
                PToken rightTok = body.get(++i);
                List<PToken> right = argMap.containsKey(rightTok.getText()) && args != null
                        ? new ArrayList<>(argMap.get(rightTok.getText()))
                        : new ArrayList<>(List.of(rightTok));
                String pasted =
                        left.getText() + (right.isEmpty() ? "" : right.remove(0).getText());
                for (PToken lt : lex(pasted)) {
                    res.add(new PToken(
                            lt.getType(), lt.getText(), inv.getLine(), inv.getCharPositionInLine(), hide, macroName));
                }
                for (PToken r : right) res.add(r.at(inv.getLine(), inv.getCharPositionInLine(), hide, macroName));
                continue;
            }
            if (args != null && ty == CudaLexer.IDENTIFIER && argMap.containsKey(b.getText())) {
                List<PToken> a = argMap.get(b.getText());
                boolean pasteNext = i + 1 < body.size() && body.get(i + 1).getType() == CudaLexer.HASH_HASH;
                List<PToken> use;
                if (pasteNext) {
                    use = a;
                } else {
                    use = new ArrayList<>();
                    expandAll(a, use);
                }
                for (PToken x : use) {
                    // argument tokens keep their own line when they came from the source (multi-line invocations)
                    int line = x.fromMacro == null ? x.getLine() : inv.getLine();
                    int col = x.fromMacro == null ? x.getCharPositionInLine() : inv.getCharPositionInLine();
                    Set<String> h = new HashSet<>(x.hide);
                    h.addAll(inv.hide);
                    res.add(x.at(line, col, h, x.fromMacro != null ? x.fromMacro : (inv.fromMacro)));
                }
                continue;
            }
            res.add(b.at(inv.getLine(), inv.getCharPositionInLine(), hide, macroName));
        }
        return res;
    }
}
