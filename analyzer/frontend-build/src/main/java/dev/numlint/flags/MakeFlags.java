package dev.numlint.flags;

import static dev.numlint.flags.MakeSyntax.*;
import static dev.numlint.flags.MakeValues.*;

import dev.numlint.model.Location;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The flags a Makefile states: the flag and compiler variables make's conventions name ({@code NVCCFLAGS},
 * {@code CXXFLAGS}, {@code CC} ...), the compilers a command word names, and the flag tokens of a variable's value or
 * of a recipe's compiler command, each with where it is written and the condition it is written under.
 */
final class MakeFlags {
    private final MakeNotices notices;
    private final MakeConditionals conditionals;

    MakeFlags(MakeNotices notices, MakeConditionals conditionals) {
        this.notices = notices;
        this.conditionals = conditionals;
    }

    static final Set<String> CUDA_VARS = Set.of(
            "NVCCFLAGS",
            "NVCC_FLAGS",
            "NVFLAGS",
            "NV_FLAGS",
            "CUDAFLAGS",
            "CUDA_FLAGS",
            "CUFLAGS",
            "CU_FLAGS",
            "GENCODE_FLAGS",
            "SMVERSIONFLAGS",
            "NVCC_OPTS",
            "NVCCOPTS",
            "CUDA_NVCC_FLAGS",
            "NVCC_ARCH",
            "CUDA_ARCH",
            "ARCH_FLAGS",
            "CUCCOPT",
            "CUGENCODE",
            "NVCCOPT");
    static final Set<String> HOST_VARS = Set.of(
            "CFLAGS",
            "CXXFLAGS",
            "CPPFLAGS",
            "CCFLAGS",
            "C_FLAGS",
            "CXX_FLAGS",
            "CC_FLAGS",
            "HOST_FLAGS",
            "HOSTFLAGS",
            "OPTFLAGS",
            "OPT_FLAGS",
            "CPPOPT");
    static final Set<String> COMPILER_VARS = Set.of(
            "CC", "CXX", "NVCC", "CUDACC", "HOST_COMPILER", "HOSTCC", "HOSTCXX", "MPICC", "MPICXX", "CUCC", "NVCC_BIN");
    private static final Pattern HOST_COMPILER = Pattern.compile(
            "(?:[A-Za-z0-9_]+-){0,4}(?:gcc|g\\+\\+|cc|c\\+\\+|clang|clang\\+\\+|icpx|icx|icc|icpc|mpicc|mpicxx|mpic\\+\\+)"
                    + "(?:-\\d{1,3}(?:\\.\\d{1,3}){0,3})?");

    /** Tokens of a flag variable's or compiler variable's value. */
    void tokens(PosText value, String name, String cond, List<FlagTok> into) {
        List<PosText> words = ShellWords.split(value);
        if (isFlagVar(name)) {
            FlagTok.Lang lang = varLang(name);
            for (PosText w : words) add(into, w, lang, name, cond);
        } else if (COMPILER_VARS.contains(name) && !words.isEmpty()) {
            FlagTok.Lang lang = compilerOf(words.get(0).text);
            if (lang != null) {
                for (PosText w : words.subList(1, words.size())) add(into, w, lang, name, cond);
            }
        }
    }

    /**
     * Tokens of a branch of an undecidable {@code $(if)} carried by {@code name}: a flag or compiler variable's
     * tokens as {@link #tokens}; for any other carrier (a variable such as {@code PARAMS_SIMD} expanded straight into
     * a recipe line, or the recipe line itself) its options, for every language, since the recipe's compiler may
     * receive them.
     */
    void undecidedTokens(PosText value, String name, String cond, List<FlagTok> into) {
        if (isFlagVar(name) || COMPILER_VARS.contains(name)) {
            tokens(value, name, cond, into);
            return;
        }
        for (PosText w : ShellWords.split(value)) {
            if (w.text.startsWith("-")) add(into, w, FlagTok.Lang.ANY, name, cond);
        }
    }

    /** Automake's compile commands: {@code COMPILE = $(CC) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) ...}. */
    private static final List<String> COMPILE_RECIPES = List.of("COMPILE", "CXXCOMPILE", "LTCOMPILE", "LTCXXCOMPILE");

    private static final Pattern REFERENCE = Pattern.compile("\\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]");

    /**
     * The variables a Makefile's compile command names ({@code COMPILE = $(CC) $(DEFS) $(DEFAULT_INCLUDES)
     * $(INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS)}, as automake writes it): what the recipe passes
     * the compiler besides the flag variables, such as {@code DEFS = -DHAVE_CONFIG_H}.
     */
    static Set<String> compileRecipeVariables(Scope scope) {
        Set<String> out = new java.util.HashSet<>();
        for (String c : COMPILE_RECIPES) {
            Var v = scope.get(c);
            if (v == null) continue;
            java.util.regex.Matcher m = REFERENCE.matcher(v.value().text);
            while (m.find()) out.add(m.group(1));
        }
        return out;
    }

    /** Tokens of a variable a compile command names ({@link #compileRecipeVariables}): flags for every language. */
    void recipeTokens(PosText value, String name, List<FlagTok> into) {
        for (PosText w : ShellWords.split(value)) add(into, w, FlagTok.Lang.ANY, name, null);
    }

    private void add(List<FlagTok> into, PosText w, FlagTok.Lang lang, String via, String cond) {
        if (w.text.isEmpty() || w.fileAt(0) < 0 || w.text.contains(UNKNOWN)) return;
        String written = conditionals.writtenUnder(w.fileAt(0), w.lineAt(0));
        String c = cond == null ? written : written == null ? cond : cond + " and " + written;
        into.add(
                new FlagTok(w.text, Location.of(notices.relative(w.fileAt(0)), w.lineAt(0), w.colAt(0)), lang, c, via));
    }

    static FlagTok.Lang varLang(String name) {
        if (CUDA_VARS.contains(name)
                || name.startsWith("NVCC")
                || name.startsWith("CUDA")
                || name.startsWith("NV_")
                || name.startsWith("GENCODE")
                || name.startsWith("CUCC")) {
            return FlagTok.Lang.CUDA;
        }
        if (HOST_VARS.contains(name)) return FlagTok.Lang.HOST;
        return FlagTok.Lang.ANY;
    }

    static boolean isFlagVar(String name) {
        return CUDA_VARS.contains(name)
                || HOST_VARS.contains(name)
                || name.endsWith("FLAGS") && !OTHER_LANGUAGES.contains(name);
    }

    /**
     * Flag variables of compilers and tools numlint does not analyze: Fortran's ({@code FFLAGS = -ffast-math} reaches
     * gfortran, session 64 round G: a molecular dynamics code's Fortran flags were reported as host C/C++ code), the
     * assembler's, lex's and yacc's, other languages', make's own.
     */
    private static final Set<String> OTHER_LANGUAGES = Set.of(
            "FFLAGS",
            "FCFLAGS",
            "F77FLAGS",
            "F90FLAGS",
            "F95FLAGS",
            "FPPFLAGS",
            "ASFLAGS",
            "NASMFLAGS",
            "YFLAGS",
            "LFLAGS",
            "ARFLAGS",
            "RFLAGS",
            "MAKEFLAGS",
            "MFLAGS",
            "RUSTFLAGS",
            "GOFLAGS",
            "JFLAGS",
            "JAVACFLAGS",
            "GHCFLAGS",
            "OCAMLFLAGS",
            "DFLAGS",
            "VALAFLAGS",
            "RCFLAGS");

    /** The compiler a command word names: CUDA for nvcc, HOST for gcc/clang/icpx..., null otherwise. */
    static FlagTok.Lang compilerOf(String word) {
        String base = word.substring(word.lastIndexOf('/') + 1);
        if (base.length() > 64) return null;
        if (base.equals("nvcc") || base.equals("nvcc.exe")) return FlagTok.Lang.CUDA;
        if (HOST_COMPILER.matcher(base).matches()) return FlagTok.Lang.HOST;
        return null;
    }

    void commandToks(List<PosText> words, String cond, List<FlagTok> into) {
        commandToks(words, cond, into, new int[1]);
    }

    /** Flags of one command into {@code into}; returns its source files; lang[0] = 1 nvcc, 2 host, 0 none. */
    List<String> commandToks(List<PosText> words, String cond, List<FlagTok> into, int[] lang) {
        int k = 0;
        while (k < words.size()) {
            String w = stripPrefix(words.get(k).text);
            if (w.isEmpty() || w.contains("=") && !w.startsWith("-")) {
                k++;
                continue;
            }
            break;
        }
        if (k >= words.size()) return List.of();
        FlagTok.Lang l = compilerOf(stripPrefix(words.get(k).text));
        if (l == null) return List.of();
        lang[0] = l == FlagTok.Lang.CUDA ? 1 : 2;
        boolean deviceOnly = false;
        for (PosText w : words) {
            String s = w.text;
            if (s.equals("-cubin")
                    || s.equals("--cubin")
                    || s.equals("-ptx")
                    || s.equals("--ptx")
                    || s.equals("-fatbin")
                    || s.equals("--fatbin")) {
                deviceOnly = true;
            }
        }
        List<String> sources = new ArrayList<>();
        String via = words.get(k).text.substring(words.get(k).text.lastIndexOf('/') + 1) + " command";
        for (PosText w : words.subList(k + 1, words.size())) {
            String s = w.text;
            if (deviceOnly
                    && (s.equals("-m32")
                            || s.equals("-m64")
                            || s.startsWith("-Xcompiler")
                            || s.startsWith("--compiler-options"))) {
                continue; // no host code is compiled for -cubin/-ptx/-fatbin
            }
            if (!s.startsWith("-") && isSourceName(s)) sources.add(s);
            add(into, w, l, via.replaceFirst("^@", ""), cond);
        }
        return sources;
    }
}
