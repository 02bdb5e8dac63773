package dev.numlint.flags;

import dev.numlint.model.Layer;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** Placeholder until this front end lands: accepts no file. */
public final class BuildFlagAnalyzer implements Analyzer {
    @Override public String id() { return "build-flags"; }
    @Override public Layer layer() { return Layer.BUILD_FLAGS; }
    @Override public int phase() { return PHASE_CONTEXT; }
    @Override public Set<String> implementedRules() { return Set.of(); }
    @Override public boolean accepts(Path file) { return false; }
    @Override public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) { }
}
