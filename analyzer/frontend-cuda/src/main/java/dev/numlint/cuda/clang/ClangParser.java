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
import org.bytedeco.llvm.clang.CXEvalResult;
import org.bytedeco.llvm.clang.CXFile;
import org.bytedeco.llvm.clang.CXIndex;
import org.bytedeco.llvm.clang.CXSourceLocation;
import org.bytedeco.llvm.clang.CXSourceRange;
import org.bytedeco.llvm.clang.CXTranslationUnit;
import org.bytedeco.llvm.clang.CXType;
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
     * cursors of the file {@code file} includes, as that translation unit compiles it ({@link Walker}).
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
            Path pch = ClangPch.forArguments(index, all, cacheDir);
            if (pch != null) {
                List<String> with = new ArrayList<>(all.size() + 2);
                with.addAll(all);
                with.add("-include-pch");
                with.add(pch.toString());
                ClangUnit u = parseWith(index, file, with, text, target, targetText, headers);
                // a precompiled header Clang refused (changed toolkit headers, another libclang): the plain parse,
                // and that header is not offered again
                if (!ClangPch.refused(u)) return u;
                ClangPch.drop(all, cacheDir, "refused by Clang: " + u.firstError());
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
                ClangUnit u = read(tu, file, text, target, unitFile, unitText, t1 - t0, t1, false);
                if (headers.isEmpty() || u.failure() != null) return u;
                // the project headers this unit includes, from the same parse: each read as a target is
                Map<Path, ClangUnit> included = new java.util.LinkedHashMap<>();
                if (ONE_WALK) {
                    included = readHeaders(tu, file, text, headers);
                } else {
                    for (Map.Entry<Path, byte[]> h : headers.entrySet()) {
                        included.put(
                                h.getKey(),
                                read(tu, file, text, h.getKey(), h.getKey(), h.getValue(), 0, System.nanoTime(), true));
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
            boolean ownErrors) {
        CXFile targetFile = target == null ? null : clang_getFile(tu, target.toString());
        if (target != null && (targetFile == null || targetFile.isNull())) {
            return ClangUnit.failed(unitFile, "its includer " + file.getFileName() + ClangIncludes.NOT_INCLUDED);
        }
        ClangDiagnostics.Diag d = ClangDiagnostics.of(tu, targetFile, ownErrors);
        Walker w = new Walker(unitText, target == null ? clang_getFile(tu, file.toString()) : targetFile);
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
    /** Expression kinds libclang never spells: literals (not strings), parentheses, subscripts, explicit casts. */
    private static final java.util.Set<Integer> UNSPELLED = java.util.Set.of(
            CXCursor_IntegerLiteral,
            CXCursor_FloatingLiteral,
            CXCursor_ImaginaryLiteral,
            CXCursor_CharacterLiteral,
            CXCursor_CXXBoolLiteralExpr,
            CXCursor_ParenExpr,
            CXCursor_ArraySubscriptExpr,
            CXCursor_CStyleCastExpr,
            CXCursor_CXXStaticCastExpr,
            CXCursor_CXXReinterpretCastExpr,
            CXCursor_CXXConstCastExpr,
            CXCursor_InitListExpr,
            CXCursor_ConditionalOperator);

    static final boolean ONE_WALK = Boolean.parseBoolean(System.getProperty("numlint.clang.oneWalk", "true"));

    /**
     * The project headers {@code headers} read from the parse of {@code file}, each exactly as {@link #read} reads a
     * target, with one walk of the translation unit for all of them: each cursor goes to the walker of the header it
     * is expanded in, and the walkers that look into a cursor they do not own (a namespace or linkage block, the main
     * file's code for the calls of their templates) share the visit of its children. Before, each header walked the
     * whole unit (the toolkit's declarations, the main file's code) once: N headers, N walks.
     */
    private static Map<Path, ClangUnit> readHeaders(
            CXTranslationUnit tu, Path file, byte[] fileText, Map<Path, byte[]> headers) {
        long t0 = System.nanoTime();
        Map<Path, ClangUnit> out = new java.util.LinkedHashMap<>();
        Map<Path, Walker> walkers = new java.util.LinkedHashMap<>();
        Map<Path, ClangDiagnostics.Diag> diags = new HashMap<>();
        Visits shared = new Visits();
        for (Map.Entry<Path, byte[]> h : headers.entrySet()) {
            CXFile f = clang_getFile(tu, h.getKey().toString());
            if (f == null || f.isNull()) {
                out.put(
                        h.getKey(),
                        ClangUnit.failed(
                                h.getKey(), "its includer " + file.getFileName() + ClangIncludes.NOT_INCLUDED));
                continue;
            }
            out.put(h.getKey(), null); // the order asked for
            diags.put(h.getKey(), ClangDiagnostics.of(tu, f, true));
            Walker w = new Walker(h.getValue(), f, shared);
            w.target = true;
            walkers.put(h.getKey(), w);
        }
        Dispatch all = new Dispatch(shared);
        try {
            all.visit(clang_getTranslationUnitCursor(tu), List.copyOf(walkers.values()));
        } finally {
            all.close();
            walkers.values().forEach(Walker::release);
            shared.close();
        }
        long each = (System.nanoTime() - t0) / walkers.size(); // the walk's time, shared
        walkers.forEach((h, w) -> {
            byte[] text = headers.get(h);
            explicitInstantiations(text, w);
            explicitInstantiations(fileText, w);
            ClangDiagnostics.Diag d = diags.get(h);
            ClangUnit u = new ClangUnit(h, w.top, w.templateArgs, d.errors(), d.first(), 0, each, text);
            u.withUnknownTypes(d.unknownTypes()).withMemberConstants(w.memberConstants);
            out.put(h, ClangHeaderHelpers.with(u, w.helpers.kinds));
        });
        return out;
    }

    /**
     * One walk for several target {@link Walker}s: a cursor expanded in a walker's file is that walker's (it copies
     * the cursor and its subtree); a walker that would recurse into a cursor it does not own (a namespace, a linkage
     * block, the main file's code) is among those the cursor's children are visited for; libclang recurses by itself
     * while that set is the same (no Java stack per level).
     */
    private static final class Dispatch extends CXCursorVisitor {
        private final ArrayDeque<List<Walker>> interested = new ArrayDeque<>();
        private final CXFile expandedIn = new CXFile();
        private final Visits visits;

        Dispatch(Visits visits) {
            this.visits = visits;
        }

        void visit(CXCursor c, List<Walker> ws) {
            interested.push(ws);
            clang_visitChildren(c, this, (CXClientData) null);
            interested.pop();
        }

        @Override
        public int call(CXCursor c, CXCursor parent, CXClientData data) {
            List<Walker> ws = interested.peek();
            CXSourceLocation loc = clang_getCursorLocation(c);
            // as Walker.expandedInMain: a system header's location is no project file's
            boolean system = clang_Location_isInSystemHeader(loc) != 0;
            if (!system) {
                clang_getExpansionLocation(loc, expandedIn, (IntPointer) null, (IntPointer) null, (IntPointer) null);
            }
            int kind = clang_getCursorKind(c);
            boolean scope = kind == CXCursor_Namespace || kind == CXCursor_LinkageSpec;
            int fromMain = -1;
            int active = 0;
            CXCursor ref = null;
            List<Walker> next = new ArrayList<>(ws.size());
            for (Walker w : ws) {
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
    private static void explicitInstantiations(byte[] text, Walker w) {
        if (text == null) return;
        String src = new String(text, java.nio.charset.StandardCharsets.ISO_8859_1);
        explicitArguments(EXPLICIT_INSTANTIATION.matcher(src), w);
        explicitArguments(EXPLICIT_CALL.matcher(src), w);
    }

    private static void explicitArguments(java.util.regex.Matcher m, Walker w) {
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

    /** Copies the main file's cursors, depth first, with a visitor that recurses by hand to keep the parents. */
    /**
     * libclang's visits handed to a walker: JavaCPP allows ten callback objects of one class at once per process, so
     * the walkers of {@link #readHeaders} share one (the walker that owns the cursor being copied is {@code current}).
     */
    private static final class Visits extends CXCursorVisitor {
        Walker current;

        @Override
        public int call(CXCursor c, CXCursor parent, CXClientData data) {
            return current.call(c, parent, data);
        }
    }

    private static final class Walker {
        final List<ClangNode> top = new ArrayList<>();
        final Map<String, List<List<String>>> templateArgs = new HashMap<>();
        /** "Type::member": the constant value of a static data member of a class a template is called with. */
        final Map<String, Double> memberConstants = new HashMap<>();
        /** The min and max helpers of other files the unit's code names ({@link ClangHeaderHelpers}). */
        final ClangHeaderHelpers.Reader helpers = new ClangHeaderHelpers.Reader();

        private final java.util.Set<String> typesRead = new java.util.HashSet<>();
        private final java.util.Set<String> classesRead = new java.util.HashSet<>();

        /** The spellings of each type a cursor of this walk had, by Clang's opaque type pointer (see {@link #node}). */
        private final Map<Long, ClangTypeFacts> types = new HashMap<>();

        /** The record types whose template arguments {@link ClangTemplates#classArguments} read, by the same key. */
        private final java.util.Set<Long> recordsRead = new java.util.HashSet<>();

        final ArrayDeque<ClangNode> parents = new ArrayDeque<>();
        final int textLength;
        final IntPointer line = new IntPointer(1);
        final IntPointer col = new IntPointer(1);
        final IntPointer off = new IntPointer(1);
        int inTemplate;
        /** The main file, for code expanded from a macro in it (its cursors are located in the macro). */
        final CXFile main;

        final CXFile expandedIn = new CXFile();
        /**
         * Whether {@link #main} is a file the translation unit includes (not its main file): its cursors are those
         * whose expansion is in it, from its first inclusion only. A file included twice (a {@code .proto.c} with two
         * sets of name macros) has its lines once, as the hand-written front end reads it with its first includer's
         * macros; a later inclusion starts again at a lower offset of the file, which is where it is told apart.
         */
        boolean target;

        private int lastTopOffset = -1;
        private boolean targetDone;

        /** The callback of libclang's visits of this walker: its own, or one that walkers share. */
        final Visits visits;

        private final boolean ownVisits;

        Walker(byte[] text, CXFile main) {
            this(text, main, null);
        }

        Walker(byte[] text, CXFile main, Visits shared) {
            textLength = text.length;
            this.main = main;
            ownVisits = shared == null;
            visits = ownVisits ? new Visits() : shared;
            if (ownVisits) visits.current = this;
        }

        /**
         * Whether a location Clang does not place in the main file is expanded there: code a macro expands to where
         * the main file uses it ({@code TO_COUNT(v[0])}) is the main file's code, at the macro's use.
         */
        private boolean expandedInMain(CXSourceLocation loc) {
            if (main == null || main.isNull()) return false;
            // a system header's macro (assert, isnan, FLT_MAX) expands to the library's code, not the project's
            if (clang_Location_isInSystemHeader(loc) != 0) return false;
            clang_getExpansionLocation(loc, expandedIn, (IntPointer) null, (IntPointer) null, (IntPointer) null);
            return !expandedIn.isNull() && clang_File_isEqual(expandedIn, main) != 0;
        }

        void walk(CXCursor root) {
            try {
                clang_visitChildren(root, visits, (CXClientData) null);
            } finally {
                release();
            }
        }

        void release() {
            line.close();
            col.close();
            off.close();
            if (ownVisits) visits.close();
        }

        int call(CXCursor c, CXCursor parent, CXClientData data) {
            CXSourceLocation loc = clang_getCursorLocation(c);
            if (target) {
                if (targetDone) return CXChildVisit_Continue;
                if (!expandedInMain(loc)) {
                    // an include inside the unit's namespace or extern "C" block: its declarations are in there;
                    // the unit's own code calls the file's templates: their arguments are the instantiations
                    int k = clang_getCursorKind(c);
                    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) return CXChildVisit_Recurse;
                    if (clang_Location_isFromMainFile(loc) == 0) return CXChildVisit_Continue;
                    if (k == CXCursor_CallExpr) templateArguments(clang_getCursorReferenced(c));
                    return CXChildVisit_Recurse;
                }
            } else if (clang_Location_isFromMainFile(loc) == 0 && !expandedInMain(loc)) {
                return CXChildVisit_Continue;
            }
            int kind = clang_getCursorKind(c);
            ClangNode n = node(c, kind, loc);
            ClangNode p = parents.peek();
            if (target && p == null) {
                // a second inclusion of the target starts again from the top: a cursor that ends before the start of
                // an earlier one (a declaration that only starts before it, as `typedef struct S {...} s;` after its
                // struct, is still the first inclusion's)
                int end = n.endOffset >= 0 ? n.endOffset : n.offset + 1;
                if (n.offset >= 0 && n.offset < lastTopOffset && end <= lastTopOffset) {
                    targetDone = true;
                    return CXChildVisit_Continue;
                }
                lastTopOffset = Math.max(lastTopOffset, n.offset);
            }
            if (p == null) {
                top.add(n);
            } else {
                n.parent = p;
                p.children.add(n);
            }
            if (kind == CXCursor_CallExpr) templateArguments(clang_getCursorReferenced(c));
            if (kind == CXCursor_OverloadedDeclRef
                    || kind == CXCursor_DeclRefExpr
                            && (n.canonKind == CXType_FunctionProto || n.canonKind == CXType_FunctionNoProto))
                helpers.callee(c, kind, main, this::foreign);
            // an explicit instantiation (template void f<float>(const float *)) names the arguments as a call does
            if (parents.size() < MAX_DEPTH) {
                boolean tmpl = kind == CXCursor_FunctionTemplate
                        || kind == CXCursor_ClassTemplate
                        || kind == CXCursor_ClassTemplatePartialSpecialization;
                if (tmpl) inTemplate++;
                parents.push(n);
                try {
                    clang_visitChildren(c, visits, (CXClientData) null);
                } finally {
                    parents.pop();
                    if (tmpl) inTemplate--;
                }
            }
            return CXChildVisit_Continue;
        }

        /** A cursor of another file (a callee's definition), copied as a template's: nothing evaluated or recorded. */
        private ClangNode foreign(CXCursor c) {
            inTemplate++;
            try {
                return node(c, clang_getCursorKind(c), clang_getCursorLocation(c));
            } finally {
                inTemplate--;
            }
        }

        private ClangNode node(CXCursor c, int kind, CXSourceLocation loc) {
            // the file location: where the user wrote the code, the macro's use for code of a macro's body, the
            // argument's own text for code of a macro's argument (min(m, (size_t)ceil(x)) expands the cast twice,
            // both at the cast's text: one site, as the hand-written front end reads it)
            clang_getFileLocation(loc, (CXFile) null, line, col, off);
            int l = line.get();
            int cl = col.get();
            CXSourceRange ext = clang_getCursorExtent(c);
            clang_getFileLocation(clang_getRangeStart(ext), (CXFile) null, line, col, off);
            int startOff = off.get();
            clang_getFileLocation(clang_getRangeEnd(ext), (CXFile) null, line, col, off);
            int el = line.get();
            int ec = col.get();
            int endOff = off.get();
            if (startOff < 0 || endOff > textLength || endOff < startOff) {
                startOff = -1;
                endOff = -1;
            }
            // libclang spells a statement only when it is a label, and an expression only when it is a string
            // literal, an operator or one that names a declaration (a reference, a call, a member, an implicit cast
            // of those); a statement has no type: those calls are not made for the cursors that cannot have them
            boolean statement = clang_isStatement(kind) != 0;
            String spelling = kind == CXCursor_UnaryOperator
                    ? clang_getUnaryOperatorKindSpelling(clang_getCursorUnaryOperatorKind(c))
                            .getString()
                    : statement && kind != CXCursor_LabelStmt || UNSPELLED.contains(kind)
                            ? ""
                            : clang_getCursorSpelling(c).getString();
            CXType t = statement ? null : clang_getCursorType(c);
            String type = "";
            int canonKind = 0;
            String canon = "";
            int pointeeKind = 0;
            String pointee = null;
            if (t != null && t.kind() != CXType_Invalid) {
                // one type's spellings are asked once per walk: most cursors of a unit share a few types (float,
                // int, a pointer to float), and printing a type is the dearest call of a cursor's copy
                long key = t.data(0).address();
                ClangTypeFacts f = key == 0 ? null : types.get(key);
                if (f == null) {
                    f = ClangTypeFacts.of(t);
                    if (key != 0) types.put(key, f);
                }
                type = f.type();
                canonKind = f.canonKind();
                canon = f.canon();
                pointeeKind = f.pointeeKind();
                pointee = f.pointee();
                if (canonKind == CXType_Enum
                        && (kind == CXCursor_CStyleCastExpr
                                || kind == CXCursor_CXXStaticCastExpr
                                || kind == CXCursor_CXXFunctionalCastExpr)) {
                    // a cast to an enum converts to its underlying integer type: unsigned int for a C enum whose
                    // enumerators are all non-negative ((nlopt_algorithm) of a double parameter)
                    CXType ct = clang_getCanonicalType(t);
                    CXType under = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(ct)));
                    if (under.kind() != CXType_Invalid) canonKind = under.kind();
                }
                if (canonKind == CXType_Record && inTemplate == 0 && (key == 0 || recordsRead.add(key)))
                    ClangTemplates.classArguments(clang_getCanonicalType(t), 0, classesRead, templateArgs);
            }
            Double value = null;
            if (clang_isExpression(kind) != 0 && arithmetic(canonKind)) {
                boolean literal = kind == CXCursor_IntegerLiteral || kind == CXCursor_FloatingLiteral;
                // a value-dependent expression of a template pattern is not evaluated (Clang asserts on it)
                if (literal || inTemplate == 0) value = evaluate(c);
            }
            String ref = null;
            String refUsr = null;
            if (kind == CXCursor_DeclRefExpr
                    || kind == CXCursor_MemberRefExpr
                    || kind == CXCursor_CallExpr
                    || kind == CXCursor_OverloadedDeclRef) {
                CXCursor r = clang_getCursorReferenced(c);
                if (clang_Cursor_isNull(r) == 0) {
                    ref = clang_getCursorSpelling(r).getString();
                    refUsr = clang_getCursorUSR(r).getString();
                }
                if (ref == null || ref.isEmpty()) ref = spelling;
            }
            String usr = null;
            if (clang_isDeclaration(kind) != 0) usr = clang_getCursorUSR(c).getString();
            return new ClangNode(
                    kind,
                    spelling,
                    type,
                    canonKind,
                    canon,
                    pointeeKind,
                    pointee,
                    l,
                    cl,
                    el,
                    ec,
                    startOff,
                    endOff,
                    value,
                    ref,
                    refUsr,
                    usr);
        }

        /**
         * The type arguments of a function template's specialization {@code r} (what a call refers to, or an explicit
         * instantiation), recorded per template.
         */
        void templateArguments(CXCursor r) {
            if (clang_Cursor_isNull(r) != 0) return;
            CXCursor tmpl = clang_getSpecializedCursorTemplate(r);
            if (clang_Cursor_isNull(tmpl) != 0) return;
            int n = clang_Cursor_getNumTemplateArguments(r);
            if (n <= 0) return;
            List<String> args = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                if (clang_Cursor_getTemplateArgumentKind(r, i) == CXTemplateArgumentKind_Type) {
                    CXType at = clang_getCanonicalType(clang_Cursor_getTemplateArgumentType(r, i));
                    String spelling = clang_getTypeSpelling(at).getString();
                    args.add(spelling);
                    memberConstants(at, spelling);
                    ClangTemplates.classArguments(at, 0, classesRead, templateArgs);
                } else {
                    args.add(null);
                }
            }
            List<List<String>> all =
                    templateArgs.computeIfAbsent(clang_getCursorUSR(tmpl).getString(), k -> new ArrayList<>());
            if (!all.contains(args)) all.add(args);
        }

        /**
         * Records the constant static data members of the class {@code type} ({@code struct Config { static constexpr int
         * kKernelSize = 3; };}) under "spelling::name": a template's {@code Config::kKernelSize} is that value in the
         * instantiation with {@code Config = spelling} (its loops' trip counts). Read once per type, wherever the class is
         * declared (a header too).
         */
        void memberConstants(CXType type, String spelling) {
            if (type.kind() != CXType_Record || !typesRead.add(spelling)) return;
            CXCursor decl = clang_getTypeDeclaration(type);
            if (clang_Cursor_isNull(decl) != 0) return;
            int k = clang_getCursorKind(decl);
            if (k != CXCursor_StructDecl && k != CXCursor_ClassDecl) return;
            Map<String, Double> out = memberConstants;
            CXCursorVisitor members = new CXCursorVisitor() {
                @Override
                public int call(CXCursor c, CXCursor parent, CXClientData data) {
                    if (out.size() >= MAX_MEMBER_CONSTANTS) return CXChildVisit_Break;
                    if (clang_getCursorKind(c) != CXCursor_VarDecl) return CXChildVisit_Continue;
                    int t = clang_getCanonicalType(clang_getCursorType(c)).kind();
                    if (t < CXType_Bool || t > CXType_Int128) return CXChildVisit_Continue; // integral members only
                    Double v = evaluate(c);
                    if (v != null)
                        out.put(spelling + "::" + clang_getCursorSpelling(c).getString(), v);
                    return CXChildVisit_Continue;
                }
            };
            try {
                clang_visitChildren(decl, members, (CXClientData) null);
            } finally {
                members.close();
            }
        }
    }

    static boolean arithmetic(int canonKind) {
        return canonKind >= CXType_Bool && canonKind <= CXType_LongDouble
                || canonKind == CXType_Float16
                || canonKind == CXType_Half
                || canonKind == CXType_Enum;
    }

    private static Double evaluate(CXCursor c) {
        CXEvalResult r = clang_Cursor_Evaluate(c);
        if (r == null || r.isNull()) return null;
        try {
            int k = clang_EvalResult_getKind(r);
            if (k == CXEval_Int) {
                return clang_EvalResult_isUnsignedInt(r) != 0
                        ? (double) clang_EvalResult_getAsUnsigned(r)
                        : (double) clang_EvalResult_getAsLongLong(r);
            }
            if (k == CXEval_Float) return clang_EvalResult_getAsDouble(r);
            return null;
        } finally {
            clang_EvalResult_dispose(r);
        }
    }
}
