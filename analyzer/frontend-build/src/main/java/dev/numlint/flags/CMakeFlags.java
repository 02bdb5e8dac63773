package dev.numlint.flags;

import dev.numlint.model.Location;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The flags a CMake project writes, as {@link CMakeAudit} evaluates it: compile options, definitions and include
 * directories of a directory, a target or a source file ({@code add_compile_options}, {@code target_*},
 * {@code set_target_properties}, {@code set_source_files_properties}, {@code set_property}), each a {@link FlagTok}
 * at the place it is written, with the condition it is written under; CUDA architectures; and, in a skipped branch,
 * the flags it would set (audited, never applied).
 */
final class CMakeFlags {
    private final CMakeAudit audit;

    CMakeFlags(CMakeAudit audit) {
        this.audit = audit;
    }

    void compileOptions(List<PosText> v, int from, List<FlagTok> into, String via) {
        for (int i = from; i < v.size(); i++) {
            PosText p = v.get(i);
            if (CMakeAudit.TARGET_KEYWORDS.contains(p.text)) continue;
            for (GenexEval.Piece piece : GenexEval.eval(p, audit.currentCondition(), audit.configuration())) {
                PosText t = piece.text();
                if (t.text.startsWith("SHELL:")) {
                    toks(t.sub(6), piece.lang(), piece.condition(), via, into);
                } else {
                    // one list element is one argument; a space inside stays part of it
                    add(into, t.trim(), piece.lang(), piece.condition(), via);
                }
            }
        }
    }

    void target(String cmd, List<PosText> v) {
        if (v.isEmpty()) return;
        String t = v.get(0).text;
        if (v.size() > 1 && (v.get(1).text.equals("IMPORTED") || v.get(1).text.equals("ALIAS"))) return;
        List<Path> srcs = audit.skipMode != null
                ? new ArrayList<>()
                : audit.out.sources.computeIfAbsent(t, k -> new ArrayList<>());
        if (audit.skipMode == null && !cmd.equals("target_sources"))
            audit.out.targetDirs.putIfAbsent(t, audit.currentDir);
        boolean options = false;
        String cfg = null;
        for (int i = 1; i < v.size(); i++) {
            String s = v.get(i).text;
            if ((cmd.startsWith("cuda_add_") || cmd.equals("cuda_wrap_srcs")) && s.equals("OPTIONS")) {
                options = true;
                continue;
            }
            if (options) {
                if (s.equals("RELEASE") || s.equals("DEBUG") || s.equals("RELWITHDEBINFO") || s.equals("MINSIZEREL")) {
                    cfg = "the " + s + " configuration";
                    continue;
                }
                String cond = cfg != null ? cfg : audit.currentCondition();
                toks(
                        v.get(i),
                        FlagTok.Lang.CUDA,
                        cond,
                        cmd + "(" + t + " OPTIONS)",
                        audit.out.targets.computeIfAbsent(t, k -> new ArrayList<>()));
                continue;
            }
            if (CMakeAudit.TARGET_KEYWORDS.contains(s) || s.contains("$<") || s.isEmpty()) continue;
            try {
                srcs.add(audit.currentDir.resolve(s).normalize());
            } catch (RuntimeException e) {
                // not a path
            }
        }
    }

    void targetProperties(List<PosText> v) {
        int p = propertiesKeyword(v);
        if (p < 0) return;
        for (int i = p + 1; i + 1 < v.size(); i += 2) {
            String prop = v.get(i).text;
            if (prop.equals("CUDA_ARCHITECTURES") && audit.skipMode == null) {
                String arch = arch(v.get(i + 1).text);
                for (int t = 0; t < p; t++) {
                    if (arch != null) audit.out.cudaArch.put(v.get(t).text, arch);
                }
            } else if (prop.equals("COMPILE_OPTIONS") || prop.equals("COMPILE_FLAGS")) {
                for (int t = 0; t < p; t++) {
                    String tn = v.get(t).text;
                    propertyFlags(
                            prop,
                            v.get(i + 1),
                            audit.out.targets.computeIfAbsent(tn, k -> new ArrayList<>()),
                            "set_target_properties(" + tn + " " + prop + ")");
                }
            }
        }
    }

    /** Index of the PROPERTIES keyword of a set_*_properties command, or -1. */
    static int propertiesKeyword(List<PosText> v) {
        for (int i = 0; i < v.size(); i++) {
            if (v.get(i).text.equals("PROPERTIES")) {
                return i;
            }
        }
        return -1;
    }

    /** COMPILE_OPTIONS is a list of options (generator expressions allowed); COMPILE_FLAGS a command-line string. */
    void propertyFlags(String prop, PosText value, List<FlagTok> into, String via) {
        if (prop.equals("COMPILE_FLAGS")) {
            toks(value, FlagTok.Lang.ANY, audit.currentCondition(), via, into);
        } else {
            compileOptions(value.splitList(), 0, into, via);
        }
    }

    /** set_source_files_properties(f... PROPERTIES COMPILE_OPTIONS|COMPILE_FLAGS value ...). */
    void sourceProperties(List<PosText> v) {
        int p = propertiesKeyword(v);
        if (p < 0) return;
        for (int i = p + 1; i + 1 < v.size(); i += 2) {
            String prop = v.get(i).text;
            if (!prop.equals("COMPILE_OPTIONS") && !prop.equals("COMPILE_FLAGS")) continue;
            for (int f = 0; f < p; f++) {
                String name = v.get(f).text;
                if (name.isEmpty()
                        || name.contains("$<")
                        || name.equals("DIRECTORY")
                        || name.equals("TARGET_DIRECTORY")) continue;
                Path src;
                try {
                    src = audit.currentDir.resolve(name).normalize();
                } catch (RuntimeException e) {
                    continue;
                }
                propertyFlags(
                        prop,
                        v.get(i + 1),
                        audit.out.sourceFlags.computeIfAbsent(src, k -> new ArrayList<>()),
                        "set_source_files_properties(" + name + " " + prop + ")");
            }
        }
    }

    void setProperty(List<PosText> v) {
        // set_property(TARGET t... [APPEND] PROPERTY CUDA_ARCHITECTURES values...)
        if (v.isEmpty() || !v.get(0).text.equals("TARGET")) return;
        int p = -1;
        for (int i = 1; i < v.size(); i++) {
            if (v.get(i).text.equals("PROPERTY")) {
                p = i;
                break;
            }
        }
        if (p < 0 || p + 2 >= v.size() + 1 || p + 1 >= v.size()) return;
        if (v.get(p + 1).text.equals("CUDA_ARCHITECTURES")) {
            String arch = arch(CMakeVariables.join(v, p + 2, v.size(), ';').text);
            for (int t = 1; t < p; t++) {
                String tn = v.get(t).text;
                if (!tn.equals("APPEND") && !tn.equals("APPEND_STRING") && arch != null)
                    audit.out.cudaArch.put(tn, arch);
            }
        }
    }

    /** The highest listed architecture as compute_XX ("75;80-real;86" gives compute_86); null for native/all. */
    static String arch(String value) {
        int best = -1;
        for (String a : value.split("[;\\s]+")) {
            String n = a.replaceAll("-(real|virtual)$", "").replaceAll("^(sm_|compute_)", "");
            if (n.matches("\\d+[a-z]?")) {
                int num = Integer.parseInt(n.replaceAll("[a-z]$", ""));
                best = Math.max(best, num);
            }
        }
        return best < 0 ? null : "compute_" + best;
    }

    /** Splits a command-line string (a CMAKE_*_FLAGS value, an OPTIONS item) into arguments. */
    void toks(PosText value, FlagTok.Lang lang, String cond, String via, List<FlagTok> into) {
        for (PosText elem : value.splitList()) {
            for (PosText w : ShellWords.split(elem)) add(into, w, lang, cond, via);
        }
    }

    void add(List<FlagTok> into, PosText w, FlagTok.Lang lang, String cond, String via) {
        if (w.text.isEmpty() || w.text.contains(CMakeCondition.UNKNOWN)) return;
        int fi = w.fileAt(0);
        if (fi < 0 || fi >= audit.fileTable.size()) return; // synthetic text (a directory path) is no flag
        if (audit.skipMode != null) {
            // written in a skipped branch (not a value it took from earlier lines): audited, never applied
            if (fi != audit.skipFi || w.lineAt(0) < audit.skipLine) return;
            into = audit.out.unselected;
            cond = audit.skipMode;
        }
        Location loc = Location.of(audit.relativize.apply(audit.fileTable.get(fi)), w.lineAt(0), w.colAt(0));
        String written = audit.writtenUnder(fi, w.lineAt(0));
        String c = cond == null ? written : written == null || cond.contains(written) ? cond : cond + " and " + written;
        if (audit.forced != null && (c == null || !c.contains(audit.forced)))
            c = c == null ? audit.forced : c + " and " + audit.forced;
        into.add(new FlagTok(w.text, loc, lang, c, via));
    }

    /** A definition NAME or NAME=VALUE (a leading -D is allowed) as the flag -DNAME[=VALUE]. */
    void define(PosText d, String cond, String via, List<FlagTok> into) {
        PosText t = d.trim();
        if (t.text.isEmpty() || t.text.contains("$<")) return;
        if (t.text.startsWith("-D")) t = t.sub(2);
        if (t.text.isEmpty()) return;
        int fi = t.fileAt(0);
        if (fi < 0 || fi >= audit.fileTable.size()) return;
        PosText.Builder b = new PosText.Builder();
        b.append('-', fi, t.lineAt(0), t.colAt(0), true)
                .append('D', fi, t.lineAt(0), t.colAt(0), true)
                .append(t);
        add(into, b.build(), FlagTok.Lang.ANY, cond == null ? audit.currentCondition() : cond, via);
    }

    /** An include directory as the flag -I/absolute/dir (relative ones are relative to the current directory). */
    void includeDir(PosText d, String cond, String via, List<FlagTok> into) {
        includeDir(d, cond, via, into, FlagTok.Lang.ANY);
    }

    void includeDir(PosText d, String cond, String via, List<FlagTok> into, FlagTok.Lang lang) {
        PosText t = d.trim();
        if (t.text.isEmpty() || t.text.contains("$<") || t.text.contains(CMakeCondition.UNKNOWN)) return;
        Path p;
        try {
            p = audit.currentDir.resolve(t.text).normalize();
        } catch (RuntimeException e) {
            return;
        }
        int fi = -1;
        int line = 0;
        int col = 0;
        for (int i = 0; i < t.length(); i++) {
            if (t.fileAt(i) >= 0) {
                fi = t.fileAt(i);
                line = t.lineAt(i);
                col = t.colAt(i);
                break;
            }
        }
        if (fi < 0) { // the whole directory came from variables (${CMAKE_CURRENT_SOURCE_DIR}): the command's place
            fi = audit.cmdFile;
            line = audit.cmdLine;
            col = audit.cmdColumn;
        }
        if (fi < 0) return;
        add(into, PosText.of("-I" + p, fi, line, col), lang, cond == null ? audit.currentCondition() : cond, via);
    }
}
