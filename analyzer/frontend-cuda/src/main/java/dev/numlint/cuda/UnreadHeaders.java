package dev.numlint.cuda;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Listed headers that the build model places in a compiled unit, but that the unit's preprocessing, with its own
 * compile command, does not read (session 35): the build model's include scan follows every quoted {@code #include}
 * of a unit, whatever {@code #if} it sits in, and a multi-backend project picks one header per configuration ({@code
 * #ifdef USE_CUDA #include "cuda/kernel.hpp" #elif ...}). The headers of the backends this configuration does not
 * select are code it does not compile, as a source file its compilation database does not list is: they are analyzed,
 * and their findings are notes saying so (the build model's {@code NotCompiledReview}, the one home of that decision).
 *
 * <p>Only a header whose unit (the build context's {@code compiledVia}) was preprocessed in this scan, and that no
 * compiled unit of this scan read, is concerned: a unit outside the scanned paths may include it, and then it keeps its
 * levels. A header no compiled unit reaches at all (a library's public header) is not concerned either. {@code --scope
 * build} leaves such headers out already ({@link BuildScope}).
 */
final class UnreadHeaders {
    /** The notice that names the headers concerned. */
    static final String NOTICE = "not-included-headers";

    private UnreadHeaders() {}

    /**
     * Marks the listed {@code headers} that their compiled unit does not read as not compiled, and names them in one
     * note; called once the compiled units are preprocessed.
     */
    static void review(CudaScanRun run, ScanContext ctx, List<Path> headers, FindingSink sink) {
        java.util.Map<String, List<String>> byUnit = new java.util.TreeMap<>();
        for (Path h : headers) {
            String why = why(run, ctx, h);
            if (why == null) continue;
            Path via = ctx.buildContext(h).compiledVia();
            ctx.addBuildContext(h, BuildContext.defaults().notCompiled(why));
            byUnit.computeIfAbsent(ctx.relativize(via), k -> new ArrayList<>()).add(ctx.relativize(h));
        }
        byUnit.forEach((unit, named) -> {
            int shown = Math.min(named.size(), 10);
            sink.notify(new Notification(
                    unit,
                    0,
                    Level.NOTE,
                    NOTICE,
                    named.size() + " header" + (named.size() == 1 ? "" : "s")
                            + " that this unit names in an #include but does not read with its compile command (the"
                            + " #include sits in a branch this configuration does not compile; no other compiled unit"
                            + " of the scan reads them): analyzed, their findings are notes: "
                            + String.join(", ", named.subList(0, shown))
                            + (named.size() > shown ? " and " + (named.size() - shown) + " more" : "")));
        });
    }

    /** Why {@code h} is not compiled by this configuration, or null when it may be. */
    static String why(CudaScanRun run, ScanContext ctx, Path h) {
        BuildContext bc = ctx.buildContext(h);
        Path via = bc.compiledVia();
        if (!bc.compiled() || via == null || bc.notCompiledReason() != null) return null;
        Path unit = CudaScanRun.realPath(via);
        if (unit == null || !run.unitsPreprocessed.contains(unit)) return null;
        Path real = CudaScanRun.realPath(h);
        if (run.unitsRead.contains(h.toAbsolutePath().normalize()) || real != null && run.unitsRead.contains(real))
            return null;
        return "the build's include scan places it in " + ctx.relativize(via) + ", whose preprocessing with its"
                + " compile command does not include it (no compiled unit of this scan does)";
    }
}
