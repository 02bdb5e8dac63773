package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.HashMap;
import java.util.Map;
import org.bytedeco.llvm.clang.CXClientData;
import org.bytedeco.llvm.clang.CXCursor;
import org.bytedeco.llvm.clang.CXCursorVisitor;

/**
 * The value of a const data member with a constant in-class initializer ({@code const float terrain_timeout{10.f};}),
 * read wherever the class is declared (a header too) when no constructor can give it another: the class declares
 * none, or each one it declares is defaulted, deleted, or defined where Clang reads it without a member initializer
 * for that member. A const member is never assigned, so every object holds that value; what an aggregate
 * initialization of the class could give it is not followed (session 74 round F: a flight estimator's parameter
 * struct, whose {@code uint64_t(_params.terrain_timeout * 1e6f)} was said to wrap a negative value).
 */
final class ClangConstMembers {
    /** Values by the member's USR; NaN for a member that is no such constant. */
    private final Map<String, Double> values = new HashMap<>();

    /** The constant value of the member {@code field} refers to, or null. */
    Double of(CXCursor field) {
        if (clang_Cursor_isNull(field) != 0 || clang_getCursorKind(field) != CXCursor_FieldDecl) return null;
        String usr = clang_getCursorUSR(field).getString();
        if (usr.isEmpty()) return null;
        Double known = values.get(usr);
        if (known == null) {
            Double v = compute(field, usr);
            known = v == null ? Double.NaN : v;
            values.put(usr, known);
        }
        return known.isNaN() ? null : known;
    }

    private static Double compute(CXCursor field, String usr) {
        if (clang_isConstQualifiedType(clang_getCursorType(field)) == 0) return null;
        Double[] value = {null};
        CXCursorVisitor init = new CXCursorVisitor() {
            @Override
            public int call(CXCursor c, CXCursor parent, CXClientData data) {
                int k = clang_getCursorKind(c);
                if (k == CXCursor_InitListExpr || k == CXCursor_UnexposedExpr) return CXChildVisit_Recurse;
                if (k >= CXCursor_FirstExpr && k <= CXCursor_LastExpr) {
                    value[0] = ClangWalker.evaluate(c);
                    return CXChildVisit_Break;
                }
                return CXChildVisit_Continue;
            }
        };
        try {
            clang_visitChildren(field, init, (CXClientData) null);
        } finally {
            init.close();
        }
        if (value[0] == null || value[0].isNaN()) return null;
        CXCursor cls = clang_getCursorSemanticParent(field);
        int k = clang_getCursorKind(cls);
        if (k != CXCursor_StructDecl && k != CXCursor_ClassDecl) return null;
        boolean[] other = {false};
        CXCursorVisitor constructors = new CXCursorVisitor() {
            @Override
            public int call(CXCursor c, CXCursor parent, CXClientData data) {
                if (clang_getCursorKind(c) != CXCursor_Constructor) return CXChildVisit_Continue;
                if (clang_CXXMethod_isDefaulted(c) != 0 || clang_CXXMethod_isDeleted(c) != 0) {
                    return CXChildVisit_Continue;
                }
                CXCursor def = clang_getCursorDefinition(c);
                if (clang_Cursor_isNull(def) != 0 || initializes(def, usr)) {
                    other[0] = true;
                    return CXChildVisit_Break;
                }
                return CXChildVisit_Continue;
            }
        };
        try {
            clang_visitChildren(cls, constructors, (CXClientData) null);
        } finally {
            constructors.close();
        }
        return other[0] ? null : value[0];
    }

    /** Whether the constructor definition {@code ctor} has a member initializer for the member {@code usr}. */
    private static boolean initializes(CXCursor ctor, String usr) {
        boolean[] found = {false};
        CXCursorVisitor refs = new CXCursorVisitor() {
            @Override
            public int call(CXCursor c, CXCursor parent, CXClientData data) {
                // the member initializers come before the body; the body may not assign a const member
                if (clang_getCursorKind(c) == CXCursor_CompoundStmt) return CXChildVisit_Break;
                if (clang_getCursorKind(c) == CXCursor_MemberRef
                        && usr.equals(
                                clang_getCursorUSR(clang_getCursorReferenced(c)).getString())) {
                    found[0] = true;
                    return CXChildVisit_Break;
                }
                return CXChildVisit_Continue;
            }
        };
        try {
            clang_visitChildren(ctor, refs, (CXClientData) null);
        } finally {
            refs.close();
        }
        return found[0];
    }
}
