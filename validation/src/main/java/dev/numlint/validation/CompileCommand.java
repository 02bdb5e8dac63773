package dev.numlint.validation;

import dev.numlint.model.BuildContext;
import dev.numlint.toolchain.PtxCompiler;
import java.util.ArrayList;
import java.util.List;

/**
 * The nvcc command validation builds a .cu unit with: the flags the build gives the unit (from the compile database,
 * else the Makefile/CMake evaluation, else {@code --nvcc-flags}; defines, include directories, -std, the
 * floating-point flags), the architecture it asks for, and where that came from. The as-built build is this command;
 * every variant is this command with only the variant's flag changed ({@link Variants#cuVariants}). Its values are
 * data from the scanned tree: nvcc runs only through the guarded toolchain, whose flag policy validates each one
 * (paths inside the roots or the toolkit, no shell syntax).
 *
 * @param flags the nvcc flags as the build writes them, plus the floating-point settings it records (the same list
 *     the scan's PTX layer compiles with)
 * @param arch the virtual architecture of the PTX ({@code compute_NN})
 * @param from where the flags came from (e.g. "compile_commands.json entry (build/compile_commands.json)"), or null
 *     when no build file gave them: then the command is numlint's guess (nvcc's defaults and the command line's flags)
 */
public record CompileCommand(List<String> flags, String arch, String from) {
    public CompileCommand {
        flags = List.copyOf(flags);
    }

    /**
     * The command of a unit with build context {@code bc}; {@code extra}: the command line's {@code --nvcc-flags}
     * (after the build's, so that they win); {@code arch}: the command line's architecture, which wins over the
     * build's only when {@code archGiven} ({@code --cuda-arch}), as in the scan.
     */
    public static CompileCommand of(BuildContext bc, List<String> extra, String arch, boolean archGiven) {
        List<String> flags = new ArrayList<>(dev.numlint.ptx.PtxAnalyzer.nvccFlags(bc));
        for (String f : extra) if (!flags.contains(f)) flags.add(f);
        String a = bc.cudaArch() != null && !archGiven ? bc.cudaArch() : arch;
        return new CompileCommand(flags, PtxCompiler.virtualArch(a), bc.configuration());
    }

    private static final java.util.regex.Pattern ARCH_FLAG =
            java.util.regex.Pattern.compile("--?(arch|gpu-architecture|gencode|generate-code|code|gpu-code)\\b");

    /** Whether no build file gave this command (numlint guessed it). */
    public boolean guessed() {
        return from == null;
    }

    /**
     * The command as it is run for {@code unit} (shown as given), and where it came from: what the report says the
     * builds were made with.
     */
    public String describe(String unit) {
        StringBuilder b = new StringBuilder("nvcc -ptx -lineinfo -arch=").append(arch);
        // the build's -arch/-gencode are read into arch, not passed (the toolchain passes one virtual architecture)
        for (String f : flags)
            if (!f.equals("-lineinfo") && !ARCH_FLAG.matcher(f).lookingAt())
                b.append(' ').append(f);
        b.append(' ').append(unit);
        if (from != null) b.append(" (from the ").append(from).append(')');
        else b.append(" (guessed: no compile command or build file gives this unit's flags; nvcc's defaults)");
        return b.toString();
    }
}
