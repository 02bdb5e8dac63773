package dev.numlint.cuda.clang;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Clang worker's wire format: typed and versioned, binary, never a parsed message. The worker greets with
 * {@link #MAGIC}, {@link #VERSION} and whether libclang loaded; each request names a file, the scanned tree's root,
 * the scan's cache directory (where the precompiled CUDA headers are kept, or none), Clang's arguments and the
 * file's bytes; each answer is a unit (Clang's first error, error count, timings, the template arguments of calls, the
 * constant static members of the classes they name, and the main file's cursors as {@link ClangNode}s) or a failure
 * with its reason.
 * Strings are written once per message and then referred to by number (types and names repeat). The reader bounds
 * every count and length: a malformed answer is a failure of the worker, never trusted.
 */
final class ClangWire {
    static final int MAGIC = 0x4E4C4357; // "NLCW"
    /** Raise on every change of the format; a worker of another version is refused at its greeting. */
    static final int VERSION = 8;

    static final byte HELLO_READY = 0;
    static final byte HELLO_UNAVAILABLE = 1;
    static final byte REQUEST_QUIT = 0;
    static final byte REQUEST_PARSE = 1;
    static final byte ANSWER_UNIT = 1;
    static final byte ANSWER_FAILED = 2;

    static final int MAX_STRING = 16 << 20;
    static final int MAX_NODES = 20_000_000;
    static final int MAX_DEPTH = ClangParser.MAX_DEPTH + 8;
    static final int MAX_ARGS = 10_000;
    static final int MAX_TEXT = 512 << 20;
    /** Project headers one request asks for beside its unit. */
    static final int MAX_HEADERS = 100_000;
    /** Boundary roots one request names. */
    static final int MAX_ROOTS = 1_000;

    private ClangWire() {}

    /**
     * One parse request; {@code cacheDir}: the scan's cache directory ({@link ClangPch}), null for none;
     * {@code target}: the file whose cursors are wanted when it is not {@code file} itself (a file compiled only
     * through an {@code #include} of {@code file}, with its bytes {@code targetText}), else null; {@code headers}:
     * project headers (with their bytes) whose cursors the same parse also returns, in order; {@code roots}: the
     * scan's real boundary roots when there are several (a scanned PATH and a compilation database's directory beside
     * it), which Clang may read inside and nowhere else under {@code root}, their common directory; empty for one.
     */
    record Request(
            Path file,
            Path root,
            Path cacheDir,
            List<String> args,
            byte[] text,
            Path target,
            byte[] targetText,
            Map<Path, byte[]> headers,
            List<Path> roots) {
        Request {
            roots = List.copyOf(roots);
        }

        Request(Path file, Path root, Path cacheDir, List<String> args, byte[] text) {
            this(file, root, cacheDir, args, text, null, null, Map.of(), List.of());
        }

        Request(Path file, Path root, Path cacheDir, List<String> args, byte[] text, Path target, byte[] targetText) {
            this(file, root, cacheDir, args, text, target, targetText, Map.of(), List.of());
        }

        /** The roots Clang may read inside: {@link #roots()} when there are several, else {@link #root()}. */
        List<Path> boundary() {
            if (!roots.isEmpty()) return roots;
            return root == null ? List.of() : List.of(root);
        }

        /** The file the unit's cursors belong to. */
        Path unitFile() {
            return target == null ? file : target;
        }

        /** The bytes of {@link #unitFile()}. */
        byte[] unitText() {
            return target == null ? text : targetText;
        }
    }

    // ------------------------------------------------------------------ strings, once per message

    /** Writes a message's strings: a new one with its bytes, a repeated one by its number. */
    static final class Out {
        final DataOutputStream out;
        private final Map<String, Integer> seen = new HashMap<>();

        Out(DataOutputStream out) {
            this.out = out;
        }

        void str(String s) throws IOException {
            if (s == null) {
                out.writeInt(-1);
                return;
            }
            Integer i = seen.get(s);
            if (i != null) {
                out.writeInt(i);
                return;
            }
            seen.put(s, seen.size());
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            out.writeInt(-2);
            out.writeInt(b.length);
            out.write(b);
        }
    }

    /**
     * A buffered stream without the lock {@link java.io.BufferedInputStream} takes at every {@code read()}: an answer is
     * read a few bytes at a time ({@code DataInputStream.readInt}, some 60 reads per cursor), and that lock was a
     * quarter of the CPU a scan of an ANSI C tree spent in the numlint process (session 30, a JFR profile). One thread
     * reads a stream at a time (a worker answers the request its caller waits on).
     */
    static final class Buffered extends InputStream {
        private final InputStream in;
        private final byte[] buf;
        private int pos;
        private int end;

        Buffered(InputStream in, int size) {
            this.in = in;
            this.buf = new byte[size];
        }

        private boolean fill() throws IOException {
            int n;
            do {
                n = in.read(buf, 0, buf.length);
            } while (n == 0);
            if (n < 0) return false;
            pos = 0;
            end = n;
            return true;
        }

        @Override
        public int read() throws IOException {
            if (pos == end && !fill()) return -1;
            return buf[pos++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) return 0;
            if (pos == end) {
                if (len >= buf.length) return in.read(b, off, len);
                if (!fill()) return -1;
            }
            int n = Math.min(len, end - pos);
            System.arraycopy(buf, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public int available() throws IOException {
            return end - pos + in.available();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** The writing side of {@link Buffered}: a worker writes its answer a few bytes at a time, without a lock. */
    static final class BufferedOut extends java.io.OutputStream {
        private final java.io.OutputStream out;
        private final byte[] buf;
        private int n;

        BufferedOut(java.io.OutputStream out, int size) {
            this.out = out;
            this.buf = new byte[size];
        }

        @Override
        public void write(int b) throws IOException {
            if (n == buf.length) drain();
            buf[n++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (len >= buf.length) {
                drain();
                out.write(b, off, len);
                return;
            }
            if (len > buf.length - n) drain();
            System.arraycopy(b, off, buf, n, len);
            n += len;
        }

        private void drain() throws IOException {
            if (n > 0) out.write(buf, 0, n);
            n = 0;
        }

        @Override
        public void flush() throws IOException {
            drain();
            out.flush();
        }

        @Override
        public void close() throws IOException {
            flush();
            out.close();
        }
    }

    /** Reads a message's strings (see {@link Out}), bounded. */
    static final class In {
        final DataInputStream in;
        private final List<String> seen = new ArrayList<>();
        int nodes;

        In(DataInputStream in) {
            this.in = in;
        }

        String str() throws IOException {
            int c = in.readInt();
            if (c == -1) return null;
            if (c == -2) {
                int n = count(MAX_STRING);
                byte[] b = new byte[n];
                in.readFully(b);
                String s = new String(b, StandardCharsets.UTF_8);
                seen.add(s);
                return s;
            }
            if (c < 0 || c >= seen.size()) throw new IOException("malformed answer: string " + c);
            return seen.get(c);
        }

        int count(int max) throws IOException {
            int n = in.readInt();
            if (n < 0 || n > max) throw new IOException("malformed answer: count " + n);
            return n;
        }
    }

    // ------------------------------------------------------------------ greeting

    static void writeHello(DataOutputStream out, String unavailable) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeByte(unavailable == null ? HELLO_READY : HELLO_UNAVAILABLE);
        if (unavailable != null) new Out(out).str(unavailable);
        out.flush();
    }

    /** Null when the worker is ready, else why not (another version, libclang did not load in it). */
    static String readHello(DataInputStream in) throws IOException {
        int magic = in.readInt();
        if (magic != MAGIC) throw new IOException("the Clang worker did not greet (no numlint worker answered)");
        int version = in.readInt();
        if (version != VERSION) {
            return "the Clang worker speaks version " + version + " of the wire format, this numlint " + VERSION;
        }
        byte status = in.readByte();
        if (status == HELLO_READY) return null;
        String why = new In(in).str();
        return why == null ? "libclang did not load in the worker" : why;
    }

    // ------------------------------------------------------------------ requests

    static void writeRequest(DataOutputStream out, Request r) throws IOException {
        out.writeByte(REQUEST_PARSE);
        Out o = new Out(out);
        o.str(r.file().toString());
        o.str(r.root() == null ? null : r.root().toString());
        o.str(r.cacheDir() == null ? null : r.cacheDir().toString());
        out.writeInt(r.args().size());
        for (String a : r.args()) o.str(a);
        out.writeInt(r.text().length);
        out.write(r.text());
        o.str(r.target() == null ? null : r.target().toString());
        if (r.target() != null) {
            out.writeInt(r.targetText().length);
            out.write(r.targetText());
        }
        out.writeInt(r.headers().size());
        for (Map.Entry<Path, byte[]> h : r.headers().entrySet()) {
            o.str(h.getKey().toString());
            out.writeInt(h.getValue().length);
            out.write(h.getValue());
        }
        out.writeInt(r.roots().size());
        for (Path p : r.roots()) o.str(p.toString());
        out.flush();
    }

    static void writeQuit(DataOutputStream out) throws IOException {
        out.writeByte(REQUEST_QUIT);
        out.flush();
    }

    /** The next request, or null at the end of the input or on {@link #REQUEST_QUIT}. */
    static Request readRequest(DataInputStream in) throws IOException {
        int tag = in.read();
        if (tag < 0 || tag == REQUEST_QUIT) return null;
        if (tag != REQUEST_PARSE) throw new IOException("malformed request: tag " + tag);
        In i = new In(in);
        String file = i.str();
        String root = i.str();
        String cacheDir = i.str();
        if (file == null) throw new IOException("malformed request: no file");
        int n = i.count(MAX_ARGS);
        List<String> args = new ArrayList<>(n);
        for (int k = 0; k < n; k++) args.add(i.str());
        int len = i.count(MAX_TEXT);
        byte[] text = new byte[len];
        in.readFully(text);
        String target = i.str();
        byte[] targetText = null;
        if (target != null) {
            targetText = new byte[i.count(MAX_TEXT)];
            in.readFully(targetText);
        }
        int nh = i.count(MAX_HEADERS);
        Map<Path, byte[]> headers = new LinkedHashMap<>();
        for (int k = 0; k < nh; k++) {
            String h = i.str();
            if (h == null) throw new IOException("malformed request: no header path");
            byte[] b = new byte[i.count(MAX_TEXT)];
            in.readFully(b);
            headers.put(Path.of(h), b);
        }
        int nr = i.count(MAX_ROOTS);
        List<Path> roots = new ArrayList<>(nr);
        for (int k = 0; k < nr; k++) {
            String p = i.str();
            if (p == null) throw new IOException("malformed request: no root path");
            roots.add(Path.of(p));
        }
        return new Request(
                Path.of(file),
                root == null ? null : Path.of(root),
                cacheDir == null ? null : Path.of(cacheDir),
                args,
                text,
                target == null ? null : Path.of(target),
                targetText,
                headers,
                roots);
    }

    // ------------------------------------------------------------------ answers

    static void writeFailed(DataOutputStream out, String why) throws IOException {
        out.writeByte(ANSWER_FAILED);
        new Out(out).str(why);
        out.flush();
    }

    static void writeUnit(DataOutputStream out, ClangUnit u) throws IOException {
        if (u.failure() != null) {
            writeFailed(out, u.failure());
            return;
        }
        out.writeByte(ANSWER_UNIT);
        Out o = new Out(out);
        out.writeInt(u.errors());
        o.str(u.firstError());
        out.writeLong(u.parseNanos());
        out.writeLong(u.walkNanos());
        Map<String, List<List<String>>> ta = u.templateArguments();
        out.writeInt(ta.size());
        for (Map.Entry<String, List<List<String>>> e : ta.entrySet()) {
            o.str(e.getKey());
            out.writeInt(e.getValue().size());
            for (List<String> args : e.getValue()) {
                out.writeInt(args.size());
                for (String a : args) o.str(a);
            }
        }
        out.writeInt(u.unknownTypes().size());
        for (Map.Entry<String, List<Integer>> e : u.unknownTypes().entrySet()) {
            o.str(e.getKey());
            out.writeInt(e.getValue().size());
            for (int line : e.getValue()) out.writeInt(line);
        }
        out.writeInt(u.memberConstants().size());
        for (Map.Entry<String, Double> e : u.memberConstants().entrySet()) {
            o.str(e.getKey());
            out.writeDouble(e.getValue());
        }
        out.writeInt(ClangHeaderHelpers.of(u).size());
        for (Map.Entry<String, String> e : ClangHeaderHelpers.of(u).entrySet()) {
            o.str(e.getKey());
            o.str(e.getValue());
        }
        out.writeInt(u.top().size());
        for (ClangNode n : u.top()) writeNode(o, n);
        // the units of the project headers asked for: each an answer of its own, in the order asked
        out.writeInt(ClangIncludes.of(u).size());
        for (ClangUnit h : ClangIncludes.of(u).values()) writeUnit(out, h);
        out.flush();
    }

    private static void writeNode(Out o, ClangNode n) throws IOException {
        DataOutputStream out = o.out;
        out.writeInt(n.kind);
        o.str(n.spelling);
        o.str(n.type);
        out.writeInt(n.canonKind);
        o.str(n.canon);
        out.writeInt(n.pointeeKind);
        o.str(n.pointee);
        out.writeInt(n.line);
        out.writeInt(n.column);
        out.writeInt(n.endLine);
        out.writeInt(n.endColumn);
        out.writeInt(n.offset);
        out.writeInt(n.endOffset);
        out.writeBoolean(n.value != null);
        if (n.value != null) out.writeDouble(n.value);
        o.str(n.ref);
        o.str(n.refUsr);
        o.str(n.usr);
        if (ClangUnit.FUNCTION_KINDS.contains(n.kind)) out.writeByte(n.declaredSpaces);
        out.writeInt(n.children.size());
        for (ClangNode c : n.children) writeNode(o, c);
    }

    /**
     * The answer to one request: the unit (with {@code file} and {@code text}, which the parent holds), or a failed
     * unit with the worker's reason.
     */
    static ClangUnit readAnswer(DataInputStream in, Path file, byte[] text) throws IOException {
        return readAnswer(in, file, text, Map.of());
    }

    /** As {@link #readAnswer(DataInputStream, Path, byte[])}, with the units of the {@code headers} asked for. */
    static ClangUnit readAnswer(DataInputStream in, Path file, byte[] text, Map<Path, byte[]> headers)
            throws IOException {
        int tag = in.read();
        if (tag < 0) throw new EOFException("the Clang worker ended without an answer");
        In i = new In(in);
        if (tag == ANSWER_FAILED) {
            String why = i.str();
            return ClangUnit.failed(file, why == null ? "Clang gave no reason" : why);
        }
        if (tag != ANSWER_UNIT) throw new IOException("malformed answer: tag " + tag);
        int errors = i.count(Integer.MAX_VALUE);
        String first = i.str();
        long parse = in.readLong();
        long walk = in.readLong();
        int nt = i.count(1_000_000);
        Map<String, List<List<String>>> ta = new LinkedHashMap<>();
        for (int k = 0; k < nt; k++) {
            String key = i.str();
            int m = i.count(1_000_000);
            List<List<String>> all = new ArrayList<>(Math.min(m, 1024));
            for (int j = 0; j < m; j++) {
                int a = i.count(10_000);
                List<String> args = new ArrayList<>(a);
                for (int q = 0; q < a; q++) args.add(i.str());
                all.add(args);
            }
            ta.put(key, all);
        }
        int nu = i.count(1024);
        Map<String, List<Integer>> unknown = new LinkedHashMap<>();
        for (int k = 0; k < nu; k++) {
            String name = i.str();
            int m = i.count(1_000_000);
            List<Integer> lines = new ArrayList<>(Math.min(m, 1024));
            for (int j = 0; j < m; j++) lines.add(in.readInt());
            if (name != null) unknown.put(name, lines);
        }
        int nc = i.count(ClangParser.MAX_MEMBER_CONSTANTS);
        Map<String, Double> constants = new LinkedHashMap<>();
        for (int k = 0; k < nc; k++) {
            String name = i.str();
            double v = in.readDouble();
            if (name != null) constants.put(name, v);
        }
        int nk = i.count(ClangHeaderHelpers.MAX_READ);
        Map<String, String> helpers = new LinkedHashMap<>();
        for (int k = 0; k < nk; k++) {
            String name = i.str();
            String kind = i.str();
            if (name != null && kind != null) helpers.put(name, kind);
        }
        int nTop = i.count(MAX_NODES);
        List<ClangNode> top = new ArrayList<>(Math.min(nTop, 1 << 16));
        for (int k = 0; k < nTop; k++) top.add(readNode(i, null, 0));
        ClangUnit u = new ClangUnit(file, top, ta, errors, first, parse, walk, text)
                .withUnknownTypes(unknown)
                .withMemberConstants(constants);
        ClangHeaderHelpers.with(u, helpers);
        int nh = in.readInt();
        if (nh != 0 && nh != headers.size()) throw new IOException("malformed answer: " + nh + " header units");
        if (nh == 0) return u;
        Map<Path, ClangUnit> units = new LinkedHashMap<>();
        for (Map.Entry<Path, byte[]> h : headers.entrySet()) {
            units.put(h.getKey(), readAnswer(in, h.getKey(), h.getValue(), Map.of()));
        }
        return ClangIncludes.with(u, units);
    }

    private static ClangNode readNode(In i, ClangNode parent, int depth) throws IOException {
        if (depth > MAX_DEPTH || ++i.nodes > MAX_NODES) throw new IOException("malformed answer: too many cursors");
        DataInputStream in = i.in;
        int kind = in.readInt();
        String spelling = i.str();
        String type = i.str();
        int canonKind = in.readInt();
        String canon = i.str();
        int pointeeKind = in.readInt();
        String pointee = i.str();
        int line = in.readInt();
        int column = in.readInt();
        int endLine = in.readInt();
        int endColumn = in.readInt();
        int offset = in.readInt();
        int endOffset = in.readInt();
        Double value = in.readBoolean() ? in.readDouble() : null;
        String ref = i.str();
        String refUsr = i.str();
        String usr = i.str();
        ClangNode n = new ClangNode(
                kind,
                spelling == null ? "" : spelling,
                type == null ? "" : type,
                canonKind,
                canon == null ? "" : canon,
                pointeeKind,
                pointee,
                line,
                column,
                endLine,
                endColumn,
                offset,
                endOffset,
                value,
                ref,
                refUsr,
                usr);
        if (ClangUnit.FUNCTION_KINDS.contains(kind)) n.declaredSpaces = in.readByte() & 7;
        n.parent = parent;
        int nc = i.count(MAX_NODES);
        for (int k = 0; k < nc; k++) n.children.add(readNode(i, n, depth + 1));
        return n;
    }
}
