package dev.numlint.ptx.sass;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Rewrites PTX so that every instruction carries {@code .loc 1 N 0}, N being its own line in the original text
 * (the original .loc and .file directives are blanked, so line numbers do not move). Assembled with
 * {@code ptxas -lineinfo} and disassembled with {@code nvdisasm -g}, each machine instruction then names the PTX
 * line it came from, which is what {@link ContractionCheck} compares against.
 */
public final class LocRewriter {
    private static final Pattern LOC = Pattern.compile("^\\s*\\.(loc|file)\\b.*");
    private static final Pattern LABEL = Pattern.compile("^[$\\w]+:$");

    private LocRewriter() {}

    /** The rewritten PTX; fileName is what the .file directive names. */
    public static String rewrite(String ptx, String fileName) {
        String[] lines = ptx.split("\n", -1);
        List<String> out = new ArrayList<>(lines.length * 2);
        int depth = 0;
        boolean open = false;
        for (int no = 1; no <= lines.length; no++) {
            String line = lines[no - 1];
            String s = line.strip();
            if (LOC.matcher(line).matches()) {
                out.add("");
                continue;
            }
            if (s.startsWith(".address_size")) {
                out.add(line);
                out.add(".file 1 \"" + fileName.replace("\"", "") + "\"");
                continue;
            }
            String code = s.contains("//") ? s.substring(0, s.indexOf("//")).strip() : s;
            boolean instr = depth > 0
                    && !code.isEmpty()
                    && !code.startsWith(".")
                    && !code.startsWith("{")
                    && !code.startsWith("}")
                    && !LABEL.matcher(code).matches()
                    && !code.matches("^[$\\w]+:.*");
            if (instr && !open) out.add("\t.loc 1 " + no + " 0");
            out.add(line);
            if (instr) open = !code.endsWith(";");
            for (char c : code.toCharArray()) {
                if (c == '{') depth++;
                else if (c == '}') depth--;
            }
        }
        return String.join("\n", out);
    }
}
