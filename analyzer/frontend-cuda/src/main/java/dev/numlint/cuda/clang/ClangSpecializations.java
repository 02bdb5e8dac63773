package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

/**
 * Explicit specializations of class templates ({@link ClangTemplates#classArguments}): {@code template<> struct
 * Traits<unsigned char> { ... }} is a class of its own, written where it is, so its arguments instantiate nothing of
 * the primary template, whose implicit instantiations Clang places at the template itself (session 78 round B: the
 * primary {@code Traits<T>::fromNormalized} was reported as a float to unsigned char conversion that the
 * specialization for unsigned char replaces). An explicit instantiation ({@code template struct Image<float>;}) is
 * written elsewhere too, but declares no member of its own: it instantiates the primary.
 */
final class ClangSpecializations {
    private ClangSpecializations() {}

    /** Whether the class {@code decl}, a specialization of the template {@code tmpl}, is an explicit specialization. */
    static boolean explicit(org.bytedeco.llvm.clang.CXCursor decl, org.bytedeco.llvm.clang.CXCursor tmpl) {
        return clang_equalLocations(clang_getCursorLocation(decl), clang_getCursorLocation(tmpl)) == 0
                && declaresMembers(decl);
    }

    /** Whether the class {@code decl} has a cursor of its own below it (a member, a base): it is written out. */
    private static boolean declaresMembers(org.bytedeco.llvm.clang.CXCursor decl) {
        boolean[] any = {false};
        org.bytedeco.llvm.clang.CXCursorVisitor first = new org.bytedeco.llvm.clang.CXCursorVisitor() {
            @Override
            public int call(
                    org.bytedeco.llvm.clang.CXCursor c,
                    org.bytedeco.llvm.clang.CXCursor parent,
                    org.bytedeco.llvm.clang.CXClientData data) {
                any[0] = true;
                return CXChildVisit_Break;
            }
        };
        try {
            clang_visitChildren(decl, first, (org.bytedeco.llvm.clang.CXClientData) null);
        } finally {
            first.close();
        }
        return any[0];
    }
}
