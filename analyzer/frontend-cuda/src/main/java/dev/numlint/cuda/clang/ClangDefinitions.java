package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;

/**
 * The function definitions of a file as Clang reads them, with their lines, for the scan's question of which code the
 * build's programs run (the CUDA analyzer's {@code UnreachableCode}, session 48). A template pattern (a member
 * function of a class template, defined in its class or outside it, or a function template) is instantiated only where
 * code names it: the compiler generates nothing for a member of {@code CTensor<float>} that nothing calls. A function
 * that is no template is compiled, but runs only where code calls it. Whether anything does is a question about the
 * whole tree, decided after the scan; this class gives, per definition, its lines, its name, its class template and
 * whether it is a template pattern.
 *
 * <p>Not given: constructors, destructors, conversion functions and operators (called without their name being
 * written).
 */
public final class ClangDefinitions {
    private ClangDefinitions() {}

    /**
     * A function definition: its lines, its name, the class template it is a member of (its name, or null), and
     * whether it is a template pattern.
     */
    public record Definition(int startLine, int endLine, String name, String owner, boolean template) {}

    /** The function definitions of {@code unit}'s file, in the order of its functions. */
    public static List<Definition> of(ClangUnit unit) {
        List<Definition> out = new ArrayList<>();
        for (ClangUnit.Function fn : unit.functions()) {
            ClangNode n = fn.node();
            if (n == null) continue;
            if (n.kind != CXCursor_FunctionTemplate && n.kind != CXCursor_CXXMethod && n.kind != CXCursor_FunctionDecl)
                continue;
            String name = n.spelling;
            if (name == null || name.isEmpty() || name.startsWith("operator") || !identifier(name)) continue;
            boolean template = ClangTemplates.pattern(fn);
            out.add(new Definition(fn.startLine(), fn.endLine(), name, template ? owner(n) : null, template));
        }
        return out;
    }

    /** The class template {@code fn} is a member of (its name), or null. */
    private static String owner(ClangNode fn) {
        for (ClangNode p = fn.parent; p != null; p = p.parent) {
            if (p.kind == CXCursor_ClassTemplate || p.kind == CXCursor_ClassTemplatePartialSpecialization)
                return p.spelling;
        }
        String usr = ClangMemberTemplates.outOfLine(fn);
        if (usr == null) return null;
        int at = usr.lastIndexOf('@');
        return at < 0 ? null : usr.substring(at + 1);
    }

    private static boolean identifier(String s) {
        if (!Character.isJavaIdentifierStart(s.charAt(0))) return false;
        for (int i = 1; i < s.length(); i++) {
            if (!Character.isJavaIdentifierPart(s.charAt(i))) return false;
        }
        return true;
    }
}
