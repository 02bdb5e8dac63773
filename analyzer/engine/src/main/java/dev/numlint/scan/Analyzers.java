package dev.numlint.scan;

import dev.numlint.spi.Analyzer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The analyzers registered in META-INF/services/dev.numlint.spi.Analyzer, in a fixed order (phase, id). */
public final class Analyzers {
    private Analyzers() {}

    public static List<Analyzer> load() {
        List<Analyzer> list = new ArrayList<>();
        for (Analyzer a : ServiceLoader.load(Analyzer.class, Analyzers.class.getClassLoader())) {
            list.add(a);
        }
        list.sort(Comparator.comparingInt(Analyzer::phase).thenComparing(Analyzer::id));
        return List.copyOf(list);
    }
}
