package dev.numlint.flags;

import dev.numlint.model.Location;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the compiler flags of a Makefile: assignments ({@code = := ::= ?= += !=}, with {@code override} and
 * {@code export}) to flag variables (NVCCFLAGS, NVCC_FLAGS, NVFLAGS, CUDAFLAGS, CFLAGS, CXXFLAGS, CPPFLAGS,
 * GENCODE_FLAGS and any other *FLAGS variable), compiler variables with flags ({@code NVCC := nvcc -O3}), and recipe
 * lines that run nvcc or a host compiler. Continuation lines, comments and {@code ifeq/ifneq/ifdef/ifndef} blocks
 * (whose assignments are marked conditional and add to the previous value, since either branch may run) are
 * handled; {@code define} blocks and {@code include}d files are not read here (an included .mk file in the scan
 * is read on its own).
 */
final class MakefileAudit {
    private static final Pattern ASSIGN = Pattern.compile(
            "^\\s*(?:(?:override|export|private)\\s+)*([A-Za-z_][A-Za-z0-9_.\\-]*)\\s*(::=|:::=|:=|\\?=|\\+=|!=|=)");
    private static final Pattern COND = Pattern.compile("^\\s*(ifeq|ifneq|ifdef|ifndef)\\b.*");
    private static final Pattern VAR_REF = Pattern.compile("\\$[({]([A-Za-z_][A-Za-z0-9_.\\-]*)[)}]");
    private static final Set<String> CUDA_VARS = Set.of("NVCCFLAGS", "NVCC_FLAGS", "NVFLAGS", "NV_FLAGS", "CUDAFLAGS",
            "CUDA_FLAGS", "CUFLAGS", "CU_FLAGS", "GENCODE_FLAGS", "SMVERSIONFLAGS", "NVCC_OPTS", "NVCCOPTS",
            "CUDA_NVCC_FLAGS", "NVCC_ARCH", "CUDA_ARCH", "ARCH_FLAGS");
    private static final Set<String> HOST_VARS = Set.of("CFLAGS", "CXXFLAGS", "CPPFLAGS", "CCFLAGS", "C_FLAGS",
            "CXX_FLAGS", "CC_FLAGS", "HOST_FLAGS", "HOSTFLAGS", "OPTFLAGS", "OPT_FLAGS");
    private static final Set<String> COMPILER_VARS = Set.of("CC", "CXX", "NVCC", "CUDACC", "HOST_COMPILER", "HOSTCC",
            "HOSTCXX", "MPICC", "MPICXX", "CUCC", "NVCC_BIN");
    private static final Pattern HOST_COMPILER = Pattern.compile(
            "(?:[A-Za-z0-9_]+-)*(?:gcc|g\\+\\+|cc|c\\+\\+|clang|clang\\+\\+|icpx|icx|icc|icpc|mpicc|mpicxx|mpic\\+\\+)(?:-\\d+(?:\\.\\d+)*)?");

    /** "targets: [override|export|private] VAR op value" (a target-specific variable value). */
    private static final Pattern TARGET_ASSIGN = Pattern.compile(
            "^([^:=#\\t][^:=#]*):(?![:=])\\s*(?:(?:override|export|private)\\s+)*([A-Za-z_][A-Za-z0-9_.\\-]*)\\s*"
            + "(::=|:=|\\?=|\\+=|=)(.*)$");
    private static final Pattern DIRECTIVE = Pattern.compile("-?(include|sinclude|vpath|export|unexport|undefine)\\b.*");
    private static final Pattern COMMAND_PREFIX = Pattern.compile("^[@+\\-]+");
    private static final Pattern SOURCE = Pattern.compile("[^\\s]+\\.(?:cu|c|cc|cpp|cxx|C)");

    static final class Out {
        /** Flags of the flag variables (final values). */
        final List<FlagTok> variables = new ArrayList<>();
        /** One list per compiler command found in a recipe (its own flags plus the expanded variables). */
        final List<List<FlagTok>> commands = new ArrayList<>();
        /** The source files each command compiles (as written, relative to the Makefile's directory). */
        final List<List<String>> commandFiles = new ArrayList<>();
        final List<String[]> problems = new ArrayList<>();
    }

    private record Var(PosText value, boolean recursive) {
    }

    private final String file;
    private final Map<String, Var> vars = new HashMap<>();
    private final Deque<String> conds = new ArrayDeque<>();
    private final Out out = new Out();
    private boolean inRule;

    private MakefileAudit(String file) {
        this.file = file;
    }

    static Out audit(String relFile, String text) {
        MakefileAudit a = new MakefileAudit(relFile);
        a.run(text);
        return a.out;
    }

    /** Logical lines: backslash-newline joins physical lines (the pair becomes one space). */
    private static List<PosText> logicalLines(String text) {
        List<PosText> lines = new ArrayList<>();
        String[] phys = text.split("\r?\n", -1);
        PosText.Builder b = null;
        for (int i = 0; i < phys.length; i++) {
            String p = phys[i];
            if (b == null) b = new PosText.Builder();
            int trailing = 0;
            for (int k = p.length() - 1; k >= 0 && p.charAt(k) == '\\'; k--) trailing++;
            boolean cont = trailing % 2 == 1;
            String body = cont ? p.substring(0, p.length() - 1) : p;
            for (int k = 0; k < body.length(); k++) b.append(body.charAt(k), 0, i + 1, k + 1, false);
            if (cont && i + 1 < phys.length) {
                b.appendSynthetic(' ');
                continue;
            }
            lines.add(b.build());
            b = null;
        }
        return lines;
    }

    private String condition() {
        return conds.isEmpty() ? null : conds.peek();
    }

    private void run(String text) {
        boolean inDefine = false;
        for (PosText line : logicalLines(text)) {
            String s = line.text;
            if (condition() != null && line.length() > 0) {
                for (int l = line.lineAt(0); l <= line.lineAt(line.length() - 1); l++) lineCondition.put(l, condition());
            }
            if (inDefine) {
                if (s.trim().startsWith("endef")) inDefine = false;
                continue;
            }
            if (s.startsWith("\t") && inRule) {
                recipe(line.sub(1));
                continue;
            }
            PosText code = stripComment(line);
            String t = code.text.trim();
            if (t.isEmpty()) continue;
            if (t.startsWith("define ") || t.equals("define")) {
                inDefine = true;
                continue;
            }
            if (COND.matcher(t).matches()) {
                conds.push(t.replaceAll("\\s+", " ") + " at " + file + ":" + line.lineAt(0));
                continue;
            }
            if (t.equals("else") || t.startsWith("else ")) {
                // the other branch has the opposite condition (it must not cancel the first branch's flags)
                if (!conds.isEmpty()) {
                    String c = conds.pop();
                    String rest = t.substring(4).trim();
                    conds.push((rest.isEmpty() ? "else of " + c : rest.replaceAll("\\s+", " ") + " (else of " + c + ")"));
                }
                inRule = false;
                continue;
            }
            if (t.equals("endif") || t.startsWith("endif ")) {
                if (conds.isEmpty()) {
                    out.problems.add(new String[] {file, Integer.toString(line.lineAt(0)), "WARNING",
                            "'endif' without a matching conditional"});
                } else {
                    conds.pop();
                }
                continue;
            }
            Matcher ta = TARGET_ASSIGN.matcher(code.text);
            if (ta.matches() && isFlagVar(ta.group(2))) {
                // target-specific value: applies when that target (and its prerequisites) are built
                String c = "the target-specific value for '" + ta.group(1).trim() + "' at " + file + ":" + line.lineAt(0);
                PosText value = expand(code.sub(ta.start(4)).trim(), new HashSet<>());
                for (PosText w : ShellWords.split(value)) {
                    if (w.text.isEmpty() || w.fileAt(0) < 0) continue;
                    out.variables.add(new FlagTok(w.text, Location.of(file, w.lineAt(0), w.colAt(0)),
                            varLang(ta.group(2)), condition() != null ? condition() : c, ta.group(2)));
                }
                inRule = true;
                continue;
            }
            Matcher m = ASSIGN.matcher(code.text);
            if (m.find() && !code.text.substring(0, m.start(2)).contains(":")) {
                assign(m.group(1), m.group(2), code.sub(m.end()).trim(), line.lineAt(0));
                inRule = false;
            } else if (DIRECTIVE.matcher(t).matches()) {
                inRule = false;
            } else if (t.contains(":")) {
                inRule = true; // a rule: tab-indented lines after it are its recipe
            }
        }
        if (!conds.isEmpty()) {
            out.problems.add(new String[] {file, "0", "WARNING", "unterminated conditional: " + conds.peekLast()});
        }
        finish();
    }

    private static PosText stripComment(PosText line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                i++;
            } else if (c == '#') {
                return line.sub(0, i);
            }
        }
        return line;
    }

    private void assign(String name, String op, PosText value, int line) {
        Var old = vars.get(name);
        String cond = condition();
        switch (op) {
            case "?=" -> {
                if (old == null) vars.put(name, new Var(value, true));
            }
            case "+=" -> {
                if (old == null) {
                    vars.put(name, new Var(value, true));
                } else {
                    PosText v = old.recursive() ? value : expand(value, new HashSet<>());
                    vars.put(name, new Var(old.value().concat(PosText.of(" ", -1, 0, 0)).concat(v), old.recursive()));
                }
            }
            case "!=" -> vars.put(name, new Var(PosText.EMPTY, false)); // shell output: unknown
            default -> {
                boolean recursive = op.equals("=");
                PosText v = recursive ? value : expand(value, new HashSet<>());
                if (cond != null && old != null && !old.value().text.isEmpty()) {
                    // either branch may run: keep the previous value too
                    v = old.value().concat(PosText.of(" ", -1, 0, 0)).concat(v);
                }
                vars.put(name, new Var(v, recursive));
            }
        }
    }

    /** Expands $(VAR) and ${VAR} of known variables; $$ becomes '$'; other references stay as written. */
    private PosText expand(PosText t, Set<String> active) {
        if (t.text.indexOf('$') < 0) return t;
        PosText.Builder b = new PosText.Builder();
        int i = 0;
        while (i < t.length()) {
            char c = t.charAt(i);
            if (c == '$' && i + 1 < t.length()) {
                if (t.charAt(i + 1) == '$') {
                    b.append('$', t.fileAt(i), t.lineAt(i), t.colAt(i), true);
                    i += 2;
                    continue;
                }
                Matcher m = VAR_REF.matcher(t.text).region(i, t.length());
                if (m.lookingAt()) {
                    String n = m.group(1);
                    Var v = vars.get(n);
                    if (v != null && !active.contains(n)) {
                        active.add(n);
                        b.append(expand(v.value(), active));
                        active.remove(n);
                        i = m.end();
                        continue;
                    }
                    if (v == null && !COMPILER_VARS.contains(n) && isSimpleUnknown(n)) {
                        i = m.end(); // an undefined variable expands to nothing
                        continue;
                    }
                }
            }
            b.append(t, i);
            i++;
        }
        return b.build();
    }

    /** Make's automatic and environment-provided variables are unknown, not empty. */
    private static boolean isSimpleUnknown(String n) {
        return !n.equals("@") && !n.equals("<") && !n.equals("^") && !n.startsWith("CUDA") && !n.endsWith("PATH")
                && !n.endsWith("DIR") && !n.endsWith("HOME") && !n.equals("SHELL");
    }

    private static FlagTok.Lang varLang(String name) {
        if (CUDA_VARS.contains(name) || name.startsWith("NVCC") || name.startsWith("CUDA") || name.startsWith("NV_")
                || name.startsWith("GENCODE")) {
            return FlagTok.Lang.CUDA;
        }
        if (HOST_VARS.contains(name)) return FlagTok.Lang.HOST;
        return FlagTok.Lang.ANY;
    }

    private static boolean isFlagVar(String name) {
        return CUDA_VARS.contains(name) || HOST_VARS.contains(name) || name.endsWith("FLAGS");
    }

    /** The compiler a command word names: CUDA for nvcc, HOST for gcc/clang/icpx..., null otherwise. */
    static FlagTok.Lang compilerOf(String word) {
        String base = word.substring(word.lastIndexOf('/') + 1);
        if (base.equals("nvcc") || base.equals("nvcc.exe")) return FlagTok.Lang.CUDA;
        if (HOST_COMPILER.matcher(base).matches()) return FlagTok.Lang.HOST;
        return null;
    }

    private void finish() {
        for (Map.Entry<String, Var> e : vars.entrySet()) {
            String name = e.getKey();
            PosText value = expand(e.getValue().value(), new HashSet<>(Set.of(name)));
            List<PosText> words = ShellWords.split(value);
            if (isFlagVar(name)) {
                FlagTok.Lang lang = varLang(name);
                for (PosText w : words) add(out.variables, w, lang, name);
            } else if (COMPILER_VARS.contains(name) && !words.isEmpty()) {
                FlagTok.Lang lang = compilerOf(words.get(0).text);
                if (lang != null) {
                    for (PosText w : words.subList(1, words.size())) add(out.variables, w, lang, name);
                }
            }
        }
    }

    private void add(List<FlagTok> into, PosText w, FlagTok.Lang lang, String via) {
        if (w.text.isEmpty() || w.fileAt(0) < 0) return;
        String cond = writtenCondition(w.lineAt(0));
        into.add(new FlagTok(w.text, Location.of(file, w.lineAt(0), w.colAt(0)), lang, cond, via));
    }

    // conditions by line: recorded as lines are read
    private final Map<Integer, String> lineCondition = new HashMap<>();

    private String writtenCondition(int line) {
        return lineCondition.get(line);
    }

    private void recipe(PosText line) {
        PosText expanded = expand(line, new HashSet<>());
        List<PosText> words = ShellWords.split(expanded);
        List<PosText> cmd = new ArrayList<>();
        for (PosText w : words) {
            String s = w.text;
            if (s.equals("&&") || s.equals("||") || s.equals(";") || s.equals("|")) {
                command(cmd);
                cmd = new ArrayList<>();
            } else {
                cmd.add(w);
            }
        }
        command(cmd);
    }

    private void command(List<PosText> words) {
        int k = 0;
        while (k < words.size()) {
            String w = COMMAND_PREFIX.matcher(words.get(k).text).replaceFirst("");
            if (w.isEmpty() || w.contains("=") && !w.startsWith("-")) {
                k++; // env assignment (VAR=value cmd) or an empty prefix
                continue;
            }
            break;
        }
        if (k >= words.size()) return;
        FlagTok.Lang lang = compilerOf(COMMAND_PREFIX.matcher(words.get(k).text).replaceFirst(""));
        if (lang == null) return;
        boolean deviceOnly = false;
        for (PosText w : words) {
            String s = w.text;
            if (s.equals("-cubin") || s.equals("--cubin") || s.equals("-ptx") || s.equals("--ptx")
                    || s.equals("-fatbin") || s.equals("--fatbin")) {
                deviceOnly = true;
            }
        }
        List<FlagTok> toks = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        String via = words.get(k).text.substring(words.get(k).text.lastIndexOf('/') + 1) + " command";
        for (PosText w : words.subList(k + 1, words.size())) {
            String s = w.text;
            if (deviceOnly && (s.equals("-m32") || s.equals("-m64") || s.startsWith("-Xcompiler")
                    || s.startsWith("--compiler-options"))) {
                continue; // no host code is compiled for -cubin/-ptx/-fatbin
            }
            if (!s.startsWith("-") && !s.contains("$") && SOURCE.matcher(s).matches()) sources.add(s);
            if (w.fileAt(0) < 0) continue;
            int line = w.lineAt(0);
            String cond = lineCondition.get(line);
            toks.add(new FlagTok(s, Location.of(file, line, w.colAt(0)), lang, cond, via));
        }
        out.commands.add(toks);
        out.commandFiles.add(sources);
    }
}
