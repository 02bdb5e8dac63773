package dev.numlint.cuda;

import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FlagCitation;
import dev.numlint.cuda.facts.Site;
import dev.numlint.cuda.facts.SourceDialect;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Confidence;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Location;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;

/** Builds and reports the findings of one file for the checks; counts them for corpus statistics. */
final class Reporter implements CudaReport {
    final ScanContext ctx;
    final FindingSink sink;
    final Path file;
    final String rel;
    final BuildContext build;
    private final SourceDialect dialect;
    private final Set<String> seen = new HashSet<>();
    final java.util.Map<String, Integer> counts = new java.util.TreeMap<>();

    Reporter(ScanContext ctx, FindingSink sink, Path file, BuildContext build, SourceDialect dialect) {
        this.ctx = ctx;
        this.sink = sink;
        this.file = file;
        this.rel = ctx.relativize(file);
        this.build = build;
        this.dialect = dialect;
    }

    @Override
    public BuildContext build() {
        return build;
    }

    @Override
    public SourceDialect dialect() {
        return dialect;
    }

    @Override
    public boolean enabled(String rule) {
        return ctx.rules().enabled(rule);
    }

    @Override
    public int intOption(String rule, String option, int fallback) {
        try {
            return ctx.rules().intOption(rule, option);
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    @Override
    public FlagCitation flag(Predicate<String> which, String fallback) {
        var o = build.originOf(which);
        if (o.isPresent()) {
            return new FlagCitation(o.get().flag() + " (set at " + o.get().location().shortText() + ")", o.get());
        }
        return new FlagCitation(fallback, null);
    }

    @Override
    public Location location(int line, int column) {
        return column > 0 ? Location.of(rel, line, column) : Location.line(rel, line);
    }

    @Override
    public void report(String rule, String function, Site at, String message, Confidence conf, Impact impact,
            FlagCitation flag) {
        String snippet = at.text();
        // one finding per location and rule (a macro expanding to several hazards reports its use once)
        String key = rule + "|" + at.line() + "|" + (at.column() > 0 ? "@" + at.column() : snippet);
        if (!seen.add(key)) return;
        Finding.Builder b = Finding.builder(rule)
                .location(location(at.line(), at.column()))
                .message(message)
                .layer(Layer.CUDA_SOURCE)
                .evidence(Evidence.source(snippet))
                .confidence(conf)
                .function(function)
                .fingerprintKey((function == null ? "" : function) + "|" + rule + "|" + snippet.replaceAll("\\s+", ""));
        if (impact != null) b.impact(impact);
        if (flag != null && flag.origin() != null) {
            b.evidence(new Evidence("flag", flag.origin().flag(), flag.origin().location()));
            b.related(flag.origin().location(), "set here: " + flag.origin().flag());
        }
        counts.merge(rule, 1, Integer::sum);
        sink.report(b);
    }
}
