package dev.numlint.cuda;

import dev.numlint.model.BuildContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The analysis cache key of a listed file ({@link SourceCache}): what its analysis depends on, the file's bytes, its
 * build context and dialect, its include directories, what includes it and with which macros, the files it read and
 * Clang's parse.
 */
final class SourceCacheKeys {
    private SourceCacheKeys() {}

    /** The analysis cache key of a listed file ({@link SourceCache}). */
    static String of(
            ClangSupplements clangSupplements,
            CudaScanRun run,
            Path file,
            String rel,
            byte[] bytes,
            BuildContext bc,
            Preprocessor.Dialect dialect,
            List<Path> includeDirs,
            CudaScanRun.IncludedFrom from,
            CudaScanRun.IncludedFrom includer,
            Set<Path> reads,
            ClangSupplements.Unit through) {
        SourceCache.Key k = run.cache
                .key()
                .add("file", file.toAbsolutePath().normalize().toString())
                .add("rel", rel)
                .add("content", SourceCache.sha256(bytes))
                .add("dialect", dialect.name())
                .add("build", SourceCache.describe(bc))
                .add("include-dirs", includeDirs.toString())
                .add(
                        "compiled-alone",
                        String.valueOf(from == null && !SourceKinds.isHeader(file) && !run.includedByName(file)))
                .add("included-from", from == null ? "-" : from.includer() + " " + from.dialect())
                .add("includer-macros", from == null ? "-" : SourceCache.macros(from.macros()));
        Map<String, String> constants = new java.util.TreeMap<>();
        if (includer != null) {
            IncluderConstants.of(includer.macros()).forEach((n, v) -> constants.put(n, String.valueOf(v)));
        }
        k.add("includer-constants", constants.toString());
        StringBuilder read = new StringBuilder();
        for (Path r : reads)
            read.append(r).append(' ').append(run.cache.hash(r)).append('\n');
        k.add("reads", read.toString());
        k.add("clang", clangSupplements.cacheKey(run, file, bytes, bc, dialect, through));
        return k.digest();
    }
}
