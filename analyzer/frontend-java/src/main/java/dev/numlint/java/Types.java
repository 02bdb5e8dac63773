package dev.numlint.java;

import java.util.List;
import java.util.Locale;
import org.eclipse.jdt.core.dom.*;

/**
 * Types of expressions: from JDT bindings when they resolve, otherwise from the source (declared types of locals,
 * parameters and fields in scope, literal suffixes, java.lang.Math signatures). Records whether any answer had to
 * be guessed, so findings built on it can carry Confidence LOW.
 */
public final class Types {
    /** A type and whether it came from the source rather than from a binding. */
    public record T(NumType type, boolean guessed) {}

    private static final java.util.Set<String> MATH_DOUBLE = java.util.Set.of(
            "sqrt",
            "cbrt",
            "sin",
            "cos",
            "tan",
            "asin",
            "acos",
            "atan",
            "atan2",
            "exp",
            "expm1",
            "log",
            "log10",
            "log1p",
            "pow",
            "sinh",
            "cosh",
            "tanh",
            "hypot",
            "floor",
            "ceil",
            "rint",
            "toRadians",
            "toDegrees",
            "random",
            "IEEEremainder");

    private final boolean bindings;

    public Types(boolean bindings) {
        this.bindings = bindings;
    }

    public NumType of(Expression e) {
        return typeOf(e).type();
    }

    public T typeOf(Expression e) {
        if (e == null) return new T(NumType.UNKNOWN, true);
        if (bindings) {
            ITypeBinding b = e.resolveTypeBinding();
            if (b != null && !b.isRecovered()) {
                return new T(NumType.of(b), false);
            }
        }
        NumType s = syntactic(e);
        return new T(s, true);
    }

    /** Whether {@code e} is of primitive float or double type. */
    public boolean isFloating(Expression e) {
        return of(e).isFloating();
    }

    private NumType syntactic(Expression e) {
        switch (e.getNodeType()) {
            case ASTNode.NUMBER_LITERAL:
                return literalType(((NumberLiteral) e).getToken());
            case ASTNode.CHARACTER_LITERAL:
                return NumType.CHAR;
            case ASTNode.BOOLEAN_LITERAL:
                return NumType.BOOLEAN;
            case ASTNode.STRING_LITERAL:
            case ASTNode.TEXT_BLOCK:
            case ASTNode.NULL_LITERAL:
            case ASTNode.CLASS_INSTANCE_CREATION:
            case ASTNode.ARRAY_CREATION:
            case ASTNode.TYPE_LITERAL:
            case ASTNode.LAMBDA_EXPRESSION:
                return NumType.OTHER;
            case ASTNode.PARENTHESIZED_EXPRESSION:
                return syntactic(((ParenthesizedExpression) e).getExpression());
            case ASTNode.CAST_EXPRESSION:
                return typeNode(((CastExpression) e).getType());
            case ASTNode.SIMPLE_NAME: {
                Type t = declaredType((SimpleName) e);
                return t == null ? NumType.UNKNOWN : typeNodeOrVar(t, (SimpleName) e);
            }
            case ASTNode.QUALIFIED_NAME: {
                QualifiedName q = (QualifiedName) e;
                String id = q.getName().getIdentifier();
                if (id.equals("length")) return NumType.INT;
                String qual = q.getQualifier().toString();
                if (qual.equals("Math") || qual.equals("StrictMath") || qual.equals("Double")) {
                    return id.equals("SIZE") || id.equals("BYTES") || id.endsWith("EXPONENT")
                            ? NumType.INT
                            : NumType.DOUBLE;
                }
                if (qual.equals("Float")) {
                    return id.equals("SIZE") || id.equals("BYTES") || id.endsWith("EXPONENT")
                            ? NumType.INT
                            : NumType.FLOAT;
                }
                if (qual.equals("this")) return NumType.UNKNOWN;
                Type t = fieldType(e, id);
                return t == null ? NumType.UNKNOWN : typeNode(t);
            }
            case ASTNode.FIELD_ACCESS: {
                FieldAccess f = (FieldAccess) e;
                if (f.getExpression() instanceof ThisExpression) {
                    Type t = fieldType(e, f.getName().getIdentifier());
                    return t == null ? NumType.UNKNOWN : typeNode(t);
                }
                return NumType.UNKNOWN;
            }
            case ASTNode.ARRAY_ACCESS: {
                Expression arr = ((ArrayAccess) e).getArray();
                Type t = null;
                if (arr instanceof SimpleName) t = declaredType((SimpleName) arr);
                else if (arr instanceof FieldAccess && ((FieldAccess) arr).getExpression() instanceof ThisExpression)
                    t = fieldType(e, ((FieldAccess) arr).getName().getIdentifier());
                if (t == null) return NumType.UNKNOWN;
                if (t.isArrayType()) return typeNode(((ArrayType) t).getElementType());
                return NumType.UNKNOWN;
            }
            case ASTNode.METHOD_INVOCATION:
                return methodType((MethodInvocation) e);
            case ASTNode.INFIX_EXPRESSION: {
                InfixExpression in = (InfixExpression) e;
                InfixExpression.Operator op = in.getOperator();
                if (isComparisonOrLogical(op)) return NumType.BOOLEAN;
                NumType t = syntactic(in.getLeftOperand());
                NumType r = syntactic(in.getRightOperand());
                if (op == InfixExpression.Operator.PLUS && (t == NumType.OTHER || r == NumType.OTHER))
                    return NumType.OTHER;
                if (op == InfixExpression.Operator.LEFT_SHIFT
                        || op == InfixExpression.Operator.RIGHT_SHIFT_SIGNED
                        || op == InfixExpression.Operator.RIGHT_SHIFT_UNSIGNED) {
                    return t == NumType.LONG ? NumType.LONG : t == NumType.UNKNOWN ? NumType.UNKNOWN : NumType.INT;
                }
                t = NumType.promote(t, r);
                for (Object o : in.extendedOperands()) t = NumType.promote(t, syntactic((Expression) o));
                return t;
            }
            case ASTNode.PREFIX_EXPRESSION: {
                PrefixExpression p = (PrefixExpression) e;
                if (p.getOperator() == PrefixExpression.Operator.NOT) return NumType.BOOLEAN;
                NumType t = syntactic(p.getOperand());
                if (p.getOperator() == PrefixExpression.Operator.INCREMENT
                        || p.getOperator() == PrefixExpression.Operator.DECREMENT) return t;
                return unaryPromote(t);
            }
            case ASTNode.POSTFIX_EXPRESSION:
                return syntactic(((PostfixExpression) e).getOperand());
            case ASTNode.CONDITIONAL_EXPRESSION: {
                ConditionalExpression c = (ConditionalExpression) e;
                NumType a = syntactic(c.getThenExpression());
                NumType b = syntactic(c.getElseExpression());
                if (a == b) return a;
                return NumType.promote(a, b);
            }
            case ASTNode.ASSIGNMENT:
                return syntactic(((Assignment) e).getLeftHandSide());
            case ASTNode.INSTANCEOF_EXPRESSION:
                return NumType.BOOLEAN;
            default:
                return NumType.UNKNOWN;
        }
    }

    private static NumType unaryPromote(NumType t) {
        if (t == NumType.BYTE || t == NumType.SHORT || t == NumType.CHAR) return NumType.INT;
        return t;
    }

    public static boolean isComparisonOrLogical(InfixExpression.Operator op) {
        return op == InfixExpression.Operator.LESS
                || op == InfixExpression.Operator.GREATER
                || op == InfixExpression.Operator.LESS_EQUALS
                || op == InfixExpression.Operator.GREATER_EQUALS
                || op == InfixExpression.Operator.EQUALS
                || op == InfixExpression.Operator.NOT_EQUALS
                || op == InfixExpression.Operator.CONDITIONAL_AND
                || op == InfixExpression.Operator.CONDITIONAL_OR;
    }

    public static NumType literalType(String tok) {
        String t = tok.toLowerCase(Locale.ROOT).replace("_", "");
        boolean hex = t.startsWith("0x");
        if (t.endsWith("l")) return NumType.LONG;
        if (!hex && t.endsWith("f")) return NumType.FLOAT;
        if (hex) {
            if (t.contains("p")) return t.endsWith("f") ? NumType.FLOAT : NumType.DOUBLE;
            return NumType.INT;
        }
        if (t.endsWith("d") || t.contains(".") || t.contains("e")) return NumType.DOUBLE;
        return NumType.INT;
    }

    /** Numeric value of a number literal token, or NaN. */
    public static double literalValue(String tok) {
        String t = tok.replace("_", "");
        try {
            String lower = t.toLowerCase(Locale.ROOT);
            if (lower.startsWith("0x") && !lower.contains("p")) {
                String digits = lower.substring(2).replace("l", "");
                return Long.parseUnsignedLong(digits, 16);
            }
            if (lower.startsWith("0b")) return Long.parseLong(lower.substring(2).replace("l", ""), 2);
            if (lower.endsWith("l")) {
                String d = lower.substring(0, lower.length() - 1);
                return d.length() > 1 && d.startsWith("0") ? Long.parseLong(d, 8) : Long.parseLong(d);
            }
            if (literalType(tok) == NumType.INT) {
                return lower.length() > 1 && lower.startsWith("0") ? Long.parseLong(lower, 8) : Long.parseLong(lower);
            }
            if (literalType(tok) == NumType.FLOAT) return Float.parseFloat(t);
            return Double.parseDouble(t);
        } catch (NumberFormatException ex) {
            return Double.NaN;
        }
    }

    private NumType methodType(MethodInvocation m) {
        String name = m.getName().getIdentifier();
        Expression q = m.getExpression();
        String qual = q == null ? null : q.toString();
        if (qual == null || qual.equals("Math") || qual.equals("StrictMath") || qual.equals("java.lang.Math")) {
            if (qual != null || isStaticMathImport(m, name)) {
                if (MATH_DOUBLE.contains(name)) return NumType.DOUBLE;
                @SuppressWarnings("unchecked")
                List<Expression> args = m.arguments();
                switch (name) {
                    case "abs":
                    case "signum":
                    case "ulp":
                    case "nextUp":
                    case "nextDown":
                    case "copySign":
                    case "scalb":
                        return args.isEmpty() ? NumType.UNKNOWN : unaryPromote(syntactic(args.get(0)));
                    case "max":
                    case "min":
                        return args.size() < 2
                                ? NumType.UNKNOWN
                                : NumType.promote(syntactic(args.get(0)), syntactic(args.get(1)));
                    case "round": {
                        NumType a = args.isEmpty() ? NumType.UNKNOWN : syntactic(args.get(0));
                        return a == NumType.FLOAT ? NumType.INT : a == NumType.UNKNOWN ? NumType.UNKNOWN : NumType.LONG;
                    }
                    case "clamp":
                        return args.isEmpty() ? NumType.UNKNOWN : unaryPromote(syntactic(args.get(0)));
                    default:
                        break;
                }
            }
        }
        if ("Float".equals(qual) && (name.equals("intBitsToFloat") || name.equals("parseFloat"))) return NumType.FLOAT;
        if ("Double".equals(qual) && (name.equals("longBitsToDouble") || name.equals("parseDouble")))
            return NumType.DOUBLE;
        if (q == null || q instanceof ThisExpression) {
            // a method of this compilation unit: its declared return type when the name is unambiguous
            MethodDeclaration d = localMethod(m, name, m.arguments().size());
            if (d != null && d.getReturnType2() != null) return typeNode(d.getReturnType2());
        }
        return NumType.UNKNOWN;
    }

    private static boolean isStaticMathImport(ASTNode n, String name) {
        ASTNode r = n.getRoot();
        if (!(r instanceof CompilationUnit)) return false;
        for (Object o : ((CompilationUnit) r).imports()) {
            ImportDeclaration i = (ImportDeclaration) o;
            if (!i.isStatic()) continue;
            String s = i.getName().getFullyQualifiedName();
            if (i.isOnDemand() ? s.equals("java.lang.Math") : s.equals("java.lang.Math." + name)) return true;
        }
        return false;
    }

    public static MethodDeclaration localMethod(ASTNode from, String name, int arity) {
        MethodDeclaration found = null;
        for (ASTNode p = from.getParent(); p != null; p = p.getParent()) {
            if (p instanceof AbstractTypeDeclaration) {
                for (Object o : ((AbstractTypeDeclaration) p).bodyDeclarations()) {
                    if (o instanceof MethodDeclaration) {
                        MethodDeclaration md = (MethodDeclaration) o;
                        if (md.getName().getIdentifier().equals(name)
                                && md.parameters().size() == arity) {
                            if (found != null
                                    && !found.getReturnType2().toString().equals(String.valueOf(md.getReturnType2())))
                                return null;
                            found = md;
                        }
                    }
                }
                if (found != null) return found;
            }
        }
        return null;
    }

    private NumType typeNodeOrVar(Type t, SimpleName use) {
        if (t.isVar()) {
            Expression init = initializerOf(use);
            return init == null ? NumType.UNKNOWN : syntactic(init);
        }
        return typeNode(t);
    }

    public static NumType typeNode(Type t) {
        if (t == null) return NumType.UNKNOWN;
        if (t.isPrimitiveType()) return NumType.of(((PrimitiveType) t).getPrimitiveTypeCode());
        if (t.isSimpleType()) {
            NumType n = NumType.ofName(((SimpleType) t).getName().getFullyQualifiedName());
            return n;
        }
        if (t.isVar()) return NumType.UNKNOWN;
        return NumType.OTHER;
    }

    // ---- declarations in scope ------------------------------------------------------------------------------

    /** Declared type (with array dimensions applied) of the variable a simple name refers to, or null. */
    public static Type declaredType(SimpleName use) {
        VariableDeclaration d = declarationOf(use);
        if (d == null) {
            Type t = fieldType(use, use.getIdentifier());
            return t;
        }
        return typeOfDeclaration(d);
    }

    public static Type typeOfDeclaration(VariableDeclaration d) {
        Type base;
        if (d instanceof SingleVariableDeclaration) {
            SingleVariableDeclaration s = (SingleVariableDeclaration) d;
            base = s.getType();
            if (s.isVarargs()) return base.getAST().newArrayType((Type) ASTNode.copySubtree(base.getAST(), base));
        } else {
            ASTNode p = d.getParent();
            if (p instanceof VariableDeclarationStatement) base = ((VariableDeclarationStatement) p).getType();
            else if (p instanceof VariableDeclarationExpression) base = ((VariableDeclarationExpression) p).getType();
            else if (p instanceof FieldDeclaration) base = ((FieldDeclaration) p).getType();
            else return null; // lambda parameter without type
        }
        int dims = d.getExtraDimensions();
        if (dims > 0 && base != null) {
            AST ast = base.getAST();
            return ast.newArrayType((Type) ASTNode.copySubtree(ast, base), dims);
        }
        return base;
    }

    public static Expression initializerOf(SimpleName use) {
        VariableDeclaration d = declarationOf(use);
        return d == null ? null : d.getInitializer();
    }

    /** The local variable or parameter declaration a simple name refers to (syntactic scoping), or null. */
    public static VariableDeclaration declarationOf(SimpleName use) {
        String id = use.getIdentifier();
        ASTNode child = use;
        for (ASTNode p = use.getParent(); p != null; child = p, p = p.getParent()) {
            switch (p.getNodeType()) {
                case ASTNode.BLOCK:
                case ASTNode.SWITCH_STATEMENT: {
                    List<?> stmts = p instanceof Block ? ((Block) p).statements() : ((SwitchStatement) p).statements();
                    for (Object o : stmts) {
                        if (o == child) break;
                        if (o instanceof VariableDeclarationStatement) {
                            for (Object f : ((VariableDeclarationStatement) o).fragments()) {
                                VariableDeclarationFragment vf = (VariableDeclarationFragment) f;
                                if (vf.getName().getIdentifier().equals(id)) return vf;
                            }
                        }
                    }
                    break;
                }
                case ASTNode.FOR_STATEMENT:
                    for (Object o : ((ForStatement) p).initializers()) {
                        if (o instanceof VariableDeclarationExpression) {
                            for (Object f : ((VariableDeclarationExpression) o).fragments()) {
                                VariableDeclarationFragment vf = (VariableDeclarationFragment) f;
                                if (vf.getName().getIdentifier().equals(id)) return vf;
                            }
                        }
                    }
                    break;
                case ASTNode.ENHANCED_FOR_STATEMENT: {
                    SingleVariableDeclaration v = ((EnhancedForStatement) p).getParameter();
                    if (v.getName().getIdentifier().equals(id)) return v;
                    break;
                }
                case ASTNode.CATCH_CLAUSE: {
                    SingleVariableDeclaration v = ((CatchClause) p).getException();
                    if (v.getName().getIdentifier().equals(id)) return v;
                    break;
                }
                case ASTNode.METHOD_DECLARATION:
                    for (Object o : ((MethodDeclaration) p).parameters()) {
                        SingleVariableDeclaration v = (SingleVariableDeclaration) o;
                        if (v.getName().getIdentifier().equals(id)) return v;
                    }
                    break;
                case ASTNode.LAMBDA_EXPRESSION:
                    for (Object o : ((LambdaExpression) p).parameters()) {
                        VariableDeclaration v = (VariableDeclaration) o;
                        if (v.getName().getIdentifier().equals(id)) return v;
                    }
                    break;
                case ASTNode.TRY_STATEMENT:
                    for (Object o : ((TryStatement) p).resources()) {
                        if (o instanceof VariableDeclarationExpression) {
                            for (Object f : ((VariableDeclarationExpression) o).fragments()) {
                                VariableDeclarationFragment vf = (VariableDeclarationFragment) f;
                                if (vf.getName().getIdentifier().equals(id)) return vf;
                            }
                        }
                    }
                    break;
                case ASTNode.TYPE_DECLARATION:
                case ASTNode.ENUM_DECLARATION:
                case ASTNode.RECORD_DECLARATION:
                case ASTNode.ANONYMOUS_CLASS_DECLARATION:
                    return null; // fields are looked up by fieldType
                default:
                    break;
            }
        }
        return null;
    }

    /** The declared type of a field named {@code id} in the types enclosing {@code from}. */
    public static Type fieldType(ASTNode from, String id) {
        VariableDeclarationFragment f = fieldDeclaration(from, id);
        if (f != null) return typeOfDeclaration(f);
        for (ASTNode p = from.getParent(); p != null; p = p.getParent()) {
            if (p instanceof RecordDeclaration) {
                for (Object o : ((RecordDeclaration) p).recordComponents()) {
                    SingleVariableDeclaration v = (SingleVariableDeclaration) o;
                    if (v.getName().getIdentifier().equals(id)) return v.getType();
                }
            }
        }
        return null;
    }

    public static VariableDeclarationFragment fieldDeclaration(ASTNode from, String id) {
        for (ASTNode p = from.getParent(); p != null; p = p.getParent()) {
            List<?> body = null;
            if (p instanceof AbstractTypeDeclaration) body = ((AbstractTypeDeclaration) p).bodyDeclarations();
            else if (p instanceof AnonymousClassDeclaration) body = ((AnonymousClassDeclaration) p).bodyDeclarations();
            if (body == null) continue;
            for (Object o : body) {
                if (o instanceof FieldDeclaration) {
                    for (Object f : ((FieldDeclaration) o).fragments()) {
                        VariableDeclarationFragment vf = (VariableDeclarationFragment) f;
                        if (vf.getName().getIdentifier().equals(id)) return vf;
                    }
                }
            }
        }
        return null;
    }
}
