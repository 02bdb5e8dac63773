package dev.numlint.cuda.clang;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The project headers a translation unit includes, read from the same parse as the unit (issue 26, speed): each as a
 * target is read ({@code ClangParser}: the cursors whose expansion is in the header, from its first inclusion, the
 * errors located in it), so that a header is not parsed as a unit of its own beside the sources that include it.
 */
public final class ClangIncludes {
    /** The end of the failure of a target that its translation unit did not include. */
    static final String NOT_INCLUDED = " did not include it when Clang read it";

    private ClangIncludes() {}

    /**
     * The files a parsed translation unit includes, as Clang's include stack gives them ({@code clang_getInclusions}):
     * a file passed to the parse as an unsaved text is known to Clang ({@code clang_getFile} finds it) whether or not
     * an {@code #include} reached it, so the text given is no proof (session 78: a noise library's {@code .inl},
     * included only under {@code #ifdef ANL_IMPLEMENTATION}, was read through a unit that does not define it, and its
     * findings vanished with no notice).
     */
    static final class Inclusions {
        private final java.util.Set<Long> addresses = new java.util.HashSet<>();
        private final java.util.List<org.bytedeco.llvm.clang.CXFile> files = new java.util.ArrayList<>();

        Inclusions(org.bytedeco.llvm.clang.CXTranslationUnit tu) {
            org.bytedeco.llvm.clang.CXInclusionVisitor v = new org.bytedeco.llvm.clang.CXInclusionVisitor() {
                @Override
                public void call(
                        org.bytedeco.llvm.clang.CXFile f,
                        org.bytedeco.llvm.clang.CXSourceLocation stack,
                        int depth,
                        org.bytedeco.llvm.clang.CXClientData data) {
                    if (f == null || f.isNull()) return;
                    if (addresses.add(f.address())) files.add(new org.bytedeco.llvm.clang.CXFile(f));
                }
            };
            try {
                org.bytedeco.llvm.global.clang.clang_getInclusions(tu, v, (org.bytedeco.llvm.clang.CXClientData) null);
            } finally {
                v.close();
            }
        }

        /** The files the parse included, the main file first. */
        java.util.List<org.bytedeco.llvm.clang.CXFile> files() {
            return files;
        }

        /** Whether the parse included {@code f} (the main file is among the inclusions, at depth 0). */
        boolean contains(org.bytedeco.llvm.clang.CXFile f) {
            if (f == null || f.isNull()) return false;
            if (addresses.contains(f.address())) return true;
            for (org.bytedeco.llvm.clang.CXFile g : files) {
                if (org.bytedeco.llvm.global.clang.clang_File_isEqual(f, g) != 0) return true;
            }
            return false;
        }
    }

    /** The headers' units read from {@code unit}'s parse, by path in the order they were asked for. */
    public static Map<Path, ClangUnit> of(ClangUnit unit) {
        return unit.includes;
    }

    static ClangUnit with(ClangUnit unit, Map<Path, ClangUnit> headers) {
        unit.includes = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        java.util.List<ClangUnit> all = new java.util.ArrayList<>();
        all.add(unit);
        all.addAll(unit.includes.values());
        java.util.List<ClangUnit> same = java.util.List.copyOf(all);
        for (ClangUnit u : same) u.sameParse = same;
        return unit;
    }

    /**
     * The units read from the same parse as {@code unit} (the compiled unit and its project headers, {@code unit}
     * among them): a header's function may call one that another header of the same unit defines; just {@code unit}
     * when it was parsed alone.
     */
    public static java.util.List<ClangUnit> sameParse(ClangUnit unit) {
        return unit.sameParse.isEmpty() ? java.util.List.of(unit) : unit.sameParse;
    }

    /**
     * Visits every declaration at namespace scope of the units read from {@code unit}'s parse ({@link #sameParse}: the
     * compiled unit and its project headers, those that parsed), through namespaces and linkage specifications.
     */
    static void forEachNamespaceMember(ClangUnit unit, java.util.function.Consumer<ClangNode> visit) {
        for (ClangUnit u : sameParse(unit)) {
            if (u.failure() != null) continue;
            java.util.Deque<ClangNode> todo = new java.util.ArrayDeque<>(u.top());
            while (!todo.isEmpty()) {
                ClangNode n = todo.pop();
                if (n.kind == org.bytedeco.llvm.global.clang.CXCursor_Namespace
                        || n.kind == org.bytedeco.llvm.global.clang.CXCursor_LinkageSpec) todo.addAll(n.children);
                else visit.accept(n);
            }
        }
    }

    /** Whether {@code u} failed because its translation unit did not include it (the unit itself parsed). */
    public static boolean notIncluded(ClangUnit u) {
        String f = u.failure();
        return f != null && f.startsWith("its includer ") && f.endsWith(NOT_INCLUDED);
    }
}
