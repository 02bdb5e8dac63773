package dev.numlint.flags;

import static dev.numlint.flags.MakeSyntax.*;

import dev.numlint.flags.MakeValues.Auto;
import dev.numlint.flags.MakeValues.Scope;
import dev.numlint.flags.MakeValues.Var;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * GNU make's built-in functions ({@code $(patsubst ...)}, {@code $(foreach ...)}, {@code $(call ...)},
 * {@code $(wildcard ...)}, {@code $(realpath ...)} ...) as a Makefile's evaluation ({@link MakefileAudit}) evaluates
 * them: text functions exactly, file functions inside the scanned tree only, {@code $(shell ...)} never run (its value
 * is unknown). Their arguments are expanded by the {@link MakeEvaluator} they are handed.
 */
final class MakeFunctions {
    private final MakeEvaluator eval;
    private final Path dir;
    private final Predicate<Path> inTree;
    private final MakeNotices notices;

    MakeFunctions(MakeEvaluator eval, Path dir, Predicate<Path> inTree, MakeNotices notices) {
        this.eval = eval;
        this.dir = dir;
        this.inTree = inTree;
        this.notices = notices;
    }

    static final Set<String> FUNCTIONS = Set.of(
            "subst",
            "patsubst",
            "strip",
            "findstring",
            "filter",
            "filter-out",
            "sort",
            "word",
            "words",
            "wordlist",
            "firstword",
            "lastword",
            "dir",
            "notdir",
            "suffix",
            "basename",
            "addsuffix",
            "addprefix",
            "join",
            "wildcard",
            "realpath",
            "abspath",
            "if",
            "or",
            "and",
            "foreach",
            "call",
            "value",
            "origin",
            "flavor",
            "shell",
            "error",
            "warning",
            "info",
            "eval",
            "file");

    PosText function(String f, PosText argText, Scope scope, Auto auto, int depth) {
        eval.checkTime();
        int d = depth + 1;
        switch (f) {
            case "shell" -> {
                eval.shell(argText.fileAt(0) < 0 ? 0 : argText.fileAt(0), argText.lineAt(0));
                return MakeValues.unknownText();
            }
            case "eval" -> {
                return eval.eval(eval.expand(argText, scope, auto, d));
            }
            case "error", "warning", "info", "file" -> {
                return f.equals("file") ? MakeValues.unknownText() : PosText.EMPTY;
            }
            case "value" -> {
                Var v = scope.get(eval.expand(argText, scope, auto, d).text.trim());
                return v == null ? PosText.EMPTY : v.value();
            }
            case "origin", "flavor" -> {
                Var v = scope.get(eval.expand(argText, scope, auto, d).text.trim());
                return PosText.of(
                        v == null
                                ? "undefined"
                                : f.equals("flavor") ? (v.recursive() ? "recursive" : "simple") : "file",
                        -1,
                        0,
                        0);
            }
            case "if" -> {
                List<PosText> a = args(argText, 3);
                String cond = eval.expand(a.get(0), scope, auto, d).text.trim();
                if (MakeValues.unknown(cond)) {
                    for (int k = 1; k < a.size(); k++) eval.undecided(eval.expand(a.get(k), scope, auto, d));
                    return MakeValues.unknownText();
                }
                if (!cond.isEmpty()) return a.size() > 1 ? eval.expand(a.get(1), scope, auto, d) : PosText.EMPTY;
                return a.size() > 2 ? eval.expand(a.get(2), scope, auto, d) : PosText.EMPTY;
            }
            case "or", "and" -> {
                PosText last = PosText.EMPTY;
                for (PosText a : args(argText, Integer.MAX_VALUE)) {
                    PosText v = eval.expand(a, scope, auto, d);
                    String tv = v.text.trim();
                    if (MakeValues.unknown(tv)) return MakeValues.unknownText();
                    if (f.equals("or") && !tv.isEmpty()) return v;
                    if (f.equals("and") && tv.isEmpty()) return PosText.EMPTY;
                    last = v;
                }
                return f.equals("or") ? PosText.EMPTY : last;
            }
            case "foreach" -> {
                List<PosText> a = args(argText, 3);
                if (a.size() < 3) return PosText.EMPTY;
                String var = eval.expand(a.get(0), scope, auto, d).text.trim();
                PosText list = eval.expand(a.get(1), scope, auto, d);
                PosText.Builder b = new PosText.Builder();
                Scope inner = new Scope(scope);
                for (PosText w : ShellWords.splitPlain(list)) {
                    inner.vars.put(var, new Var(w, false, false));
                    if (b.length() > 0) b.appendSynthetic(' ');
                    eval.appendBounded(b, eval.expand(a.get(2), inner, auto, d));
                }
                return b.build();
            }
            case "call" -> {
                List<PosText> a = args(argText, Integer.MAX_VALUE);
                String name = eval.expand(a.get(0), scope, auto, d).text.trim();
                Var v = scope.get(name);
                if (v == null) return PosText.EMPTY;
                Scope inner = new Scope(scope);
                inner.vars.put("0", new Var(PosText.of(name, -1, 0, 0), false, false));
                for (int k = 1; k < a.size(); k++) {
                    inner.vars.put(Integer.toString(k), new Var(eval.expand(a.get(k), scope, auto, d), false, false));
                }
                return eval.expand(v.value(), inner, auto, d);
            }
            default -> {
                // functions on expanded arguments
            }
        }
        int max =
                switch (f) {
                    case "subst", "patsubst", "wordlist" -> 3;
                    case "findstring", "filter", "filter-out", "word", "addsuffix", "addprefix", "join" -> 2;
                    default -> 1;
                };
        List<PosText> raw = args(argText, max);
        List<PosText> a = new ArrayList<>();
        for (PosText r : raw) a.add(eval.expand(r, scope, auto, d));
        for (PosText x : a) {
            if (MakeValues.unknown(x.text) && !f.equals("addprefix") && !f.equals("addsuffix") && !f.equals("strip")) {
                return MakeValues.unknownText();
            }
        }
        PosText x = a.get(a.size() - 1);
        List<PosText> ws = ShellWords.splitPlain(x);
        switch (f) {
            case "subst" -> {
                if (a.size() < 3 || a.get(0).text.isEmpty()) return a.size() < 3 ? PosText.EMPTY : a.get(2);
                String from = a.get(0).text;
                PosText in = a.get(2);
                PosText.Builder b = new PosText.Builder();
                int i = 0;
                while (i < in.length()) {
                    if (in.text.startsWith(from, i)) {
                        eval.appendBounded(b, a.get(1));
                        i += from.length();
                    } else {
                        b.append(in, i);
                        i++;
                    }
                }
                return b.build();
            }
            case "patsubst" -> {
                return a.size() < 3
                        ? PosText.EMPTY
                        : patsubst(a.get(0).text.trim(), a.get(1).text.trim(), a.get(2));
            }
            case "strip" -> {
                return joinWords(ws);
            }
            case "findstring" -> {
                return a.size() < 2 || !a.get(1).text.contains(a.get(0).text) ? PosText.EMPTY : a.get(0);
            }
            case "filter", "filter-out" -> {
                if (a.size() < 2) return PosText.EMPTY;
                List<String> pats = words(a.get(0).text);
                List<PosText> keep = new ArrayList<>();
                for (PosText w : ws) {
                    boolean m = pats.stream().anyMatch(p -> match(p, w.text) != null);
                    if (m == f.equals("filter")) keep.add(w);
                }
                return joinWords(keep);
            }
            case "sort" -> {
                TreeSet<String> set = new TreeSet<>();
                for (PosText w : ws) set.add(w.text);
                return PosText.of(String.join(" ", set), -1, 0, 0);
            }
            case "word" -> {
                int k = parseInt(a.get(0).text);
                return k >= 1 && k <= ws.size() ? ws.get(k - 1) : PosText.EMPTY;
            }
            case "wordlist" -> {
                int s = parseInt(a.get(0).text);
                int e = a.size() > 1 ? parseInt(a.get(1).text) : 0;
                if (s < 1 || e < s) return PosText.EMPTY;
                return joinWords(ws.subList(Math.min(s - 1, ws.size()), Math.min(e, ws.size())));
            }
            case "words" -> {
                return PosText.of(Integer.toString(ws.size()), -1, 0, 0);
            }
            case "firstword" -> {
                return ws.isEmpty() ? PosText.EMPTY : ws.get(0);
            }
            case "lastword" -> {
                return ws.isEmpty() ? PosText.EMPTY : ws.get(ws.size() - 1);
            }
            case "dir", "notdir", "suffix", "basename", "realpath", "abspath" -> {
                List<PosText> r = new ArrayList<>();
                for (PosText w : ws) {
                    String v = w.text;
                    int sl = v.lastIndexOf('/');
                    int dot = v.lastIndexOf('.');
                    switch (f) {
                        case "dir" -> r.add(PosText.of(sl < 0 ? "./" : v.substring(0, sl + 1), -1, 0, 0));
                        case "notdir" -> r.add(w.sub(sl + 1));
                        case "suffix" -> {
                            if (dot > sl) r.add(w.sub(dot));
                        }
                        case "basename" -> r.add(dot > sl ? w.sub(0, dot) : w);
                        case "abspath" -> {
                            // a computation on the name alone (nothing is read): make's abspath
                            try {
                                r.add(PosText.of(dir.resolve(v).normalize().toString(), -1, 0, 0));
                            } catch (RuntimeException e) {
                                r.add(w);
                            }
                        }
                        default -> {
                            PosText real = realpath(v, argText);
                            if (real == null) return MakeValues.unknownText();
                            if (!real.text.isEmpty()) r.add(real);
                        }
                    }
                }
                return joinWords(r);
            }
            case "addsuffix", "addprefix" -> {
                if (a.size() < 2) return PosText.EMPTY;
                List<PosText> r = new ArrayList<>();
                for (PosText w : ws) {
                    r.add(
                            f.equals("addprefix")
                                    ? a.get(0).trim().concat(w)
                                    : w.concat(a.get(0).trim()));
                }
                return joinWords(r);
            }
            case "join" -> {
                List<PosText> l1 = ShellWords.splitPlain(a.get(0));
                List<PosText> r = new ArrayList<>();
                for (int k = 0; k < Math.max(l1.size(), ws.size()); k++) {
                    PosText p1 = k < l1.size() ? l1.get(k) : PosText.EMPTY;
                    PosText p2 = k < ws.size() ? ws.get(k) : PosText.EMPTY;
                    r.add(p1.concat(p2));
                }
                return joinWords(r);
            }
            case "wildcard" -> {
                return wildcard(ws);
            }
            default -> {
                return MakeValues.unknownText();
            }
        }
    }

    /**
     * make's {@code $(realpath NAME)}: the canonical path (symbolic links resolved) of an existing file, relative
     * names against make's working directory; empty when it does not exist. Confined to the scanned tree: a name
     * outside it is never looked at and evaluates as unknown (null), with a notice.
     */
    private PosText realpath(String name, PosText at) {
        Path p;
        try {
            p = name.startsWith("~") ? null : dir.resolve(name).normalize();
        } catch (RuntimeException e) {
            return PosText.EMPTY;
        }
        if (p == null || !inTree.test(p)) {
            int fi = at.length() > 0 && at.fileAt(0) >= 0 ? at.fileAt(0) : 0;
            int line = at.length() > 0 ? at.lineAt(0) : 0;
            if (notices.once("realpath:" + name)) {
                notices.problem(
                        fi,
                        line,
                        "NOTE",
                        "not-evaluated",
                        "$(realpath " + name + ") names a path outside the scanned tree: not looked at, its value is "
                                + "unknown");
            }
            return null;
        }
        try {
            if (!Files.exists(p)) return PosText.EMPTY;
            Path real = p.toRealPath();
            // spelled from the Makefile's directory as the scan spells it (a root reached through a link stays so)
            for (Path b = dir; b != null && inTree.test(b); b = b.getParent()) {
                Path br = b.toRealPath();
                if (real.startsWith(br))
                    return PosText.of(b.resolve(br.relativize(real)).toString(), -1, 0, 0);
            }
            return PosText.of(real.toString(), -1, 0, 0);
        } catch (IOException | RuntimeException e) {
            return PosText.EMPTY;
        }
    }

    private PosText joinWords(List<PosText> ws) {
        PosText.Builder b = new PosText.Builder();
        for (PosText w : ws) {
            if (b.length() > 0) b.appendSynthetic(' ');
            eval.appendBounded(b, w);
        }
        return b.build();
    }

    PosText patsubst(String from, String to, PosText in) {
        List<PosText> r = new ArrayList<>();
        for (PosText w : ShellWords.splitPlain(in)) {
            String stem = match(from, w.text);
            if (stem == null) {
                r.add(w);
            } else if (to.indexOf('%') < 0) {
                r.add(PosText.of(to, w.fileAt(0), w.lineAt(0), w.colAt(0)));
            } else {
                String v = to.replaceFirst("%", java.util.regex.Matcher.quoteReplacement(stem));
                r.add(PosText.of(v, w.fileAt(0), w.lineAt(0), w.colAt(0)));
            }
        }
        return joinWords(r);
    }

    /** $(wildcard): files in one directory inside the tree (patterns only in the last path element). */
    PosText wildcard(List<PosText> pats) {
        List<String> found = new ArrayList<>();
        for (PosText p : pats) {
            String pat = p.text;
            int sl = pat.lastIndexOf('/');
            String d = sl < 0 ? "" : pat.substring(0, sl);
            String last = pat.substring(sl + 1);
            if (d.contains("*") || d.contains("?") || d.contains("[")) continue;
            try {
                Path base = dir.resolve(d).normalize();
                if (!inTree.test(base) || !Files.isDirectory(base)) continue;
                if (!last.contains("*") && !last.contains("?") && !last.contains("[")) {
                    if (Files.exists(base.resolve(last))) found.add(pat);
                    continue;
                }
                PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + last);
                List<String> here = new ArrayList<>();
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(base)) {
                    for (Path e : ds) {
                        if (here.size() >= 10_000) break;
                        if (m.matches(e.getFileName())) here.add((sl < 0 ? "" : d + "/") + e.getFileName());
                    }
                }
                here.sort(null);
                found.addAll(here);
            } catch (IOException | RuntimeException e) {
                // unreadable directory or a pattern that is not a glob: no match
            }
        }
        return PosText.of(String.join(" ", found), -1, 0, 0);
    }
}
