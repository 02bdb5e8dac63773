package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.FindingSink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The project headers the files of one scan include ({@link CudaScanRun}): where {@code #include "name"} leads (the
 * includer's directory, the build's include directories, else the one file of the tree by that name), what is not
 * read (outside the tree, special files, too deep), and the macros and declarations each header gives its includer,
 * evaluated once per macro state ({@link HeaderVariants}) and per dialect.
 */
final class ProjectHeaders {
    static final int MAX_INCLUDE_DEPTH = 32;
    /** C++ keywords that are ordinary identifiers in C (rodinia's C code has variables named new and public). */
    private static final Set<Integer> CXX_ONLY_KEYWORDS = Set.of(
            CudaLexer.CLASS,
            CudaLexer.NEW,
            CudaLexer.DELETE,
            CudaLexer.THIS,
            CudaLexer.PUBLIC,
            CudaLexer.PRIVATE,
            CudaLexer.PROTECTED,
            CudaLexer.TEMPLATE,
            CudaLexer.TYPENAME,
            CudaLexer.NAMESPACE,
            CudaLexer.OPERATOR,
            CudaLexer.VIRTUAL,
            CudaLexer.EXPLICIT,
            CudaLexer.FRIEND,
            CudaLexer.MUTABLE,
            CudaLexer.USING,
            CudaLexer.TRY,
            CudaLexer.CATCH,
            CudaLexer.THROW,
            CudaLexer.NULLPTR,
            CudaLexer.NOEXCEPT,
            CudaLexer.CONSTEXPR,
            CudaLexer.STATIC_CAST,
            CudaLexer.REINTERPRET_CAST,
            CudaLexer.CONST_CAST,
            CudaLexer.DYNAMIC_CAST);

    /** A header as read in one dialect (host C++ sources do not see its __CUDACC__ branches). */
    private record HeaderKey(Path file, Preprocessor.Dialect dialect) {}

    private final CudaScanRun run;
    private final Map<HeaderKey, HeaderVariants> cache = new ConcurrentHashMap<>();

    ProjectHeaders(CudaScanRun run) {
        this.run = run;
    }

    /**
     * Macros and declarations of the project header {@code name} included from {@code from} at {@code line}.
     * Resolution as the compiler's for quoted includes: the includer's directory, then the -I directories. Only
     * regular files inside the scanned tree are read (symbolic links resolved): an include that leads outside it or
     * to a device, FIFO or other special file is not read and is reported once, at the include. Every project
     * file the include reads (the header and the headers it includes, also when their reading was cached) is added to
     * {@code reads}.
     */
    HeaderInfo header(
            Path from,
            int line,
            String name,
            List<Path> dirs,
            Map<String, Preprocessor.Macro> macros,
            Set<Path> active,
            Preprocessor.Dialect dialect,
            FindingSink sink,
            Set<Path> reads) {
        // an angle include (<lib/types.h>, <grid.hpp>): the -I directories, then the one file of the tree by that name;
        // a header outside the tree is the toolkit's or another package's, not read and not noted (Clang reads it)
        boolean angle = name.startsWith("<") && name.endsWith(">");
        if (angle) name = name.substring(1, name.length() - 1);
        Path found = null;
        String refused = null;
        List<Path> candidates = new ArrayList<>();
        try {
            Path dir = from.toAbsolutePath().getParent();
            if (dir != null && !angle) candidates.add(dir.resolve(name));
            for (Path d : dirs) candidates.add(d.resolve(name));
        } catch (RuntimeException badPath) {
            return null;
        }
        for (Path c : candidates) {
            if (!Files.exists(c, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !Files.exists(c)) continue;
            Path real = CudaScanRun.realPath(c);
            if (real == null) continue;
            if (Files.isDirectory(real)) continue;
            if (!Files.isRegularFile(real, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                refused = "it is not a regular file (a device, FIFO or other special file)";
            } else if (dev.numlint.spi.TrustBoundary.refusedName(real) != null) {
                refused = dev.numlint.spi.TrustBoundary.refusedName(real);
            } else if (!run.policy.inRoots(real)) {
                refused = "it lies outside the scanned tree (numlint reads nothing outside it)";
            } else {
                found = real;
            }
            break;
        }
        if (refused != null && angle) return null;
        if (refused != null) {
            String key = from.toAbsolutePath().normalize() + ":" + line + ":" + name;
            if (run.refusedIncludes.add(key)) {
                sink.notify(new Notification(
                        run.ctx.relativize(from),
                        line,
                        Level.WARNING,
                        "include-not-read",
                        // line 0: a forced include of the compile command (-include F), read before the first line
                        (line == 0 ? "the compile command's -include " + name : "#include \"" + name + "\"")
                                + " not read and not analyzed: " + refused));
            }
            return null;
        }
        // a standard header in angle brackets is the compiler's or the system's, whatever the tree holds by its name
        boolean standard = angle && dev.numlint.cuda.clang.ClangIncludesByName.STANDARD_HEADERS.contains(name);
        if (found == null && !standard && candidates.stream().noneMatch(c -> Files.exists(c))) {
            // the build's include path is unknown: the one file of the scanned tree by that name
            Path real = run.inTree(name);
            if (real != null && run.policy.inRoots(real)) {
                found = real;
                // an assumption about the build, so the output says it once per header name, at its first includer
                // in path and line order (files are analyzed in parallel: the first to get there is not the first)
                run.includedByName(
                        name,
                        real,
                        new Notification(
                                run.ctx.relativize(from),
                                line,
                                Level.NOTE,
                                "include-by-name",
                                "#include " + (angle ? "<" + name + ">" : "\"" + name + "\"") + " read from "
                                        + run.ctx.relativize(real)
                                        + ", the only file of that name: no include directory of the build holds it"),
                        from);
            }
        }
        if (found == null) return null;
        reads.add(found);
        Path includer = CudaScanRun.realPath(from);
        run.reached(found, includer == null ? from : includer, macros, dialect);
        if (active.contains(found)) return null;
        if (active.size() > MAX_INCLUDE_DEPTH) {
            if (run.refusedIncludes.add(from.toAbsolutePath().normalize() + ":" + line + ":" + name)) {
                sink.notify(new Notification(
                        run.ctx.relativize(from),
                        line,
                        Level.WARNING,
                        "not-fully-evaluated",
                        "#include \"" + name + "\" not followed: includes nested deeper than " + MAX_INCLUDE_DEPTH
                                + " levels"));
            }
            return null;
        }
        // a header whose include guard the includer's macros define adds nothing (IncludeGuards)
        String guard = IncludeGuards.of(found);
        if (!guard.isEmpty() && macros.containsKey(guard))
            return new HeaderInfo(Map.of(), new FileScope(), Set.of(found));
        HeaderKey key = new HeaderKey(found, dialect);
        HeaderVariants variants = cache.computeIfAbsent(key, k -> new HeaderVariants());
        HeaderInfo h = variants.find(macros);
        if (h != null) {
            reads.addAll(h.reads());
            return h;
        }
        String text;
        try {
            if (Files.size(found) > run.maxHeaderBytes) return null;
            text = new String(Files.readAllBytes(found), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        active.add(found);
        HeaderVariants.Recording hm = new HeaderVariants.Recording(macros);
        FileScope hs = new FileScope();
        Path headerPath = found;
        Set<Path> own = new java.util.TreeSet<>();
        own.add(found);
        Preprocessor pp = new Preprocessor(hm, (n, l) -> {
                    HeaderInfo inner = header(headerPath, l, n, dirs, hm, active, dialect, sink, own);
                    if (inner != null) {
                        hm.putAll(inner.macros());
                        hs.mergeFrom(inner.scope());
                    }
                })
                .dialect(dialect);
        List<PToken> toks = pp.run(text);
        if (guard.startsWith(IncludeGuards.ONCE)) hm.put(guard, new Preprocessor.Macro(guard, null, false, List.of()));
        if (dialect == Preprocessor.Dialect.HOST_C) toks = cIdentifiers(toks);
        new TopLevelSplitter(toks, hs, false).split();
        active.remove(found);
        // keep only what the header (and its includes) defined, not a copy of the includer's macro table
        h = new HeaderInfo(hm.own(), hs, java.util.Collections.unmodifiableSet(own));
        reads.addAll(own);
        variants.add(hm.inputs(), h);
        return h;
    }

    /** C++ keywords become identifiers in C code (a C variable may be called new or this). */
    static List<PToken> cIdentifiers(List<PToken> toks) {
        for (int i = 0; i < toks.size(); i++) {
            PToken t = toks.get(i);
            if (CXX_ONLY_KEYWORDS.contains(t.getType())) {
                toks.set(
                        i,
                        new PToken(
                                CudaLexer.IDENTIFIER,
                                t.getText(),
                                t.getLine(),
                                t.getCharPositionInLine(),
                                t.hide,
                                t.fromMacro));
            }
        }
        return toks;
    }
}
