package dev.numlint.cuda;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The evaluations of one header that a scan keeps, each with the macro state it depended on. A header's meaning
 * depends on the macros its includer had defined: an include guard already set skips it, {@code #ifndef REAL_DBL}
 * picks a type, an identifier that the includer made a macro expands. Caching one evaluation per header, made
 * under whichever includer came first, made findings depend on the order of the worker threads (a header read
 * after its guard was defined cached as empty). Each variant records the macros the evaluation read before
 * defining them itself (its inputs: the name and the includer's definition, or none) and is reused only for an
 * includer whose table agrees on all of them.
 */
final class HeaderVariants {
    /** Variants kept per header and dialect; beyond that a header is evaluated afresh for each includer. */
    static final int MAX_VARIANTS = 8;

    private final List<Variant> variants = new CopyOnWriteArrayList<>();

    record Variant(Map<String, Preprocessor.Macro> inputs, HeaderInfo info) {}

    /**
     * The evaluation made under the same inputs as {@code macros}, or null. Reads go through {@code macros}, so an
     * includer that is itself being recorded learns what this header depended on.
     */
    HeaderInfo find(Map<String, Preprocessor.Macro> macros) {
        for (Variant v : variants) {
            boolean same = true;
            for (Map.Entry<String, Preprocessor.Macro> e : v.inputs().entrySet()) {
                if (!sameMacro(macros.get(e.getKey()), e.getValue())) {
                    same = false;
                    break;
                }
            }
            if (same) return v.info();
        }
        return null;
    }

    void add(Map<String, Preprocessor.Macro> inputs, HeaderInfo info) {
        if (variants.size() < MAX_VARIANTS) variants.add(new Variant(inputs, info));
    }

    /** Equal definitions: the same object, or the same parameters and replacement text. */
    static boolean sameMacro(Preprocessor.Macro a, Preprocessor.Macro b) {
        if (a == b) return true;
        if (a == null || b == null) return false;
        if (a.variadic() != b.variadic() || !Objects.equals(a.params(), b.params())) return false;
        if (a.body().size() != b.body().size()) return false;
        for (int i = 0; i < a.body().size(); i++) {
            if (!a.body().get(i).getText().equals(b.body().get(i).getText())) return false;
        }
        return true;
    }

    /**
     * The macro table a header is evaluated with: a copy of its includer's, recording the names read before the
     * header wrote them ({@link #inputs}) and the names it wrote ({@link #written}).
     */
    static final class Recording extends HashMap<String, Preprocessor.Macro> {
        private static final long serialVersionUID = 1L;
        private final transient Map<String, Preprocessor.Macro> base;
        private final Map<String, Preprocessor.Macro> inputs = new HashMap<>();
        private final Set<String> written = new HashSet<>();

        Recording(Map<String, Preprocessor.Macro> base) {
            super(Math.max(16, base.size() * 2));
            this.base = base;
            // the copy does not count as reads or writes (HashMap.putAll does not call put)
            super.putAll(base);
        }

        private void read(Object k) {
            if (k instanceof String s && !written.contains(s) && !inputs.containsKey(s)) inputs.put(s, base.get(s));
        }

        @Override
        public Preprocessor.Macro get(Object k) {
            read(k);
            return super.get(k);
        }

        @Override
        public boolean containsKey(Object k) {
            read(k);
            return super.containsKey(k);
        }

        @Override
        public Preprocessor.Macro put(String k, Preprocessor.Macro v) {
            written.add(k);
            return super.put(k, v);
        }

        @Override
        public void putAll(Map<? extends String, ? extends Preprocessor.Macro> m) {
            for (Map.Entry<? extends String, ? extends Preprocessor.Macro> e : m.entrySet())
                put(e.getKey(), e.getValue());
        }

        @Override
        public Preprocessor.Macro remove(Object k) {
            if (k instanceof String s) written.add(s);
            return super.remove(k);
        }

        /** Names read before this header defined them, with the includer's definition (null: not defined). */
        Map<String, Preprocessor.Macro> inputs() {
            return inputs;
        }

        /** What the header (and its includes) defined, without reading through the recorder. */
        Map<String, Preprocessor.Macro> own() {
            Map<String, Preprocessor.Macro> own = new HashMap<>();
            for (String n : written) {
                Preprocessor.Macro m = super.get(n);
                if (m != null && raw(base, n) != m) own.put(n, m);
            }
            return own;
        }

        private static Preprocessor.Macro raw(Map<String, Preprocessor.Macro> m, String n) {
            return m instanceof Recording r ? r.rawGet(n) : m.get(n);
        }

        private Preprocessor.Macro rawGet(String n) {
            return super.get(n);
        }

        @Override
        public boolean equals(Object o) {
            return this == o;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }
}
