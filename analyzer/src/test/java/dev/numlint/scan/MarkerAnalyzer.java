package dev.numlint.scan;

import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deterministic test analyzer for the engine's tests: every {@code HAZARD(NL003)} in a file is a finding of that
 * rule at that line and column ({@code HAZARD(NL003,fn)} also names the function); a line containing
 * {@code CRASH_ANALYZER} makes it throw ({@code OOM_ANALYZER}: an OutOfMemoryError); {@code PARTIAL_NOTE} reports a warning notification. Files ending in .ptx
 * are reported at the PTX layer (and {@code HAZARD(NL003@file:line)} maps the finding to a source line, like
 * debug line info), .java at the Java layer, everything else at the CUDA source layer. A line containing
 * {@code RELATED_ABOVE} gives its findings a related location at the line above (the message then quotes
 * {@code a[i]}, brackets that SARIF escapes around its embedded links).
 */
public class MarkerAnalyzer implements Analyzer {
    private static final Pattern MARK = Pattern.compile("HAZARD\\((NL\\d{3})(?:,(\\w+))?(?:@([\\w./-]+):(\\d+))?\\)");

    @Override
    public String id() {
        return "marker";
    }

    @Override
    public Layer layer() {
        return Layer.CUDA_SOURCE;
    }

    @Override
    public Set<String> implementedRules() {
        return Set.of();
    }

    @Override
    public boolean accepts(Path file) {
        String n = file.getFileName().toString();
        return !n.equals("fixture.properties") && !n.endsWith(".yml") && !n.endsWith(".sarif");
    }

    @Override
    public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
        for (Path f : files) {
            List<String> lines;
            try {
                lines = Files.readAllLines(f);
            } catch (IOException e) {
                sink.notify(new Notification(ctx.relativize(f), 0, Level.ERROR, "unreadable-file", e.toString()));
                continue;
            }
            String rel = ctx.relativize(f);
            Layer layer =
                    rel.endsWith(".ptx") ? Layer.PTX : rel.endsWith(".java") ? Layer.JAVA_SOURCE : Layer.CUDA_SOURCE;
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i);
                if (l.contains("CRASH_ANALYZER")) {
                    throw new IllegalStateException("boom at line " + (i + 1));
                }
                if (l.contains("OOM_ANALYZER")) {
                    throw new OutOfMemoryError("simulated at line " + (i + 1));
                }
                if (l.contains("PARTIAL_NOTE")) {
                    sink.notify(
                            new Notification(rel, i + 1, Level.WARNING, "parse-error", "could not parse PARTIAL_NOTE"));
                }
                Matcher m = MARK.matcher(l);
                while (m.find()) {
                    Location loc = m.group(3) != null
                            ? Location.line(m.group(3), Integer.parseInt(m.group(4)))
                            : new Location(rel, i + 1, m.start() + 1, i + 1, m.end() + 1);
                    Finding.Builder b = Finding.builder(m.group(1))
                            .location(loc)
                            .layer(layer)
                            .message("marker " + m.group() + " found"
                                    + (l.contains("RELATED_ABOVE") && i > 0 ? " in a[i], from the line above" : ""))
                            .function(m.group(2));
                    if (l.contains("RELATED_ABOVE") && i > 0) {
                        b.related(new Location(rel, i, 1, i, 1), "a[i] defined here");
                    }
                    if (layer == Layer.PTX) {
                        b.evidence(new Evidence("ptx", l.strip(), new Location(rel, i + 1, 0, i + 1, 0)));
                    } else {
                        b.evidence(Evidence.source(l.strip()));
                    }
                    sink.report(b);
                }
            }
        }
    }
}
