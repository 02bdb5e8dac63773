package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import org.bytedeco.llvm.clang.CXClientData;
import org.bytedeco.llvm.clang.CXCursor;
import org.bytedeco.llvm.clang.CXCursorVisitor;

/**
 * The CUDA execution spaces of an out-of-line member definition that writes none ({@code bool XYRectangle::hit(...)
 * const { ... }} in a {@code .cu}): nvcc compiles it with the {@code __host__ __device__} of its class's declaration.
 * Clang reports "__host__ function cannot overload __host__ __device__ function" and keeps the definition a host
 * function of its own, so neither its cursor nor its canonical declaration has the attribute; the class's declaration
 * of the same name and arity does. Session 78 round B: a path tracer's divisions in such definitions were device code
 * that the source layer did not read, and the PTX layer's per-site warnings restated the project's fast-math flag
 * with no consequence read.
 */
final class ClangSpaces {
    static final int DEVICE = 1;
    static final int HOST = 2;
    static final int GLOBAL = 4;

    private int found;
    private String name;
    private int arity;

    /** The spaces of the class's declaration of the definition {@code c} ({@code n}), or 0. */
    int declared(CXCursor c, ClangNode n) {
        if (n.kind != CXCursor_CXXMethod && n.kind != CXCursor_Constructor && n.kind != CXCursor_Destructor) return 0;
        for (ClangNode ch : n.children) {
            if (ch.kind == CXCursor_CUDADeviceAttr
                    || ch.kind == CXCursor_CUDAHostAttr
                    || ch.kind == CXCursor_CUDAGlobalAttr) return 0;
        }
        if (clang_isCursorDefinition(c) == 0) return 0;
        CXCursor cls = clang_getCursorSemanticParent(c);
        if (cls == null
                || clang_Cursor_isNull(cls) != 0
                || clang_equalCursors(cls, clang_getCursorLexicalParent(c)) != 0) return 0; // defined in its class
        int k = clang_getCursorKind(cls);
        if (k != CXCursor_ClassDecl && k != CXCursor_StructDecl) return 0;
        name = n.spelling;
        arity = clang_Cursor_getNumArguments(c);
        found = 0;
        // the visitors live for this call only: the walker frees the natives each cursor's visit allocates
        // (ClangWalker.call's PointerScope), a callback kept across cursors among them
        CXCursorVisitor attributes = new CXCursorVisitor() {
            @Override
            public int call(CXCursor a, CXCursor parent, CXClientData data) {
                int ak = clang_getCursorKind(a);
                if (ak == CXCursor_CUDADeviceAttr) found |= DEVICE;
                else if (ak == CXCursor_CUDAHostAttr) found |= HOST;
                else if (ak == CXCursor_CUDAGlobalAttr) found |= GLOBAL;
                return CXChildVisit_Continue;
            }
        };
        CXCursorVisitor members = new CXCursorVisitor() {
            @Override
            public int call(CXCursor m, CXCursor parent, CXClientData data) {
                int mk = clang_getCursorKind(m);
                if (mk != CXCursor_CXXMethod && mk != CXCursor_Constructor && mk != CXCursor_Destructor)
                    return CXChildVisit_Continue;
                if (clang_Cursor_getNumArguments(m) != arity) return CXChildVisit_Continue;
                if (!name.equals(clang_getCursorSpelling(m).getString())) return CXChildVisit_Continue;
                clang_visitChildren(m, attributes, (CXClientData) null);
                return found != 0 ? CXChildVisit_Break : CXChildVisit_Continue;
            }
        };
        try {
            clang_visitChildren(cls, members, (CXClientData) null);
        } finally {
            members.close();
            attributes.close();
        }
        return found;
    }
}
