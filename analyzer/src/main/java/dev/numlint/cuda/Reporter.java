package dev.numlint.cuda;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Confidence;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Location;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;

/** Builds and reports findings for one file; counts them for corpus statistics. */
final class Reporter {
    final ScanContext ctx;
    final FindingSink sink;
    final Path file;
    final String rel;
    final BuildContext build;
    private final Set<String> seen = new HashSet<>();
    final java.util.Map<String, Integer> counts = new java.util.TreeMap<>();

    Reporter(ScanContext ctx, FindingSink sink, Path file, BuildContext build) {
        this.ctx = ctx;
        this.sink = sink;
        this.file = file;
        this.rel = ctx.relativize(file);
        this.build = build;
    }

    boolean enabled(String rule) {
        return ctx.rules().enabled(rule);
    }

    /** A flag citation ("--use_fast_math (set at CMakeLists.txt:12)") and its origin, for flag-driven findings. */
    record Flag(String text, BuildContext.FlagOrigin origin) {
    }

    Flag flag(Predicate<String> which, String fallback) {
        var o = build.originOf(which);
        if (o.isPresent()) {
            return new Flag(o.get().flag() + " (set at " + o.get().location().shortText() + ")", o.get());
        }
        return new Flag(fallback, null);
    }

    static Predicate<String> fastMathFlag() {
        return f -> f.contains("fast_math") || f.contains("fast-math") || f.equals("-Ofast");
    }

    void report(String rule, int line, String function, String message, String snippet, Confidence conf, Flag flag) {
        String key = rule + "|" + line + "|" + snippet;
        if (!seen.add(key)) return;
        Finding.Builder b = Finding.builder(rule)
                .location(Location.line(rel, line))
                .message(message)
                .layer(Layer.CUDA_SOURCE)
                .evidence(Evidence.source(snippet))
                .confidence(conf)
                .function(function)
                .fingerprintKey((function == null ? "" : function) + "|" + rule + "|" + snippet.replaceAll("\\s+", ""));
        if (flag != null && flag.origin() != null) {
            b.evidence(new Evidence("flag", flag.origin().flag(), flag.origin().location()));
            b.related(flag.origin().location(), "set here: " + flag.origin().flag());
        }
        counts.merge(rule, 1, Integer::sum);
        sink.report(b);
    }
}
