package dev.numlint.flags;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The commands of a branch the default configuration skips, as {@link CMakeAudit} audits them: they are not
 * executed, but the flags they write are recorded under the branch's condition (never applied), and the commands
 * that shape a scope run in the scope the branch would have if taken, for the subdirectories it adds.
 */
final class CMakeSkippedBranches {
    private final CMakeAudit audit;

    CMakeSkippedBranches(CMakeAudit audit) {
        this.audit = audit;
    }

    /** Commands of a skipped branch that shape the scope a subdirectory added in that branch inherits. */
    private static final Set<String> SCOPE_COMMANDS = Set.of(
            "set",
            "unset",
            "string",
            "list",
            "option",
            "include_directories",
            "cuda_include_directories",
            "add_definitions",
            "add_compile_definitions",
            "add_compile_options");

    /** Commands that name a target's sources. */
    private static final Set<String> TARGET_COMMANDS = Set.of(
            "add_library",
            "add_executable",
            "target_sources",
            "cuda_add_library",
            "cuda_add_executable",
            "cuda_wrap_srcs",
            "cuda_compile",
            "cuda_compile_ptx");

    /** The scope of a skipped branch as if it were taken: its variables and directory flags. */
    private record Shadow(Map<String, PosText> vars, List<FlagTok> dirOptions) {}

    /** Per skipped branch (by identity), its scope so far; only for a branch not nested in another skipped one. */
    private final Map<CMakeAudit.Block, Shadow> shadows = new java.util.IdentityHashMap<>();

    /**
     * Runs {@code r} in the scope the skipped branch {@code skip} would have if it were taken (null when the branch
     * is nested in another skipped one: then the enclosing scope as it is), with every flag written under the
     * branch's condition; the scope's changes are kept for the branch's later commands.
     */
    private void inBranchScope(CMakeAudit.Block skip, Runnable r) {
        int skipping = 0;
        for (CMakeAudit.Block b : audit.blocks) if (b.state() == 1) skipping++;
        String savedSkip = audit.skipMode;
        String savedForced = audit.forced;
        audit.skipMode = null;
        String cond = skip.skip();
        String outer = audit.currentCondition();
        audit.forced = outer == null || outer.contains(cond) ? cond : outer + " and " + cond;
        if (skipping != 1) {
            try {
                r.run();
            } finally {
                audit.skipMode = savedSkip;
                audit.forced = savedForced;
            }
            return;
        }
        Shadow sh = shadows.computeIfAbsent(
                skip, k -> new Shadow(new HashMap<>(audit.vars), new ArrayList<>(audit.dirOptions)));
        Map<String, PosText> savedVars = new HashMap<>(audit.vars);
        List<FlagTok> savedOptions = audit.dirOptions;
        audit.vars.clear();
        audit.vars.putAll(sh.vars());
        audit.dirOptions = new ArrayList<>(sh.dirOptions());
        try {
            r.run();
            shadows.put(skip, new Shadow(new HashMap<>(audit.vars), audit.dirOptions));
        } finally {
            audit.vars.clear();
            audit.vars.putAll(savedVars);
            audit.dirOptions = savedOptions;
            audit.skipMode = savedSkip;
            audit.forced = savedForced;
        }
    }

    /** A command in a skipped branch: not executed, but the audit.flags written in it are audited. */
    void skipped(CMakeLexer.Command c, int fi, CMakeAudit.Block skip) {
        String name = c.name().toLowerCase(Locale.ROOT);
        if (SCOPE_COMMANDS.contains(name)) {
            // for a subdirectory the branch adds: its scope, as if the branch were taken (audit.flags stay conditional)
            inBranchScope(skip, () -> audit.execute(name, audit.variables.values(c.args())));
        }
        audit.skipMode = skip.skip();
        audit.skipFi = skip.fileIndex();
        audit.skipLine = skip.line();
        try {
            List<PosText> v = audit.variables.values(c.args());
            if (TARGET_COMMANDS.contains(name)) {
                for (PosText a : v) {
                    if (!a.text.endsWith(".cu")) continue;
                    try {
                        audit.out.notDefaultSources.putIfAbsent(
                                audit.currentDir.resolve(a.text).normalize(), audit.skipMode);
                    } catch (RuntimeException e) {
                        // not a path
                    }
                }
            }
            switch (name) {
                case "set", "string", "list" -> {
                    int from = name.equals("set") ? 1 : 2;
                    int varAt = name.equals("set") ? 0 : 1;
                    if (v.size() <= from) return;
                    String var = v.get(varAt).text;
                    if (!isFlagVar(var)) return;
                    int end = v.size();
                    for (int i = from; i < v.size(); i++) {
                        if (v.get(i).text.equals("CACHE") || v.get(i).text.equals("PARENT_SCOPE")) {
                            end = i;
                            break;
                        }
                    }
                    FlagTok.Lang lang = var.contains("CUDA")
                            ? FlagTok.Lang.CUDA
                            : var.contains("_CXX_") || var.contains("_C_") ? FlagTok.Lang.HOST : FlagTok.Lang.ANY;
                    audit.flags.toks(
                            CMakeVariables.join(v, from, end, ';'), lang, audit.skipMode, var, audit.out.unselected);
                }
                case "add_subdirectory" -> {
                    if (!v.isEmpty()) {
                        try {
                            audit.out.skippedSubdirectories.putIfAbsent(
                                    audit.currentDir.resolve(v.get(0).text).normalize(), audit.skipMode);
                        } catch (RuntimeException e) {
                            // not a path
                        }
                        // evaluated in the branch's scope, every flag written there under the skipped branch
                        String cond = audit.skipMode;
                        String savedNotDefault = audit.notDefault;
                        audit.notDefault = cond;
                        try {
                            inBranchScope(skip, () -> audit.addSubdirectory(audit.variables.values(c.args()), cond));
                        } finally {
                            audit.notDefault = savedNotDefault;
                        }
                    }
                }
                case "add_compile_options",
                        "add_definitions",
                        "add_compile_definitions",
                        "target_compile_options",
                        "target_compile_definitions",
                        "cuda_add_executable",
                        "cuda_add_library",
                        "cuda_wrap_srcs",
                        "set_target_properties",
                        "set_source_files_properties" -> audit.execute(name, v);
                default -> {
                    // nothing else carries audit.flags
                }
            }
        } finally {
            audit.skipMode = null;
        }
    }

    private static boolean isFlagVar(String var) {
        return var.matches("CMAKE_(CUDA|CXX|C)_FLAGS(_[A-Z]+)?|CUDA_NVCC_FLAGS(_[A-Z]+)?");
    }
}
