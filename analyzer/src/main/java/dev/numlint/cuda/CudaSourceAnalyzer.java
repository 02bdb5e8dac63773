package dev.numlint.cuda;

import dev.numlint.model.Layer;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** Placeholder until this front end lands: accepts no file. */
public final class CudaSourceAnalyzer implements Analyzer {
    @Override public String id() { return "cuda-source"; }
    @Override public Layer layer() { return Layer.CUDA_SOURCE; }
    @Override public int phase() { return PHASE_KERNEL; }
    @Override public Set<String> implementedRules() { return Set.of(); }
    @Override public boolean accepts(Path file) { return false; }
    @Override public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) { }
}
