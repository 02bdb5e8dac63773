package dev.numlint.cuda;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.FindingSink;

/**
 * GLSL shaders kept in files with C's extensions ({@code mix.fs.c}, {@code mix.vs.c}), which a C program embeds as
 * text ({@code #embed}): their first directive is {@code #version}, which no C, C++ or CUDA compiler accepts.
 */
final class GlslSources {
    private GlslSources() {}

    /**
     * Whether the file {@code rel} with {@code text} is a GLSL shader: then it is not analyzed, and a note says so (a
     * shader read as C has its float arithmetic "computed in double", session 73 round B: a module player's OpenGL
     * view).
     */
    static boolean leftOut(String text, String rel, FindingSink sink) {
        int line = versionLine(text);
        if (line == 0) return false;
        sink.notify(new Notification(
                rel,
                line,
                Level.NOTE,
                "glsl-source",
                "not analyzed: a GLSL shader ('#version' at line " + line + "), not C, C++ or CUDA"));
        return true;
    }

    /**
     * The line of a GLSL {@code #version NNN} directive when it is the file's first line that is not blank or a
     * comment (a C, C++ or CUDA compiler rejects the directive), else 0.
     */
    static int versionLine(String text) {
        int line = 1;
        boolean block = false;
        for (String l : text.split("\n", 200)) {
            String t = l.strip();
            if (block) {
                int end = t.indexOf("*/");
                if (end < 0) {
                    line++;
                    continue;
                }
                t = t.substring(end + 2).strip();
                block = false;
            }
            while (t.startsWith("/*")) {
                int end = t.indexOf("*/", 2);
                if (end < 0) {
                    block = true;
                    t = "";
                    break;
                }
                t = t.substring(end + 2).strip();
            }
            if (!t.isEmpty() && !t.startsWith("//"))
                return GLSL_VERSION.matcher(t).matches() ? line : 0;
            line++;
        }
        return 0;
    }

    private static final java.util.regex.Pattern GLSL_VERSION =
            java.util.regex.Pattern.compile("#\\s*version\\s+\\d+\\b.*");
}
