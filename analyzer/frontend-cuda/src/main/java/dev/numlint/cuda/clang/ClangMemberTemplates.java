package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The members of class templates as the template pattern shows them: a member function defined outside its class
 * ({@code template <class T> void CTensor<T>::writeToPPM() const}: lexically at file scope, its class known from its
 * USR), and the type a dependent call of one of the class's own members returns ({@code operator()(x, y, 0)} or
 * {@code at(x)} in the pattern is a dependent call; the member's declared result, {@code T &}, names the class's
 * parameter), so that a conversion of such an operand is read with the class's instantiations like one of a {@code T}
 * value (session 47: a PPM writer's {@code (unsigned char)operator()(x, y, c)} of a {@code CTensor<float>} was not
 * reported at all).
 */
final class ClangMemberTemplates {
    private ClangMemberTemplates() {}

    /** A member's USR: its class template's ("c:@ST>1#T@Box"), then "@F@" (a function) or "@FT@" (a template). */
    private static final Pattern MEMBER = Pattern.compile("^(.*@[A-Z]T>\\d+[^@]*@[^@]+)@FT?@.*$");

    /** A declared result that is a class parameter itself: T, const T, T &, const T &, T &&. */
    private static final Pattern RESULT = Pattern.compile("^(?:const )?(type-parameter-0-\\d+)(?: const)?(?: &&?)?$");

    /** The class template's USR of a member's USR, or null when it is no member of a class template. */
    static String classOf(String usr) {
        if (usr == null) return null;
        Matcher m = MEMBER.matcher(usr);
        return m.matches() ? m.group(1) : null;
    }

    /** The class template's USR of a member function defined outside its class, else null. */
    static String outOfLine(ClangNode fn) {
        if (fn.kind != CXCursor_CXXMethod
                && fn.kind != CXCursor_Constructor
                && fn.kind != CXCursor_Destructor
                && fn.kind != CXCursor_ConversionFunction) return null;
        for (ClangNode p = fn.parent; p != null; p = p.parent) {
            if (p.kind == CXCursor_ClassTemplate || p.kind == CXCursor_ClassTemplatePartialSpecialization) return null;
        }
        return classOf(fn.usr);
    }

    /**
     * The class parameter ("type-parameter-0-K") of a dependent operand: one in its types ({@link
     * ClangUnit#templateParam}), else the declared result of a dependent call in it of a member of {@code fn}'s own
     * class template; null otherwise.
     */
    static String param(ClangUnit unit, ClangUnit.Function fn, ClangNode op) {
        String p = ClangUnit.templateParam(op);
        if (p != null || fn == null || unit == null) return p;
        String cls = classOf(fn.node().usr);
        if (cls == null) return null;
        Map<String, String> results = results(unit);
        String[] found = new String[1];
        op.forEach(n -> {
            if (found[0] != null || n.kind != CXCursor_CallExpr || n.canonKind != CXType_Dependent) return;
            if (n.refUsr != null) {
                if (cls.equals(classOf(n.refUsr))) found[0] = param(results.get(n.refUsr));
                return;
            }
            // an overloaded member (operator()(x, y, 0) beside operator()(float, float)): the overloads of that name
            // that take as many arguments, when they all return the same parameter
            String name = overloaded(n);
            if (name == null) return;
            String one = null;
            for (Map.Entry<String, String> e : results.entrySet()) {
                String key = e.getKey();
                if (!key.startsWith(cls + "@F@" + name + "#") || !cls.equals(classOf(key))) continue;
                String[] ra = e.getValue().split("\0", 2);
                if (ra.length < 2 || !ra[1].equals(String.valueOf(n.children.size() - 1))) continue;
                String q = param(ra[0]);
                if (q == null || one != null && !one.equals(q)) return;
                one = q;
            }
            found[0] = one;
        });
        return found[0];
    }

    private static String param(String result) {
        if (result == null) return null;
        Matcher m = RESULT.matcher(result.split("\0", 2)[0]);
        return m.matches() ? m.group(1) : null;
    }

    /** The member name an unresolved call names ({@code operator()}, {@code at}), or null. */
    private static String overloaded(ClangNode call) {
        if (call.children.isEmpty()) return null;
        String[] name = new String[1];
        call.children.get(0).forEach(c -> {
            if (name[0] == null && c.kind == CXCursor_OverloadedDeclRef && c.spelling != null && !c.spelling.isEmpty())
                name[0] = c.spelling;
        });
        return name[0];
    }

    /** The number of parameters of a function type's canonical spelling ("T &(int, int) const": 2), or -1. */
    static int arity(String canon) {
        int open = canon.indexOf('(');
        if (open < 0) return -1;
        int depth = 0;
        int commas = 0;
        StringBuilder inside = new StringBuilder();
        for (int i = open + 1; i < canon.length(); i++) {
            char c = canon.charAt(i);
            if (c == ')' && depth == 0) break;
            if (c == '(' || c == '<' || c == '[') depth++;
            else if (c == ')' || c == '>' || c == ']') depth--;
            else if (c == ',' && depth == 0) commas++;
            inside.append(c);
        }
        String in = inside.toString().strip();
        return in.isEmpty() || in.equals("void") ? 0 : commas + 1;
    }

    private static final Map<ClangUnit, Map<String, String>> RESULTS = new java.util.WeakHashMap<>();

    /**
     * The declared result type (canonical) of every member function of a class template in the unit and its number of
     * parameters ("type-parameter-0-0 &" NUL "3"), by USR.
     */
    private static Map<String, String> results(ClangUnit unit) {
        synchronized (RESULTS) {
            Map<String, String> r = RESULTS.get(unit);
            if (r != null) return r;
        }
        Map<String, String> out = new HashMap<>();
        for (ClangNode t : unit.top()) {
            t.forEach(n -> {
                if (n.kind != CXCursor_CXXMethod || n.usr == null || n.canon == null || classOf(n.usr) == null) return;
                int paren = n.canon.indexOf('(');
                if (paren > 0)
                    out.putIfAbsent(n.usr, n.canon.substring(0, paren).strip() + "\0" + arity(n.canon));
            });
        }
        synchronized (RESULTS) {
            RESULTS.put(unit, out);
        }
        return out;
    }
}
