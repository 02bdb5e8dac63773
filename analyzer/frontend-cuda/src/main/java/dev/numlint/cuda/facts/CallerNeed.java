package dev.numlint.cuda.facts;

import java.util.ArrayList;
import java.util.List;

/**
 * A parameter that a conversion's operand needs non-negative to be in range: the front end found the operand open
 * below in its function, and in range where this parameter (with the others of the same list) is at least 0. Whether
 * every call of the program passes it so is the scan's review to say, once every file's calls are known
 * ({@code CallerRanges}); a finding carries its needs as a list of strings ({@link #encode}), which the analysis cache
 * stores with it.
 *
 * @param function the function's identity across the files of the scan (Clang's unified symbol name)
 * @param name     the function's name as written
 * @param index    the parameter's position, from 0
 * @param param    the parameter's name
 */
public record CallerNeed(String function, String name, int index, String param) {
    /** The finding property that holds a finding's needs ({@link #encode}). */
    public static final String PROPERTY = "callerNeeds";

    /** {@code needs} as the finding property holds them: "index param name function" each. */
    public static List<String> encode(List<CallerNeed> needs) {
        List<String> out = new ArrayList<>(needs.size());
        for (CallerNeed n : needs) out.add(n.index + " " + n.param + " " + n.name + " " + n.function);
        return out;
    }

    /** The needs a finding property holds ({@link #encode}), or null when it holds none or something else. */
    public static List<CallerNeed> decode(Object property) {
        if (!(property instanceof List<?> list) || list.isEmpty()) return null;
        List<CallerNeed> out = new ArrayList<>(list.size());
        for (Object o : list) {
            if (!(o instanceof String s)) return null;
            String[] p = s.split(" ", 4);
            if (p.length != 4) return null;
            try {
                out.add(new CallerNeed(p[3], p[2], Integer.parseInt(p[0]), p[1]));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return out;
    }
}
