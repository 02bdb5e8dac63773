package dev.numlint.cuda.clang;

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
}
