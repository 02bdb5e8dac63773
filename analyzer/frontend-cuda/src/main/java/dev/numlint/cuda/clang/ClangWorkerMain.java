package dev.numlint.cuda.clang;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The Clang worker: a child JVM (same class path) that the scan starts through the guarded process runner, under an
 * address-space limit ({@link ClangWorkers}). It loads libclang, greets, then parses file after file: each request
 * ({@link ClangWire}) names the file, the scanned tree's root, Clang's arguments and the bytes the scan read; each
 * answer is the unit's cursors or a failure. Standard output carries only the wire format (anything else that would
 * print there goes to standard error). It ends at the end of its input. An error of the JVM itself (out of memory)
 * ends it after the failure is answered: the next file gets a fresh worker.
 */
public final class ClangWorkerMain {
    /**
     * The failure a worker answers when its heap is exhausted, before it ends: the scan retires it on reading this, so
     * that the next file is not sent to a worker that is about to exit (session 60: a 28-line header that followed a
     * unit of 2.7 MB of tables was "not analyzed by Clang: the Clang worker ended (exit code 3)").
     */
    static final String OUT_OF_MEMORY = "the Clang worker ran out of memory";

    /** The parsing thread's stack: Clang recurses per nesting level of the code it reads. */
    static final long STACK_BYTES = 64L << 20;

    private ClangWorkerMain() {}

    public static void main(String[] args) throws Exception {
        FileOutputStream protocol = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        int[] code = {0};
        Thread t = new Thread(
                null,
                () -> {
                    try {
                        serve(
                                new DataInputStream(new ClangWire.Buffered(System.in, 1 << 16)),
                                new DataOutputStream(new ClangWire.BufferedOut(protocol, 1 << 16)));
                    } catch (IOException e) {
                        code[0] = 2;
                    } catch (Error e) {
                        code[0] = 3;
                    }
                },
                "numlint-clang-worker",
                STACK_BYTES);
        t.start();
        t.join();
        System.err.flush();
        // halt: libclang's static destructors need not run (the process ends here either way)
        Runtime.getRuntime().halt(code[0]);
    }

    /**
     * The project headers a request asks for that the trust boundary lets Clang read (the others are left out: the
     * parent parses them with their own request, refused there too).
     */
    private static java.util.Map<Path, byte[]> headers(ClangWire.Request r) {
        if (r.headers().isEmpty() || r.root() == null) return r.headers();
        java.util.Map<Path, byte[]> ok = new java.util.LinkedHashMap<>();
        r.headers().forEach((p, b) -> {
            if (ClangFrontEnd.refusal(r.boundary(), p, b, m -> false) == null) ok.put(p, b);
        });
        return ok;
    }

    static void serve(DataInputStream in, DataOutputStream out) throws IOException {
        Libclang lib = Libclang.get();
        ClangWire.writeHello(out, lib == null ? String.valueOf(Libclang.unavailable()) : null);
        if (lib == null) return;
        // the headers Clang's CUDA wrapper includes and a CUDA 13 toolkit lacks, and numlint's surface declarations: in
        // this worker's private directory
        String tmp = System.getenv("TMPDIR");
        Path priv = Path.of(tmp != null ? tmp : System.getProperty("java.io.tmpdir"));
        Path stubs = Libclang.stubHeaders(priv);
        // the precompiled CUDA headers: in the same private directory, deleted with the worker
        if (tmp != null) ClangPch.directory(priv);
        java.util.Map<Path, Path> keptStubs = new java.util.HashMap<>();
        ClangWire.Request r;
        while ((r = ClangWire.readRequest(in)) != null) {
            // the same trust boundary as in the scan's process, checked again here: an include that leaves the tree
            // (the unit's own includes and every project header they reach, as Clang would)
            List<Path> roots = r.boundary();
            String refused = roots.isEmpty() ? null : ClangIncludeClosure.refusal(roots, r.file(), r.text(), r.args());
            if (refused == null && r.target() != null && !roots.isEmpty()) {
                // the header analyzed through this unit: its own includes under the same policy as the unit's
                refused = ClangIncludeClosure.refusal(roots, r.target(), r.targetText(), r.args());
            }
            if (refused != null) {
                ClangWire.writeFailed(out, "refused: " + refused);
                continue;
            }
            ClangUnit u;
            try {
                List<String> args = new ArrayList<>(r.args());
                // with the scan's cache directory, the stub headers live there too: a precompiled header kept
                // there names them, so they must outlive this worker
                Path s = r.cacheDir() == null ? stubs : keptStubs.computeIfAbsent(r.cacheDir(), Libclang::stubHeaders);
                Path cacheDir = r.cacheDir();
                if (s == null) {
                    s = stubs;
                    cacheDir = null;
                }
                args.addAll(Libclang.stubArguments(s, args));
                java.util.Map<Path, byte[]> headers = headers(r);
                ClangDiagnostics.root(r.root());
                u = ClangParser.parseNow(r.file(), args, r.text(), cacheDir, r.target(), r.targetText(), headers);
                if (!ClangIncludes.of(u).isEmpty()
                        && headers.size() < r.headers().size()) {
                    // every header asked for is answered, in order: a refused one as a failure saying why
                    java.util.Map<Path, ClangUnit> all = new java.util.LinkedHashMap<>();
                    for (Path h : r.headers().keySet()) {
                        ClangUnit hu = ClangIncludes.of(u).get(h);
                        all.put(h, hu != null ? hu : ClangUnit.failed(h, "refused: outside the trust boundary"));
                    }
                    ClangIncludes.with(u, all);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (heapExhausted()) {
                    // an out-of-memory error thrown inside a libclang callback comes back as a null later on (a
                    // NullPointerException): with the heap full after the last collection, it is that
                    ClangWire.writeFailed(out, OUT_OF_MEMORY);
                    throw new OutOfMemoryError("after " + e.getClass().getSimpleName());
                }
                u = ClangUnit.failed(
                        r.unitFile(), "the Clang worker failed: " + e.getClass().getSimpleName());
            } catch (OutOfMemoryError e) {
                ClangWire.writeFailed(out, OUT_OF_MEMORY);
                throw e;
            }
            ClangWire.writeUnit(out, u);
        }
    }

    /** Whether a heap pool was over 90% full after the last garbage collection: live data, not garbage. */
    private static boolean heapExhausted() {
        for (java.lang.management.MemoryPoolMXBean p : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() != java.lang.management.MemoryType.HEAP || !p.isCollectionUsageThresholdSupported())
                continue;
            java.lang.management.MemoryUsage u = p.getCollectionUsage();
            if (u != null && u.getMax() > 0 && u.getUsed() > 0.9 * u.getMax()) return true;
        }
        return false;
    }
}
