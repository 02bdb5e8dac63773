package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The fast first level of the front end: splits a preprocessed file into declarations and function definitions by
 * brace matching (namespaces, extern "C" blocks and class bodies are entered), records types, struct fields,
 * globals and function signatures in a {@link FileScope}, and returns the function bodies for the statement
 * grammar.
 */
final class TopLevelSplitter {
    /** A function definition: header facts and the body's token range [bodyStart, bodyEnd] (braces included). */
    static final class FunctionDef {
        String name;
        String className;
        CType ret;
        List<String> paramNames = new ArrayList<>();
        List<CType> paramTypes = new ArrayList<>();
        /** The parameters passed by reference ({@code float &x}, {@code float &&x}), by index. */
        java.util.BitSet refParams = new java.util.BitSet();
        /**
         * Declared static, inline or __forceinline__: a definition no other translation unit calls (static), or
         * whose calls from another translation unit use that unit's own definition (inline).
         */
        boolean internal;

        boolean global;
        boolean device;
        boolean host;
        Set<String> templateParams;
        int line;
        int bodyStart;
        int bodyEnd;
        /** Line of a "long double" in the signature, or 0. */
        int longDoubleLine;
        /** 1-based column of that "long double" mention, or 0. */
        int longDoubleCol;

        String longDoubleWhat;
        /**
         * An explicit specialisation for long double ({@code template<> long double f<long double>()}, or a member of
         * {@code template<> struct S<long double>}): the library provides long double on purpose.
         */
        boolean longDoubleSpecialisation;
        /**
         * A long double function ({@code long double expm1l(long double x)}, the C library's {@code *l} convention): a
         * long double parameter and no other floating type in its signature. The caller chose long double; the
         * function provides it on purpose.
         */
        boolean longDoubleInterface;

        boolean runsOnDevice() {
            return global || device;
        }

        boolean runsOnHost() {
            return !global && (!device || host);
        }
    }

    /**
     * A declaration at file or class level that mentions long double (NL005 in host code).
     *
     * @param name       the declared name
     * @param deliberate why it is there on purpose (a long double function's prototype; a constant only long double
     *                   functions use), or null
     */
    record LongDoubleDecl(int line, int col, String what, String name, String deliberate, String owner) {
        LongDoubleDecl deliberate(String why) {
            return new LongDoubleDecl(line, col, what, name, why, owner);
        }
    }

    private final List<PToken> t;
    private final FileScope scope;
    private final boolean collectBodies;
    final List<FunctionDef> functions = new ArrayList<>();
    final List<LongDoubleDecl> longDoubles = new ArrayList<>();

    TopLevelSplitter(List<PToken> tokens, FileScope scope, boolean collectBodies) {
        this.t = tokens;
        this.scope = scope;
        this.collectBodies = collectBodies;
    }

    private int ty(int i) {
        return i >= 0 && i < t.size() ? t.get(i).getType() : -1;
    }

    void split() {
        split(0, t.size(), null, Set.of());
        usedOnlyByLongDoubleFunctions();
    }

    /**
     * A file-level long double variable (a libm's table of coefficients) that only long double functions use is
     * there on purpose, as those functions are: the file defines at least one, and no other function names it.
     */
    private void usedOnlyByLongDoubleFunctions() {
        if (functions.stream().noneMatch(f -> f.longDoubleInterface)) return;
        for (int k = 0; k < longDoubles.size(); k++) {
            LongDoubleDecl ld = longDoubles.get(k);
            if (ld.deliberate() != null || ld.what().startsWith("function ")) continue;
            boolean other = false;
            for (FunctionDef f : functions) {
                if (f.longDoubleInterface) continue;
                for (int i = f.bodyStart; i < f.bodyEnd && !other; i++) {
                    other = t.get(i).getType() == CudaLexer.IDENTIFIER
                            && t.get(i).getText().equals(ld.name());
                }
                if (other) break;
            }
            if (!other) longDoubles.set(k, ld.deliberate("used by long double functions only"));
        }
    }

    private void split(int from, int to, StructInfo cls, Set<String> outerTemplate) {
        int i = from;
        Set<String> tparams = outerTemplate;
        while (i < to) {
            int k = ty(i);
            if (k == CudaLexer.SEMI) {
                i++;
                continue;
            }
            if (k == CudaLexer.NAMESPACE) {
                int j = i + 1;
                while (j < to && ty(j) != CudaLexer.LBRACE && ty(j) != CudaLexer.SEMI) j++;
                if (j < to && ty(j) == CudaLexer.LBRACE) {
                    int end = Decls.match(t, j, to);
                    split(j + 1, end, null, outerTemplate);
                    i = end + 1;
                } else {
                    i = j + 1;
                }
                continue;
            }
            if (k == CudaLexer.EXTERN && ty(i + 1) == CudaLexer.STRING_LITERAL) {
                if (ty(i + 2) == CudaLexer.LBRACE) {
                    int end = Decls.match(t, i + 2, to);
                    split(i + 3, end, cls, outerTemplate);
                    i = end + 1;
                } else {
                    i += 2;
                }
                continue;
            }
            if (k == CudaLexer.TEMPLATE && ty(i + 1) == CudaLexer.LT) {
                int end = matchAngle(i + 1, to);
                Set<String> tp = new HashSet<>(outerTemplate);
                for (int j = i + 2; j < end; j++) {
                    if ((ty(j) == CudaLexer.TYPENAME || ty(j) == CudaLexer.CLASS)
                            && ty(j + 1) == CudaLexer.IDENTIFIER) {
                        tp.add(t.get(j + 1).getText());
                    }
                }
                tparams = tp;
                i = end + 1;
                continue;
            }
            if ((k == CudaLexer.PUBLIC || k == CudaLexer.PRIVATE || k == CudaLexer.PROTECTED)
                    && ty(i + 1) == CudaLexer.COLON) {
                i += 2;
                continue;
            }
            if (k == CudaLexer.STATIC_ASSERT || k == CudaLexer.USING && ty(i + 1) == CudaLexer.NAMESPACE) {
                while (i < to && ty(i) != CudaLexer.SEMI) i++;
                i++;
                continue;
            }
            i = item(i, to, cls, tparams);
            tparams = outerTemplate;
        }
    }

    private int matchAngle(int open, int to) {
        int depth = 0;
        int paren = 0;
        for (int i = open; i < to; i++) {
            int k = ty(i);
            if (k == CudaLexer.LPAREN) paren++;
            else if (k == CudaLexer.RPAREN) paren--;
            else if (paren == 0 && k == CudaLexer.LT) depth++;
            else if (paren == 0 && k == CudaLexer.GT && --depth == 0) return i;
            else if (k == CudaLexer.LBRACE || k == CudaLexer.SEMI) return i - 1;
        }
        return to - 1;
    }

    /** Reads one item starting at {@code i}; returns the index after it. */
    private int item(int i, int to, StructInfo cls, Set<String> tparams) {
        int depth = 0;
        boolean sawEq = false;
        int parenStart = -1;
        int parenEnd = -1;
        int classKey = -1;
        boolean initList = false;
        for (int j = i; j < to; j++) {
            int k = ty(j);
            if (k == CudaLexer.LPAREN || k == CudaLexer.LBRACKET) {
                if (k == CudaLexer.LPAREN && depth == 0 && parenStart < 0 && !sawEq && !isAttribute(j)) parenStart = j;
                depth++;
                continue;
            }
            if (k == CudaLexer.RPAREN || k == CudaLexer.RBRACKET) {
                depth--;
                if (depth == 0 && k == CudaLexer.RPAREN && parenEnd < 0 && parenStart >= 0) parenEnd = j;
                if (depth < 0) return j + 1; // stray closer: resynchronise
                continue;
            }
            if (depth != 0) continue;
            if (k == CudaLexer.ASSIGN) sawEq = true;
            else if ((k == CudaLexer.STRUCT || k == CudaLexer.CLASS || k == CudaLexer.UNION || k == CudaLexer.ENUM)
                    && !sawEq
                    && parenStart < 0
                    && classKey < 0) classKey = j;
            else if (k == CudaLexer.COLON && parenEnd > 0 && j > parenEnd) initList = true;
            else if (k == CudaLexer.SEMI) {
                declaration(i, j, cls, tparams);
                return j + 1;
            } else if (k == CudaLexer.RBRACE) {
                return j + 1; // unbalanced: skip
            } else if (k == CudaLexer.LBRACE) {
                if (classKey >= 0
                        && (parenStart < 0 || parenStart > classKey && classKey < j)
                        && !sawEq
                        && (parenStart < 0 || parenStart > j || baseOrArgsBetween(classKey, parenStart))) {
                    int end = Decls.match(t, j, to);
                    classBody(i, classKey, j, end, tparams);
                    // declarators after the closing brace: "} name;" or typedef names
                    int s = end + 1;
                    int e = s;
                    while (e < to && ty(e) != CudaLexer.SEMI && ty(e) != CudaLexer.LBRACE) e++;
                    if (ty(i) == CudaLexer.TYPEDEF || e > s) afterClass(i, classKey, s, e);
                    return e + 1;
                }
                if (parenStart >= 0 && parenEnd > parenStart && !sawEq) {
                    if (initList && j > 0 && (ty(j - 1) == CudaLexer.IDENTIFIER || ty(j - 1) == CudaLexer.GT)) {
                        j = Decls.match(t, j, to); // member{init} in a constructor initializer list
                        continue;
                    }
                    int end = Decls.match(t, j, to);
                    function(i, parenStart, parenEnd, j, end, cls, tparams);
                    return end + 1;
                }
                j = Decls.match(t, j, to); // initializer braces or an unknown block
            }
        }
        return to;
    }

    /** An all-upper-case name with at least two letters: the convention for macros. */
    static boolean isMacroName(String n) {
        int letters = 0;
        for (int i = 0; i < n.length(); i++) {
            char c = n.charAt(i);
            if (c >= 'A' && c <= 'Z') letters++;
            else if (!(c == '_' || c >= '0' && c <= '9')) return false;
        }
        return letters >= 2;
    }

    /**
     * A ':' (base clause) or '<' (template arguments) between the class key and a '(' : the parenthesis belongs to
     * the class head ({@code struct R<long double> : B<(sizeof(long double) >= 10)> {}}), not to a function.
     */
    private boolean baseOrArgsBetween(int classKey, int paren) {
        for (int k = classKey + 1; k < paren; k++) {
            if (ty(k) == CudaLexer.COLON || ty(k) == CudaLexer.LT) return true;
        }
        return false;
    }

    private boolean isAttribute(int paren) {
        int k = ty(paren - 1);
        return k == CudaLexer.GNU_ATTRIBUTE
                || k == CudaLexer.LAUNCH_BOUNDS
                || k == CudaLexer.ALIGN
                || k == CudaLexer.DECLSPEC
                || k == CudaLexer.DECLTYPE;
    }

    private void classBody(int start, int classKey, int open, int close, Set<String> tparams) {
        String name = null;
        for (int j = classKey + 1; j < open; j++) {
            if (ty(j) == CudaLexer.IDENTIFIER && (name == null)) name = t.get(j).getText();
            if (ty(j) == CudaLexer.COLON) break;
            if (ty(j) == CudaLexer.LPAREN) j = Decls.match(t, j, open);
        }
        if (ty(classKey) == CudaLexer.ENUM) {
            if (name != null) scope.typedefs.put(name, CType.INT.alias(name));
            long v = 0;
            for (List<PToken> e : Decls.splitCommas(t.subList(open + 1, close))) {
                if (e.isEmpty() || e.get(0).getType() != CudaLexer.IDENTIFIER) continue;
                if (e.size() >= 3
                        && e.get(1).getType() == CudaLexer.ASSIGN
                        && e.get(2).getType() == CudaLexer.INTEGER_LITERAL
                        && e.size() == 3) {
                    Double d = Literals.value(e.get(2).getText());
                    if (d != null) v = d.longValue();
                }
                scope.globals.put(
                        e.get(0).getText(),
                        new FileScope.Var(
                                e.get(0).getText(),
                                CType.INT,
                                (double) v,
                                e.get(0).getLine()));
                v++;
            }
            return;
        }
        boolean anonymous = name == null;
        if (name == null) name = "<anonymous@" + t.get(open).getLine() + ">";
        StructInfo s = scope.structs.computeIfAbsent(name, StructInfo::new);
        if (anonymous && enclosing != null) s.owner = enclosing.ownerName();
        StructInfo around = enclosing;
        enclosing = s;
        boolean outer = inLongDoubleSpecialisation;
        int lt = -1;
        for (int j = classKey + 1; j < open && lt < 0; j++) if (ty(j) == CudaLexer.LT) lt = j;
        if (lt > 0 && longDoubleArgs(lt, open)) inLongDoubleSpecialisation = true;
        split(open + 1, close, s, tparams);
        inLongDoubleSpecialisation = outer;
        enclosing = around;
        lastStruct = s;
    }

    /** The class whose body is being split (the owner of an anonymous struct or union in it), or null. */
    private StructInfo enclosing;

    private StructInfo lastStruct;

    /** Inside the body of a class specialised for long double ({@code struct S<long double> { ... }}). */
    private boolean inLongDoubleSpecialisation;

    /** Whether the template arguments from {@code lt} (a '<') to before {@code end} are exactly {@code long double}. */
    private boolean longDoubleArgs(int lt, int end) {
        return lt + 3 < end
                && ty(lt + 1) == CudaLexer.LONG
                && ty(lt + 2) == CudaLexer.DOUBLE
                && ty(lt + 3) == CudaLexer.GT;
    }

    private void afterClass(int start, int classKey, int s, int e) {
        boolean typedef = ty(start) == CudaLexer.TYPEDEF;
        // "} name __attribute__((aligned(4)));": the attribute is no declarator
        for (List<PToken> part : Decls.splitCommas(Decls.stripAttributes(t.subList(s, e)))) {
            Decls.Declarator d = Decls.declarator(part, false, null);
            if (d == null) continue;
            if (typedef) {
                if (ty(classKey) == CudaLexer.ENUM) {
                    scope.typedefs.put(d.name, CType.INT.alias(d.name));
                } else if (lastStruct != null) {
                    CType st = CType.struct(lastStruct.name);
                    scope.structs.put(d.name, lastStruct);
                    scope.typedefs.put(d.name, d.pointers > 0 ? CType.pointer(st) : st);
                }
            } else if (lastStruct != null) {
                scope.globals.put(
                        d.name,
                        new FileScope.Var(d.name, Decls.declType(CType.struct(lastStruct.name), d), null, d.line));
            }
        }
    }

    /** Whether a declarator's tokens end in {@code = delete}. */
    private static boolean deleted(List<PToken> part) {
        int n = part.size();
        return n >= 2
                && part.get(n - 1).getText().equals("delete")
                && part.get(n - 2).getText().equals("=");
    }

    private void declaration(int i, int j, StructInfo cls, Set<String> tparams) {
        List<PToken> toks = Decls.stripAttributes(t.subList(i, j));
        if (toks.isEmpty()) return;
        int first = toks.get(0).getType();
        if (first == CudaLexer.USING) {
            // using Name = type;
            if (toks.size() > 3
                    && toks.get(1).getType() == CudaLexer.IDENTIFIER
                    && toks.get(2).getType() == CudaLexer.ASSIGN) {
                List<PToken> rest = toks.subList(3, toks.size());
                CType base = Decls.specType(rest, scope, tparams);
                int ptr = 0;
                for (PToken p : rest) if (p.getType() == CudaLexer.STAR) ptr++;
                if (base == null) base = CType.UNKNOWN;
                for (int k = 0; k < ptr; k++) base = CType.pointer(base);
                String n = toks.get(1).getText();
                scope.typedefs.put(n, base.alias(n));
            }
            return;
        }
        if (first == CudaLexer.FRIEND || first == CudaLexer.TEMPLATE) return;
        boolean typedef = first == CudaLexer.TYPEDEF;
        List<List<PToken>> parts = Decls.splitCommas(toks);
        List<PToken> specs = new ArrayList<>();
        CType base = null;
        boolean firstPart = true;
        for (List<PToken> part : parts) {
            Decls.Declarator d = Decls.declarator(part, firstPart, specs);
            if (d == null) {
                if (firstPart) return;
                continue;
            }
            if (firstPart) {
                base = Decls.specType(specs, scope, tparams);
                firstPart = false;
            }
            CType type = Decls.declType(base, d);
            // a deleted function (= delete) is never called: it computes nothing
            if (base == CType.LONG_DOUBLE && !typedef && !(d.params != null && deleted(part))) {
                String deliberate = null;
                if (d.params != null) {
                    CType ret = base;
                    for (int p = 0; p < d.pointers; p++) ret = CType.pointer(ret);
                    List<CType> ps = new ArrayList<>();
                    for (Param p : params(d.params, tparams)) ps.add(p.type);
                    if (longDoubleInterface(ret, ps))
                        deliberate = dev.numlint.cuda.facts.FunctionFacts.LongDouble.INTERFACE;
                }
                longDoubles.add(new LongDoubleDecl(
                        d.line,
                        d.col,
                        (d.params != null ? "function " : "") + "'" + d.name + "'",
                        d.name,
                        deliberate,
                        cls == null ? null : cls.ownerName()));
            }
            if (typedef) {
                if (d.params == null) scope.typedefs.put(d.name, type.alias(d.name));
                continue;
            }
            if (d.params != null) {
                if (cls != null) {
                    cls.methods.put(d.name, type);
                }
                FileScope.FuncSig sig = signature(d.name, type, d.params, specs, tparams);
                scope.addFunction(sig);
                continue;
            }
            if (cls != null) {
                cls.fields.put(d.name, type);
            } else {
                Double cv = null;
                if (hasConst(specs) && d.init != null && d.init.size() == 1)
                    cv = Literals.value(d.init.get(0).getText());
                scope.globals.put(d.name, new FileScope.Var(d.name, type, cv, d.line));
            }
        }
    }

    private static boolean hasConst(List<PToken> specs) {
        for (PToken p : specs) {
            if (p.getType() == CudaLexer.CONST || p.getType() == CudaLexer.CONSTEXPR) return true;
        }
        return false;
    }

    private FileScope.FuncSig signature(
            String name, CType ret, List<PToken> params, List<PToken> specs, Set<String> tparams) {
        List<CType> ps = new ArrayList<>();
        for (Param p : params(params, tparams)) ps.add(p.type);
        boolean dev = false;
        boolean host = false;
        boolean glob = false;
        for (PToken s : specs) {
            if (s.getType() == CudaLexer.DEVICE) dev = true;
            if (s.getType() == CudaLexer.HOST) host = true;
            if (s.getType() == CudaLexer.GLOBAL) glob = true;
        }
        return new FileScope.FuncSig(
                name, ret == null ? CType.UNKNOWN : ret, ps, dev || glob, host || !(dev || glob), glob);
    }

    record Param(String name, CType type, int line, int col, boolean ref) {}

    List<Param> params(List<PToken> params, Set<String> tparams) {
        List<Param> res = new ArrayList<>();
        List<PToken> cleaned = Decls.stripAttributes(params);
        if (cleaned.isEmpty() || (cleaned.size() == 1 && cleaned.get(0).getType() == CudaLexer.VOID)) return res;
        for (List<PToken> p : Decls.splitCommas(cleaned)) {
            if (p.isEmpty() || p.get(0).getType() == CudaLexer.ELLIPSIS) continue;
            List<PToken> specs = new ArrayList<>();
            Decls.Declarator d = Decls.declarator(p, true, specs);
            if (d == null) {
                // unnamed parameter
                CType ty = Decls.specType(p, scope, tparams);
                int ptr = 0;
                for (PToken x : p) if (x.getType() == CudaLexer.STAR) ptr++;
                CType pt = ty == null ? CType.UNKNOWN : ty;
                for (int k = 0; k < ptr; k++) pt = CType.pointer(pt);
                res.add(new Param(null, pt, p.get(0).getLine(), p.get(0).getCharPositionInLine() + 1, ref(p)));
                continue;
            }
            CType base = Decls.specType(specs, scope, tparams);
            res.add(new Param(d.name, Decls.declType(base, d), d.line, d.col, ref(p)));
        }
        return res;
    }

    /** Whether a parameter's tokens declare a reference. */
    private static boolean ref(List<PToken> p) {
        for (PToken x : p) if (x.getType() == CudaLexer.AMP || x.getType() == CudaLexer.AND_AND) return true;
        return false;
    }

    private void function(
            int i, int parenStart, int parenEnd, int open, int close, StructInfo cls, Set<String> tparams) {
        List<PToken> head = Decls.stripAttributes(t.subList(i, parenStart));
        if (head.isEmpty()) return;
        FunctionDef f = new FunctionDef();
        PToken nameTok = head.get(head.size() - 1);
        int nameIdx = head.size() - 1;
        f.longDoubleSpecialisation = inLongDoubleSpecialisation;
        if (nameTok.getType() == CudaLexer.GT) { // template specialization f<float>(...)
            int depth = 0;
            for (int k = head.size() - 1; k >= 0; k--) {
                if (head.get(k).getType() == CudaLexer.GT) depth++;
                else if (head.get(k).getType() == CudaLexer.LT && --depth == 0) {
                    nameIdx = k - 1;
                    break;
                }
            }
            if (nameIdx < 0) return;
            nameTok = head.get(nameIdx);
            List<PToken> args = head.subList(nameIdx + 1, head.size());
            if (args.size() == 4
                    && args.get(1).getType() == CudaLexer.LONG
                    && args.get(2).getType() == CudaLexer.DOUBLE) f.longDoubleSpecialisation = true;
        }
        int opIdx = -1;
        for (int k = 0; k < head.size(); k++) if (head.get(k).getType() == CudaLexer.OPERATOR) opIdx = k;
        if (opIdx >= 0) {
            nameIdx = opIdx;
            f.name = "operator"
                    + head.subList(opIdx + 1, head.size()).stream()
                            .map(PToken::getText)
                            .reduce("", String::concat);
        } else {
            f.name = nameTok.getText();
        }
        int specEnd = nameIdx;
        if (specEnd > 0 && head.get(specEnd - 1).getType() == CudaLexer.TILDE) specEnd--;
        String owner = null;
        while (specEnd >= 2 && head.get(specEnd - 1).getType() == CudaLexer.SCOPE) {
            if (owner == null) owner = head.get(specEnd - 2).getText();
            specEnd -= 2;
        }
        f.className = owner != null ? owner : cls != null ? cls.name : null;
        if (specEnd == 0 && owner == null && cls == null && opIdx < 0 && nameIdx == 0 && isMacroName(f.name)) {
            // NAME(args) { ... } at file level without a return type: a macro invocation that opens a block
            // (COM's DECLARE_INTERFACE(I) { STDMETHOD(...) PURE; ... }), not a function
            return;
        }
        List<PToken> specs = new ArrayList<>(head.subList(0, specEnd));
        int ptr = 0;
        while (!specs.isEmpty()
                && (specs.get(specs.size() - 1).getType() == CudaLexer.STAR
                        || specs.get(specs.size() - 1).getType() == CudaLexer.AMP)) {
            if (specs.get(specs.size() - 1).getType() == CudaLexer.STAR) ptr++;
            specs.remove(specs.size() - 1);
        }
        for (PToken s : specs) {
            if (s.getType() == CudaLexer.STATIC
                    || s.getType() == CudaLexer.INLINE
                    || s.getType() == CudaLexer.FORCEINLINE) f.internal = true;
            if (s.getType() == CudaLexer.GLOBAL) f.global = true;
            if (s.getType() == CudaLexer.DEVICE) f.device = true;
            if (s.getType() == CudaLexer.HOST) f.host = true;
        }
        CType ret = specs.isEmpty() ? CType.VOID : Decls.specType(specs, scope, tparams);
        if (ret == null) ret = CType.UNKNOWN;
        for (int k = 0; k < ptr; k++) ret = CType.pointer(ret);
        f.ret = ret;
        f.templateParams = tparams;
        f.line = nameTok.getLine();
        f.bodyStart = open;
        f.bodyEnd = close;
        List<Param> ps = params(t.subList(parenStart + 1, parenEnd), tparams);
        for (Param p : ps) {
            if (p.ref) f.refParams.set(f.paramNames.size());
            f.paramNames.add(p.name);
            f.paramTypes.add(p.type);
            if (p.type == CType.LONG_DOUBLE && f.longDoubleLine == 0) {
                f.longDoubleLine = p.line;
                f.longDoubleCol = p.col;
                f.longDoubleWhat = "parameter '" + p.name + "'";
            }
        }
        f.longDoubleInterface = longDoubleInterface(ret, f.paramTypes);
        if (ret == CType.LONG_DOUBLE) {
            f.longDoubleLine = f.line;
            f.longDoubleCol = nameTok.getCharPositionInLine() + 1;
            f.longDoubleWhat = "return type of '" + f.name + "'";
        }
        if (cls != null && owner == null) cls.methods.put(f.name, ret);
        if (!f.global && !f.device && !f.host) {
            // a definition without an execution space takes an earlier declaration's (nvcc: SIXTRL_FN, __host__
            // __device__, on the prototype and 'inline float f(float x) { ... }' below is device code too)
            for (FileScope.FuncSig d : scope.functions.getOrDefault(f.name, List.of())) {
                if (d.device() && d.params().size() == f.paramTypes.size()) {
                    f.device = true;
                    f.host = d.host();
                    break;
                }
            }
        }
        scope.addFunction(
                new FileScope.FuncSig(f.name, ret, f.paramTypes, f.global || f.device, f.runsOnHost(), f.global));
        java.util.BitSet out = outParams(f, open, close);
        if (!out.isEmpty()) scope.outParams.put(f.name, out);
        if (ret.isFpScalar() || ret.isInteger()) {
            if (RandomDraws.returnsDraw(t, open, close, scope)) scope.randomFunctions.add(f.name);
        }
        if (collectBodies) functions.add(f);
    }

    /**
     * Whether a signature is a long double interface: at least one parameter is long double (or points to it) and no
     * parameter or result is another floating type (or points to one).
     */
    static boolean longDoubleInterface(CType ret, List<CType> params) {
        boolean wide = false;
        for (CType p : params) {
            CType base = pointee(p);
            if (base.kind == CType.Kind.LONG_DOUBLE) wide = true;
            else if (base.isFloating() || base.isUnknown()) return false;
        }
        CType r = pointee(ret);
        return wide && (r.kind == CType.Kind.LONG_DOUBLE || !(r.isFloating() || r.isUnknown()));
    }

    private static CType pointee(CType t) {
        while (t != null && t.kind == CType.Kind.POINTER && t.elem != null) t = t.elem;
        return t == null ? CType.UNKNOWN : t;
    }

    /**
     * The pointer parameters the body defines before it reads them: the first mention of the name is
     * {@code *name = ...} as a statement of the body's top level (not in a branch or a loop).
     */
    private java.util.BitSet outParams(FunctionDef f, int open, int close) {
        java.util.BitSet out = new java.util.BitSet();
        java.util.Map<String, Integer> pointers = new java.util.HashMap<>();
        for (int k = 0; k < f.paramNames.size(); k++) {
            String name = f.paramNames.get(k);
            CType type = f.paramTypes.get(k);
            if (name != null && type != null && type.kind == CType.Kind.POINTER) pointers.putIfAbsent(name, k);
        }
        if (pointers.isEmpty()) return out;
        // one pass over the body: each pointer parameter is decided at its first mention
        int depth = 0;
        for (int i = open; i < close && !pointers.isEmpty(); i++) {
            int ty = t.get(i).getType();
            if (ty == CudaLexer.LBRACE) depth++;
            else if (ty == CudaLexer.RBRACE) depth--;
            if (ty != CudaLexer.IDENTIFIER) continue;
            Integer k = pointers.remove(t.get(i).getText());
            if (k == null) continue;
            boolean def = depth == 1
                    && i >= 2
                    && t.get(i - 1).getType() == CudaLexer.STAR
                    && (t.get(i - 2).getType() == CudaLexer.SEMI
                            || t.get(i - 2).getType() == CudaLexer.LBRACE
                            || t.get(i - 2).getType() == CudaLexer.RBRACE)
                    && i + 1 < close
                    && t.get(i + 1).getType() == CudaLexer.ASSIGN;
            if (def) out.set(k);
        }
        return out;
    }
}
