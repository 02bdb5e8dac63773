package dev.numlint.java;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jdt.core.dom.*;

/**
 * Documented range contracts of setters: a method whose Javadoc (its own, or that of the method it overrides, found
 * in the scanned sources) says that it does not clamp or range-check the value it stores ("Does no bounds checking
 * or clamping ... values outside the 0-255 range are not handled correctly"). A conversion of such a method's
 * parameter is the documented responsibility of its callers, a justification already written down.
 */
public final class Contracts {
    /** "no ... clamping", "not clamped", "without range checking", "lack of clamping". */
    private static final Pattern NO_CLAMP = Pattern.compile(
            "\\b(?:no|not|without|lack of)\\s+(?:[\\w-]+\\s+){0,3}?(?:clamp\\w*|range[- ]check\\w*|saturat\\w*)\\b");

    private Contracts() {}

    /** Whether {@code text} (a Javadoc comment) states that values are not clamped or range-checked. */
    public static boolean saysNoClamping(String text) {
        return text != null
                && NO_CLAMP.matcher(text.replaceAll("[\\s*]+", " ").toLowerCase(Locale.ROOT))
                        .find();
    }

    /**
     * Whether the range of {@code param} (a parameter of {@code md}) is left to the callers by documentation: the
     * Javadoc of {@code md}, or of a method of the same name in a supertype that {@code md} overrides (with the
     * overloads documented next to it), whose source is one of the scanned files.
     */
    public static boolean documentedNoClamping(JavaUnit unit, MethodDeclaration md) {
        if (saysNoClamping(unit.docComment(md))) return true;
        IMethodBinding mb = md.resolveBinding();
        if (mb == null) return false;
        String name = md.getName().getIdentifier();
        Set<String> seen = new HashSet<>();
        List<ITypeBinding> todo = new ArrayList<>();
        ITypeBinding own = mb.getDeclaringClass();
        if (own == null) return false;
        if (own.getSuperclass() != null) todo.add(own.getSuperclass());
        for (ITypeBinding i : own.getInterfaces()) todo.add(i);
        while (!todo.isEmpty() && seen.size() < 16) {
            ITypeBinding t = todo.remove(todo.size() - 1).getErasure();
            if (!seen.add(t.getQualifiedName())) continue;
            boolean overridden = false;
            for (IMethodBinding m : t.getDeclaredMethods()) {
                if (mb.overrides(m)) overridden = true;
            }
            if (overridden && documentedIn(unit, t, name)) return true;
            if (t.getSuperclass() != null) todo.add(t.getSuperclass());
            for (ITypeBinding i : t.getInterfaces()) todo.add(i);
        }
        return false;
    }

    /** Whether a Javadoc comment before a declaration of method {@code name} in {@code t}'s source says so. */
    private static boolean documentedIn(JavaUnit unit, ITypeBinding t, String name) {
        ITypeBinding top = t;
        while (top.getDeclaringClass() != null) top = top.getDeclaringClass();
        String pkg = top.getPackage() == null ? "" : top.getPackage().getName();
        Path here = unit.file().toAbsolutePath().normalize();
        Path root = JavaProject.sourceRoot(here);
        if (root == null) return false;
        Path src = root.resolve((pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/")
                        + top.getErasure().getName() + ".java")
                .normalize();
        // only the scanned sources are read
        if (!src.startsWith(root) || !unit.context().files().contains(src)) return false;
        String text;
        try {
            text = Files.readString(src, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return false;
        }
        Matcher m = Pattern.compile(
                        "/\\*\\*((?:[^*]|\\*(?!/))*)\\*/\\s*(?:@\\w+(?:\\([^)]*\\))?\\s*)*(?:[\\w<>\\[\\],?.]+\\s+)*"
                                + Pattern.quote(name) + "\\s*\\(")
                .matcher(text);
        while (m.find()) {
            if (saysNoClamping(m.group(1))) return true;
        }
        return false;
    }
}
