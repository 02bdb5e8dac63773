package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.llvm.clang.CXDiagnostic;
import org.bytedeco.llvm.clang.CXFile;
import org.bytedeco.llvm.clang.CXSourceLocation;
import org.bytedeco.llvm.clang.CXTranslationUnit;

/** Clang's errors of a parse, for one unit's file: how many, the first (with its line), the type names it lacked. */
final class ClangDiagnostics {
    private ClangDiagnostics() {}

    /**
     * @param unknownTypes type names Clang did not know where this file uses them ("unknown type name 'DType2'", "no
     *                     template named 'Vec'"), with the lines in this file
     */
    record Diag(int errors, String first, Map<String, List<Integer>> unknownTypes) {}

    /** The errors that name a type no file Clang read defines. */
    private static final java.util.regex.Pattern UNKNOWN_TYPE = java.util.regex.Pattern.compile(
            "^(?:unknown type name|no template named) '([A-Za-z_][A-Za-z0-9_:]{0,127})'");

    /**
     * The errors that name an identifier no declaration in view declares ("use of undeclared identifier 'NCOMP'": a
     * macro the host defines when it compiles the file at run time): kept with the unknown types, under
     * {@link #UNDECLARED} and the name, for the atomics' recall notice ({@link ClangUnit#undeclared()}).
     */
    private static final java.util.regex.Pattern UNDECLARED_NAME =
            java.util.regex.Pattern.compile("^use of undeclared identifier '([A-Za-z_][A-Za-z0-9_]{0,127})'");

    /** The prefix of an undeclared identifier among the unknown type names (no type name begins with it). */
    static final String UNDECLARED = "#";

    /**
     * The key of the lines of every error located in the unit's file, among the unknown type names (no type name
     * begins with it): a function whose lines hold one may have lost statements to Clang's recovery
     * ({@link ClangUnit#errorLines()}).
     */
    static final String ERRORS = "!";

    /**
     * The key of the preprocessor's inactive regions of the main file, among the unknown type names: first and last
     * line of each, in pairs ({@link ClangUnit#inactiveLines()}); recorded only in a parse asked to keep them
     * ({@link ClangUnit#KEEP_INACTIVE}).
     */
    static final String INACTIVE = "?";

    /**
     * The key of the CUDA libraries whose numlint declarations ({@link LibraryStubs}) the parse read, among the
     * unknown type names: their indexes in {@link LibraryStubs#LIBRARIES}; absent where the file's text names none of
     * their headers ({@link #stubsRead}).
     */
    static final String STUBS = "*";

    /** Whether {@code key} of the unknown type names is one of this class's own keys, not a name. */
    static boolean ownKey(String key) {
        return key.equals(ERRORS) || key.equals(INACTIVE) || key.equals(STUBS);
    }

    /**
     * Adds to {@code types}, under {@link #STUBS}, the libraries whose numlint headers the parse {@code tu} read, when
     * {@code text} (the file's own) names a header of one: an {@code #include <cublas_v2.h>} that the preprocessor
     * skipped ({@code #if USE_CUBLAS} with {@code -DUSE_CUBLAS=0}) reads none.
     */
    static void stubsRead(CXTranslationUnit tu, byte[] text, Map<String, List<Integer>> types) {
        if (text == null || LibraryStubs.stubbed(text, List.of()).isEmpty()) return;
        java.util.TreeSet<Integer> read = new java.util.TreeSet<>();
        for (CXFile f : new ClangIncludes.Inclusions(tu).files()) {
            Path p = Path.of(clang_getFileName(f).getString());
            if (p.getParent() == null || !p.getParent().getFileName().toString().startsWith("libraries-")) continue;
            for (int i = 0; i < LibraryStubs.LIBRARIES.size(); i++) {
                if (LibraryStubs.LIBRARIES
                        .get(i)
                        .headers()
                        .contains(p.getFileName().toString())) read.add(i);
            }
        }
        types.put(STUBS, List.copyOf(read));
    }

    /** {@link ClangUnit#undefinedTypes()} of {@code unit}, whose unknown type names are {@code unknownTypes}. */
    static Map<String, Integer> undefinedTypes(ClangUnit unit, Map<String, List<Integer>> unknownTypes) {
        Map<String, Integer> out = new java.util.TreeMap<>();
        for (Map.Entry<String, List<Integer>> e : unknownTypes.entrySet()) {
            if (e.getKey().startsWith(UNDECLARED) || ownKey(e.getKey())) continue;
            java.util.Set<Object> places = new java.util.HashSet<>();
            for (int line : e.getValue()) {
                ClangUnit.Function in = null;
                for (ClangUnit.Function f : unit.functions()) {
                    if (line >= f.startLine() && line <= f.endLine()) {
                        in = f;
                        break;
                    }
                }
                places.add(in == null ? (Object) line : in);
            }
            out.put(e.getKey(), places.size());
        }
        return out;
    }

    /**
     * Adds the inactive regions of {@code file}, the main file, to {@code types} under {@link #INACTIVE}: the lines
     * of each branch the preprocessor skipped (its directive to its {@code #endif}). Nothing when the parse kept no
     * preprocessing record.
     */
    static void inactive(CXTranslationUnit tu, CXFile file, Map<String, List<Integer>> types) {
        if (file == null || file.isNull()) return;
        org.bytedeco.llvm.clang.CXSourceRangeList skipped = clang_getSkippedRanges(tu, file);
        if (skipped == null || skipped.isNull()) return;
        try {
            List<Integer> lines = new ArrayList<>();
            int[] a = new int[1];
            int[] b = new int[1];
            for (int i = 0; i < skipped.count() && lines.size() < 2 * MAX_ERROR_LINES; i++) {
                org.bytedeco.llvm.clang.CXSourceRange r = skipped.ranges().position(i);
                clang_getSpellingLocation(clang_getRangeStart(r), (CXFile) null, a, (int[]) null, (int[]) null);
                clang_getSpellingLocation(clang_getRangeEnd(r), (CXFile) null, b, (int[]) null, (int[]) null);
                lines.add(a[0]);
                lines.add(b[0]);
            }
            if (!lines.isEmpty()) types.put(INACTIVE, lines);
        } finally {
            clang_disposeSourceRangeList(skipped);
        }
    }

    /** Error lines kept per file. */
    private static final int MAX_ERROR_LINES = 4096;

    /** Distinct unknown type names kept per file (a file made of thousands is summarised by the first ones). */
    private static final int MAX_UNKNOWN_TYPES = 256;

    /**
     * Clang's errors; their lines are those of {@code target} when given (else of the main file). {@code own}: only
     * the errors located in {@code target} (a header read from its unit's parse: the unit's other errors are the
     * unit's, noted once there).
     */
    static Diag of(CXTranslationUnit tu, CXFile target, boolean own) {
        // the main file itself when no target is given: an error inside the expansion of a macro the file defines
        // is the file's (its expansion is), where libclang's "from the main file" test of the macro's location says
        // no (session 75 round C: an error through a solver's own macro was placed "in an included file")
        if (target == null) {
            CXFile main = clang_getFile(tu, clang_getTranslationUnitSpelling(tu).getString());
            if (main != null && !main.isNull()) target = main;
        }
        int n = clang_getNumDiagnostics(tu);
        int errors = 0;
        String first = null;
        Map<String, List<Integer>> unknown = new java.util.TreeMap<>();
        for (int i = 0; i < n; i++) {
            CXDiagnostic d = clang_getDiagnostic(tu, i);
            try {
                int sev = clang_getDiagnosticSeverity(d);
                if (sev < CXDiagnostic_Error) continue;
                if (own && !inUnit(clang_getDiagnosticLocation(d), target)) continue;
                if (nvccAccepts(clang_getDiagnosticSpelling(d).getString())) continue;
                errors++;
                if (first == null) {
                    CXSourceLocation loc = clang_getDiagnosticLocation(d);
                    IntPointer line = new IntPointer(1);
                    int ln = 0;
                    boolean main = inUnit(loc, target);
                    if (main) {
                        clang_getExpansionLocation(loc, (CXFile) null, line, (IntPointer) null, (IntPointer) null);
                        ln = line.get();
                    }
                    line.close();
                    String msg = clang_getDiagnosticSpelling(d).getString();
                    // a position outside the scanned file is not printed (it may name a path outside the tree), and
                    // the text of an error in a file outside the tree is not either: it can quote that file (a
                    // system header's computed #include of a macro the tree defines, Eigen's EIGEN_MATRIX_PLUGIN set
                    // to "/etc/passwd", gave "unknown type name 'root'")
                    // an included file of the tree is named with its line (session 79 round A: a mining code's
                    // "expected expression" in an included file, which the user had to find)
                    String included = main ? null : inTree(loc);
                    if (main) first = "line " + ln + ": " + msg;
                    else if (included != null) first = "in " + included + ": " + msg;
                    else first = "in a file outside the scanned tree (its text is not quoted)";
                }
                unknownType(d, unknown, target);
                errorLine(d, unknown, target);
            } finally {
                clang_disposeDiagnostic(d);
            }
        }
        return new Diag(errors, first, unknown);
    }

    /**
     * A definition without an execution space after a {@code __host__ __device__} declaration of the same function
     * ({@code LIB_FN static double f(double); static double f(double x) {...}}, a C physics header shared with
     * kernels): Clang reads a second, host-only function that "cannot overload" the first; nvcc gives the definition
     * the declaration's space and compiles it, and so does numlint ({@code ClangFunctions}). Not an error of the code.
     */
    private static final java.util.regex.Pattern SPACE_INHERITED = java.util.regex.Pattern.compile(
            "^__host__ function '([^']{1,256})' cannot overload __host__ __device__ function '\\1'$");

    static boolean nvccAccepts(String error) {
        return error != null && SPACE_INHERITED.matcher(error).matches();
    }

    /** Records the line of an error located in this file ({@link #ERRORS}). */
    private static void errorLine(CXDiagnostic d, Map<String, List<Integer>> unknown, CXFile target) {
        CXSourceLocation loc = clang_getDiagnosticLocation(d);
        if (!inUnit(loc, target)) return;
        List<Integer> lines = unknown.computeIfAbsent(ERRORS, k -> new ArrayList<>());
        if (lines.size() >= MAX_ERROR_LINES) return;
        IntPointer line = new IntPointer(1);
        try {
            clang_getExpansionLocation(loc, (CXFile) null, line, (IntPointer) null, (IntPointer) null);
            lines.add(line.get());
        } finally {
            line.close();
        }
    }

    /** Records the type an "unknown type name" error in this file names, with its line. */
    private static void unknownType(CXDiagnostic d, Map<String, List<Integer>> unknown, CXFile target) {
        CXSourceLocation loc = clang_getDiagnosticLocation(d);
        if (!inUnit(loc, target)) return;
        String text = clang_getDiagnosticSpelling(d).getString();
        java.util.regex.Matcher m = UNKNOWN_TYPE.matcher(text);
        String name;
        if (m.find()) {
            name = m.group(1);
        } else {
            m = UNDECLARED_NAME.matcher(text);
            if (!m.find()) return;
            name = UNDECLARED + m.group(1);
        }
        if (!unknown.containsKey(name) && unknown.size() >= MAX_UNKNOWN_TYPES) return;
        IntPointer line = new IntPointer(1);
        try {
            clang_getExpansionLocation(loc, (CXFile) null, line, (IntPointer) null, (IntPointer) null);
            unknown.computeIfAbsent(name, k -> new ArrayList<>()).add(line.get());
        } finally {
            line.close();
        }
    }

    /** The scanned tree of the parse this thread runs ({@link #root(Path)}), or null when it is not known. */
    private static final ThreadLocal<Path> ROOT = new ThreadLocal<>();

    /** Sets the scanned tree of the parses this thread runs next (null: not known, nothing outside the file quoted). */
    static void root(Path root) {
        Path r = null;
        if (root != null) {
            try {
                r = root.toRealPath();
            } catch (java.io.IOException | RuntimeException e) {
                r = root.toAbsolutePath().normalize();
            }
        }
        ROOT.set(r);
    }

    /** The scanned tree of the parse this thread runs ({@link #root(Path)}, its real path), or null. */
    static Path treeRoot() {
        return ROOT.get();
    }

    /**
     * The file of the scanned tree ({@link #root(Path)}) that {@code loc} (its expansion) lies in, relative to the
     * tree's root, and its line ({@code include/cfg.h:12}); null when outside the tree.
     */
    private static String inTree(CXSourceLocation loc) {
        Path root = ROOT.get();
        if (root == null) return null;
        CXFile f = new CXFile();
        IntPointer line = new IntPointer(1);
        try {
            clang_getExpansionLocation(loc, f, line, (IntPointer) null, (IntPointer) null);
            if (f.isNull()) return null;
            String name = clang_getFileName(f).getString();
            if (name == null || name.isEmpty()) return null;
            Path real = Path.of(name).toRealPath();
            if (!real.startsWith(root)) return null;
            return root.relativize(real).toString().replace('\\', '/') + ":" + line.get();
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        } finally {
            line.close();
        }
    }

    /** Whether {@code loc} (its expansion) is in the unit's file: {@code target}, or the main file when null. */
    static boolean inUnit(CXSourceLocation loc, CXFile target) {
        if (target == null) return clang_Location_isFromMainFile(loc) != 0;
        CXFile f = new CXFile();
        clang_getExpansionLocation(loc, f, (IntPointer) null, (IntPointer) null, (IntPointer) null);
        return !f.isNull() && clang_File_isEqual(f, target) != 0;
    }
}
