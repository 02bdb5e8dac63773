package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code long double} declarations and casts of a {@link ClangUnit}'s functions, by Clang's canonical types (a
 * typedef or a macro that names the type is seen through): the return type or the first parameter of a function,
 * each local declaration and each cast to {@code long double}. Each carries what introduces the type in the file (the
 * macro or typedef it is written with, or the declaration, whose variables share it), so that the check reports one
 * finding per origin, and whether the function provides {@code long double} on purpose (a specialisation of a
 * template for it). One named analysis of the unit ({@link ClangUnit#longDoubles()}), computed on first request.
 */
final class ClangLongDoubles {
    private static final Pattern LONG_DOUBLE_VALUE = Pattern.compile("(const )?(volatile )?long double( &&?)?");
    private static final Pattern SPECIALISATION = Pattern.compile("(?s).*<\\s*long\\s+double\\s*>.*");
    private static final Pattern QUALIFIERS =
            Pattern.compile("^(\\s*\\b(static|const|volatile|register|extern|inline|constexpr|thread_local)\\b)*\\s*");

    private final ClangUnit unit;

    ClangLongDoubles(ClangUnit unit) {
        this.unit = unit;
    }

    /**
     * One {@code long double} in a function.
     *
     * @param node       the declaration or the cast
     * @param what       "'s'", "parameter 'x'", "return type of 'f'", "cast (long double)x"
     * @param origin     "macro REAL", "typedef wide_t" or "declaration 12:5" (the variables of one declaration
     *                   share it); null for a parameter, a return type or a cast
     * @param deliberate why the type is there on purpose ("a specialisation for long double"), or null
     */
    record LongDouble(ClangNode node, String what, String origin, String deliberate, ClangUnit.Function in) {}

    List<LongDouble> compute() {
        List<LongDouble> out = new ArrayList<>();
        for (ClangUnit.Function fn : unit.functions()) {
            ClangNode f = fn.node();
            String deliberate = specialisation(fn)
                    ? "a specialisation for long double"
                    : longDoubleInterface(f) ? dev.numlint.cuda.facts.FunctionFacts.LongDouble.INTERFACE : null;
            // the signature: the return type wins over the first long double parameter (one finding)
            ClangNode param = null;
            for (ClangNode c : f.children) {
                if (c.kind == CXCursor_ParmDecl
                        && LONG_DOUBLE_VALUE.matcher(c.canon).matches()) {
                    param = c;
                    break;
                }
            }
            String simple = fn.name().substring(fn.name().lastIndexOf(':') + 1);
            if (f.canon.startsWith("long double (") || f.canon.startsWith("long double(")) {
                out.add(new LongDouble(f, "return type of '" + simple + "'", null, deliberate, fn));
            } else if (param != null) {
                String why = deliberate == null && onlyNarrowed(f, param.usr)
                        ? dev.numlint.cuda.facts.FunctionFacts.LongDouble.NARROWED
                        : deliberate;
                out.add(new LongDouble(param, "parameter '" + param.spelling + "'", null, why, fn));
            }
            for (ClangNode c : f.children) {
                if (c.kind != CXCursor_CompoundStmt) continue;
                c.forEach(n -> {
                    if (n.canonKind != CXType_LongDouble) return;
                    if (n.kind == CXCursor_VarDecl) {
                        out.add(new LongDouble(n, "'" + n.spelling + "'", origin(n), deliberate, fn));
                    } else if (n.kind == CXCursor_CStyleCastExpr
                            || n.kind == CXCursor_CXXStaticCastExpr
                            || n.kind == CXCursor_CXXFunctionalCastExpr) {
                        out.add(new LongDouble(n, "cast " + unit.text(n), null, deliberate, fn));
                    }
                });
            }
        }
        return List.copyOf(out);
    }

    /**
     * What introduces a local's {@code long double}: a typedef (the type as written names it), a macro (the
     * declaration's text does not start with the type's words), or the declaration itself; the variables of one
     * declaration ({@code long double a, b;}) share it (libclang's extent of a variable after the first starts at its
     * name: the statement's is read).
     */
    private String origin(ClangNode decl) {
        String written = decl.type.replaceAll("\\b(const|volatile)\\b", "").trim();
        if (!written.equals("long double") && written.matches("[A-Za-z_][\\w:]*")) return "typedef " + written;
        if (decl.parent != null && decl.parent.kind == CXCursor_DeclStmt) decl = decl.parent;
        String text = unit.text(decl);
        String rest = QUALIFIERS.matcher(text).replaceFirst("");
        java.util.regex.Matcher m = Pattern.compile("^[A-Za-z_]\\w*").matcher(rest);
        if (m.find() && !m.group().equals("long") && !m.group().equals("double")) return "macro " + m.group();
        return "declaration " + decl.offset;
    }

    /**
     * Whether every use of the parameter {@code usr} in the body of {@code f} converts it to {@code double} or {@code
     * float} (a cast, or an implicit conversion by a return, an assignment or an argument), and there is one: no
     * operation of the function is done in long double (session 56: a graph optimizer's {@code constexpr double
     * cst(long double v) { return (double)v; }}, which takes literals in long double and hands them back in double).
     */
    private static boolean onlyNarrowed(ClangNode f, String usr) {
        if (usr == null) return false;
        int[] uses = {0};
        boolean[] other = {false};
        for (ClangNode c : f.children) {
            if (c.kind != CXCursor_CompoundStmt) continue;
            c.forEach(n -> {
                if (other[0] || n.kind != CXCursor_DeclRefExpr || !usr.equals(n.refUsr)) return;
                uses[0]++;
                ClangNode x = n;
                while (x.parent != null
                        && (x.parent.kind == CXCursor_ParenExpr
                                || x.parent.kind == CXCursor_UnexposedExpr && x.parent.canonKind == CXType_LongDouble))
                    x = x.parent;
                ClangNode p = x.parent;
                boolean narrowed = p != null
                        && (p.kind == CXCursor_CStyleCastExpr
                                || p.kind == CXCursor_CXXStaticCastExpr
                                || p.kind == CXCursor_CXXFunctionalCastExpr
                                || p.kind == CXCursor_UnexposedExpr)
                        && (p.canonKind == CXType_Double || p.canonKind == CXType_Float);
                if (!narrowed) other[0] = true;
            });
        }
        return uses[0] > 0 && !other[0];
    }

    /**
     * Whether the function's signature is a long double interface ({@code long double expm1l(long double x)}): a
     * parameter of type long double (or a pointer or reference to it) and no other floating type among the parameters
     * and the result. The caller chose long double; the function provides it on purpose.
     */
    private static boolean longDoubleInterface(ClangNode f) {
        boolean wide = false;
        for (ClangNode c : f.children) {
            if (c.kind != CXCursor_ParmDecl) continue;
            int kind = floating(c.canon);
            if (kind < 0) return false;
            if (kind > 0) wide = true;
        }
        int paren = f.canon.indexOf('(');
        return wide && paren > 0 && floating(f.canon.substring(0, paren)) >= 0;
    }

    /** 1 when a type's spelling is long double (through pointers, references, qualifiers), -1 another floating type. */
    private static int floating(String canon) {
        if (canon.contains("(")) return -1; // a function pointer: not a plain interface
        if (canon.matches(".*\\blong double\\b.*"))
            return canon.replace("long double", "").matches(".*\\b(float|double|__half|half|__nv_bfloat16)\\b.*")
                    ? -1
                    : 1;
        return canon.matches(".*\\b(float|double|__half|half|__nv_bfloat16|_Float16|__float128)\\b.*") ? -1 : 0;
    }

    /**
     * Whether the function provides {@code long double} on purpose: it, or a class it is a member of, is an explicit
     * specialisation of a template for {@code long double} ({@code template <> long double f<long double>()}).
     */
    private boolean specialisation(ClangUnit.Function fn) {
        ClangNode f = fn.node();
        ClangNode body = null;
        for (ClangNode c : f.children) if (c.kind == CXCursor_CompoundStmt) body = c;
        if (body != null && f.offset >= 0 && body.offset > f.offset) {
            String head = unit.text(f);
            head = head.substring(0, Math.min(head.length(), body.offset - f.offset));
            int paren = head.indexOf('(');
            if (paren > 0 && SPECIALISATION.matcher(head.substring(0, paren)).matches()) return true;
        }
        for (ClangNode p = f.parent; p != null; p = p.parent) {
            if ((p.kind == CXCursor_StructDecl || p.kind == CXCursor_ClassDecl)
                    && SPECIALISATION.matcher(p.type).matches()) return true;
        }
        return false;
    }
}
