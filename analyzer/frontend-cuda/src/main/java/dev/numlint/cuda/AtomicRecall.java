package dev.numlint.cuda;

import dev.numlint.cuda.clang.ClangAtomicCalls;
import dev.numlint.cuda.clang.ClangUnit;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The atomic read-modify-writes of a file ({@code atomicAdd}, {@code atomicAdd_block}, {@code atomicAdd_system},
 * {@code atomicSub}, {@code atomicExch}) that no fact judged: neither a floating atomic (NL009 reports it) nor one
 * proven integral. A grep of the file finds them; without a notice they would be at no level and unexplained. One note
 * per file lists their lines by the reason their type is not known: an identifier Clang found undeclared (a macro the
 * host defines when it compiles the file at run time, NVRTC), a type no file this one includes defines, a template
 * parameter no instantiation in view decides, a struct operand (a call of an overload this file does not define), or
 * Clang's errors. An integer atomic ({@code atomicAdd(&count, 1)} on an int, or an integer constant added to an
 * operand of unknown type: a counter) is no hazard and stays silent.
 */
final class AtomicRecall {
    private AtomicRecall() {}

    /** Keywords after which an atomic's name is a call, not a declaration's name. */
    private static final Set<String> BEFORE_CALL = Set.of("return", "else", "do", "case", "co_return", "throw");

    /** Sites named per reason in the notice; the rest are counted. */
    private static final int NAMED = 20;

    /**
     * The file's notice, or null when every atomic site is judged.
     *
     * @param covered the lines of the atomics the facts judged (floating, of unknown type, or integral)
     */
    static Notification notice(String rel, List<PToken> toks, Set<Integer> covered, ClangUnit unit) {
        if (unit == null) return null;
        Map<Integer, ClangAtomicCalls.AtomicCall> calls = new LinkedHashMap<>();
        for (ClangAtomicCalls.AtomicCall c : unit.atomicCalls()) calls.putIfAbsent(c.line(), c);
        Map<String, List<Integer>> undeclared = unit.diagnosed(true);
        Map<String, List<Integer>> unknownTypes = unit.diagnosed(false);
        Map<String, Set<Integer>> byReason = new LinkedHashMap<>();
        for (int i = 0; i + 1 < toks.size(); i++) {
            PToken t = toks.get(i);
            if (!ClangAtomicCalls.NAMES.contains(t.getText())
                    || !"(".equals(toks.get(i + 1).getText())) continue;
            if (t.condition != null || declaredOrMember(toks, i)) continue;
            int line = t.getLine();
            if (covered.contains(line)) continue;
            int close = closing(toks, i + 1);
            if (close + 1 < toks.size() && "{".equals(toks.get(close + 1).getText())) continue; // a definition
            ClangAtomicCalls.AtomicCall call = calls.get(line);
            if (call != null && call.integral()) continue;
            if (call == null && integerConstantAdded(toks, i + 1, close)) continue;
            byReason.computeIfAbsent(why(toks, i, close, call, undeclared, unknownTypes, unit), k -> new TreeSet<>())
                    .add(line);
        }
        if (byReason.isEmpty()) return null;
        int n = 0;
        int first = Integer.MAX_VALUE;
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Set<Integer>> e : byReason.entrySet()) {
            n += e.getValue().size();
            first = Math.min(first, e.getValue().iterator().next());
            sb.append(sb.length() == 0 ? "" : "; ")
                    .append(lines(e.getValue()))
                    .append(": ")
                    .append(e.getKey());
        }
        // what each kind of reason means, once
        String all = String.join("; ", byReason.keySet());
        if (all.contains("undeclared identifier")) {
            sb.append(". The undeclared identifiers are macros numlint does not know, as in a file compiled at run time"
                    + " with the host's -D options (NVRTC): --nvcc-flags \"-DNAME=value\" gives them");
        }
        if (all.contains("defined in no file this one includes")) {
            sb.append(". A type defined in no file this one includes is its includer's (the file is read alone) or a"
                    + " package's the scan does not read");
        }
        return new Notification(
                rel,
                first,
                Level.NOTE,
                "cuda-atomic-unjudged",
                n + " atomic operation" + (n == 1 ? "" : "s") + " on a value not known to be an integer "
                        + (n == 1 ? "is" : "are") + " not judged (NL009: a floating one sums in a run-dependent"
                        + " order): " + sb);
    }

    /** "line 8", "lines 12, 40, 41", the first {@link #NAMED} and a count. */
    private static String lines(Set<Integer> lines) {
        StringBuilder sb = new StringBuilder(lines.size() == 1 ? "line " : "lines ");
        int k = 0;
        for (int l : lines) {
            if (k == NAMED) {
                sb.append(" and ").append(lines.size() - NAMED).append(" more");
                break;
            }
            sb.append(k++ == 0 ? "" : ", ").append(l);
        }
        return sb.toString();
    }

    /** Why the type of the atomic at token {@code at} is not known. */
    private static String why(
            List<PToken> toks,
            int at,
            int close,
            ClangAtomicCalls.AtomicCall call,
            Map<String, List<Integer>> undeclared,
            Map<String, List<Integer>> unknownTypes,
            ClangUnit unit) {
        int line = toks.get(at).getLine();
        // the identifiers of the call and of its line that Clang found undeclared
        Set<String> names = new TreeSet<>();
        for (int k = lineStart(toks, at);
                k < toks.size() && (k <= close || toks.get(k).getLine() == line);
                k++) {
            if (undeclared.containsKey(toks.get(k).getText()))
                names.add(toks.get(k).getText());
        }
        List<String> reasons = new ArrayList<>();
        if (!names.isEmpty()) {
            reasons.add("undeclared identifier" + (names.size() == 1 ? " " : "s ") + String.join(", ", names));
        }
        // the type names Clang did not know in the function the atomic is in (or on its line)
        int from = line;
        int to = line;
        for (ClangUnit.Function f : unit.functions()) {
            if (line >= f.startLine() && line <= f.endLine()) {
                from = f.startLine();
                to = f.endLine();
                break;
            }
        }
        Set<String> types = new TreeSet<>();
        for (Map.Entry<String, List<Integer>> e : unknownTypes.entrySet()) {
            for (int l : e.getValue()) if (l >= from && l <= to) types.add(e.getKey());
        }
        if (!types.isEmpty()) {
            reasons.add("type" + (types.size() == 1 ? " " : "s ") + String.join(", ", types)
                    + " defined in no file this one includes");
        }
        if (!reasons.isEmpty()) return String.join("; ", reasons);
        if (call != null && !call.unresolved().isEmpty()) {
            return "type" + (call.unresolved().size() == 1 ? " '" : "s '") + String.join("', '", call.unresolved())
                    + "' " + (call.unresolved().size() == 1 ? "is a template parameter" : "are template parameters")
                    + " that no explicit template argument list in this file instantiates (arguments deduced through"
                    + " other templates, as an explicitly instantiated host template launching it, are not followed;"
                    + " decided where its users instantiate it)";
        }
        if (call != null && call.record() && call.pointee() != null) {
            return "the operand is a '" + call.pointee() + "': a call of an overload this file does not define (its"
                    + " floating adds are judged where it is defined)";
        }
        if (unit.errors() > 0 && unit.firstError() != null) {
            return "the operand's type is unknown because of Clang's errors (" + unit.errors() + ", the first "
                    + (unit.firstError().startsWith("line ") ? "at " : "") + unit.firstError() + ")";
        }
        return "the operand's type is not known here";
    }

    /** The first token of the line of token {@code at}. */
    private static int lineStart(List<PToken> toks, int at) {
        int k = at;
        while (k > 0 && toks.get(k - 1).getLine() == toks.get(at).getLine()) k--;
        return k;
    }

    /**
     * Whether the name at {@code i} is declared (a return type or qualifier before it: {@code void atomicAdd(}) or
     * is a member's ({@code obj.atomicAdd(}, {@code p->atomicAdd(}).
     */
    private static boolean declaredOrMember(List<PToken> toks, int i) {
        if (i == 0) return false;
        String prev = toks.get(i - 1).getText();
        if (prev.equals(".") || prev.equals("->") || prev.equals("*") || prev.equals("&") || prev.equals(">"))
            return true;
        return prev.matches("[A-Za-z_]\\w*") && !BEFORE_CALL.contains(prev);
    }

    /** The index of the parenthesis that closes the one at {@code open}, or the last token. */
    private static int closing(List<PToken> toks, int open) {
        int depth = 0;
        for (int k = open; k < toks.size(); k++) {
            String s = toks.get(k).getText();
            if (s.equals("(")) depth++;
            else if (s.equals(")") && --depth == 0) return k;
        }
        return toks.size() - 1;
    }

    /** Whether the call's second argument is an integer literal ({@code 1}, {@code -1}, {@code 2u}): a counter. */
    private static boolean integerConstantAdded(List<PToken> toks, int open, int close) {
        int depth = 0;
        int comma = -1;
        for (int k = open + 1; k < close; k++) {
            String s = toks.get(k).getText();
            if (s.equals("(") || s.equals("[") || s.equals("{")) depth++;
            else if (s.equals(")") || s.equals("]") || s.equals("}")) depth--;
            else if (s.equals(",") && depth == 0) {
                if (comma >= 0) return false;
                comma = k;
            }
        }
        if (comma < 0) return false;
        int k = comma + 1;
        if (k < close
                && (toks.get(k).getText().equals("-") || toks.get(k).getText().equals("+"))) k++;
        return k == close - 1 && toks.get(k).getText().matches("(0[xX][0-9a-fA-F]+|\\d+)[uUlL]*");
    }
}
