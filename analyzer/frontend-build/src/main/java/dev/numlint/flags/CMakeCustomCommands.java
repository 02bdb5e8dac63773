package dev.numlint.flags;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The nvcc commands a CMake project runs itself, with {@code add_custom_command} or {@code add_custom_target}: an OptiX
 * program or a PTX module compiled by {@code COMMAND ${CMAKE_CUDA_COMPILER} -ptx -use_fast_math ... program.cu}. Such
 * a command is the build's compile command of the {@code .cu} files it names, which no compilation database lists:
 * each becomes a target of its own ({@link #PREFIX} and where it is written), whose flags are the command's (not the
 * directory's compile options, which CMake gives only to its own compilations) and are reported where they are
 * written, and whose sources take their context from it (session 76 round A: a path tracer's main OptiX kernel was
 * compiled only by such a command, its {@code -use_fast_math} named by no finding and its {@code -I}/{@code -D} unused,
 * so a cast under its {@code #ifdef} was an inactive site).
 *
 * <p>A command is nvcc's when its program, as written, names nvcc ({@code nvcc}, {@code ${CUDA_NVCC_EXECUTABLE}}, a
 * variable of that name from {@code find_program(NVCC nvcc)}) or CMake's CUDA compiler ({@code
 * ${CMAKE_CUDA_COMPILER}}). Its arguments up to the next keyword are read; {@code -o} and its value are not flags; a
 * {@code .cu} argument is a source (relative to the current source directory).
 */
final class CMakeCustomCommands {
    /** The commands read. */
    static final Set<String> COMMANDS = Set.of("add_custom_command", "add_custom_target");

    /** How the target of a custom command is named: this, then the file and line it is written at. */
    static final String PREFIX = "custom command ";

    /** The keywords that end a COMMAND's arguments. */
    private static final Set<String> KEYWORDS = Set.of(
            "COMMAND",
            "OUTPUT",
            "DEPENDS",
            "BYPRODUCTS",
            "MAIN_DEPENDENCY",
            "IMPLICIT_DEPENDS",
            "WORKING_DIRECTORY",
            "COMMENT",
            "DEPFILE",
            "JOB_POOL",
            "JOB_SERVER_AWARE",
            "VERBATIM",
            "APPEND",
            "USES_TERMINAL",
            "COMMAND_EXPAND_LISTS",
            "DEPENDS_EXPLICIT_ONLY",
            "CODEGEN",
            "SOURCES",
            "ALL",
            "TARGET",
            "PRE_BUILD",
            "PRE_LINK",
            "POST_BUILD");

    private CMakeCustomCommands() {}

    /** Whether the target named {@code name} is a custom command's. */
    static boolean named(String name) {
        return name != null && name.startsWith(PREFIX);
    }

    /** Whether the program written {@code raw} (before expansion) is nvcc or CMake's CUDA compiler. */
    static boolean nvcc(String raw) {
        String r = raw.replace("\"", "").trim();
        String lower = r.toLowerCase(Locale.ROOT);
        if (lower.contains("cmake_cuda_compiler") || lower.contains("nvcc")) return true;
        int slash = Math.max(r.lastIndexOf('/'), r.lastIndexOf('\\'));
        return r.substring(slash + 1).equals("nvcc");
    }

    /**
     * Reads the nvcc commands of one {@code add_custom_command} or {@code add_custom_target} call ({@code raw}: its
     * arguments as written), each into a target of its own in {@code audit}'s output.
     */
    static void read(CMakeAudit audit, List<CMakeLexer.Arg> raw) {
        for (int i = 0; i < raw.size(); i++) {
            if (!raw.get(i).text().text.equals("COMMAND") || i + 1 >= raw.size()) continue;
            CMakeLexer.Arg program = raw.get(i + 1);
            if (!nvcc(program.text().text)) continue;
            String name = PREFIX + audit.relativize.apply(audit.fileTable.get(audit.cmdFile)) + ":"
                    + program.text().lineAt(0);
            List<FlagTok> flags = new ArrayList<>();
            List<Path> sources = new ArrayList<>();
            int j = i + 2;
            boolean output = false;
            for (; j < raw.size() && !KEYWORDS.contains(raw.get(j).text().text); j++) {
                for (PosText v : audit.variables.values(List.of(raw.get(j)))) {
                    String t = v.text.trim();
                    if (output) {
                        output = false;
                        continue;
                    }
                    if (t.equals("-o") || t.equals("--output-file")) {
                        output = true;
                        continue;
                    }
                    if (t.startsWith("-o") && !t.startsWith("-opt") || t.startsWith("--output-file=")) continue;
                    if (t.toLowerCase(Locale.ROOT).endsWith(".cu")) {
                        Path p = Path.of(t.replace('\\', '/'));
                        sources.add((p.isAbsolute() ? p : audit.currentDir.resolve(p)).normalize());
                        continue;
                    }
                    audit.flags.add(flags, v.trim(), FlagTok.Lang.CUDA, audit.currentCondition(), "add_custom_command");
                }
            }
            i = j - 1;
            if (sources.isEmpty()) continue;
            audit.out.sources.computeIfAbsent(name, k -> new ArrayList<>()).addAll(sources);
            audit.out.targets.computeIfAbsent(name, k -> new ArrayList<>()).addAll(flags);
            audit.out.targetDirs.putIfAbsent(name, audit.currentDir);
        }
    }
}
