package dev.numlint.java.checks;

import com.google.auto.service.AutoService;
import dev.numlint.java.JavaCheck;
import dev.numlint.java.JavaUnit;
import dev.numlint.model.Impact;
import dev.numlint.model.Level;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jdt.core.dom.*;

/**
 * NL005 in Java source: float arithmetic outside strictfp code in a project compiled for Java 16 or older. Before
 * Java 17 (JEP 306) such code may be evaluated with an extended exponent range, which only x87 (32-bit x86 JVMs)
 * does; one note per class says when it matters.
 */
@AutoService(JavaCheck.class)
public final class ExtendedPrecision implements JavaCheck {
    @Override
    public String ruleId() {
        return "NL005";
    }

    @Override
    public void check(JavaUnit unit) {
        if (unit.release() >= 17) return;
        Map<AbstractTypeDeclaration, int[]> perType = new LinkedHashMap<>();
        for (Expression e : unit.arithmetic()) {
            AbstractTypeDeclaration type = null;
            boolean strict = false;
            for (ASTNode p = e.getParent(); p != null; p = p.getParent()) {
                if (p instanceof MethodDeclaration && Modifier.isStrictfp(((MethodDeclaration) p).getModifiers())) {
                    strict = true;
                    break;
                }
                if (p instanceof AbstractTypeDeclaration) {
                    // strictfp on an enclosing type covers nested ones
                    if (Modifier.isStrictfp(((AbstractTypeDeclaration) p).getModifiers())) {
                        strict = true;
                        break;
                    }
                    if (type == null) type = (AbstractTypeDeclaration) p;
                }
            }
            if (strict || type == null) continue;
            perType.computeIfAbsent(type, k -> new int[] {0, e.getStartPosition()})[0]++;
        }
        for (Map.Entry<AbstractTypeDeclaration, int[]> en : perType.entrySet()) {
            AbstractTypeDeclaration t = en.getKey();
            int n = en.getValue()[0];
            String kind = t instanceof EnumDeclaration
                    ? "enum"
                    : t instanceof RecordDeclaration
                            ? "record"
                            : t instanceof TypeDeclaration && ((TypeDeclaration) t).isInterface()
                                    ? "interface"
                                    : "class";
            String msg = JavaUnit.message(
                    "NL005",
                    "java-class",
                    "kind",
                    kind,
                    "name",
                    t.getName().getIdentifier(),
                    "count",
                    n + " float/double operation" + (n == 1 ? "" : "s"),
                    "line",
                    unit.cu().getLineNumber(en.getValue()[1]),
                    "release",
                    unit.release());
            unit.report(
                    ruleId(),
                    t.getName(),
                    msg,
                    false,
                    Level.NOTE,
                    Impact.bounded("differs only on x87 (32-bit x86 JVMs before Java 17)"));
        }
    }
}
