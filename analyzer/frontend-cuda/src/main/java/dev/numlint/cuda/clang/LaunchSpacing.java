package dev.numlint.cuda.clang;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kernel launches written with spaces inside the chevrons, {@code kernel<< <grid, block>> >(args)} (a formatter's
 * habit), which nvcc accepts and Clang's CUDA parser does not (issue 26: SUPRA's {@code RawDelay.cu},
 * {@code RxBeamformerCuda.cu}, {@code ScanConverter.cu}, up to 64 Clang errors each). The text given to Clang joins
 * the chevrons and moves the spaces after them, so that every byte keeps its offset and every line its length:
 * {@code << <} becomes {@code <<< } and the matching {@code >> >(} becomes {@code >>> (}. Only a spaced run of three
 * {@code <} (never valid C++ otherwise) opens a launch; the first run of three {@code >} followed by {@code (} after it
 * closes it, spaced or not.
 */
final class LaunchSpacing {
    private LaunchSpacing() {}

    private static final Pattern OPEN = Pattern.compile("<([ \\t]*)<([ \\t]*)<");
    private static final Pattern CLOSE = Pattern.compile(">([ \\t]*)>([ \\t]*)>(?=[ \\t\\r\\n]*\\()");

    /** {@code text} with its spaced launch chevrons joined, or {@code text} itself when it has none. */
    static byte[] join(byte[] text) {
        if (text == null || text.length < 6) return text;
        // ISO-8859-1 maps each byte to one char and back: offsets are bytes
        String s = new String(text, StandardCharsets.ISO_8859_1);
        if (!s.contains("< <") && !s.contains("<\t<")) return text;
        StringBuilder b = new StringBuilder(s);
        Matcher open = OPEN.matcher(s);
        Matcher close = CLOSE.matcher(s);
        boolean changed = false;
        int from = 0;
        while (from < s.length() && open.find(from)) {
            int spaces = open.group(1).length() + open.group(2).length();
            if (spaces == 0) {
                from = open.end();
                continue;
            }
            if (!close.find(open.end())) break;
            rewrite(b, open.start(), open.end(), '<');
            rewrite(b, close.start(), close.end(), '>');
            changed = true;
            from = close.end();
        }
        return changed ? b.toString().getBytes(StandardCharsets.ISO_8859_1) : text;
    }

    private static void rewrite(StringBuilder b, int start, int end, char c) {
        for (int i = start; i < end; i++) b.setCharAt(i, i < start + 3 ? c : ' ');
    }

    /** The headers' texts, each joined ({@link #join(byte[])}). */
    static Map<java.nio.file.Path, byte[]> join(Map<java.nio.file.Path, byte[]> headers) {
        if (headers == null || headers.isEmpty()) return headers;
        Map<java.nio.file.Path, byte[]> out = new LinkedHashMap<>();
        headers.forEach((p, t) -> out.put(p, join(t)));
        return out;
    }
}
