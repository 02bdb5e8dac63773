package dev.numlint.cuda;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code --scope build}: the C, C++ and CUDA files the build compiles and the project headers they include, as
 * clang-tidy run on a compilation database analyzes them. A source the build does not compile (an example or a
 * binding outside the configured build, a test its build does not make) and a header or fragment that no compiled
 * unit includes are not analyzed; each is named in a note with the reason. {@code --scope tree} (the default)
 * analyzes every file found.
 */
final class BuildScope {
    /** The notice of a file the build scope leaves out. */
    static final String NOTICE = "outside-build";

    static final String NOT_COMPILED = "not analyzed (--scope build): the build compiles no unit from it";
    static final String NOT_INCLUDED = "not analyzed (--scope build): no unit the build compiles includes it";

    private final ScanContext ctx;
    /** Left out, by path relative to the root: the reason. */
    private final Map<String, String> outside = new TreeMap<>();

    private BuildScope(ScanContext ctx) {
        this.ctx = ctx;
    }

    /** The scope of this scan; null for {@code --scope tree}, where every file is analyzed. */
    static BuildScope of(ScanContext ctx) {
        return "build".equals(ctx.setting("scope").orElse("tree")) ? new BuildScope(ctx) : null;
    }

    /** Whether the build compiles this source: a command of its own, or through a compiled file that includes it. */
    boolean compiled(Path source) {
        return ctx.buildContext(source).compiled();
    }

    /** A file left out: a source the build does not compile, or a fragment nothing compiled includes. */
    synchronized void outside(Path f, String why) {
        outside.put(ctx.relativize(f), why);
    }

    /** Keeps in {@code headers} those a compiled unit's preprocessing read; the others are left out. */
    void keepIncluded(CudaScanRun run, List<Path> headers) {
        List<Path> keep = new ArrayList<>();
        for (Path h : headers) {
            Path real = CudaScanRun.realPath(h);
            if (run.unitsRead.contains(h.toAbsolutePath().normalize())
                    || real != null && run.unitsRead.contains(real)) {
                keep.add(h);
            } else {
                outside(h, NOT_INCLUDED);
            }
        }
        headers.retainAll(keep);
    }

    /** One note per file left out. */
    synchronized void report(FindingSink sink) {
        outside.forEach((file, why) -> sink.notify(new Notification(file, 0, Level.NOTE, NOTICE, why)));
    }
}
