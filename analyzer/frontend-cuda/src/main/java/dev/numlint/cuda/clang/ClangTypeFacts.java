package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import org.bytedeco.llvm.clang.CXType;

/**
 * What {@link ClangParser}'s walk copies of a cursor's type: its spelling, its canonical kind and spelling, and its
 * pointee's or array element's (canonical). The walk asks each distinct type once (by Clang's opaque type pointer):
 * printing a type is the dearest of the calls a cursor's copy makes, and most cursors of a unit share a few types.
 */
record ClangTypeFacts(String type, int canonKind, String canon, int pointeeKind, String pointee) {

    static ClangTypeFacts of(CXType t) {
        String type = clang_getTypeSpelling(t).getString();
        CXType ct = clang_getCanonicalType(t);
        int canonKind = ct.kind();
        String canon = clang_getTypeSpelling(ct).getString();
        CXType pt = null;
        if (canonKind == CXType_Pointer) pt = clang_getPointeeType(ct);
        else if (canonKind == CXType_ConstantArray || canonKind == CXType_IncompleteArray)
            pt = clang_getArrayElementType(ct);
        int pointeeKind = 0;
        String pointee = null;
        if (pt != null) {
            CXType pc = clang_getCanonicalType(pt);
            pointeeKind = pc.kind();
            pointee = clang_getTypeSpelling(pc).getString();
        }
        return new ClangTypeFacts(type, canonKind, canon, pointeeKind, pointee);
    }
}
