package dev.numlint.java;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jdt.core.dom.*;

/**
 * Which methods of a unit run once per element of a loop: every call of the method that the unit makes (directly,
 * or through a method it overrides) sits inside a loop and passes a scalar that changes with each iteration (the
 * counter {@code f(x, y)}, an element {@code f(sx[i])}, an iterator's position {@code f(iter.i)}), or sits in
 * another per-element method and passes on one of its scalar parameters ({@code calculate(x, y)} calling
 * {@code centroids(x, y)}). A sum that such a method restarts on every call (a local, or a field it resets before
 * its loop) restarts for every element of the caller's loop: a thread-per-element port keeps it serial and in the
 * same order. A method the unit never calls, or calls once with whole arrays ({@code mean(channels[c])}: an array,
 * not a scalar), is not per-element. Only the unit's own calls are seen; calls from other files are not.
 */
public final class PerElementCalls {
    /** How many methods a chain of per-element calls may pass through. */
    private static final int DEPTH = 4;

    private final JavaUnit unit;
    private final Map<MethodDeclaration, Optional<Statement>> known = new HashMap<>();

    PerElementCalls(JavaUnit unit) {
        this.unit = unit;
    }

    /** The caller's loop that runs {@code md} once per element, or null when {@code md} is not per-element. */
    public Statement loopOf(MethodDeclaration md) {
        return known.computeIfAbsent(md, k -> Optional.ofNullable(loopOf(k, DEPTH, new HashSet<>())))
                .orElse(null);
    }

    private Statement loopOf(MethodDeclaration md, int depth, Set<MethodDeclaration> visiting) {
        if (depth == 0 || md.getBody() == null || md.parameters().isEmpty() || !visiting.add(md)) return null;
        try {
            IMethodBinding mb = md.resolveBinding();
            String name = md.getName().getIdentifier();
            int arity = md.parameters().size();
            Statement loop = null;
            int calls = 0;
            for (MethodInvocation m : unit.invocations()) {
                if (!m.getName().getIdentifier().equals(name) || m.arguments().size() != arity) continue;
                if (!calls(m, md, mb, name, arity)) continue;
                calls++;
                Statement l = perElement(m, depth, visiting);
                if (l == null) return null;
                if (loop == null) loop = l;
            }
            return calls > 0 ? loop : null;
        } finally {
            visiting.remove(md);
        }
    }

    /** Whether invocation {@code m} may run {@code md}: its own method, or one that {@code md} overrides. */
    private static boolean calls(MethodInvocation m, MethodDeclaration md, IMethodBinding mb, String name, int arity) {
        IMethodBinding b = m.resolveMethodBinding();
        if (mb != null && b != null) {
            IMethodBinding target = b.getMethodDeclaration();
            return target.isEqualTo(mb.getMethodDeclaration()) || mb.overrides(target);
        }
        return Types.localMethod(m, name, arity) == md;
    }

    /** The loop that makes call {@code m} once per element, or null. */
    private Statement perElement(MethodInvocation m, int depth, Set<MethodDeclaration> visiting) {
        List<Expression> scalars = new ArrayList<>();
        for (Object o : m.arguments()) {
            Expression e = (Expression) o;
            ITypeBinding t = e.resolveTypeBinding();
            // an unresolved type (a library outside the class path) counts: an array or object argument of the
            // scanned code itself resolves
            if (t == null || (t.isPrimitive() && !"boolean".equals(t.getName()))) scalars.add(e);
        }
        if (scalars.isEmpty()) return null;
        MethodDeclaration enclosing = null;
        for (ASTNode p = m.getParent(); p != null; p = p.getParent()) {
            if (p instanceof LambdaExpression
                    || p instanceof AbstractTypeDeclaration
                    || p instanceof AnonymousClassDeclaration
                    || p instanceof Initializer) return null;
            if (p instanceof MethodDeclaration) {
                enclosing = (MethodDeclaration) p;
                break;
            }
            if (LoopFacts.isLoop(p) && JavaUnit.isAncestor(body((Statement) p), m)) {
                for (Expression s : scalars) if (varies(s, (Statement) p)) return (Statement) p;
            }
        }
        if (enclosing == null) return null;
        // not in a loop of its own method: a per-element method passing on one of its scalar parameters
        Set<String> params = new HashSet<>();
        for (Object o : enclosing.parameters()) {
            SingleVariableDeclaration d = (SingleVariableDeclaration) o;
            if (d.getType().isPrimitiveType() && d.getExtraDimensions() == 0)
                params.add(d.getName().getIdentifier());
        }
        boolean passesParameter = false;
        for (Expression s : scalars) if (mentions(s, params)) passesParameter = true;
        if (!passesParameter) return null;
        return loopOf(enclosing, depth - 1, visiting);
    }

    private static Statement body(Statement loop) {
        if (loop instanceof ForStatement) return ((ForStatement) loop).getBody();
        if (loop instanceof EnhancedForStatement) return ((EnhancedForStatement) loop).getBody();
        if (loop instanceof WhileStatement) return ((WhileStatement) loop).getBody();
        if (loop instanceof DoStatement) return ((DoStatement) loop).getBody();
        return loop;
    }

    /**
     * Whether {@code e} changes from one iteration of {@code loop} to the next: it reads a local variable the loop
     * declares or assigns (its counter, an element variable, a value computed in the body), or a field of an object
     * whose method the loop calls ({@code iter.i} in {@code while (iter.next() != null)}).
     */
    static boolean varies(Expression e, Statement loop) {
        Set<String> changing = JavaSyntax.namesChangedIn(loop);
        Set<String> advanced = new HashSet<>();
        loop.accept(new ASTVisitor() {
            @Override
            public boolean visit(MethodInvocation n) {
                Expression r = n.getExpression() == null ? null : JavaSyntax.unparen(n.getExpression());
                if (r instanceof SimpleName) advanced.add(((SimpleName) r).getIdentifier());
                return true;
            }
        });
        boolean[] found = {false};
        e.accept(new ASTVisitor() {
            @Override
            public boolean visit(QualifiedName n) {
                if (n.getQualifier() instanceof SimpleName) {
                    String q = ((SimpleName) n.getQualifier()).getIdentifier();
                    if (advanced.contains(q) || changing.contains(q)) found[0] = true;
                }
                return false;
            }

            @Override
            public boolean visit(SimpleName n) {
                IBinding b = n.resolveBinding();
                boolean local = b == null || (b instanceof IVariableBinding && !((IVariableBinding) b).isField());
                if (local && changing.contains(n.getIdentifier())) found[0] = true;
                return false;
            }

            @Override
            public boolean visit(MethodInvocation n) {
                // a call's arguments may vary; its name does not
                for (Object a : n.arguments()) ((Expression) a).accept(this);
                if (n.getExpression() != null) n.getExpression().accept(this);
                return false;
            }
        });
        return found[0];
    }

    private static boolean mentions(Expression e, Set<String> names) {
        boolean[] found = {false};
        e.accept(new ASTVisitor() {
            @Override
            public boolean visit(SimpleName n) {
                if (names.contains(n.getIdentifier())) found[0] = true;
                return false;
            }

            @Override
            public boolean visit(QualifiedName n) {
                n.getQualifier().accept(this);
                return false;
            }

            @Override
            public boolean visit(FieldAccess n) {
                n.getExpression().accept(this);
                return false;
            }
        });
        return found[0];
    }
}
