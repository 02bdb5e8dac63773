package dev.numlint.cuda;

import dev.numlint.cuda.clang.ClangDefinitions;
import dev.numlint.model.DeclaredFunction;
import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.rules.NotCalledNote;
import dev.numlint.rules.NotCompiledNote;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Findings in code that the build's programs never run are notes (session 48: 54 of the 100 sampled findings of one
 * evaluation round were in helper members of a project's tensor class templates that the program never calls, and 12
 * of 22 of another round in functions nothing calls). Two kinds of code, each with the one home of its note:
 * <ul>
 *   <li>a template pattern that no code which runs names: C++ instantiates a member function of a class template, or a
 *       function template, only where code uses it, so the build compiles nothing of it ({@link NotCompiledNote});
 *   <li>a function that is no template and that no code which runs calls, in a build whose programs start at a
 *       {@code main} the tree defines ({@link NotCalledNote}): it is compiled, and never runs. A tree without a
 *       {@code main} is a library: every function of it is its interface, and keeps its level.
 * </ul>
 *
 * <p>The front end marks each finding of a compiled file's function with the function's name, its class template and
 * its kind ({@link #PROPERTY}), and records every definition of the compiled files with its lines ({@link
 * DeclaredFunction#template()}); the decision waits for the whole tree, so that a cached finding is decided again when
 * another file starts to call it. A name is used where it occurs in the tree's C, C++ and CUDA files, outside comments
 * and literals, as anything but a declaration ({@link #declaration}: a name after its return type, qualified or not,
 * as {@code void writeToPPM(...)} in its class and {@code void CTensor<T>::writeToPPM(...)} outside it, in this file
 * or in a copy of it in another folder), inactive {@code #if} branches included. A use counts where it lies outside
 * every definition (file scope, a macro, a file the build does not compile) or inside a definition whose own name is
 * live, to a fixed point from the roots: {@code main} and the other entry points a platform calls. A template that an
 * explicit instantiation names ({@code template class CTensor<float>;} instantiates every member, {@code template void
 * scale<float>(float *, int);} one function) is compiled: in a program that no live code calls it, it is a function
 * that never runs ({@link NotCalledNote}); in a library it is interface and keeps its level. A name shared with
 * another function (an overload, another class's member, a copy) is live when any of them is: this only errs towards
 * keeping a level. A function whose name no file writes, not even where it is defined, is made by a macro (a test
 * framework's {@code TEST_CASE}) that names it where it is registered too: it counts as running.
 */
final class UnreachableCode {
    /** The finding property the front end sets: "name owner kind" (owner "-" for none; kind "t" template, "f" not). */
    static final String PROPERTY = "definition";

    /** The largest file read for names (as the front end's largest header). */
    private static final long MAX_BYTES = 64L << 20;

    /** An explicit instantiation of a class template: {@code template class X<...>}, {@code extern template struct}. */
    private static final Pattern EXPLICIT = Pattern.compile("\\btemplate\\s+(?:class|struct)\\s+([A-Za-z_]\\w*)\\s*<");

    /** Functions a platform or a host program calls by name: programs start there. */
    private static final Pattern ENTRY = Pattern.compile(
            "main|wmain|_tmain|WinMain|wWinMain|DllMain|mexFunction|PyInit_\\w+|Java_\\w+|LLVMFuzzerTestOneInput");

    /**
     * Functions a framework calls by a name it builds at run time, which run without making a tree a program: Qt's
     * {@code QMetaObject::connectSlotsByName} connects a slot {@code on_<object>_<signal>} (round I of session 50: a
     * viewer's file reader, called from {@code on_open_btn_clicked}, was noted as never run).
     */
    private static final Pattern BY_NAME = Pattern.compile("on_[A-Za-z0-9]\\w*_[a-z]\\w*");

    private UnreachableCode() {}

    /** The property value of a definition: its name, its class template or "-", its kind. */
    static String property(String name, String owner, boolean template) {
        return name + " " + (owner == null ? "-" : owner) + " " + (template ? "t" : "f");
    }

    /** The definitions of a file Clang read, as its reporter marks their findings. */
    static List<Reporter.Definition> marks(List<ClangDefinitions.Definition> definitions) {
        List<Reporter.Definition> out = new ArrayList<>();
        for (var d : definitions)
            out.add(new Reporter.Definition(d.startLine(), d.endLine(), property(d.name(), d.owner(), d.template())));
        return out;
    }

    /** The definitions of the file {@code rel}, as the scan's facts hold them (cached with the file). */
    static List<DeclaredFunction> declared(String rel, List<ClangDefinitions.Definition> definitions) {
        List<DeclaredFunction> out = new ArrayList<>();
        for (var d : definitions)
            out.add(
                    d.template()
                            ? DeclaredFunction.templatePattern(rel, d.name(), d.owner(), d.startLine(), d.endLine())
                            : DeclaredFunction.definition(rel, d.name(), d.startLine(), d.endLine()));
        return out;
    }

    /**
     * The files whose names decide, by real path, with the path the scan reports them by: the scan's and those its
     * includes reached, each once, and only what the scan may read (a link out of the tree names nothing in it).
     */
    static Map<Path, String> tree(dev.numlint.spi.ScanContext ctx, Collection<Path> listed, Set<Path> included) {
        Map<Path, String> tree = new TreeMap<>();
        java.util.stream.Stream.concat(listed.stream(), included.stream()).forEach(f -> {
            Path real = ctx.boundary().readable(f);
            if (real != null) tree.putIfAbsent(real, ctx.relativize(real));
        });
        return tree;
    }

    /**
     * {@code findings} with the property removed, and those in code the build's programs never run as notes.
     * {@code tree}: the scan's C, C++ and CUDA files by real path, with their reported paths (null: the CUDA analyzer
     * did not run; nothing is decided); {@code functions}: the scan's declared functions, the definitions among them
     * with their lines.
     */
    static List<Finding> review(List<Finding> findings, Map<Path, String> tree, List<DeclaredFunction> functions) {
        boolean marked = false;
        for (Finding f : findings) marked |= f.properties().get(PROPERTY) instanceof String;
        if (!marked) return findings;
        boolean program = program(functions);
        Set<String> explicit = new HashSet<>();
        Set<String> live = tree == null ? null : live(tree, functions, findings, program, explicit);
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            if (!(f.properties().get(PROPERTY) instanceof String s)) {
                out.add(f);
                continue;
            }
            Finding.Builder b = f.toBuilder().removeProperty(PROPERTY);
            String[] part = s.split(" ");
            if (live != null && part.length == 3 && !live.contains(part[0]) && f.level() != Level.NOTE) {
                String owner = "-".equals(part[1]) ? null : part[1];
                boolean compiled = part[2].equals("f") || explicit.contains(part[0]) || explicit.contains(owner);
                if (!compiled) NotCompiledNote.apply(b, uninstantiated(part[0], owner));
                else if (program) NotCalledNote.apply(b, uncalled(part[0]));
            }
            out.add(b.build());
        }
        return out;
    }

    /** Whether the tree holds a program: the build compiles a main (or another entry point) the tree defines. */
    static boolean program(List<DeclaredFunction> functions) {
        return functions.stream()
                .anyMatch(
                        d -> "".equals(d.template()) && ENTRY.matcher(d.name()).matches());
    }

    /** Why the pattern {@code name} (of class template {@code owner}, or none) is never instantiated. */
    private static String uninstantiated(String name, String owner) {
        return owner == null
                ? "function template '" + name + "': no code of the scanned tree that runs calls it, so the build"
                        + " never instantiates it"
                : "member '" + name + "' of class template '" + owner + "': no code of the scanned tree that runs"
                        + " names it, so no specialization of the class instantiates it";
    }

    /** Why the function {@code name} never runs. */
    private static String uncalled(String name) {
        return "function '" + name + "': no code of the scanned tree that runs from main calls it";
    }

    /** A use of a name: the file it is in (as reported) and its line. */
    private record Use(String file, int line) {}

    /** A file's definitions by first line, for the innermost one that holds a line. */
    private static final class Definitions {
        private final DeclaredFunction[] byStart;

        Definitions(List<DeclaredFunction> list) {
            byStart = list.toArray(new DeclaredFunction[0]);
            java.util.Arrays.sort(byStart, java.util.Comparator.comparingInt(DeclaredFunction::line));
        }

        /** The name of the innermost definition that holds {@code line}, or null. */
        String innermost(int line) {
            int lo = 0;
            int hi = byStart.length - 1;
            int last = -1; // the last definition that starts at or before the line
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (byStart[mid].line() <= line) {
                    last = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            // the nearest start that holds it is the innermost (definitions nest, they do not overlap); a few back
            for (int i = last, seen = 0; i >= 0 && seen < 64; i--, seen++) {
                if (byStart[i].endLine() >= line) return byStart[i].name();
            }
            return null;
        }
    }

    /**
     * The names of the functions that code which runs names: a use outside every definition (at file scope, in a
     * macro, in a file the build does not compile) makes its name live, and so does a use inside a definition whose
     * own name is live, to a fixed point from the entry points; in a tree that is no {@code program} (a library),
     * every function that is no template and every template an explicit instantiation names is a root too. Fills
     * {@code explicit} with the names of the class templates and function templates explicit instantiations name.
     */
    private static Set<String> live(
            Map<Path, String> tree,
            List<DeclaredFunction> functions,
            List<Finding> findings,
            boolean program,
            Set<String> explicit) {
        Map<String, List<DeclaredFunction>> defined = new HashMap<>(); // by file
        Set<String> names = new HashSet<>();
        Set<String> live = new HashSet<>();
        for (DeclaredFunction d : functions) {
            if (d.template() == null) continue;
            defined.computeIfAbsent(d.file(), k -> new ArrayList<>()).add(d);
            names.add(d.name());
            if ("".equals(d.template())
                    && (!program
                            || ENTRY.matcher(d.name()).matches()
                            || BY_NAME.matcher(d.name()).matches())) live.add(d.name());
        }
        for (Finding f : findings) {
            if (f.properties().get(PROPERTY) instanceof String s) names.add(s.split(" ", 2)[0]);
        }
        Map<String, List<Use>> uses = new HashMap<>();
        Set<String> written = new HashSet<>();
        List<String[]> pastes = new ArrayList<>(); // {prefix, suffix} a macro pastes to a parameter
        for (Map.Entry<Path, String> e : tree.entrySet()) {
            byte[] b;
            try {
                b = Files.size(e.getKey()) > MAX_BYTES ? null : Files.readAllBytes(e.getKey());
            } catch (IOException | RuntimeException x) {
                b = null;
            }
            // not read: every name may be used there
            if (b == null) return names;
            String file = e.getValue();
            words(
                    b,
                    names,
                    (w, line) -> uses.computeIfAbsent(w, k -> new ArrayList<>()).add(new Use(file, line)),
                    explicit::add,
                    written::add);
            String text = new String(b, java.nio.charset.StandardCharsets.ISO_8859_1);
            if (text.indexOf("##") >= 0) pasted(text, pastes);
            if (text.indexOf("template") < 0) continue;
            Matcher m = EXPLICIT.matcher(text);
            while (m.find()) explicit.add(m.group(1));
        }
        // a function whose name the tree never writes, not even where it is defined, is made by a macro (a test
        // framework's TEST_CASE body, a registration macro) that also names it where it is called or registered:
        // its uses cannot be seen, so it counts as running (session 49: calls from doctest test cases were noted as
        // never run)
        for (DeclaredFunction d : functions) {
            if (d.template() != null && !written.contains(d.name())) live.add(d.name());
            // a name a macro pastes together (write_##type: babl's icc_write, session 64 round I) is called where the
            // macro is, under no name a file writes there: it counts as running
            for (String[] p : pastes) {
                if (d.template() != null
                        && d.name().length() > p[0].length() + p[1].length()
                        && d.name().startsWith(p[0])
                        && d.name().endsWith(p[1])) live.add(d.name());
            }
        }
        if (!program) {
            for (DeclaredFunction d : functions) {
                if (d.template() == null || d.template().isEmpty()) continue;
                if (explicit.contains(d.template()) || explicit.contains(d.name())) live.add(d.name());
            }
        }
        // each use, with the definition it lies in (null: code that is no definition); a used name's enclosing
        // definitions make it live once one of them is
        Map<String, Set<String>> usedBy = new HashMap<>(); // enclosing definition's name -> names used in it
        Map<String, Definitions> byFile = new HashMap<>();
        defined.forEach((file, list) -> byFile.put(file, new Definitions(list)));
        java.util.ArrayDeque<String> work = new java.util.ArrayDeque<>(live);
        uses.forEach((w, list) -> {
            for (Use u : list) {
                Definitions d = byFile.get(u.file());
                String in = d == null ? null : d.innermost(u.line());
                if (in == null) {
                    if (live.add(w)) work.add(w);
                } else {
                    usedBy.computeIfAbsent(in, k -> new HashSet<>()).add(w);
                }
            }
        });
        while (!work.isEmpty()) {
            for (String w : usedBy.getOrDefault(work.poll(), Set.of())) {
                if (live.add(w)) work.add(w);
            }
        }
        return live;
    }

    private static final Pattern DEFINE =
            Pattern.compile("(?m)^[ \\t]*#[ \\t]*define[ \\t]+\\w+\\(([^)]*)\\)((?:[^\\n]*\\\\\\n)*[^\\n]*)");
    private static final Pattern PASTE = Pattern.compile("(\\w+)?\\s*##\\s*(\\w+)");

    /**
     * The {prefix, suffix} pairs function-like macros of {@code text} paste to one of their parameters
     * ({@code #define icc_write(type, ...) write_##type(...)}: {"write_", ""}); a paste of two parameters or of no
     * parameter, or a fragment shorter than 3 characters, says nothing of a name and is left out.
     */
    static void pasted(String text, List<String[]> into) {
        Matcher d = DEFINE.matcher(text);
        while (d.find()) {
            Set<String> params = new HashSet<>();
            for (String p : d.group(1).split(",")) params.add(p.trim());
            Matcher m = PASTE.matcher(d.group(2));
            while (m.find()) {
                String left = m.group(1), right = m.group(2);
                boolean l = left != null && params.contains(left), r = params.contains(right);
                if (r && !l && left != null && left.length() >= 3) into.add(new String[] {left, ""});
                if (l && !r && right.length() >= 3) into.add(new String[] {"", right});
            }
        }
    }

    /**
     * Adds the uses in {@code b} of each of {@code names}: occurrences as a whole identifier, outside comments and
     * string and character literals (a comment that names a helper calls nothing), that are no {@link #declaration}.
     */
    static void words(byte[] b, Set<String> names, Map<String, Integer> uses) {
        words(b, names, (w, line) -> uses.merge(w, 1, Integer::sum), w -> {}, w -> {});
    }

    /**
     * Each use in {@code b} of one of {@code names}, with its line ({@link #words(byte[], Set, Map)}), each name an
     * explicit instantiation names ({@code explicit}: no use, it compiles the template), and each name written in the
     * code at all, a declaration too ({@code written}).
     */
    static void words(
            byte[] b,
            Set<String> names,
            java.util.function.ObjIntConsumer<String> use,
            java.util.function.Consumer<String> explicit,
            java.util.function.Consumer<String> written) {
        List<int[]> strings = new ArrayList<>();
        byte[] code = CodeOnly.of(b, strings);
        // a string that is a function's name exactly looks it up by name: cuModuleGetFunction(&k, m, "scale"),
        // dlsym(h, "scale"), a registry of callbacks
        for (int[] span : strings) {
            int from = span[0] + 1;
            int to = span[1] - 1;
            if (to - from < 1 || to > b.length || b[to] != '"') continue;
            String w = new String(b, from, to - from, java.nio.charset.StandardCharsets.ISO_8859_1);
            if (names.contains(w)) use.accept(w, lineOf(b, span[0]));
        }
        int n = code.length;
        int line = 1;
        int i = 0;
        // braces and parentheses open at i: a name after a comma at file scope is the next declarator of a list
        int braces = 0;
        int parens = 0;
        while (i < n) {
            int c = code[i] & 0xff;
            if (!start(c)) {
                if (c == '\n') line++;
                else if (c == '{' && !linkage(code, i)) braces++; // extern "C" { keeps its body at file scope
                else if (c == '}') braces = Math.max(0, braces - 1);
                else if (c == '(') parens++;
                else if (c == ')') parens = Math.max(0, parens - 1);
                i++;
                continue;
            }
            int j = i + 1;
            while (j < n && part(code[j] & 0xff)) j++;
            // an identifier after a digit is part of a number (1e5f), not a name
            if (i == 0 || !part(code[i - 1] & 0xff)) {
                String w = new String(code, i, j - i, java.nio.charset.StandardCharsets.ISO_8859_1);
                if (names.contains(w)) {
                    written.accept(w);
                    if (explicitInstantiation(code, i)) explicit.accept(w);
                    else if (!declaration(code, i) && !(braces == 0 && parens == 0 && nextDeclarator(code, i)))
                        use.accept(w, line);
                }
            }
            i = j;
        }
    }

    /** Words after which a name is used, not declared ({@code return f(x)}, {@code this->template f<T>()}). */
    private static final Set<String> BEFORE_USE = Set.of(
            "return",
            "else",
            "case",
            "throw",
            "new",
            "delete",
            "co_return",
            "co_yield",
            "co_await",
            "sizeof",
            "do",
            "template",
            "and",
            "or",
            "not",
            "xor",
            "goto");

    /**
     * Whether the name at {@code at} of {@code code} (comments blanked) is declared there: after its qualifier
     * ({@code CTensor<T>::}, {@code ns::}), if any, comes a type (a word that is no keyword of an expression, a
     * {@code >} that closes template arguments, or a {@code *} or {@code &} after one of them). A member access
     * ({@code .}, {@code ->}), an operator or punctuation before it makes it a use.
     */
    static boolean declaration(byte[] code, int at) {
        int k = back(code, at);
        // the qualifier: ns::, CTensor<T>::, A::B<C>::
        while (k >= 1 && code[k] == ':' && code[k - 1] == ':') {
            k = back(code, k - 1);
            if (k >= 0 && code[k] == '>') {
                k = less(code, k);
                if (k < 0) return false;
                k = back(code, k);
            }
            if (k < 0 || !part(code[k] & 0xff)) return false;
            while (k >= 0 && part(code[k] & 0xff)) k--;
            k = back(code, k + 1);
        }
        if (k < 0) return false;
        int c = code[k] & 0xff;
        if (c == '&' && k > 0 && code[k - 1] == '&') return false; // a && f(x): a logical and
        if (c == '*' || c == '&') {
            // a pointer or reference result (T *data(), const T &at(int)); &C::f, a * f(x): uses
            while (k >= 0 && (code[k] == '*' || code[k] == '&')) k = back(code, k);
            if (k < 0) return false;
            c = code[k] & 0xff;
            if (c == '>') return k > 0 && code[k - 1] != '-' && less(code, k) >= 0;
            // T *f(...) declares after a statement's start; s = a * f(x) multiplies
            return type(code, k) && startsDeclaration(code, k);
        }
        if (c == '>') return k > 0 && code[k - 1] != '-' && less(code, k) >= 0;
        return type(code, k);
    }

    /**
     * Whether the name at {@code at}, outside every brace and parenthesis, follows a comma (past a pointer's or
     * reference's {@code *} and {@code &}): the next declarator of a declaration list, {@code extern void
     * save_tab(tabstruct *tab), write_body(tabstruct *tab, PIXTYPE *ptr, size_t size);} (session 87 round AQ: an
     * astronomy simulator's FITS library declares its functions so, and its functions that nothing calls were taken as
     * called there). At file scope a comma separates declarators, never operands.
     */
    private static boolean linkage(byte[] code, int brace) {
        int k = back(code, brace);
        return k >= 5 && wordBefore(code, k).equals("extern");
    }

    private static boolean nextDeclarator(byte[] code, int at) {
        int k = back(code, at);
        while (k >= 0 && (code[k] == '*' || code[k] == '&')) k = back(code, k);
        return k >= 0 && code[k] == ',';
    }

    /** Whether the word ending at {@code k} can be a type: a name (no number) that is no keyword of an expression. */
    private static boolean type(byte[] code, int k) {
        if (!part(code[k] & 0xff)) return false;
        String w = wordBefore(code, k);
        return !Character.isDigit(w.charAt(0)) && !BEFORE_USE.contains(w);
    }

    /**
     * Whether the word ending at {@code k} can start a declaration: it comes first in a statement or a member list
     * (after {@code ;}, a brace, an access specifier's colon, a template's parameter list or the file's start), or
     * after a word ({@code const T}, {@code static float}) or a qualifier ({@code std::vector}).
     */
    private static boolean startsDeclaration(byte[] code, int k) {
        int s = k;
        while (s > 0 && part(code[s - 1] & 0xff)) s--;
        int j = back(code, s);
        if (j < 0) return true;
        int c = code[j] & 0xff;
        if (part(c)) return !BEFORE_USE.contains(wordBefore(code, j));
        return c == ';' || c == '{' || c == '}' || c == ':' || c == '>';
    }

    /** An explicit instantiation: {@code template void scale<float>(float *, int);}, {@code extern template}. */
    private static final Pattern EXPLICIT_STATEMENT = Pattern.compile("^(?:extern\\s+)?template\\s*[^<\\s]");

    /**
     * Whether the statement the name at {@code at} lies in is an explicit instantiation (it instantiates the template
     * it names: a use).
     */
    private static boolean explicitInstantiation(byte[] code, int at) {
        int s = at;
        while (s > 0 && at - s < 1000 && code[s - 1] != ';' && code[s - 1] != '{' && code[s - 1] != '}') s--;
        while (s < at && Character.isWhitespace(code[s])) s++;
        if (!startsWith(code, s, "template") && !startsWith(code, s, "extern")) return false;
        String statement = new String(code, s, at - s, java.nio.charset.StandardCharsets.ISO_8859_1);
        return EXPLICIT_STATEMENT.matcher(statement).find();
    }

    /** The line of offset {@code at} of {@code b}. */
    private static int lineOf(byte[] b, int at) {
        int line = 1;
        for (int i = 0; i < at && i < b.length; i++) if (b[i] == '\n') line++;
        return line;
    }

    private static boolean startsWith(byte[] code, int at, String word) {
        if (at + word.length() > code.length) return false;
        for (int i = 0; i < word.length(); i++) {
            if (code[at + i] != word.charAt(i)) return false;
        }
        return true;
    }

    /** The index of the last character before {@code i} that is no white space, or -1. */
    private static int back(byte[] code, int i) {
        int k = i - 1;
        while (k >= 0) {
            if (code[k] == '\n' && k > 0) {
                // a preprocessor directive above is no token of the code ('#ifdef PNG_READ_TRANSFORMS_SUPPORTED' over
                // 'png_init_read_transformations(png_ptr);' made the call a declaration with a return type)
                int s = lineStart(code, k - 1);
                int j = s;
                while (j < k && (code[j] == ' ' || code[j] == '\t')) j++;
                if (j < k && code[j] == '#') {
                    k = s - 1;
                    continue;
                }
            }
            if (!Character.isWhitespace(code[k])) break;
            k--;
        }
        return k;
    }

    /** The start of the logical line holding {@code k}: its continuation lines ({@code \} at their end) included. */
    private static int lineStart(byte[] code, int k) {
        int s = k;
        while (true) {
            while (s > 0 && code[s - 1] != '\n') s--;
            int e = s - 2; // the previous line's last character (before its \n, and a \r)
            if (e >= 0 && code[e] == '\r') e--;
            if (e < 0 || code[e] != '\\') return s;
            s = e;
        }
    }

    /** The word that ends at {@code k}. */
    private static String wordBefore(byte[] code, int k) {
        int s = k;
        while (s > 0 && part(code[s - 1] & 0xff)) s--;
        return new String(code, s, k - s + 1, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /**
     * The index of the {@code <} that the {@code >} at {@code k} closes, within one statement and 512 characters, or
     * -1 (then it is a comparison).
     */
    private static int less(byte[] code, int k) {
        int depth = 0;
        for (int i = k; i >= 0 && k - i < 512; i--) {
            byte c = code[i];
            if (c == '>') depth++;
            else if (c == '<' && --depth == 0) return i;
            // what template arguments do not hold: a statement's end, a call's or an expression's operators
            else if (c == ';'
                    || c == '{'
                    || c == '}'
                    || c == '('
                    || c == ')'
                    || c == '='
                    || c == '!'
                    || c == '?'
                    || c == '+'
                    || c == '/'
                    || c == '%'
                    || c == '|'
                    || c == '^'
                    || c == '&' && i > 0 && code[i - 1] == '&') return -1;
        }
        return -1;
    }

    private static boolean start(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80;
    }

    private static boolean part(int c) {
        return start(c) || c >= '0' && c <= '9';
    }
}
