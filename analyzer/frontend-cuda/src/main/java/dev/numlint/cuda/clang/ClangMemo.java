package dev.numlint.cuda.clang;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/** A value computed once, on first request (thread-safe): one named analysis of a {@link ClangUnit}. */
final class ClangMemo<T> {
    private final Supplier<T> f;
    private volatile T v;

    ClangMemo(Supplier<T> f) {
        this.f = f;
    }

    T get() {
        T x = v;
        if (x == null) {
            synchronized (this) {
                if (v == null) v = f.get();
                x = v;
            }
        }
        return x;
    }

    /**
     * Analyses of single functions, each named and computed once on first request (thread-safe): what a fact asks of
     * the whole function at each of its sites is computed once per function, not once per site.
     */
    static final class PerFunction {
        private final Map<List<Object>, Object> values = new ConcurrentHashMap<>();

        @SuppressWarnings("unchecked")
        <T> T get(String analysis, ClangNode fn, Supplier<T> compute) {
            List<Object> key = List.of(analysis, fn);
            Object v = values.get(key);
            if (v == null) {
                v = compute.get();
                Object before = values.putIfAbsent(key, v);
                if (before != null) v = before;
            }
            return (T) v;
        }
    }
}
