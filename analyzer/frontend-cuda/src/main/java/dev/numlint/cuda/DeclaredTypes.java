package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import java.util.List;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;

/**
 * The types a function body's declarations, type names and casts write ({@link Decls#specType} over the tokens of
 * their specifiers, then pointers and arrays of the declarator), in the file scope and the function's template
 * parameters.
 */
final class DeclaredTypes {
    private final List<PToken> toks;
    private final FileScope scope;
    private final TopLevelSplitter.FunctionDef f;

    DeclaredTypes(List<PToken> toks, FileScope scope, TopLevelSplitter.FunctionDef f) {
        this.toks = toks;
        this.scope = scope;
        this.f = f;
    }

    /** The type tokens {@code from} to {@code to} name. */
    CType specType(int from, int to) {
        return Decls.specType(toks.subList(from, to + 1), scope, f.templateParams);
    }

    CType specType(DeclSpecifierSeqContext d) {
        if (d == null) return CType.UNKNOWN;
        return specType(d.start.getTokenIndex(), d.stop.getTokenIndex());
    }

    static CType declType(CType base, DeclaratorContext d) {
        CType t = base == null ? CType.UNKNOWN : base;
        if (d == null) return t;
        for (PtrOperatorContext p : d.ptrOperator()) {
            if (p.STAR() != null) t = CType.pointer(t);
        }
        for (DeclaratorSuffixContext s : d.noPtrDeclarator().declaratorSuffix()) {
            if (s.LBRACKET() != null) t = CType.pointer(t);
        }
        return t;
    }

    static boolean isFunctionDeclarator(DeclaratorContext d) {
        for (DeclaratorSuffixContext s : d.noPtrDeclarator().declaratorSuffix()) {
            if (s.LPAREN() != null) return true;
        }
        return false;
    }

    static boolean hasConst(DeclSpecifierSeqContext d) {
        for (DeclSpecifierContext s : d.declSpecifier()) {
            if (s.cvQualifier() != null && s.cvQualifier().CONST() != null) return true;
            if (s.storageSpecifier() != null && s.storageSpecifier().CONSTEXPR() != null) return true;
        }
        return false;
    }

    CType typeOf(TypeIdContext t) {
        if (t == null) return CType.UNKNOWN;
        CType base = specType(t.declSpecifierSeq());
        if (base == null) base = CType.UNKNOWN;
        AbstractDeclaratorContext a = t.abstractDeclarator();
        if (a != null) {
            for (PtrOperatorContext p : a.ptrOperator()) {
                if (p.STAR() != null) base = CType.pointer(base);
                // a cast to a reference, (uint32_t&)f, reads the object's bits as another type: no value conversion
                else if (p.AMP() != null || p.AND_AND() != null) return CType.UNKNOWN;
            }
            if (a.LPAREN().size() > 0) base = CType.pointer(CType.UNKNOWN);
        }
        return base;
    }

    /**
     * The block or for statement a declaration belongs to: every statement that can give the declared name a value
     * lies inside it (a nested declaration of the same name counts too, which only errs on the safe side); the
     * function body {@code root} outside any.
     */
    static ParseTree declarationScope(ParserRuleContext d, ParseTree root) {
        for (ParserRuleContext p = d.getParent(); p != null; p = p.getParent()) {
            if (p instanceof CompoundStatementContext || p instanceof ForStmtContext) return p;
        }
        return root;
    }
}
