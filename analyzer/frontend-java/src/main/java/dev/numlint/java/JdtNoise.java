package dev.numlint.java;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;

/**
 * Keeps Eclipse JDT's internal diagnostics, which it prints straight to {@code System.err} (e.g. "The method ... is
 * wrongly tagged as containing missing types" on unresolved types), out of numlint's output while the Java front
 * end runs. Other lines pass through unchanged. Nested and concurrent uses share one filter.
 */
final class JdtNoise implements AutoCloseable {
    private static final String[] NOISE = {"is wrongly tagged as containing missing types"};
    private static final Object LOCK = new Object();
    private static int users;
    private static PrintStream original;
    private static LineFilter filter;

    private JdtNoise() {}

    static JdtNoise silence() {
        synchronized (LOCK) {
            if (users++ == 0) {
                original = System.err;
                filter = new LineFilter(original);
                System.setErr(new PrintStream(filter, true, Charset.defaultCharset()));
            }
        }
        return new JdtNoise();
    }

    @Override
    public void close() {
        synchronized (LOCK) {
            if (--users == 0) {
                System.err.flush();
                System.setErr(original);
                filter.drain();
                original = null;
                filter = null;
            }
        }
    }

    /** Whether a line of stderr output is JDT noise. */
    static boolean isNoise(String line) {
        for (String n : NOISE) {
            if (line.contains(n)) return true;
        }
        return false;
    }

    /** Buffers a line at a time and drops the noise lines. */
    private static final class LineFilter extends OutputStream {
        private final PrintStream target;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        LineFilter(PrintStream target) {
            this.target = target;
        }

        @Override
        public synchronized void write(int b) {
            line.write(b);
            if (b == '\n') emit();
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            for (int i = 0; i < len; i++) write(b[off + i]);
        }

        @Override
        public synchronized void flush() {
            // a partial line stays buffered until its newline (or until the filter is removed)
            target.flush();
        }

        synchronized void drain() {
            if (line.size() > 0) emit();
            target.flush();
        }

        private void emit() {
            String s = line.toString(Charset.defaultCharset());
            line.reset();
            if (!isNoise(s)) target.print(s);
        }
    }
}
