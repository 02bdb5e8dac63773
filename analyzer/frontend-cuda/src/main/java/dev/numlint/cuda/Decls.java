package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Hand-written reading of declaration token runs: specifiers to types, declarators, parameter lists. */
final class Decls {
    private Decls() {}

    /** One declarator: its name, pointer depth, array dimensions, initializer and (for functions) parameters. */
    static final class Declarator {
        String name;
        int line;
        /** 1-based column of the name (UTF-16 code units). */
        int col;

        int pointers;
        int arrays;
        List<PToken> init;
        List<PToken> params;
        boolean reference;
    }

    static int match(List<PToken> t, int open, int to) {
        int o = t.get(open).getType();
        int c = o == CudaLexer.LPAREN
                ? CudaLexer.RPAREN
                : o == CudaLexer.LBRACKET
                        ? CudaLexer.RBRACKET
                        : o == CudaLexer.LBRACE ? CudaLexer.RBRACE : CudaLexer.GT;
        int depth = 0;
        for (int i = open; i < to; i++) {
            int ty = t.get(i).getType();
            if (ty == o) depth++;
            else if (ty == c && --depth == 0) return i;
        }
        return to - 1;
    }

    /** Removes __attribute__((...)), __align__(n), __launch_bounds__(...), __declspec(...), [[...]]. */
    static List<PToken> stripAttributes(List<PToken> in) {
        List<PToken> out = new ArrayList<>(in.size());
        for (int i = 0; i < in.size(); i++) {
            int ty = in.get(i).getType();
            if ((ty == CudaLexer.GNU_ATTRIBUTE
                            || ty == CudaLexer.ALIGN
                            || ty == CudaLexer.LAUNCH_BOUNDS
                            || ty == CudaLexer.DECLSPEC)
                    && i + 1 < in.size()
                    && in.get(i + 1).getType() == CudaLexer.LPAREN) {
                i = match(in, i + 1, in.size());
                continue;
            }
            if (ty == CudaLexer.LBRACKET && i + 1 < in.size() && in.get(i + 1).getType() == CudaLexer.LBRACKET) {
                i = match(in, i, in.size());
                continue;
            }
            out.add(in.get(i));
        }
        return out;
    }

    /** Splits at depth-0 commas. */
    static List<List<PToken>> splitCommas(List<PToken> t) {
        List<List<PToken>> res = new ArrayList<>();
        int depth = 0;
        int angle = 0;
        int start = 0;
        for (int i = 0; i < t.size(); i++) {
            int ty = t.get(i).getType();
            if (ty == CudaLexer.LPAREN || ty == CudaLexer.LBRACKET || ty == CudaLexer.LBRACE) depth++;
            else if (ty == CudaLexer.RPAREN || ty == CudaLexer.RBRACKET || ty == CudaLexer.RBRACE) depth--;
            else if (ty == CudaLexer.LT
                    && depth == 0
                    && i > 0
                    && t.get(i - 1).getType() == CudaLexer.IDENTIFIER
                    && angleCloses(t, i)) angle++;
            else if (ty == CudaLexer.GT && depth == 0 && angle > 0) angle--;
            else if (ty == CudaLexer.COMMA && depth == 0 && angle == 0) {
                res.add(t.subList(start, i));
                start = i + 1;
            }
        }
        res.add(t.subList(start, t.size()));
        return res;
    }

    private static boolean angleCloses(List<PToken> t, int i) {
        int d = 0;
        for (int j = i; j < t.size() && j < i + 40; j++) {
            int ty = t.get(j).getType();
            if (ty == CudaLexer.LT) d++;
            else if (ty == CudaLexer.GT && --d == 0) return true;
            else if (ty == CudaLexer.SEMI || ty == CudaLexer.LBRACE || ty == CudaLexer.ASSIGN) return false;
        }
        return false;
    }

    static final Set<Integer> QUALIFIERS = Set.of(
            CudaLexer.STATIC,
            CudaLexer.EXTERN,
            CudaLexer.INLINE,
            CudaLexer.REGISTER,
            CudaLexer.MUTABLE,
            CudaLexer.CONSTEXPR,
            CudaLexer.VIRTUAL,
            CudaLexer.EXPLICIT,
            CudaLexer.FRIEND,
            CudaLexer.THREAD_LOCAL,
            CudaLexer.GLOBAL,
            CudaLexer.DEVICE,
            CudaLexer.HOST,
            CudaLexer.SHARED,
            CudaLexer.CONSTANT,
            CudaLexer.MANAGED,
            CudaLexer.FORCEINLINE,
            CudaLexer.NOINLINE,
            CudaLexer.EXTENSION,
            CudaLexer.CONST,
            CudaLexer.VOLATILE,
            CudaLexer.RESTRICT,
            CudaLexer.TYPENAME,
            CudaLexer.GRID_CONSTANT,
            CudaLexer.TYPEDEF);

    /**
     * Type named by declaration specifiers (qualifiers, builtin keywords, a (qualified) type name, struct X).
     * Template instances and unknown names give UNKNOWN.
     */
    static CType specType(List<PToken> specs, FileScope scope, Set<String> templateParams) {
        int unsignedN = 0;
        int signedN = 0;
        int shortN = 0;
        int longN = 0;
        int intN = 0;
        int charN = 0;
        boolean fl = false;
        boolean dbl = false;
        boolean bool = false;
        boolean voidT = false;
        boolean auto = false;
        String named = null;
        boolean templated = false;
        for (int i = 0; i < specs.size(); i++) {
            PToken t = specs.get(i);
            switch (t.getType()) {
                case CudaLexer.UNSIGNED:
                    unsignedN++;
                    break;
                case CudaLexer.SIGNED:
                    signedN++;
                    break;
                case CudaLexer.SHORT:
                    shortN++;
                    break;
                case CudaLexer.LONG:
                    longN++;
                    break;
                case CudaLexer.INT:
                    intN++;
                    break;
                case CudaLexer.CHAR:
                    charN++;
                    break;
                case CudaLexer.FLOAT:
                    fl = true;
                    break;
                case CudaLexer.DOUBLE:
                    dbl = true;
                    break;
                case CudaLexer.BOOL:
                    bool = true;
                    break;
                case CudaLexer.VOID:
                    voidT = true;
                    break;
                case CudaLexer.AUTO:
                    auto = true;
                    break;
                case CudaLexer.LT: {
                    int j = match(specs, i, specs.size());
                    i = j;
                    templated = true;
                    break;
                }
                case CudaLexer.IDENTIFIER:
                    if (named == null || (i > 0 && specs.get(i - 1).getType() == CudaLexer.SCOPE)) {
                        named = (named != null && i > 0 && specs.get(i - 1).getType() == CudaLexer.SCOPE)
                                ? named + "::" + t.getText()
                                : t.getText();
                        templated = false;
                    }
                    break;
                case CudaLexer.STRUCT:
                case CudaLexer.CLASS:
                case CudaLexer.UNION:
                case CudaLexer.ENUM:
                    if (i + 1 < specs.size() && specs.get(i + 1).getType() == CudaLexer.IDENTIFIER) {
                        String n = specs.get(i + 1).getText();
                        CType k = scope.lookupType(n);
                        return t.getType() == CudaLexer.ENUM ? CType.INT : k != null ? k : CType.struct(n);
                    }
                    return CType.UNKNOWN;
                default:
                    break;
            }
        }
        if (auto) return null; // deduce from initializer
        if (fl) return CType.FLOAT;
        if (dbl) return longN > 0 ? CType.LONG_DOUBLE : CType.DOUBLE;
        if (bool) return CType.BOOL;
        if (voidT) return CType.VOID;
        if (charN > 0) return unsignedN > 0 ? CType.UCHAR : signedN > 0 ? CType.SCHAR : CType.CHAR;
        if (shortN > 0) return unsignedN > 0 ? CType.USHORT : CType.SHORT;
        if (longN >= 2) return unsignedN > 0 ? CType.ULLONG : CType.LLONG;
        if (longN == 1) return unsignedN > 0 ? CType.ULONG : CType.LONG;
        if (intN > 0 || unsignedN > 0 || signedN > 0) return unsignedN > 0 ? CType.UINT : CType.INT;
        if (named != null) {
            if (templated) return CType.UNKNOWN;
            if (templateParams.contains(named)) return CType.UNKNOWN;
            CType k = scope.lookupType(named);
            if (k == null && named.contains("::")) {
                String lastPart = named.substring(named.lastIndexOf(':') + 1);
                k = named.startsWith("std::") ? Builtins.TYPES.get(lastPart) : scope.lookupType(lastPart);
            }
            return k != null ? k : CType.UNKNOWN;
        }
        return CType.UNKNOWN;
    }

    /**
     * Reads one declarator run: {@code first} tells whether it starts with the specifiers (the first declarator of a
     * declaration); returns the declarator and puts the specifier tokens in {@code specsOut} when first.
     */
    static Declarator declarator(List<PToken> t, boolean first, List<PToken> specsOut) {
        int stop = t.size();
        int depth = 0;
        for (int i = 0; i < t.size(); i++) {
            int ty = t.get(i).getType();
            if (depth == 0 && (ty == CudaLexer.ASSIGN || ty == CudaLexer.LBRACE || ty == CudaLexer.COLON)) {
                stop = i;
                break;
            }
            if (depth == 0 && (ty == CudaLexer.LPAREN || ty == CudaLexer.LBRACKET)) {
                // a function-pointer declarator "(*name)" keeps going; otherwise the name came just before
                if (ty == CudaLexer.LPAREN && i + 1 < t.size() && t.get(i + 1).getType() == CudaLexer.STAR) return null;
                stop = i;
                break;
            }
            if (ty == CudaLexer.LT && i > 0 && t.get(i - 1).getType() == CudaLexer.IDENTIFIER && angleCloses(t, i)) {
                i = match(t, i, t.size());
            }
        }
        int nameIdx = -1;
        for (int i = stop - 1; i >= 0; i--) {
            int ty = t.get(i).getType();
            if (ty == CudaLexer.IDENTIFIER) {
                nameIdx = i;
                break;
            }
            if (ty != CudaLexer.STAR
                    && ty != CudaLexer.AMP
                    && ty != CudaLexer.AND_AND
                    && ty != CudaLexer.CONST
                    && ty != CudaLexer.RESTRICT
                    && ty != CudaLexer.VOLATILE) {
                break;
            }
        }
        if (nameIdx < 0) return null;
        Declarator d = new Declarator();
        d.name = t.get(nameIdx).getText();
        d.line = t.get(nameIdx).getLine();
        d.col = t.get(nameIdx).getCharPositionInLine() + 1;
        int specEnd = nameIdx;
        // qualified names (Class::member) belong to the declarator
        while (specEnd >= 2
                && t.get(specEnd - 1).getType() == CudaLexer.SCOPE
                && t.get(specEnd - 2).getType() == CudaLexer.IDENTIFIER) {
            specEnd -= 2;
        }
        while (specEnd > 0) {
            int ty = t.get(specEnd - 1).getType();
            if (ty == CudaLexer.STAR) d.pointers++;
            else if (ty == CudaLexer.AMP || ty == CudaLexer.AND_AND) d.reference = true;
            else if (ty != CudaLexer.CONST && ty != CudaLexer.RESTRICT && ty != CudaLexer.VOLATILE) break;
            specEnd--;
        }
        if (first) {
            if (specEnd == 0) return null;
            specsOut.addAll(t.subList(0, specEnd));
        }
        int i = nameIdx + 1;
        while (i < t.size()) {
            int ty = t.get(i).getType();
            if (ty == CudaLexer.LBRACKET) {
                d.arrays++;
                i = match(t, i, t.size()) + 1;
            } else if (ty == CudaLexer.LPAREN && d.params == null && d.arrays == 0) {
                int e = match(t, i, t.size());
                d.params = t.subList(i + 1, Math.max(i + 1, e));
                i = e + 1;
            } else if (ty == CudaLexer.ASSIGN) {
                d.init = t.subList(i + 1, t.size());
                break;
            } else if (ty == CudaLexer.LBRACE) {
                d.init = t.subList(i, t.size());
                break;
            } else {
                i++;
            }
        }
        return d;
    }

    /** Type of a declarator: specifier type wrapped in its pointers and arrays. */
    static CType declType(CType base, Declarator d) {
        CType t = base == null ? CType.UNKNOWN : base;
        for (int k = 0; k < d.pointers + d.arrays; k++) t = CType.pointer(t);
        return t;
    }
}
