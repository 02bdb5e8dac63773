package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.PointerScope;
import org.bytedeco.llvm.clang.CXClientData;
import org.bytedeco.llvm.clang.CXCursor;
import org.bytedeco.llvm.clang.CXCursorVisitor;
import org.bytedeco.llvm.clang.CXEvalResult;
import org.bytedeco.llvm.clang.CXFile;
import org.bytedeco.llvm.clang.CXSourceLocation;
import org.bytedeco.llvm.clang.CXSourceRange;
import org.bytedeco.llvm.clang.CXType;

/**
 * The copy of one file's cursors from a parsed translation unit into {@link ClangNode}s, depth first (a visitor that
 * recurses by hand to keep the parents): the main file's, or a target's ({@link #target}: a file the unit includes),
 * with what the unit's calls tell of templates (their arguments, the constant members of the classes they name) and
 * the helpers of other files it calls ({@link ClangHeaderHelpers}).
 */
final class ClangWalker {
    /**
     * libclang's visits handed to a walker: JavaCPP allows ten callback objects of one class at once per process, so
     * the walkers of one walk of several files ({@code ClangParser.readHeaders}) share one (the walker that owns the cursor being copied is {@code current}).
     */
    static final class Visits extends CXCursorVisitor {
        ClangWalker current;

        @Override
        public int call(CXCursor c, CXCursor parent, CXClientData data) {
            return current.call(c, parent, data);
        }
    }

    final List<ClangNode> top = new ArrayList<>();
    final Map<String, List<List<String>>> templateArgs = new HashMap<>();
    /** "Type::member": the constant value of a static data member of a class a template is called with. */
    final Map<String, Double> memberConstants = new HashMap<>();

    private final ClangConstMembers constMembers = new ClangConstMembers();
    /** The min and max helpers of other files the unit's code names ({@link ClangHeaderHelpers}). */
    final ClangHeaderHelpers.Reader helpers = new ClangHeaderHelpers.Reader();

    private final java.util.Set<String> typesRead = new java.util.HashSet<>();
    private final java.util.Set<String> classesRead = new java.util.HashSet<>();

    /** The spellings of each type a cursor of this walk had, by Clang's opaque type pointer (see {@link #node}). */
    private final Map<Long, ClangTypeFacts> types = new HashMap<>();

    /** The record types whose template arguments {@link ClangTemplates#classArguments} read, by the same key. */
    private final java.util.Set<Long> recordsRead = new java.util.HashSet<>();

    final ArrayDeque<ClangNode> parents = new ArrayDeque<>();
    /** The file's text: its literals' values are read from it ({@link ClangLiterals}). */
    private final byte[] text;

    final int textLength;
    final IntPointer line = new IntPointer(1);
    final IntPointer col = new IntPointer(1);
    final IntPointer off = new IntPointer(1);
    int inTemplate;
    /** The main file, for code expanded from a macro in it (its cursors are located in the macro). */
    final CXFile main;

    final CXFile expandedIn = new CXFile();
    /**
     * Whether {@link #main} is a file the translation unit includes (not its main file): its cursors are those
     * whose expansion is in it, from its first inclusion only. A file included twice (a {@code .proto.c} with two
     * sets of name macros) has its lines once, as the hand-written front end reads it with its first includer's
     * macros; a later inclusion starts again at a lower offset of the file, which is where it is told apart.
     */
    boolean target;

    private int lastTopOffset = -1;
    boolean targetDone;

    /** The callback of libclang's visits of this walker: its own, or one that walkers share. */
    final Visits visits;

    private final boolean ownVisits;

    ClangWalker(byte[] text, CXFile main) {
        this(text, main, null);
    }

    ClangWalker(byte[] text, CXFile main, Visits shared) {
        this.text = text;
        textLength = text.length;
        this.main = main;
        ownVisits = shared == null;
        visits = ownVisits ? new Visits() : shared;
        if (ownVisits) visits.current = this;
    }

    /**
     * Whether a location Clang does not place in the main file is expanded there: code a macro expands to where
     * the main file uses it ({@code TO_COUNT(v[0])}) is the main file's code, at the macro's use.
     */
    private boolean expandedInMain(CXSourceLocation loc) {
        if (main == null || main.isNull()) return false;
        // a system header's macro (assert, isnan, FLT_MAX) expands to the library's code, not the project's
        if (clang_Location_isInSystemHeader(loc) != 0) return false;
        clang_getExpansionLocation(loc, expandedIn, (IntPointer) null, (IntPointer) null, (IntPointer) null);
        return !expandedIn.isNull() && clang_File_isEqual(expandedIn, main) != 0;
    }

    void walk(CXCursor root) {
        try {
            clang_visitChildren(root, visits, (CXClientData) null);
        } finally {
            release();
        }
    }

    void release() {
        line.close();
        col.close();
        off.close();
        if (ownVisits) visits.close();
    }

    /**
     * Copies the cursor {@code c} and its subtree. The structs libclang returns by value for it (a location, a type,
     * a string, a referenced cursor) are freed when its copy is done, not when the whole parse is: a 46,000-line file
     * (a texture transcoder, session 73 round D) kept a million cursors' structs alive and ran the worker's heap out.
     */
    int call(CXCursor c, CXCursor parent, CXClientData data) {
        try (PointerScope structs = new PointerScope()) {
            return copy(c, parent, data);
        }
    }

    private int copy(CXCursor c, CXCursor parent, CXClientData data) {
        CXSourceLocation loc = clang_getCursorLocation(c);
        if (target) {
            if (targetDone) return CXChildVisit_Continue;
            if (!expandedInMain(loc)) {
                // an include inside the unit's namespace or extern "C" block: its declarations are in there;
                // the unit's own code calls the file's templates: their arguments are the instantiations
                int k = clang_getCursorKind(c);
                if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) return CXChildVisit_Recurse;
                if (clang_Location_isFromMainFile(loc) == 0) return CXChildVisit_Continue;
                if (k == CXCursor_CallExpr) templateArguments(clang_getCursorReferenced(c));
                // and its objects of the file's class templates (CTensor<float> image;, new Grid<double>(n)):
                // their specializations instantiate the members
                if (OBJECTS.contains(k)) objectClass(clang_getCanonicalType(clang_getCursorType(c)));
                return CXChildVisit_Recurse;
            }
        } else if (clang_Location_isFromMainFile(loc) == 0 && !expandedInMain(loc)) {
            return CXChildVisit_Continue;
        }
        int kind = clang_getCursorKind(c);
        ClangNode n = node(c, kind, loc);
        ClangNode p = parents.peek();
        if (target && p == null) {
            // a second inclusion of the target starts again from the top: a cursor that ends before the start of
            // an earlier one (a declaration that only starts before it, as `typedef struct S {...} s;` after its
            // struct, is still the first inclusion's)
            int end = n.endOffset >= 0 ? n.endOffset : n.offset + 1;
            if (n.offset >= 0 && n.offset < lastTopOffset && end <= lastTopOffset) {
                targetDone = true;
                return CXChildVisit_Continue;
            }
            lastTopOffset = Math.max(lastTopOffset, n.offset);
        }
        if (p == null) {
            top.add(n);
        } else {
            n.parent = p;
            p.children.add(n);
        }
        if (kind == CXCursor_CallExpr) templateArguments(clang_getCursorReferenced(c));
        if (kind == CXCursor_DeclRefExpr) constantTable(c, n);
        if (kind == CXCursor_OverloadedDeclRef
                || kind == CXCursor_DeclRefExpr
                        && (n.canonKind == CXType_FunctionProto || n.canonKind == CXType_FunctionNoProto))
            helpers.callee(c, kind, main, this::foreign);
        // an explicit instantiation (template void f<float>(const float *)) names the arguments as a call does
        if (parents.size() < ClangParser.MAX_DEPTH
                && !LEAVES.contains(kind)
                && !ClangLiterals.integerTable(n, c, text)) {
            // a member of a class template defined outside its class is a template too: the specializations its
            // body names (CTensor<float> in CTensor<T>::downsample) are no instantiation of this file's code
            boolean tmpl = kind == CXCursor_FunctionTemplate
                    || kind == CXCursor_ClassTemplate
                    || kind == CXCursor_ClassTemplatePartialSpecialization
                    || ClangMemberTemplates.outOfLine(n) != null;
            if (tmpl) inTemplate++;
            parents.push(n);
            try {
                clang_visitChildren(c, visits, (CXClientData) null);
            } finally {
                parents.pop();
                if (tmpl) inTemplate--;
            }
        }
        if (cuda && ClangUnit.FUNCTION_KINDS.contains(kind) && foreign == 0) n.declaredSpaces = spaces.declared(c, n);
        return CXChildVisit_Continue;
    }

    /** The execution spaces a definition's declaration names ({@link ClangNode#declaredSpaces}). */
    private final ClangSpaces spaces = new ClangSpaces();

    /** Whether the unit is parsed as CUDA (execution spaces are read only there). */
    boolean cuda;

    /** The cursors of the includer's code whose type names an object's class (ClangParser's one walk too). */
    static final java.util.Set<Integer> OBJECTS =
            java.util.Set.of(CXCursor_VarDecl, CXCursor_FieldDecl, CXCursor_ParmDecl, CXCursor_CXXNewExpr);

    /** The class template arguments of an object's type, through pointers and references. */
    void objectClass(CXType t) {
        for (int i = 0;
                i < 4
                        && (t.kind() == CXType_Pointer
                                || t.kind() == CXType_LValueReference
                                || t.kind() == CXType_RValueReference);
                i++) {
            t = clang_getCanonicalType(clang_getPointeeType(t));
        }
        if (t.kind() == CXType_Record) ClangTemplates.classArguments(t, 0, classesRead, templateArgs);
    }

    /** A cursor of another file (a callee's definition), copied as a template's: nothing evaluated or recorded. */
    private ClangNode foreign(CXCursor c) {
        inTemplate++;
        foreign++;
        try {
            return node(c, clang_getCursorKind(c), clang_getCursorLocation(c));
        } finally {
            inTemplate--;
            foreign--;
        }
    }

    /** Above zero while a cursor of another file is copied: its offsets are not into {@link #text}. */
    private int foreign;

    private ClangNode node(CXCursor c, int kind, CXSourceLocation loc) {
        // the file location: where the user wrote the code, the macro's use for code of a macro's body, the
        // argument's own text for code of a macro's argument (min(m, (size_t)ceil(x)) expands the cast twice,
        // both at the cast's text: one site, as the hand-written front end reads it)
        clang_getFileLocation(loc, (CXFile) null, line, col, off);
        int l = line.get();
        int cl = col.get();
        CXSourceRange ext = clang_getCursorExtent(c);
        clang_getFileLocation(clang_getRangeStart(ext), (CXFile) null, line, col, off);
        int startOff = off.get();
        clang_getFileLocation(clang_getRangeEnd(ext), (CXFile) null, line, col, off);
        int el = line.get();
        int ec = col.get();
        int endOff = off.get();
        if (foreign == 0 && startOff >= 0 && endOff >= startOff && endOff < textLength) {
            // the end libclang maps to a macro's name inside another macro's argument: the end of that use
            int past = ClangNestedMacros.end(text, startOff, endOff);
            for (int i = endOff; i < past; i++) {
                if (text[i] == '\n') {
                    el++;
                    ec = 1;
                } else {
                    ec++;
                }
            }
            endOff = past;
        }
        if (startOff < 0 || endOff > textLength || endOff < startOff) {
            startOff = -1;
            endOff = -1;
        }
        // libclang spells a statement only when it is a label, and an expression only when it is a string
        // literal, an operator or one that names a declaration (a reference, a call, a member, an implicit cast
        // of those); a statement has no type: those calls are not made for the cursors that cannot have them
        boolean statement = kind >= CXCursor_FirstStmt && kind <= CXCursor_LastStmt;
        String spelling = kind == CXCursor_UnaryOperator
                ? clang_getUnaryOperatorKindSpelling(clang_getCursorUnaryOperatorKind(c))
                        .getString()
                : statement && kind != CXCursor_LabelStmt || UNSPELLED.contains(kind)
                        ? ""
                        : clang_getCursorSpelling(c).getString();
        CXType t = statement ? null : clang_getCursorType(c);
        String type = "";
        int canonKind = 0;
        String canon = "";
        int pointeeKind = 0;
        String pointee = null;
        if (t != null && t.kind() != CXType_Invalid) {
            // one type's spellings are asked once per walk: most cursors of a unit share a few types (float,
            // int, a pointer to float), and printing a type is the dearest call of a cursor's copy
            long key = t.data(0).address();
            ClangTypeFacts f = key == 0 ? null : types.get(key);
            if (f == null) {
                f = ClangTypeFacts.of(t);
                if (key != 0) types.put(key, f);
            }
            type = f.type();
            canonKind = f.canonKind();
            canon = f.canon();
            pointeeKind = f.pointeeKind();
            pointee = f.pointee();
            if (canonKind == CXType_Enum
                    && (kind == CXCursor_CStyleCastExpr
                            || kind == CXCursor_CXXStaticCastExpr
                            || kind == CXCursor_CXXFunctionalCastExpr)) {
                // a cast to an enum converts to its underlying integer type: unsigned int for a C enum whose
                // enumerators are all non-negative ((nlopt_algorithm) of a double parameter)
                CXType ct = clang_getCanonicalType(t);
                CXType under = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(ct)));
                if (under.kind() != CXType_Invalid) canonKind = under.kind();
            }
            if (canonKind == CXType_Record && inTemplate == 0 && (key == 0 || recordsRead.add(key)))
                ClangTemplates.classArguments(clang_getCanonicalType(t), 0, classesRead, templateArgs);
        }
        Double value = null;
        if (kind >= CXCursor_FirstExpr && kind <= CXCursor_LastExpr && arithmetic(canonKind)) {
            boolean literal = kind == CXCursor_IntegerLiteral || kind == CXCursor_FloatingLiteral;
            // a literal's value is read from its text where it is written there (not from a macro's body)
            if (literal && foreign == 0) value = ClangLiterals.value(kind, text, startOff, endOff);
            // a value-dependent expression of a template pattern is not evaluated (Clang asserts on it)
            if (value == null && (literal || inTemplate == 0)) value = evaluate(c);
        }
        String ref = null;
        String refUsr = null;
        if (kind == CXCursor_DeclRefExpr
                || kind == CXCursor_MemberRefExpr
                || kind == CXCursor_CallExpr
                || kind == CXCursor_OverloadedDeclRef) {
            CXCursor r = clang_getCursorReferenced(c);
            if (clang_Cursor_isNull(r) == 0) {
                ref = clang_getCursorSpelling(r).getString();
                // a call of a function template's specialization refers to the template, whose body the unit holds
                // (sqr<double>(r) returns the pattern's x * x, session 82)
                CXCursor tmpl = kind == CXCursor_CallExpr && clang_getCursorKind(r) == CXCursor_FunctionDecl
                        ? clang_getSpecializedCursorTemplate(r)
                        : null;
                refUsr = clang_getCursorUSR(tmpl != null && clang_Cursor_isNull(tmpl) == 0 ? tmpl : r)
                        .getString();
            }
            if (ref == null || ref.isEmpty()) ref = spelling;
            if (value == null && inTemplate > 0 && kind == CXCursor_DeclRefExpr && arithmetic(canonKind))
                value = literalConstant(r, refUsr);
            // a const member with a constant in-class initializer no constructor replaces
            if (value == null && inTemplate == 0 && kind == CXCursor_MemberRefExpr && arithmetic(canonKind))
                value = constMembers.of(r);
        }
        String usr = null;
        if (kind >= CXCursor_FirstDecl && kind <= CXCursor_LastDecl
                || kind >= CXCursor_FirstExtraDecl && kind <= CXCursor_LastExtraDecl)
            usr = clang_getCursorUSR(c).getString();
        return new ClangNode(
                kind,
                spelling,
                type,
                canonKind,
                canon,
                pointeeKind,
                pointee,
                l,
                cl,
                el,
                ec,
                startOff,
                endOff,
                value,
                ref,
                refUsr,
                usr);
    }

    /**
     * The type arguments of a function template's specialization {@code r} (what a call refers to, or an explicit
     * instantiation), recorded per template.
     */
    void templateArguments(CXCursor r) {
        if (clang_Cursor_isNull(r) != 0) return;
        CXCursor tmpl = clang_getSpecializedCursorTemplate(r);
        if (clang_Cursor_isNull(tmpl) != 0) return;
        int n = clang_Cursor_getNumTemplateArguments(r);
        if (n <= 0) return;
        List<String> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            if (clang_Cursor_getTemplateArgumentKind(r, i) == CXTemplateArgumentKind_Type) {
                CXType at = clang_getCanonicalType(clang_Cursor_getTemplateArgumentType(r, i));
                String spelling = clang_getTypeSpelling(at).getString();
                args.add(spelling);
                memberConstants(at, spelling);
                ClangTemplates.classArguments(at, 0, classesRead, templateArgs);
            } else {
                args.add(null);
            }
        }
        List<List<String>> all =
                templateArgs.computeIfAbsent(clang_getCursorUSR(tmpl).getString(), k -> new ArrayList<>());
        if (!all.contains(args)) all.add(args);
    }

    /**
     * Records the constant static data members of the class {@code type} ({@code struct Config { static constexpr int
     * kKernelSize = 3; };}) under "spelling::name": a template's {@code Config::kKernelSize} is that value in the
     * instantiation with {@code Config = spelling} (its loops' trip counts). Read once per type, wherever the class is
     * declared (a header too).
     */
    void memberConstants(CXType type, String spelling) {
        if (type.kind() != CXType_Record || !typesRead.add(spelling)) return;
        CXCursor decl = clang_getTypeDeclaration(type);
        if (clang_Cursor_isNull(decl) != 0) return;
        int k = clang_getCursorKind(decl);
        if (k != CXCursor_StructDecl && k != CXCursor_ClassDecl) return;
        Map<String, Double> out = memberConstants;
        CXCursorVisitor members = new CXCursorVisitor() {
            @Override
            public int call(CXCursor c, CXCursor parent, CXClientData data) {
                if (out.size() >= ClangParser.MAX_MEMBER_CONSTANTS) return CXChildVisit_Break;
                if (clang_getCursorKind(c) != CXCursor_VarDecl) return CXChildVisit_Continue;
                int t = clang_getCanonicalType(clang_getCursorType(c)).kind();
                if (t < CXType_Bool || t > CXType_Int128) return CXChildVisit_Continue; // integral members only
                Double v = evaluate(c);
                if (v != null)
                    out.put(spelling + "::" + clang_getCursorSpelling(c).getString(), v);
                return CXChildVisit_Continue;
            }
        };
        try {
            clang_visitChildren(decl, members, (CXClientData) null);
        } finally {
            members.close();
        }
    }

    /** The key prefix of a constant table's bounds among the unit's constants ({@link #constantTable}). */
    static final String TABLE = "table:";

    private final java.util.Set<String> tablesRead = new java.util.HashSet<>();

    /**
     * Records the bounds of the elements of the const array {@code ref} names ({@code const float parula[256][3] =
     * {...}}, a colormap in a header) under "table:USR:lo" and ":hi" with the constants: the least and the greatest
     * value of its initializer, 0 among them when the initializer is shorter than the array; nothing when an element is
     * no constant or the array is not const. Read once per array, wherever it is defined. A const {@code std::array}
     * counts as a const array, a reference bound to one as that array; ":dyadic" records the binary digits after the
     * point its elements need when no more than {@link #MAX_DYADIC} ({@code 1/16, 2/16, 4/16}: 4), ":pos" and ":neg" the
     * sums of its positive and of its negative elements (ClangTables).
     */
    void constantTable(CXCursor ref, ClangNode n) {
        if (n.refUsr == null || n.canon == null) return;
        // a CUDA __constant__ array with an initializer that no cudaMemcpyToSymbol of this file overwrites: device code
        // cannot write it (session 85 round AL: Sobel coefficients in __constant__ float tables, times bytes)
        if (!n.canon.startsWith("const ") && !deviceConstant(ref, n)) return;
        // a std::array of numbers (constexpr std::array<float, 9> GAUSS_3X3{...}: session 70 round D, an image
        // library's convolution kernels), read through operator[] (ClangTables)
        java.util.regex.Matcher std = STD_ARRAY.matcher(n.canon);
        boolean array = n.canonKind == CXType_ConstantArray;
        if (!array && (n.canonKind != CXType_Record || !std.matches())) return;
        if (!tablesRead.add(n.refUsr) || memberConstants.size() >= ClangParser.MAX_MEMBER_CONSTANTS) return;
        CXCursor decl = clang_getCursorReferenced(ref);
        if (clang_Cursor_isNull(decl) != 0 || clang_getCursorKind(decl) != CXCursor_VarDecl) return;
        // a reference bound to a table (auto &weights = GAUSS_3X3;) reads that table's elements
        if (clang_getCursorType(decl).kind() == CXType_LValueReference) decl = boundTable(decl);
        if (decl == null) return;
        long total = 1;
        CXType t = clang_getCanonicalType(clang_getCursorType(decl));
        if (!array) {
            total = Long.parseLong(std.group(2));
        } else {
            while (t.kind() == CXType_ConstantArray && total < (1L << 24)) {
                total *= Math.max(0, clang_getArraySize(t));
                t = clang_getCanonicalType(clang_getArrayElementType(t));
            }
            if (t.kind() < CXType_Bool || t.kind() > CXType_LongDouble) return;
        }
        if (total <= 0 || total >= (1L << 20)) return;
        long size = total;
        double[] b = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        long[] count = {0};
        int[] dyadic = {0};
        double[] sums = {0, 0}; // of the positive and of the negative elements
        boolean[] bad = {false};
        CXCursorVisitor elements = new CXCursorVisitor() {
            @Override
            public int call(CXCursor c, CXCursor parent, CXClientData data) {
                int k = clang_getCursorKind(c);
                if (k == CXCursor_InitListExpr) return CXChildVisit_Recurse;
                if (clang_getCursorKind(parent) != CXCursor_InitListExpr) return CXChildVisit_Continue;
                Double v = evaluate(c);
                if (v == null || v.isNaN() || ++count[0] > size) {
                    bad[0] = true;
                    return CXChildVisit_Break;
                }
                b[0] = Math.min(b[0], v);
                b[1] = Math.max(b[1], v);
                dyadic[0] = Math.max(dyadic[0], dyadicDigits(v));
                sums[v > 0 ? 0 : 1] += v;
                return CXChildVisit_Continue;
            }
        };
        try {
            clang_visitChildren(decl, elements, (CXClientData) null);
        } finally {
            elements.close();
        }
        if (bad[0] || count[0] == 0) return;
        if (count[0] < total) {
            b[0] = Math.min(b[0], 0);
            b[1] = Math.max(b[1], 0);
        }
        memberConstants.put(TABLE + n.refUsr + ":lo", b[0]);
        memberConstants.put(TABLE + n.refUsr + ":hi", b[1]);
        if (dyadic[0] <= MAX_DYADIC) memberConstants.put(TABLE + n.refUsr + ":dyadic", (double) dyadic[0]);
        memberConstants.put(TABLE + n.refUsr + ":pos", sums[0]);
        memberConstants.put(TABLE + n.refUsr + ":neg", sums[1]);
    }

    /**
     * Whether the array {@code n} names is a CUDA {@code __constant__} variable that the main file never names in a
     * copy to a symbol ({@code cudaMemcpyToSymbol}, its asynchronous form, {@code cudaGetSymbolAddress}): its
     * initializer is then its value for every kernel of the unit.
     */
    private boolean deviceConstant(CXCursor ref, ClangNode n) {
        if (n.canonKind != CXType_ConstantArray || n.spelling == null || n.spelling.isEmpty()) return false;
        return deviceConstants.computeIfAbsent(n.refUsr, k -> deviceConstantDecl(ref, n));
    }

    /** {@link #deviceConstant} of each array (by USR), decided once per unit. */
    private final Map<String, Boolean> deviceConstants = new HashMap<>();

    private boolean deviceConstantDecl(CXCursor ref, ClangNode n) {
        CXCursor decl = clang_getCursorReferenced(ref);
        if (clang_Cursor_isNull(decl) != 0 || clang_getCursorKind(decl) != CXCursor_VarDecl) return false;
        boolean[] attr = {false};
        CXCursorVisitor v = new CXCursorVisitor() {
            @Override
            public int call(CXCursor c, CXCursor parent, CXClientData data) {
                if (clang_getCursorKind(c) == CXCursor_CUDAConstantAttr) {
                    attr[0] = true;
                    return CXChildVisit_Break;
                }
                return CXChildVisit_Continue;
            }
        };
        try {
            clang_visitChildren(decl, v, (CXClientData) null);
        } finally {
            v.close();
        }
        if (!attr[0]) return false;
        String src = new String(text, java.nio.charset.StandardCharsets.UTF_8);
        return !java.util.regex.Pattern.compile("cuda(?:MemcpyToSymbol(?:Async)?|GetSymbolAddress)\\s*\\([^;]*\\b"
                        + java.util.regex.Pattern.quote(n.spelling) + "\\b")
                .matcher(src)
                .find();
    }

    /** A constant std::array of numbers, {@code const std::array<float, 9>} (libc++'s {@code std::__1::}): type, size. */
    private static final java.util.regex.Pattern STD_ARRAY = java.util.regex.Pattern.compile(
            "const std::(?:__1::|__cxx11::)?array<((?:unsigned |signed |long )*(?:float|double|int|short|char|long))"
                    + ", (\\d{1,7})>");

    /** The most binary digits after the point a table's elements may have to be recorded as dyadic ({@link #TABLE}). */
    static final int MAX_DYADIC = 8;

    /**
     * The table declaration a reference {@code decl} is bound to ({@code auto &w = K;} with {@code K} a const table),
     * or null when its initializer names no variable.
     */
    private static CXCursor boundTable(CXCursor decl) {
        CXCursor[] found = {null};
        CXCursorVisitor v = new CXCursorVisitor() {
            @Override
            public int call(CXCursor c, CXCursor parent, CXClientData data) {
                int k = clang_getCursorKind(c);
                if (k == CXCursor_DeclRefExpr) {
                    CXCursor d = clang_getCursorReferenced(c);
                    if (clang_Cursor_isNull(d) == 0 && clang_getCursorKind(d) == CXCursor_VarDecl) found[0] = d;
                    return CXChildVisit_Break;
                }
                return k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr
                        ? CXChildVisit_Recurse
                        : CXChildVisit_Continue;
            }
        };
        try {
            clang_visitChildren(decl, v, (CXClientData) null);
        } finally {
            v.close();
        }
        return found[0];
    }

    /**
     * The binary digits after the point that {@code v} needs (0 for a whole number, 4 for 3/16), MAX_DYADIC + 1 when
     * more, or when its numerator has more than 8 bits (a kernel's taps: 1/16, 6/256; ClangTables).
     */
    private static int dyadicDigits(double v) {
        for (int m = 0; m <= MAX_DYADIC; m++) {
            double scaled = Math.scalb(v, m);
            if (scaled == Math.rint(scaled)) return Math.abs(scaled) < (1 << 8) ? m : MAX_DYADIC + 1;
        }
        return MAX_DYADIC + 1;
    }

    /** Expression kinds libclang never spells: literals (not strings), parentheses, subscripts, explicit casts. */
    private static final java.util.Set<Integer> UNSPELLED = java.util.Set.of(
            CXCursor_IntegerLiteral,
            CXCursor_FloatingLiteral,
            CXCursor_ImaginaryLiteral,
            CXCursor_CharacterLiteral,
            CXCursor_CXXBoolLiteralExpr,
            CXCursor_ParenExpr,
            CXCursor_ArraySubscriptExpr,
            CXCursor_CStyleCastExpr,
            CXCursor_CXXStaticCastExpr,
            CXCursor_CXXReinterpretCastExpr,
            CXCursor_CXXConstCastExpr,
            CXCursor_InitListExpr,
            CXCursor_ConditionalOperator);

    /** Kinds that have no children: their children are not asked for. */
    private static final java.util.Set<Integer> LEAVES = java.util.Set.of(
            CXCursor_IntegerLiteral,
            CXCursor_FloatingLiteral,
            CXCursor_CharacterLiteral,
            CXCursor_StringLiteral,
            CXCursor_CXXBoolLiteralExpr,
            CXCursor_CXXNullPtrLiteralExpr,
            CXCursor_GNUNullExpr);

    static boolean arithmetic(int canonKind) {
        return canonKind >= CXType_Bool && canonKind <= CXType_LongDouble
                || canonKind == CXType_Float16
                || canonKind == CXType_Half
                || canonKind == CXType_Enum;
    }

    /** The values of the constants {@link #literalConstant} read, by unified symbol name (NaN: none). */
    private final Map<String, Double> literalConstants = new HashMap<>();

    /**
     * The value of the const variable {@code decl} when its initializer is a literal ({@code static constexpr int
     * vstep = 8;} in a class template): a template pattern's expressions are not evaluated (above), but a reference to
     * such a constant has its value in every instantiation, so a pattern's {@code count * vstep} is a multiple of 8
     * (session 62 round A, a SIMD kernel's remainder loops). Null for anything else, an initializer that is no literal
     * ({@code vsize / vstep}) among them. An explicit specialization of a static data member may give it another
     * value in one instantiation; the primary template's is taken.
     */
    private Double literalConstant(CXCursor decl, String usr) {
        if (usr == null || usr.isEmpty() || clang_Cursor_isNull(decl) != 0) return null;
        Double known = literalConstants.get(usr);
        if (known != null) return known.isNaN() ? null : known;
        Double v = null;
        if (clang_getCursorKind(decl) == CXCursor_VarDecl
                && clang_isConstQualifiedType(clang_getCursorType(decl)) != 0) {
            // the initializer is the last child (a type reference may come first)
            Double[] last = {null};
            CXCursorVisitor children = new CXCursorVisitor() {
                @Override
                public int call(CXCursor c, CXCursor parent, CXClientData data) {
                    last[0] = clang_getCursorKind(c) == CXCursor_IntegerLiteral ? evaluate(c) : null;
                    return CXChildVisit_Continue;
                }
            };
            try {
                clang_visitChildren(decl, children, (CXClientData) null);
            } finally {
                children.close();
            }
            v = last[0];
        }
        if (literalConstants.size() < ClangParser.MAX_MEMBER_CONSTANTS)
            literalConstants.put(usr, v == null ? Double.NaN : v);
        return v;
    }

    static Double evaluate(CXCursor c) {
        CXEvalResult r = clang_Cursor_Evaluate(c);
        if (r == null || r.isNull()) return null;
        try {
            int k = clang_EvalResult_getKind(r);
            if (k == CXEval_Int) {
                return clang_EvalResult_isUnsignedInt(r) != 0
                        ? (double) clang_EvalResult_getAsUnsigned(r)
                        : (double) clang_EvalResult_getAsLongLong(r);
            }
            if (k == CXEval_Float) return clang_EvalResult_getAsDouble(r);
            return null;
        } finally {
            clang_EvalResult_dispose(r);
        }
    }
}
