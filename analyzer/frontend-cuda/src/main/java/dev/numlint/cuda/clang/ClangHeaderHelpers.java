package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.llvm.clang.CXClientData;
import org.bytedeco.llvm.clang.CXCursor;
import org.bytedeco.llvm.clang.CXCursorVisitor;
import org.bytedeco.llvm.clang.CXFile;
import org.bytedeco.llvm.clang.CXSourceLocation;

/**
 * Per-callee summaries of the functions a unit's calls name whose definitions are in another project file, read from
 * the unit's own parse: whether such a function returns the smaller or the larger of its two parameters (a min or max
 * helper, {@link ClangTemplates#minMaxOf}). A unit holds only its own file's bodies, and a header the scan does not
 * read as a source (bifrost's {@code utils.hu}) is no unit of its own, so a clamp of the unit built from the header's
 * helpers ({@code min_gpu(max_gpu(x, lo), hi)}) is recognised through these summaries. Keyed by the function's name:
 * definitions of one name that disagree (an overload that is no such helper) give "" (nothing).
 */
final class ClangHeaderHelpers {
    /** At most this many definitions are read per unit. */
    static final int MAX_READ = 512;
    /** A definition of more cursors than this is no one-statement helper: not copied further. */
    private static final int MAX_NODES = 256;
    /** How many calls away from the unit's own code a definition is still read: a clamp's helpers, and theirs. */
    private static final int MAX_DEPTH = 2;

    private ClangHeaderHelpers() {}

    /**
     * The unit's summaries: a function's name to "min", "max", a clamp's "clamp A B" ({@link
     * ClangClampHelpers#summary}) or "" (none of these, or definitions that disagree).
     */
    static Map<String, String> of(ClangUnit unit) {
        return unit.helpers;
    }

    static ClangUnit with(ClangUnit unit, Map<String, String> helpers) {
        unit.helpers = Map.copyOf(helpers);
        return unit;
    }

    /** The summaries one walk of a unit gathers from the references to functions it copies. */
    static final class Reader {
        final Map<String, String> kinds = new HashMap<>();
        private final Set<String> read = new HashSet<>();

        /**
         * Reads the functions a reference names ({@code c}: a {@code DeclRefExpr} to a function, or the candidates of
         * an {@code OverloadedDeclRef}, the callee of a dependent call), unless defined in {@code unitFile}, in a
         * system header or nowhere in the parse; {@code node} copies one cursor.
         */
        void callee(CXCursor c, int kind, CXFile unitFile, Function<CXCursor, ClangNode> node) {
            callee(c, kind, unitFile, node, 0);
        }

        private void callee(CXCursor c, int kind, CXFile unitFile, Function<CXCursor, ClangNode> node, int depth) {
            if (kind == CXCursor_OverloadedDeclRef) {
                int n = Math.min(clang_getNumOverloadedDecls(c), 8);
                for (int i = 0; i < n; i++) read(clang_getOverloadedDecl(c, i), unitFile, node, depth);
                return;
            }
            CXCursor r = clang_getCursorReferenced(c);
            if (clang_Cursor_isNull(r) != 0) return;
            CXCursor t = clang_getSpecializedCursorTemplate(r); // a call of min_gpu<float, float>: its template
            read(clang_Cursor_isNull(t) == 0 ? t : r, unitFile, node, depth);
        }

        /**
         * Reads one definition, {@code depth} calls away from the unit's own code: a helper's callees are read (a
         * clamp built of min and max helpers), theirs too, no further ({@link #MAX_DEPTH}). An operator is no min,
         * max or clamp helper and is not read: a vector library's operators (GLM's {@code operator||} of each vector
         * size, each calling the others) are hundreds of definitions per unit, and libclang 20 crashed (SIGSEGV in
         * {@code CursorVisitor::VisitTemplateParameters}) while visiting one of them after a few hundred reads of a
         * file that includes GLM 0.9.9 (session 77 round A: two files of a boids simulation lost to Clang).
         */
        private void read(CXCursor decl, CXFile unitFile, Function<CXCursor, ClangNode> node, int depth) {
            int k = clang_getCursorKind(decl);
            if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate || depth > MAX_DEPTH) return;
            if (clang_getCursorSpelling(decl).getString().startsWith("operator")) return;
            String usr = clang_getCursorUSR(decl).getString();
            if (usr.isEmpty() || read.size() >= MAX_READ || !read.add(usr)) return;
            CXCursor def = clang_getCursorDefinition(decl);
            if (clang_Cursor_isNull(def) != 0) return;
            CXSourceLocation loc = clang_getCursorLocation(def);
            if (clang_Location_isInSystemHeader(loc) != 0) return; // the library's code, not the project's
            CXFile f = new CXFile();
            try {
                clang_getExpansionLocation(loc, f, (IntPointer) null, (IntPointer) null, (IntPointer) null);
                // the unit's own functions are its functions ({@link ClangTemplates#minMaxHelper} reads them)
                if (f.isNull() || unitFile != null && !unitFile.isNull() && clang_File_isEqual(f, unitFile) != 0)
                    return;
            } finally {
                f.close();
            }
            ClangNode fn = copy(def, node);
            String kind = fn == null ? null : ClangTemplates.minMaxOf(fn);
            // or a clamp helper, summarised by where its bounds come from ("clamp 1 2": its second and third
            // parameters), built of the min and max helpers it calls, read first (x265_clip3 of x265_min and
            // x265_max, session 75 round B)
            if (fn != null && kind == null) {
                calleesOf(def, unitFile, node, depth + 1);
                kind = ClangClampHelpers.summary(fn, kinds);
            }
            kinds.merge(
                    clang_getCursorSpelling(def).getString(), kind == null ? "" : kind, (a, b) -> a.equals(b) ? a : "");
        }

        /** Reads the functions the references in the small definition {@code def} name (at most {@link #MAX_NODES}). */
        private void calleesOf(CXCursor def, CXFile unitFile, Function<CXCursor, ClangNode> node, int depth) {
            int[] count = {0};
            CXCursorVisitor v = new CXCursorVisitor() {
                @Override
                public int call(CXCursor c, CXCursor parent, CXClientData data) {
                    if (++count[0] > MAX_NODES) return CXChildVisit_Break;
                    int k = clang_getCursorKind(c);
                    if (k == CXCursor_DeclRefExpr || k == CXCursor_OverloadedDeclRef)
                        callee(c, k, unitFile, node, depth);
                    return CXChildVisit_Recurse;
                }
            };
            try {
                clang_visitChildren(def, v, (CXClientData) null);
            } finally {
                v.close();
            }
        }
    }

    /** The definition {@code def} and its cursors as nodes, or null when it has more than {@link #MAX_NODES}. */
    private static ClangNode copy(CXCursor def, Function<CXCursor, ClangNode> node) {
        ClangNode root = node.apply(def);
        ArrayDeque<ClangNode> parents = new ArrayDeque<>();
        parents.push(root);
        int[] count = {1};
        CXCursorVisitor v = new CXCursorVisitor() {
            @Override
            public int call(CXCursor c, CXCursor parent, CXClientData data) {
                if (++count[0] > MAX_NODES) return CXChildVisit_Break;
                ClangNode n = node.apply(c);
                ClangNode p = parents.peek();
                n.parent = p;
                p.children.add(n);
                parents.push(n);
                try {
                    clang_visitChildren(c, this, (CXClientData) null);
                } finally {
                    parents.pop();
                }
                return CXChildVisit_Continue;
            }
        };
        try {
            clang_visitChildren(def, v, (CXClientData) null);
        } finally {
            v.close();
        }
        return count[0] > MAX_NODES ? null : root;
    }
}
