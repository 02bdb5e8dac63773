package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.javacpp.PointerScope;
import org.bytedeco.llvm.clang.CXClientData;
import org.bytedeco.llvm.clang.CXCursor;
import org.bytedeco.llvm.clang.CXCursorVisitor;
import org.bytedeco.llvm.clang.CXFile;
import org.bytedeco.llvm.clang.CXIndex;
import org.bytedeco.llvm.clang.CXSourceLocation;
import org.bytedeco.llvm.clang.CXTranslationUnit;
import org.bytedeco.llvm.clang.CXUnsavedFile;

/**
 * Parses one file with libclang and copies its main file's cursors into {@link ClangNode}s. Thread-safe: each
 * parsing thread has its own {@code CXIndex}; parses run on a small pool of daemon threads so that a file over its
 * wall budget ({@link ClangBudget}: {@code -Dnumlint.clang.fileBudgetMs}, default 20 s, scaled by the files and bytes
 * the parse reads) is abandoned (its thread finishes and frees it in the background) while the scan goes on. Clang's
 * own limits (bracket and template depth, constexpr steps, error count) bound the work a hostile file can ask for.
 */
public final class ClangParser {
    /** At most this many constants of the classes that template arguments name, per file. */
    static final int MAX_MEMBER_CONSTANTS = 4096;
    /** Deeper cursors than this are not copied (the walk recurses per level). */
    static final int MAX_DEPTH = 400;

    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "numlint-clang");
        t.setDaemon(true);
        return t;
    });

    private ClangParser() {}

    /**
     * Parses {@code file} with {@code args} (the language, the build's flags and the resource directory included)
     * and returns its unit; a failed unit ({@link ClangBudget#overBudgetReason}) when the budget ran out first.
     */
    public static ClangUnit parse(Path file, List<String> args, byte[] text) {
        return parse(file, args, text, null);
    }

    /** As {@link #parse(Path, List, byte[])}, with the precompiled CUDA headers kept in {@code cacheDir} (or null). */
    static ClangUnit parse(Path file, List<String> args, byte[] text, Path cacheDir) {
        return parse(file, args, text, cacheDir, null, null);
    }

    /**
     * As {@link #parse(Path, List, byte[], Path)}; with a {@code target} (and its bytes), the unit is the target's: the
     * cursors of the file {@code file} includes, as that translation unit compiles it ({@link ClangWalker}).
     */
    static ClangUnit parse(Path file, List<String> args, byte[] text, Path cacheDir, Path target, byte[] targetText) {
        return parse(file, args, text, cacheDir, target, targetText, Map.of(), null);
    }

    /**
     * As {@link #parse(Path, List, byte[], Path, Path, byte[])}; {@code headers}: project headers (with the bytes the
     * scan read) whose cursors the same parse also returns ({@link ClangIncludes#of}); {@code root}: the scanned tree,
     * whose files' errors are quoted in the unit's failure and notices, those of files outside it not
     * ({@link ClangDiagnostics}; null: none outside the unit's file is quoted).
     */
    static ClangUnit parse(
            Path file,
            List<String> args,
            byte[] text,
            Path cacheDir,
            Path target,
            byte[] targetText,
            Map<Path, byte[]> headers,
            Path root) {
        Path unitFile = target == null ? file : target;
        Future<ClangUnit> f = POOL.submit(() -> {
            ClangDiagnostics.root(root);
            return parseNow(file, args, text, cacheDir, target, targetText, headers);
        });
        try {
            return f.get(
                    ClangBudget.budgetMs(headers.size(), ClangBudget.bytes(text, targetText, headers)),
                    TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return ClangUnit.failed(
                    unitFile,
                    ClangBudget.overBudgetReason(
                            ClangBudget.budgetMs(headers.size(), ClangBudget.bytes(text, targetText, headers))));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.cancel(false);
            return ClangUnit.failed(unitFile, "interrupted");
        } catch (java.util.concurrent.ExecutionException e) {
            return ClangUnit.failed(unitFile, String.valueOf(e.getCause()));
        }
    }

    /**
     * Parses on the calling thread, without a budget: for the Clang worker, whose parent bounds it (the worker is a
     * child process under an address-space limit, killed past its budget), and for the in-process pool above, whose
     * future the budget bounds.
     */
    @SuppressWarnings("try") // the pointer scope is only opened and closed: its body never names it
    static ClangUnit parseNow(
            Path file,
            List<String> args,
            byte[] text,
            Path cacheDir,
            Path target,
            byte[] targetText,
            Map<Path, byte[]> headers)
            throws InterruptedException {
        Libclang lib = Libclang.get();
        if (lib == null)
            return ClangUnit.failed(target == null ? file : target, String.valueOf(Libclang.unavailable()));
        // the resource directory (Clang's builtin headers) is where this process extracted them
        List<String> all = new java.util.ArrayList<>(args.size() + 2);
        all.add("-resource-dir");
        all.add(lib.resourceDir().toString());
        all.addAll(args);
        CXIndex index = Libclang.acquire();
        // each struct libclang returns by value (a cursor, a location, a range, a string) is a small native allocation
        // with a deallocator: the scope frees those of this parse when it ends, where the garbage collector would
        // have had to find each of them (the Clang workers run with JavaCPP's collector hooks off: ClangWorkers)
        try (PointerScope scope = new PointerScope()) {
            ClangPch.Header pch = ClangPch.choose(index, all, file, text, headers, cacheDir);
            if (pch != null) {
                List<String> with = new ArrayList<>(all.size() + 2);
                with.addAll(all);
                with.add("-include-pch");
                with.add(pch.file().toString());
                ClangUnit u = parseWith(index, file, with, text, target, targetText, headers);
                // a precompiled header Clang refused (changed toolkit headers, another libclang): the plain parse,
                // and that header is not offered again
                if (!ClangPch.refused(u)) return u;
                ClangPch.drop(pch, cacheDir, "refused by Clang: " + u.firstError());
            }
            return parseWith(index, file, all, text, target, targetText, headers);
        } finally {
            Libclang.release(index);
        }
    }

    /**
     * Parses the translation unit {@code file}; its unit is {@code file}'s, or with a {@code target} the target's: a
     * file that {@code file} includes and that the build compiles only so (a {@code .proto.c} included after the
     * macros that build its names are defined, a single-header library's implementation enabled by a macro), read
     * in that context: its cursors, its errors, its lines.
     */
    private static ClangUnit parseWith(
            CXIndex index,
            Path file,
            List<String> args,
            byte[] text,
            Path target,
            byte[] targetText,
            Map<Path, byte[]> headers) {
        CXTranslationUnit tu = new CXTranslationUnit();
        long t0 = System.nanoTime();
        Path unitFile = target == null ? file : target;
        byte[] unitText = target == null ? text : targetText;
        // the texts read once by the scan are the texts Clang parses (no second read, no race with a changing tree)
        Map<Path, byte[]> texts = new java.util.LinkedHashMap<>();
        texts.put(file, text);
        if (target != null) texts.put(target, targetText);
        headers.forEach(texts::putIfAbsent);
        int files = texts.size();
        List<BytePointer> held = new ArrayList<>();
        CXUnsavedFile unsaved = new CXUnsavedFile(files);
        try (PointerPointer<BytePointer> argv = new PointerPointer<>(args.toArray(new String[0]))) {
            int k = 0;
            for (Map.Entry<Path, byte[]> e : texts.entrySet()) {
                BytePointer n = new BytePointer(e.getKey().toString());
                BytePointer c = new BytePointer(Math.max(1, e.getValue().length));
                held.add(n);
                held.add(c);
                c.put(e.getValue(), 0, e.getValue().length);
                unsaved.position(k++).Filename(n).Contents(c).Length(e.getValue().length);
            }
            unsaved.position(0);
            int rc = clang_parseTranslationUnit2(
                    index,
                    held.get(0),
                    argv,
                    args.size(),
                    unsaved,
                    files,
                    CXTranslationUnit_KeepGoing | CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles,
                    tu);
            long t1 = System.nanoTime();
            if (rc != 0 || tu.isNull()) {
                return ClangUnit.failed(unitFile, "libclang could not parse it (error " + rc + ")");
            }
            try {
                boolean cuda = ClangFrontEnd.cuda(args);
                ClangUnit u = read(tu, file, text, target, unitFile, unitText, t1 - t0, t1, false, cuda);
                if (headers.isEmpty() || u.failure() != null) return u;
                // the project headers this unit includes, from the same parse: each read as a target is
                Map<Path, ClangUnit> included = new java.util.LinkedHashMap<>();
                if (ONE_WALK) {
                    included = readHeaders(tu, file, text, headers, cuda);
                } else {
                    for (Map.Entry<Path, byte[]> h : headers.entrySet()) {
                        included.put(
                                h.getKey(),
                                read(
                                        tu,
                                        file,
                                        text,
                                        h.getKey(),
                                        h.getKey(),
                                        h.getValue(),
                                        0,
                                        System.nanoTime(),
                                        true,
                                        cuda));
                    }
                }
                return ClangIncludes.with(u, included);
            } finally {
                clang_disposeTranslationUnit(tu);
            }
        } finally {
            for (BytePointer b : held) b.close();
            unsaved.close();
        }
    }

    /** The unit of {@code unitFile} in the parsed translation unit: the main file's, or a target's (or why not). */
    private static ClangUnit read(
            CXTranslationUnit tu,
            Path file,
            byte[] text,
            Path target,
            Path unitFile,
            byte[] unitText,
            long parseNanos,
            long t1,
            boolean ownErrors,
            boolean cuda) {
        CXFile targetFile = target == null ? null : clang_getFile(tu, target.toString());
        if (target != null
                && (targetFile == null
                        || targetFile.isNull()
                        || !new ClangIncludes.Inclusions(tu).contains(targetFile))) {
            return ClangUnit.failed(unitFile, "its includer " + file.getFileName() + ClangIncludes.NOT_INCLUDED);
        }
        ClangDiagnostics.Diag d = ClangDiagnostics.of(tu, targetFile, ownErrors);
        if (target == null) ClangDiagnostics.inactive(tu, clang_getFile(tu, file.toString()), d.unknownTypes());
        ClangDiagnostics.stubsRead(tu, unitText, d.unknownTypes());
        ClangWalker w = new ClangWalker(unitText, target == null ? clang_getFile(tu, file.toString()) : targetFile);
        w.cuda = cuda;
        w.target = target != null;
        CXCursor root = clang_getTranslationUnitCursor(tu);
        w.walk(root);
        explicitInstantiations(unitText, w);
        // the includer's calls of the target's templates with explicit arguments (f<float, 32>(...))
        if (target != null) explicitInstantiations(text, w);
        ClangUnit u = new ClangUnit(
                unitFile, w.top, w.templateArgs, d.errors(), d.first(), parseNanos, System.nanoTime() - t1, unitText);
        u.withUnknownTypes(d.unknownTypes()).withMemberConstants(w.memberConstants);
        return ClangHeaderHelpers.with(u, w.helpers.kinds);
    }

    /**
     * {@code -Dnumlint.clang.oneWalk=false}: each header read from its unit's parse walks the whole translation unit
     * itself (session 18), instead of one walk for all of them.
     */
    static final boolean ONE_WALK = Boolean.parseBoolean(System.getProperty("numlint.clang.oneWalk", "true"));

    /**
     * The project headers {@code headers} read from the parse of {@code file}, each exactly as {@link #read} reads a
     * target, with one walk of the translation unit for all of them: each cursor goes to the walker of the header it
     * is expanded in, and the walkers that look into a cursor they do not own (a namespace or linkage block, the main
     * file's code for the calls of their templates) share the visit of its children. Before, each header walked the
     * whole unit (the toolkit's declarations, the main file's code) once: N headers, N walks.
     */
    private static Map<Path, ClangUnit> readHeaders(
            CXTranslationUnit tu, Path file, byte[] fileText, Map<Path, byte[]> headers, boolean cuda) {
        long t0 = System.nanoTime();
        Map<Path, ClangUnit> out = new java.util.LinkedHashMap<>();
        Map<Path, ClangWalker> walkers = new java.util.LinkedHashMap<>();
        Map<Path, ClangDiagnostics.Diag> diags = new HashMap<>();
        ClangWalker.Visits shared = new ClangWalker.Visits();
        ClangIncludes.Inclusions inclusions = new ClangIncludes.Inclusions(tu);
        for (Map.Entry<Path, byte[]> h : headers.entrySet()) {
            CXFile f = clang_getFile(tu, h.getKey().toString());
            if (f == null || f.isNull() || !inclusions.contains(f)) {
                out.put(
                        h.getKey(),
                        ClangUnit.failed(
                                h.getKey(), "its includer " + file.getFileName() + ClangIncludes.NOT_INCLUDED));
                continue;
            }
            out.put(h.getKey(), null); // the order asked for
            diags.put(h.getKey(), ClangDiagnostics.of(tu, f, true));
            ClangWalker w = new ClangWalker(h.getValue(), f, shared);
            w.cuda = cuda;
            w.target = true;
            walkers.put(h.getKey(), w);
        }
        if (walkers.isEmpty()) {
            shared.close();
            return out; // none of them included: nothing to walk
        }
        Dispatch all = new Dispatch(shared);
        try {
            all.visit(clang_getTranslationUnitCursor(tu), List.copyOf(walkers.values()));
        } finally {
            all.close();
            walkers.values().forEach(ClangWalker::release);
            shared.close();
        }
        long each = (System.nanoTime() - t0) / walkers.size(); // the walk's time, shared
        walkers.forEach((h, w) -> {
            byte[] text = headers.get(h);
            explicitInstantiations(text, w);
            explicitInstantiations(fileText, w);
            ClangDiagnostics.Diag d = diags.get(h);
            ClangDiagnostics.stubsRead(tu, text, d.unknownTypes());
            ClangUnit u = new ClangUnit(h, w.top, w.templateArgs, d.errors(), d.first(), 0, each, text);
            u.withUnknownTypes(d.unknownTypes()).withMemberConstants(w.memberConstants);
            out.put(h, ClangHeaderHelpers.with(u, w.helpers.kinds));
        });
        return out;
    }

    /**
     * One walk for several target {@link ClangWalker}s: a cursor expanded in a walker's file is that walker's (it copies
     * the cursor and its subtree); a walker that would recurse into a cursor it does not own (a namespace, a linkage
     * block, the main file's code) is among those the cursor's children are visited for; libclang recurses by itself
     * while that set is the same (no Java stack per level).
     */
    private static final class Dispatch extends CXCursorVisitor {
        private final ArrayDeque<List<ClangWalker>> interested = new ArrayDeque<>();
        private final CXFile expandedIn = new CXFile();
        private final ClangWalker.Visits visits;

        Dispatch(ClangWalker.Visits visits) {
            this.visits = visits;
        }

        void visit(CXCursor c, List<ClangWalker> ws) {
            interested.push(ws);
            clang_visitChildren(c, this, (CXClientData) null);
            interested.pop();
        }

        @Override
        public int call(CXCursor c, CXCursor parent, CXClientData data) {
            // the structs of this cursor's visit are freed after it, as ClangWalker.call frees its own
            try (PointerScope structs = new PointerScope()) {
                return dispatch(c, parent, data);
            }
        }

        private int dispatch(CXCursor c, CXCursor parent, CXClientData data) {
            List<ClangWalker> ws = interested.peek();
            CXSourceLocation loc = clang_getCursorLocation(c);
            // as ClangWalker.expandedInMain: a system header's location is no project file's
            boolean system = clang_Location_isInSystemHeader(loc) != 0;
            if (!system) {
                clang_getExpansionLocation(loc, expandedIn, (IntPointer) null, (IntPointer) null, (IntPointer) null);
            }
            int kind = clang_getCursorKind(c);
            boolean scope = kind == CXCursor_Namespace || kind == CXCursor_LinkageSpec;
            int fromMain = -1;
            int active = 0;
            CXCursor ref = null;
            List<ClangWalker> next = new ArrayList<>(ws.size());
            for (ClangWalker w : ws) {
                if (w.targetDone) continue;
                active++;
                if (!system && !expandedIn.isNull() && clang_File_isEqual(expandedIn, w.main) != 0) {
                    visits.current = w;
                    w.call(c, parent, data); // its own: the cursor and what is under it
                    continue;
                }
                if (!scope) {
                    if (fromMain < 0) fromMain = clang_Location_isFromMainFile(loc) != 0 ? 1 : 0;
                    if (fromMain == 0) continue;
                    if (kind == CXCursor_CallExpr) {
                        if (ref == null) ref = clang_getCursorReferenced(c);
                        w.templateArguments(ref);
                    } else if (ClangWalker.OBJECTS.contains(kind)) {
                        w.objectClass(clang_getCanonicalType(clang_getCursorType(c)));
                    }
                }
                next.add(w);
            }
            if (next.isEmpty()) return CXChildVisit_Continue;
            if (next.size() == active) return CXChildVisit_Recurse; // the done walkers skip the children anyway
            visit(c, next);
            return CXChildVisit_Continue;
        }
    }

    /**
     * The type arguments of the explicit instantiations of this file ({@code template void f<float>(const float *);}),
     * which libclang neither visits nor finds a cursor for, and of the calls that name them explicitly
     * ({@code f<float, 32>(t, &out)}, whose cursor in a template refers to the template, not to the specialization:
     * PKDGRAV3's {@code warpReduceAndStoreAtomicAdd<float,32>} in a kernel template): the arguments as written, for
     * each function template of that name defined in this file (a typedef'd argument stays unknown; a list of which
     * no argument is known adds nothing).
     */
    private static void explicitInstantiations(byte[] text, ClangWalker w) {
        // a unit without a function template of its own (most C) has nothing to find: the patterns are not run
        if (text == null || !hasFunctionTemplate(w.top)) return;
        String src = new String(text, java.nio.charset.StandardCharsets.ISO_8859_1);
        explicitArguments(EXPLICIT_INSTANTIATION.matcher(src), w);
        explicitArguments(EXPLICIT_CALL.matcher(src), w);
    }

    private static boolean hasFunctionTemplate(List<ClangNode> top) {
        java.util.ArrayDeque<ClangNode> todo = new java.util.ArrayDeque<>(top);
        while (!todo.isEmpty()) {
            ClangNode n = todo.poll();
            if (n.kind == CXCursor_FunctionTemplate) return true;
            if (n.kind == CXCursor_Namespace || n.kind == CXCursor_LinkageSpec) todo.addAll(n.children);
        }
        return false;
    }

    private static void explicitArguments(java.util.regex.Matcher m, ClangWalker w) {
        while (m.find()) {
            List<String> args = new ArrayList<>();
            for (String a : m.group(2).split(",")) {
                String t = a.trim().replaceAll("\\s+", " ");
                args.add(ClangInstantiations.instantiationType(t));
            }
            if (args.stream().allMatch(java.util.Objects::isNull)) continue;
            java.util.ArrayDeque<ClangNode> todo = new java.util.ArrayDeque<>(w.top);
            while (!todo.isEmpty()) {
                ClangNode n = todo.poll();
                if (n.kind == CXCursor_Namespace || n.kind == CXCursor_LinkageSpec) todo.addAll(n.children);
                if (n.kind != CXCursor_FunctionTemplate || !n.spelling.equals(m.group(1)) || n.usr == null) continue;
                List<List<String>> all = w.templateArgs.computeIfAbsent(n.usr, k -> new ArrayList<>());
                if (!all.contains(args)) all.add(args);
            }
        }
    }

    /** {@code name<arguments>(}: group 1 is the name (a call with explicit template arguments, or a declaration). */
    private static final java.util.regex.Pattern EXPLICIT_CALL =
            java.util.regex.Pattern.compile("\\b([A-Za-z_]\\w*)\\s*<([^;{}()<>]{1,200})>\\s*\\(");

    /** {@code template <declaration of> name<arguments>(}: group 1 is the name (an explicit instantiation). */
    static final java.util.regex.Pattern EXPLICIT_INSTANTIATION = java.util.regex.Pattern.compile(
            "(?m)^\\s*(?:extern\\s+)?template\\s+(?!<)[^;{}()<>]{1,200}?\\b([A-Za-z_]\\w*)\\s*<([^;{}()<>]{1,200})>\\s*\\(");
}
