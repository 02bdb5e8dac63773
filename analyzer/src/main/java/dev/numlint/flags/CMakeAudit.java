package dev.numlint.flags;

import dev.numlint.model.Location;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Evaluates a CMakeLists.txt or *.cmake file far enough to know which compiler flags its targets get: variables
 * ({@code set}, {@code unset}, {@code string(APPEND|PREPEND|REPLACE)}, {@code list(APPEND|PREPEND|REMOVE_ITEM)}),
 * the flag variables ({@code CMAKE_CUDA_FLAGS}, {@code CMAKE_CXX_FLAGS}, {@code CMAKE_C_FLAGS} and their
 * per-configuration variants, FindCUDA's {@code CUDA_NVCC_FLAGS}), {@code add_compile_options},
 * {@code target_compile_options} with generator expressions, {@code add_definitions}, FindCUDA's
 * {@code cuda_add_executable(... OPTIONS ...)}, target sources and CUDA architectures, and {@code include()} of
 * local files. Conditions are not evaluated: both branches of an {@code if()} are taken, a {@code set()} inside a
 * branch adds to the previous value instead of replacing it, and flags written under a condition are marked
 * conditional.
 */
final class CMakeAudit {
    private static final List<String> CONFIG_SUFFIXES = List.of("", "_RELEASE", "_DEBUG", "_RELWITHDEBINFO",
            "_MINSIZEREL");
    private long maxBytes = dev.numlint.spi.ScanContext.defaultMaxFileSize(dev.numlint.model.Layer.BUILD_FLAGS);
    private static final Set<String> BLOCK_OPEN = Set.of("if", "foreach", "while", "function", "macro", "block");
    private static final Set<String> BLOCK_CLOSE = Set.of("endif", "endforeach", "endwhile", "endfunction", "endmacro",
            "endblock");
    private static final Set<String> TARGET_KEYWORDS = Set.of("WIN32", "MACOSX_BUNDLE", "EXCLUDE_FROM_ALL", "STATIC",
            "SHARED", "MODULE", "OBJECT", "INTERFACE", "PUBLIC", "PRIVATE", "SYSTEM", "BEFORE", "AFTER");

    /** Result of one build file. */
    static final class Out {
        /** Directory-wide flags (all targets of this directory). */
        final List<FlagTok> directory = new ArrayList<>();
        /** Additional flags per target. */
        final Map<String, List<FlagTok>> targets = new LinkedHashMap<>();
        /** Additional flags per source file (set_source_files_properties). */
        final Map<Path, List<FlagTok>> sourceFlags = new LinkedHashMap<>();
        /** Source files per target (absolute, normalized). */
        final Map<String, List<Path>> sources = new LinkedHashMap<>();
        /** compute_XX from CMAKE_CUDA_ARCHITECTURES, per target from CUDA_ARCHITECTURES ("" = directory). */
        final Map<String, String> cudaArch = new HashMap<>();
        final List<String[]> problems = new ArrayList<>(); // {file, line, message}
        /** Files read (the build file and what it includes). */
        final List<Path> read = new ArrayList<>();
    }

    private record Block(String name, String condition, int fileIndex, int line) {
    }

    private record CondRange(int fileIndex, int from, int to, String condition) {
    }

    private final Function<Path, String> relativize;
    private final List<Path> fileTable = new ArrayList<>();
    private final Map<String, PosText> vars = new HashMap<>();
    private final Deque<Block> blocks = new ArrayDeque<>();
    private final List<CondRange> condRanges = new ArrayList<>();
    private final Out out = new Out();
    private Path currentDir;
    private int includeDepth;

    private CMakeAudit(Function<Path, String> relativize) {
        this.relativize = relativize;
    }

    static Out audit(Path file, Function<Path, String> relativize) {
        return audit(file, relativize, dev.numlint.spi.ScanContext.defaultMaxFileSize(dev.numlint.model.Layer.BUILD_FLAGS));
    }

    /** As above, with the build-flags layer's max-file-size for the file and every file it includes. */
    static Out audit(Path file, Function<Path, String> relativize, long maxBytes) {
        CMakeAudit a = new CMakeAudit(relativize);
        a.maxBytes = maxBytes;
        a.currentDir = file.getParent();
        String dir = a.currentDir.toString();
        for (String v : List.of("CMAKE_CURRENT_SOURCE_DIR", "CMAKE_CURRENT_LIST_DIR", "CMAKE_SOURCE_DIR",
                "PROJECT_SOURCE_DIR")) {
            a.vars.put(v, PosText.of(dir, -1, 0, 0));
        }
        a.runFile(file);
        a.finish();
        return a.out;
    }

    private void runFile(Path file) {
        String text;
        try {
            long size = Files.size(file);
            if (size > maxBytes) {
                out.problems.add(new String[] {relativize.apply(file), "0", "ERROR", "not analyzed: the file has "
                        + size + " bytes, more than max-file-size for build-flags (" + maxBytes + ")"});
                return;
            }
            byte[] bytes = Files.readAllBytes(file);
            try {
                text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
            } catch (java.nio.charset.CharacterCodingException e) {
                text = new String(bytes, StandardCharsets.ISO_8859_1); // legacy encodings: flags are ASCII
            }
        } catch (IOException | RuntimeException e) {
            out.problems.add(new String[] {relativize.apply(file), "0", "ERROR", "cannot read: " + e.getMessage()});
            return;
        }
        int fi = fileTable.size();
        fileTable.add(file);
        out.read.add(file);
        if (text.indexOf('\0') >= 0) {
            out.problems.add(new String[] {relativize.apply(file), "0", "ERROR", "binary content, not a CMake file"});
            return;
        }
        CMakeLexer lx = CMakeLexer.lex(text, fi);
        for (CMakeLexer.Problem p : lx.problems) {
            out.problems.add(new String[] {relativize.apply(file), Integer.toString(p.line()), "WARNING", p.message()});
        }
        for (CMakeLexer.Command c : lx.commands) {
            try {
                command(c, fi);
            } catch (RuntimeException e) {
                out.problems.add(new String[] {relativize.apply(file), Integer.toString(c.line()), "WARNING",
                        "could not evaluate " + c.name() + "(): " + e});
            }
        }
    }

    // ---------------------------------------------------------------- evaluation of arguments

    /** Expands ${VAR}, $ENV{VAR}, $CACHE{VAR} (nested). Escaped characters are never syntax. */
    private PosText expand(PosText t) {
        if (t.text.indexOf('$') < 0) return t;
        PosText.Builder b = new PosText.Builder();
        int i = 0;
        int n = t.length();
        while (i < n) {
            char c = t.charAt(i);
            if (c == '$' && !t.literalAt(i)) {
                int open = -1;
                boolean env = false;
                if (i + 1 < n && t.charAt(i + 1) == '{') open = i + 1;
                else if (t.text.startsWith("ENV{", i + 1)) {
                    open = i + 4;
                    env = true;
                } else if (t.text.startsWith("CACHE{", i + 1)) open = i + 6;
                if (open >= 0) {
                    int close = matchBrace(t, open);
                    if (close > 0) {
                        PosText name = expand(t.sub(open + 1, close));
                        if (!env) {
                            PosText v = vars.get(name.text);
                            if (v != null) b.append(v);
                        }
                        i = close + 1;
                        continue;
                    }
                }
            }
            b.append(c, t.fileAt(i), t.lineAt(i), t.colAt(i), t.literalAt(i));
            i++;
        }
        return b.build();
    }

    private static int matchBrace(PosText t, int open) {
        int depth = 0;
        for (int i = open; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '{') depth++;
            else if (c == '}' && --depth == 0) return i;
        }
        return -1;
    }

    /** The argument list as CMake passes it to the command: unquoted arguments are split at ';'. */
    private List<PosText> values(List<CMakeLexer.Arg> args) {
        List<PosText> out = new ArrayList<>();
        for (CMakeLexer.Arg a : args) {
            switch (a.kind()) {
                case BRACKET -> out.add(a.text());
                case QUOTED -> out.add(expand(a.text()));
                case UNQUOTED -> out.addAll(expand(a.text()).splitList());
                default -> out.add(a.text());
            }
        }
        return out;
    }

    private static PosText join(List<PosText> items, int from, int to, char sep) {
        PosText.Builder b = new PosText.Builder();
        for (int i = from; i < to; i++) {
            if (i > from && sep != '\0') b.appendSynthetic(sep);
            b.append(items.get(i));
        }
        return b.build();
    }

    private String currentCondition() {
        for (Block b : blocks) {
            if (b.condition() != null) return b.condition();
        }
        return null;
    }

    // ---------------------------------------------------------------- commands

    private void command(CMakeLexer.Command c, int fi) {
        String name = c.name().toLowerCase(Locale.ROOT);
        if (BLOCK_OPEN.contains(name)) {
            blocks.push(new Block(name, name.equals("block") ? null : describe(c, fi), fi, c.line()));
            return;
        }
        if (name.equals("else") || name.equals("elseif")) {
            // both branches are taken; each has its own condition (so one cannot cancel the other's flags)
            if (!blocks.isEmpty() && blocks.peek().condition() != null) {
                Block b = blocks.pop();
                condRanges.add(new CondRange(b.fileIndex(), b.line(), c.line(), b.condition()));
                String first = b.condition().replaceFirst("^(else of |elseif\\(.*\\) after )", "");
                blocks.push(new Block(b.name(), (name.equals("else") ? "else of " : describe(c, fi) + " after ")
                        + first, fi, c.line()));
            }
            return;
        }
        if (BLOCK_CLOSE.contains(name)) {
            if (!blocks.isEmpty()) {
                Block b = blocks.pop();
                if (b.condition() != null) condRanges.add(new CondRange(b.fileIndex(), b.line(), c.line(), b.condition()));
            }
            return;
        }
        List<PosText> v = values(c.args());
        switch (name) {
            case "set" -> set(v);
            case "unset" -> {
                if (!v.isEmpty()) vars.remove(v.get(0).text);
            }
            case "string" -> string(v);
            case "list" -> list(v);
            case "add_compile_options" -> compileOptions(v, 0, out.directory, "add_compile_options");
            case "add_definitions" -> {
                for (PosText p : v) toks(p, FlagTok.Lang.ANY, null, "add_definitions", out.directory);
            }
            case "target_compile_options" -> {
                if (v.isEmpty()) return;
                String t = v.get(0).text.isEmpty() ? "(unresolved target)" : v.get(0).text;
                compileOptions(v, 1, out.targets.computeIfAbsent(t, k -> new ArrayList<>()),
                        "target_compile_options(" + t + ")");
            }
            case "add_executable", "add_library", "cuda_add_executable", "cuda_add_library", "target_sources" ->
                    target(name, v);
            case "set_target_properties" -> targetProperties(v);
            case "set_source_files_properties" -> sourceProperties(v);
            case "set_property" -> setProperty(v);
            case "include" -> include(v);
            default -> {
                // other commands do not set compiler flags
            }
        }
    }

    /** "if(WITH_FAST_MATH) at CMakeLists.txt:12" */
    private String describe(CMakeLexer.Command c, int fi) {
        StringBuilder sb = new StringBuilder(c.name()).append('(');
        for (CMakeLexer.Arg a : c.args()) {
            if (sb.length() > 60) {
                sb.append(" ...");
                break;
            }
            char last = sb.charAt(sb.length() - 1);
            if (last != '(' && a.kind() != CMakeLexer.Kind.CLOSE_PAREN) sb.append(' ');
            sb.append(a.kind() == CMakeLexer.Kind.QUOTED ? "\"" + a.text() + "\"" : a.text().text);
        }
        return sb.append(") at ").append(relativize.apply(fileTable.get(fi))).append(':').append(c.line()).toString();
    }

    private void set(List<PosText> v) {
        if (v.isEmpty()) return;
        String var = v.get(0).text;
        int end = v.size();
        boolean cache = false;
        boolean force = false;
        for (int i = 1; i < v.size(); i++) {
            String s = v.get(i).text;
            if (s.equals("CACHE")) {
                end = Math.min(end, i);
                cache = true;
            } else if (s.equals("PARENT_SCOPE")) {
                end = Math.min(end, i);
            } else if (s.equals("FORCE") && cache) {
                force = true;
            }
        }
        if (end <= 1) {
            if (!cache) vars.remove(var);
            return;
        }
        if (cache && !force && vars.containsKey(var)) return;
        assign(var, join(v, 1, end, ';'));
    }

    /** Assignment; inside a conditional block the new value adds to the old one (both branches may run). */
    private void assign(String var, PosText value) {
        PosText old = vars.get(var);
        if (currentCondition() != null && old != null && !old.text.isEmpty() && !value.text.contains(old.text)) {
            PosText.Builder b = new PosText.Builder().append(old);
            b.appendSynthetic(isStringFlagVar(var) ? ' ' : ';');
            b.append(value);
            value = b.build();
        }
        vars.put(var, value);
    }

    private static boolean isStringFlagVar(String var) {
        return var.startsWith("CMAKE_") && var.contains("_FLAGS");
    }

    private void string(List<PosText> v) {
        if (v.size() < 2) return;
        String op = v.get(0).text;
        String var = v.get(1).text;
        PosText old = vars.getOrDefault(var, PosText.EMPTY);
        switch (op) {
            case "APPEND" -> vars.put(var, old.concat(join(v, 2, v.size(), '\0')));
            case "PREPEND" -> vars.put(var, join(v, 2, v.size(), '\0').concat(old));
            case "REPLACE" -> {
                if (v.size() < 4) return;
                String match = v.get(1).text;
                PosText repl = v.get(2);
                String outVar = v.get(3).text;
                PosText input = join(v, 4, v.size(), '\0');
                if (match.isEmpty()) return;
                PosText.Builder b = new PosText.Builder();
                int i = 0;
                while (i < input.length()) {
                    if (input.text.startsWith(match, i)) {
                        b.append(repl);
                        i += match.length();
                    } else {
                        b.append(input, i);
                        i++;
                    }
                }
                vars.put(outVar, b.build());
            }
            default -> {
                // other string() operations do not build flags
            }
        }
    }

    private void list(List<PosText> v) {
        if (v.size() < 2) return;
        String op = v.get(0).text;
        String var = v.get(1).text;
        PosText old = vars.getOrDefault(var, PosText.EMPTY);
        switch (op) {
            case "APPEND" -> {
                if (v.size() < 3) return;
                PosText add = join(v, 2, v.size(), ';');
                vars.put(var, old.text.isEmpty() ? add : old.concat(PosText.of(";", -1, 0, 0)).concat(add));
            }
            case "PREPEND" -> {
                if (v.size() < 3) return;
                PosText add = join(v, 2, v.size(), ';');
                vars.put(var, old.text.isEmpty() ? add : add.concat(PosText.of(";", -1, 0, 0)).concat(old));
            }
            case "REMOVE_ITEM" -> {
                if (currentCondition() != null) return; // may not run: keep the items (they may apply)
                Set<String> remove = new java.util.HashSet<>();
                for (int i = 2; i < v.size(); i++) remove.add(v.get(i).text);
                List<PosText> keep = new ArrayList<>();
                for (PosText p : old.splitList()) {
                    if (!remove.contains(p.text)) keep.add(p);
                }
                vars.put(var, join(keep, 0, keep.size(), ';'));
            }
            default -> {
                // other list() operations do not build flags
            }
        }
    }

    private void compileOptions(List<PosText> v, int from, List<FlagTok> into, String via) {
        for (int i = from; i < v.size(); i++) {
            PosText p = v.get(i);
            if (TARGET_KEYWORDS.contains(p.text)) continue;
            for (GenexEval.Piece piece : GenexEval.eval(p, currentCondition())) {
                PosText t = piece.text();
                if (t.text.startsWith("SHELL:")) {
                    toks(t.sub(6), piece.lang(), piece.condition(), via, into);
                } else {
                    // one list element is one argument; a space inside stays part of it
                    add(into, t.trim(), piece.lang(), piece.condition(), via);
                }
            }
        }
    }

    private void target(String cmd, List<PosText> v) {
        if (v.isEmpty()) return;
        String t = v.get(0).text;
        if (v.size() > 1 && (v.get(1).text.equals("IMPORTED") || v.get(1).text.equals("ALIAS"))) return;
        List<Path> srcs = out.sources.computeIfAbsent(t, k -> new ArrayList<>());
        boolean options = false;
        String cfg = null;
        for (int i = 1; i < v.size(); i++) {
            String s = v.get(i).text;
            if (cmd.startsWith("cuda_add_") && s.equals("OPTIONS")) {
                options = true;
                continue;
            }
            if (options) {
                if (s.equals("RELEASE") || s.equals("DEBUG") || s.equals("RELWITHDEBINFO") || s.equals("MINSIZEREL")) {
                    cfg = "the " + s + " configuration";
                    continue;
                }
                String cond = cfg != null ? cfg : currentCondition();
                toks(v.get(i), FlagTok.Lang.CUDA, cond, cmd + "(" + t + " OPTIONS)",
                        out.targets.computeIfAbsent(t, k -> new ArrayList<>()));
                continue;
            }
            if (TARGET_KEYWORDS.contains(s) || s.contains("$<") || s.isEmpty()) continue;
            try {
                srcs.add(currentDir.resolve(s).normalize());
            } catch (RuntimeException e) {
                // not a path
            }
        }
    }

    private void targetProperties(List<PosText> v) {
        int p = propertiesKeyword(v);
        if (p < 0) return;
        for (int i = p + 1; i + 1 < v.size(); i += 2) {
            String prop = v.get(i).text;
            if (prop.equals("CUDA_ARCHITECTURES")) {
                String arch = arch(v.get(i + 1).text);
                for (int t = 0; t < p; t++) {
                    if (arch != null) out.cudaArch.put(v.get(t).text, arch);
                }
            } else if (prop.equals("COMPILE_OPTIONS") || prop.equals("COMPILE_FLAGS")) {
                for (int t = 0; t < p; t++) {
                    String tn = v.get(t).text;
                    propertyFlags(prop, v.get(i + 1), out.targets.computeIfAbsent(tn, k -> new ArrayList<>()),
                            "set_target_properties(" + tn + " " + prop + ")");
                }
            }
        }
    }

    /** Index of the PROPERTIES keyword of a set_*_properties command, or -1. */
    private static int propertiesKeyword(List<PosText> v) {
        for (int i = 0; i < v.size(); i++) {
            if (v.get(i).text.equals("PROPERTIES")) {
                return i;
            }
        }
        return -1;
    }

    /** COMPILE_OPTIONS is a list of options (generator expressions allowed); COMPILE_FLAGS a command-line string. */
    private void propertyFlags(String prop, PosText value, List<FlagTok> into, String via) {
        if (prop.equals("COMPILE_FLAGS")) {
            toks(value, FlagTok.Lang.ANY, currentCondition(), via, into);
        } else {
            compileOptions(value.splitList(), 0, into, via);
        }
    }

    /** set_source_files_properties(f... PROPERTIES COMPILE_OPTIONS|COMPILE_FLAGS value ...). */
    private void sourceProperties(List<PosText> v) {
        int p = propertiesKeyword(v);
        if (p < 0) return;
        for (int i = p + 1; i + 1 < v.size(); i += 2) {
            String prop = v.get(i).text;
            if (!prop.equals("COMPILE_OPTIONS") && !prop.equals("COMPILE_FLAGS")) continue;
            for (int f = 0; f < p; f++) {
                String name = v.get(f).text;
                if (name.isEmpty() || name.contains("$<") || name.equals("DIRECTORY")
                        || name.equals("TARGET_DIRECTORY")) continue;
                Path src;
                try {
                    src = currentDir.resolve(name).normalize();
                } catch (RuntimeException e) {
                    continue;
                }
                propertyFlags(prop, v.get(i + 1), out.sourceFlags.computeIfAbsent(src, k -> new ArrayList<>()),
                        "set_source_files_properties(" + name + " " + prop + ")");
            }
        }
    }

    private void setProperty(List<PosText> v) {
        // set_property(TARGET t... [APPEND] PROPERTY CUDA_ARCHITECTURES values...)
        if (v.isEmpty() || !v.get(0).text.equals("TARGET")) return;
        int p = -1;
        for (int i = 1; i < v.size(); i++) {
            if (v.get(i).text.equals("PROPERTY")) {
                p = i;
                break;
            }
        }
        if (p < 0 || p + 2 >= v.size() + 1 || p + 1 >= v.size()) return;
        if (v.get(p + 1).text.equals("CUDA_ARCHITECTURES")) {
            String arch = arch(join(v, p + 2, v.size(), ';').text);
            for (int t = 1; t < p; t++) {
                String tn = v.get(t).text;
                if (!tn.equals("APPEND") && !tn.equals("APPEND_STRING") && arch != null) out.cudaArch.put(tn, arch);
            }
        }
    }

    /** The highest listed architecture as compute_XX ("75;80-real;86" gives compute_86); null for native/all. */
    static String arch(String value) {
        int best = -1;
        for (String a : value.split("[;\\s]+")) {
            String n = a.replaceAll("-(real|virtual)$", "").replaceAll("^(sm_|compute_)", "");
            if (n.matches("\\d+[a-z]?")) {
                int num = Integer.parseInt(n.replaceAll("[a-z]$", ""));
                best = Math.max(best, num);
            }
        }
        return best < 0 ? null : "compute_" + best;
    }

    private void include(List<PosText> v) {
        if (v.isEmpty() || includeDepth >= 8) return;
        String f = v.get(0).text;
        if (f.isEmpty() || f.contains("$<")) return;
        List<Path> candidates = new ArrayList<>();
        try {
            candidates.add(currentDir.resolve(f));
            if (!f.endsWith(".cmake")) {
                for (PosText m : vars.getOrDefault("CMAKE_MODULE_PATH", PosText.EMPTY).splitList()) {
                    candidates.add(currentDir.resolve(m.text).resolve(f + ".cmake"));
                }
            }
        } catch (RuntimeException e) {
            return;
        }
        for (Path c : candidates) {
            Path n = c.normalize();
            if (Files.isRegularFile(n) && !fileTable.contains(n)) {
                includeDepth++;
                runFile(n);
                includeDepth--;
                return;
            }
        }
    }

    // ---------------------------------------------------------------- flags

    /** Splits a command-line string (a CMAKE_*_FLAGS value, an OPTIONS item) into arguments. */
    private void toks(PosText value, FlagTok.Lang lang, String cond, String via, List<FlagTok> into) {
        for (PosText elem : value.splitList()) {
            for (PosText w : ShellWords.split(elem)) add(into, w, lang, cond, via);
        }
    }

    private void add(List<FlagTok> into, PosText w, FlagTok.Lang lang, String cond, String via) {
        if (w.text.isEmpty()) return;
        int fi = w.fileAt(0);
        if (fi < 0 || fi >= fileTable.size()) return; // synthetic text (a directory path) is no flag
        Location loc = Location.of(relativize.apply(fileTable.get(fi)), w.lineAt(0), w.colAt(0));
        String written = writtenUnder(fi, w.lineAt(0));
        String c = cond == null ? written : written == null || cond.contains(written) ? cond : cond + " and " + written;
        into.add(new FlagTok(w.text, loc, lang, c, via));
    }

    /** The condition of the innermost conditional block enclosing a line (known for closed blocks). */
    private String writtenUnder(int fi, int line) {
        String best = null;
        int bestSpan = Integer.MAX_VALUE;
        for (CondRange r : condRanges) {
            if (r.fileIndex() == fi && line > r.from() && line < r.to() && r.to() - r.from() < bestSpan) {
                best = r.condition();
                bestSpan = r.to() - r.from();
            }
        }
        for (Block b : blocks) { // still open at the end of the file
            if (b.condition() != null && b.fileIndex() == fi && line > b.line() && best == null) best = b.condition();
        }
        return best;
    }

    private void finish() {
        for (String lang : List.of("CUDA", "CXX", "C")) {
            for (String suffix : CONFIG_SUFFIXES) {
                String var = "CMAKE_" + lang + "_FLAGS" + suffix;
                PosText val = vars.get(var);
                if (val == null) continue;
                String cond = suffix.isEmpty() ? null : "the " + suffix.substring(1) + " configuration";
                toks(val, lang.equals("CUDA") ? FlagTok.Lang.CUDA : FlagTok.Lang.HOST, cond, var, out.directory);
            }
        }
        for (String suffix : CONFIG_SUFFIXES) {
            String var = "CUDA_NVCC_FLAGS" + suffix;
            PosText val = vars.get(var);
            if (val == null) continue;
            String cond = suffix.isEmpty() ? null : "the " + suffix.substring(1) + " configuration";
            toks(val, FlagTok.Lang.CUDA, cond, var, out.directory);
        }
        PosText archs = vars.get("CMAKE_CUDA_ARCHITECTURES");
        if (archs != null) {
            String a = arch(archs.text);
            if (a != null) out.cudaArch.put("", a);
        }
    }
}
