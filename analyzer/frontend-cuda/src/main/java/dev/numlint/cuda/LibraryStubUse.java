package dev.numlint.cuda;

import dev.numlint.cuda.clang.LibraryStubs;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The files of a scan whose CUDA library headers ({@code <curand_kernel.h>}, {@code <cublas_v2.h>}, {@code
 * <cudnn.h>}, {@code <cufft.h>}) neither the toolkit nor the file's include paths hold, so that Clang read numlint's
 * declarations of the library instead ({@link LibraryStubs}); one notice per library at the end of the scan. Told from
 * the file's own {@code #include} lines that the parse read (not one in a branch the build's macros leave out): a
 * library header reached through a project header is not named.
 */
final class LibraryStubUse {
    private final Map<String, Set<String>> files = new TreeMap<>();

    /**
     * Notes the libraries {@code text} (the file {@code rel}) includes and no folder of {@code dirs} holds, of those
     * whose declarations its parse read ({@code read}: indexes in {@link LibraryStubs#LIBRARIES}; null: not known).
     */
    void note(String rel, byte[] text, Path toolkit, List<Path> includePaths, Path folder, List<Integer> read) {
        List<Path> dirs = new ArrayList<>(toolkitIncludes(toolkit));
        dirs.addAll(includePaths);
        if (folder != null) dirs.add(folder);
        for (LibraryStubs.Library l : LibraryStubs.stubbed(text, dirs)) {
            // an include the preprocessor skipped (#if USE_CUBLAS with -DUSE_CUBLAS=0)
            if (read != null && !read.contains(LibraryStubs.LIBRARIES.indexOf(l))) continue;
            synchronized (files) {
                files.computeIfAbsent(l.name(), k -> new TreeSet<>()).add(rel);
            }
        }
    }

    /** The toolkit's include folders: include/ and targets/{@literal *}/include/. */
    static List<Path> toolkitIncludes(Path toolkit) {
        List<Path> out = new ArrayList<>();
        if (toolkit == null) return out;
        out.add(toolkit.resolve("include"));
        Path targets = toolkit.resolve("targets");
        if (Files.isDirectory(targets)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(targets)) {
                for (Path t : ds) out.add(t.resolve("include"));
            } catch (IOException | RuntimeException e) {
                // include/ alone
            }
        }
        return out;
    }

    /** The notices, one per library whose declarations were used (none when every header was installed). */
    List<Notification> summary(Path toolkit) {
        List<Notification> out = new ArrayList<>();
        synchronized (files) {
            for (LibraryStubs.Library l : LibraryStubs.LIBRARIES) {
                Set<String> f = files.get(l.name());
                if (f == null || f.isEmpty()) continue;
                List<String> named = new ArrayList<>(f).subList(0, Math.min(5, f.size()));
                out.add(new Notification(
                        null,
                        0,
                        Level.NOTE,
                        "clang-library-stubs",
                        l.name() + " headers not found in the toolkit at " + toolkit
                                + " or the include paths: numlint's declarations of its "
                                + LibraryStubs.entryPoints(l) + " entry points were used for " + f.size() + " file"
                                + (f.size() == 1 ? "" : "s") + " (" + String.join(", ", named)
                                + (f.size() > 5 ? " and " + (f.size() - 5) + " more" : "")
                                + "); install the library's headers for the exact types"));
            }
        }
        return out;
    }
}
