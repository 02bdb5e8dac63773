package dev.numlint.cuda.clang;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Deduction of a template parameter from an argument of a class template's type ({@code Arr<T> *a} given an {@code
 * Arr<float> *}: T = float), for {@link ClangTemplates#deduce}.
 */
final class ClangClassArguments {
    private ClangClassArguments() {}

    /** A parameter of a class template of one template parameter, or a pointer or reference to one. */
    static final Pattern CLASS_PARAM = Pattern.compile(
            "^(?:const )?((?:\\w+::)*\\w+)<type-parameter-0-(\\d+)>(?: const)?(?: \\*)?(?: const)?(?: &&?)?$");

    /**
     * The concrete argument of the class template {@code cls} in an argument's type, the caller's parameters replaced
     * by the caller's instantiation ({@code Arr<type-parameter-0-0> *} with {@code [float]}: float), or null.
     */
    static String of(ClangNode arg, String cls, List<String> caller) {
        String t = arg.canon == null ? "" : arg.canon.trim();
        Matcher p = Pattern.compile("type-parameter-0-(\\d+)").matcher(t);
        StringBuilder sb = new StringBuilder();
        while (p.find()) {
            int k = Integer.parseInt(p.group(1));
            if (k >= caller.size() || caller.get(k) == null) return null;
            p.appendReplacement(sb, Matcher.quoteReplacement(caller.get(k)));
        }
        p.appendTail(sb);
        Matcher m = Pattern.compile(
                        "^(?:const )?" + Pattern.quote(cls) + "<([\\w ]+)>(?: const)?(?: \\*)?(?: const)?(?: &&?)?$")
                .matcher(sb.toString());
        return m.matches() ? m.group(1).trim() : null;
    }
}
