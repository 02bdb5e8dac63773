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

    /** The flags whose value is the next argument (nvcc's and the host compiler's spellings). */
    private static final Set<String> SPLIT = Set.of(
            "-I",
            "-isystem",
            "-D",
            "-U",
            "-include",
            "--include-path",
            "--system-include",
            "--define-macro",
            "--undefine-macro",
            "--pre-include",
            "-idirafter",
            "-iquote");

    /** How a flag of such a command is said to be set. */
    private static final String VIA = "add_custom_command";

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
            // the arguments up to the next keyword, expanded; a quoted one stays, empty or not, so that a flag and its
            // value stay paired ("-I" "${UNSET}" is dropped whole, not read as "-I" of the next argument)
            List<PosText> values = new ArrayList<>();
            int j = i + 2;
            for (; j < raw.size() && !KEYWORDS.contains(raw.get(j).text().text); j++)
                values.addAll(audit.variables.values(List.of(raw.get(j))));
            for (int k = 0; k < values.size(); k++) {
                PosText v = values.get(k).trim();
                String t = v.text;
                if (t.isEmpty()) continue;
                if (t.equals("-o")
                        || t.equals("--output-file")
                        || t.equals("-odir")
                        || t.equals("--output-directory")) {
                    k++;
                    continue;
                }
                if (t.startsWith("-o") && !t.startsWith("-opt") || t.startsWith("--output-file=")) continue;
                if (t.toLowerCase(Locale.ROOT).endsWith(".cu")) {
                    Path p = Path.of(t.replace('\\', '/'));
                    sources.add((p.isAbsolute() ? p : audit.currentDir.resolve(p)).normalize());
                    continue;
                }
                if (SPLIT.contains(t)) {
                    // its value may be a path CMake made (${CMAKE_SOURCE_DIR}/include): it is reported where the flag
                    // is written; an empty value drops the flag, and a flag that follows is no value
                    PosText value = k + 1 < values.size() ? values.get(k + 1).trim() : null;
                    if (value == null || value.text.startsWith("-")) continue;
                    k++;
                    if (value.text.isEmpty()) continue;
                    audit.flags.add(flags, v, FlagTok.Lang.CUDA, audit.currentCondition(), VIA);
                    audit.flags.add(
                            flags,
                            PosText.of(value.text, v.fileAt(0), v.lineAt(0), v.colAt(0)),
                            FlagTok.Lang.CUDA,
                            audit.currentCondition(),
                            VIA);
                    continue;
                }
                audit.flags.add(flags, v, FlagTok.Lang.CUDA, audit.currentCondition(), VIA);
            }
            i = j - 1;
            if (sources.isEmpty()) continue;
            audit.out.sources.computeIfAbsent(name, k -> new ArrayList<>()).addAll(sources);
            audit.out.targets.computeIfAbsent(name, k -> new ArrayList<>()).addAll(flags);
            audit.out.targetDirs.putIfAbsent(name, audit.currentDir);
        }
    }
}
