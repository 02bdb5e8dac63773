package dev.numlint.scan;

import dev.numlint.spi.TrustBoundary;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who a folder's C, C++ and CUDA sources say holds their copyright ({@code // Copyright (C) 2003-2005 Jason Bevins}
 * in the first lines of each file): what tells a folder an author licensed apart (libnoise's {@code noiseutils/},
 * with its own COPYING.txt) from a library someone else wrote ({@link BundledCode}). Bounded: a few dozen files, the
 * head of each, no symbolic link followed, nothing outside the scan's trust boundary read.
 */
final class CopyrightHolders {
    private CopyrightHolders() {}

    private static final Pattern HOLDER = Pattern.compile(
            "(?i)copyright\\s*(?:\\(c\\)|\u00a9)?\\s*((?:\\d{4}(?:\\s*[-\u2013,]\\s*\\d{2,4})*[,\\s]*)+)(?:by\\s+)?"
                    + "([A-Za-z][A-Za-z.'\\- ]{2,60}[A-Za-z])");
    private static final Pattern SOURCE = Pattern.compile("(?i).+\\.(c|cc|cpp|cxx|cu|cuh|h|hh|hpp|hxx|inl)");
    /** The head of a file a copyright line is looked for in. */
    private static final int HEAD = 3000;

    /**
     * The holders the sources under {@code dir} name (lower case), from at most {@code maxFiles} files at most
     * {@code depth} folders down, leaving out every folder {@code skip} accepts (not {@code dir} itself).
     */
    static Set<String> under(TrustBoundary boundary, Path dir, int depth, int maxFiles, Predicate<Path> skip) {
        Set<String> out = new TreeSet<>();
        int[] files = {0};
        try {
            Files.walkFileTree(dir, Set.of(), depth + 1, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) {
                    if (!d.equals(dir) && (skip.test(d) || !boundary.contains(d))) return FileVisitResult.SKIP_SUBTREE;
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes a) {
                    if (!a.isRegularFile()
                            || !SOURCE.matcher(f.getFileName().toString()).matches()) {
                        return FileVisitResult.CONTINUE;
                    }
                    Path real = boundary.readable(f);
                    if (real != null) {
                        holders(real, out);
                        files[0]++;
                    }
                    return files[0] >= maxFiles ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException | RuntimeException e) {
            // an unreadable folder names no holder
        }
        return out;
    }

    private static void holders(Path file, Set<String> out) {
        String head;
        try (InputStream in = Files.newInputStream(file)) {
            head = new String(in.readNBytes(HEAD), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return;
        }
        Matcher m = HOLDER.matcher(head);
        while (m.find()) {
            String h =
                    m.group(2).toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").strip();
            h = h.replaceFirst("\\s*all rights reserved.*$", "").strip();
            if (h.length() >= 3 && !h.contains("free software foundation")) out.add(h);
        }
    }
}
