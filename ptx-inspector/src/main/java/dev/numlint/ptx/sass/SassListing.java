package dev.numlint.ptx.sass;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SASS of a cubin as {@code nvdisasm -g -c} prints it, per function: each machine instruction with the line
 * that the preceding {@code //## File "...", line N} comment names. When the cubin was assembled from PTX whose
 * {@code .loc} directives give every instruction its own PTX line (see {@code validation/bundle/sass/relocate.py}),
 * that line is the PTX line the machine instruction came from; with nvcc's own {@code -lineinfo} it is the source
 * line.
 */
public final class SassListing {
    /** One machine instruction: its opcode with modifiers (e.g. {@code FFMA.FTZ}), full text and attributed line. */
    public record SassInstruction(String opcode, String text, String file, int line) {
        /** The opcode without modifiers, e.g. {@code FFMA}. */
        public String baseOpcode() {
            int dot = opcode.indexOf('.');
            return dot < 0 ? opcode : opcode.substring(0, dot);
        }
    }

    private static final Pattern SECTION = Pattern.compile("^\\s*\\.section\\s+\\.text\\.([^,\\s]+)");
    private static final Pattern LINE = Pattern.compile("//## File \"([^\"]*)\", line (\\d+)");
    private static final Pattern INSN =
            Pattern.compile("^\\s*/\\*[0-9a-f]{4,}\\*/\\s+(?:@!?U?P[T0-9]+\\s+)?([A-Z][A-Z0-9_.]*)([^;]*);");

    private final Map<String, List<SassInstruction>> functions;

    private SassListing(Map<String, List<SassInstruction>> functions) {
        this.functions = functions;
    }

    /** Reads the text nvdisasm printed. Lines it does not recognise are ignored. */
    public static SassListing parse(String text) {
        Map<String, List<SassInstruction>> fns = new LinkedHashMap<>();
        List<SassInstruction> cur = null;
        String file = null;
        int line = 0;
        for (String l : text.split("\n")) {
            Matcher m = SECTION.matcher(l);
            if (m.find()) {
                cur = fns.computeIfAbsent(m.group(1), k -> new ArrayList<>());
                file = null;
                line = 0;
                continue;
            }
            m = LINE.matcher(l);
            if (m.find()) {
                file = m.group(1);
                line = Integer.parseInt(m.group(2));
                int inl = l.indexOf(" inlined at ");
                if (inl >= 0) { // keep the innermost position: the instruction's own line
                    line = Integer.parseInt(m.group(2));
                }
                continue;
            }
            if (cur == null) continue;
            m = INSN.matcher(l);
            if (m.find()) cur.add(new SassInstruction(m.group(1), (m.group(1) + m.group(2)).trim(), file, line));
        }
        return new SassListing(fns);
    }

    /** Function (section) names in listing order. */
    public List<String> functions() {
        return List.copyOf(functions.keySet());
    }

    /** The machine instructions of a function, in address order (empty when the listing has no such function). */
    public List<SassInstruction> instructions(String function) {
        return functions.getOrDefault(function, List.of());
    }

    /** A function's machine instructions grouped by attributed line. */
    public Map<Integer, List<SassInstruction>> byLine(String function) {
        Map<Integer, List<SassInstruction>> out = new TreeMap<>();
        for (SassInstruction i : instructions(function))
            out.computeIfAbsent(i.line(), k -> new ArrayList<>()).add(i);
        return out;
    }
}
