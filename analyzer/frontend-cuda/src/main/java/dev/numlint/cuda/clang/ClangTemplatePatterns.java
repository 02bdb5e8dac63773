package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The template patterns among a file's function definitions that C++ instantiates only where some code names them: a
 * member function of a class template (defined in its class or outside it) and a function template. The compiler
 * generates no code for a member of {@code CTensor<float>} that nothing calls, nor for a function template that
 * nothing calls, so their hazards cannot change what the build computes (session 48: 54 of the 100 sampled
 * findings of one evaluation round were in helper members of a project's tensor class templates that the program never
 * calls). Whether anything names them is a question about the whole tree, decided after the scan (the CUDA
 * analyzer's {@code UninstantiatedTemplates}); this class gives, per pattern, its lines, its name and how many
 * declarations of that name the file itself holds (occurrences of the name that are no use of it).
 *
 * <p>Not given: constructors, destructors, conversion functions and operators (called without their name being
 * written), and members of a class or function that is no template.
 */
public final class ClangTemplatePatterns {
    private ClangTemplatePatterns() {}

    /**
     * A template pattern: its lines, its name, the declarations of that name in the file (its own declaration and
     * definition, overloads, members of that name of other classes), and the class template it is a member of (its
     * name, or null for a function template at namespace scope).
     */
    public record Pattern(int startLine, int endLine, String name, int declared, String owner) {}

    /** The kinds of cursor that hold declarations: followed when counting the declarations of a name. */
    private static final Set<Integer> SCOPES = Set.of(
            CXCursor_Namespace,
            CXCursor_LinkageSpec,
            CXCursor_ClassTemplate,
            CXCursor_ClassTemplatePartialSpecialization,
            CXCursor_ClassDecl,
            CXCursor_StructDecl,
            CXCursor_UnionDecl,
            CXCursor_UnexposedDecl);

    /** The kinds of cursor that declare a function by name. */
    private static final Set<Integer> DECLARATIONS =
            Set.of(CXCursor_FunctionTemplate, CXCursor_CXXMethod, CXCursor_FunctionDecl);

    /** The template patterns of {@code unit}'s file, in the order of its functions. */
    public static List<Pattern> of(ClangUnit unit) {
        List<Pattern> out = new ArrayList<>();
        Map<String, Integer> declared = null;
        for (ClangUnit.Function fn : unit.functions()) {
            ClangNode n = fn.node();
            if (n == null || !ClangTemplates.pattern(fn)) continue;
            if (n.kind != CXCursor_FunctionTemplate && n.kind != CXCursor_CXXMethod) continue;
            String name = n.spelling;
            if (name == null || name.isEmpty() || name.startsWith("operator") || !identifier(name)) continue;
            if (declared == null) declared = declarations(unit.top());
            out.add(new Pattern(fn.startLine(), fn.endLine(), name, declared.getOrDefault(name, 0), owner(n)));
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

    /** The number of function declarations of each name at namespace and class scope of the file's cursors. */
    private static Map<String, Integer> declarations(List<ClangNode> top) {
        Map<String, Integer> out = new HashMap<>();
        java.util.ArrayDeque<ClangNode> stack = new java.util.ArrayDeque<>(top);
        while (!stack.isEmpty()) {
            ClangNode n = stack.pop();
            if (DECLARATIONS.contains(n.kind) && n.spelling != null) out.merge(n.spelling, 1, Integer::sum);
            if (SCOPES.contains(n.kind) || n.kind == CXCursor_FunctionTemplate) {
                for (ClangNode c : n.children) {
                    // a function template's own declaration is the template cursor; its children are parameters
                    if (n.kind != CXCursor_FunctionTemplate || SCOPES.contains(c.kind)) stack.push(c);
                }
            }
        }
        return out;
    }

    private static boolean identifier(String s) {
        if (!Character.isJavaIdentifierStart(s.charAt(0))) return false;
        for (int i = 1; i < s.length(); i++) {
            if (!Character.isJavaIdentifierPart(s.charAt(i))) return false;
        }
        return true;
    }
}
