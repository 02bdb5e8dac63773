package dev.numlint.flags;

import static dev.numlint.flags.BuildFlagAnalyzer.*;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which build files the build-flag audit reads beyond the scanned ones: the compilation database of the project's
 * build found without {@code -p}, the build files from the project root down to a scanned subdirectory, and which
 * {@code *.cmake} files are {@code configure_file} templates rather than scripts.
 */
final class BuildFiles {
    private BuildFiles() {}

    /**
     * Without {@code -p}: the compilation database of the scanned project's build, the first of
     * {@code compile_commands.json} in the scan root, {@code build/}, {@code out/}, {@code cmake-build-*}/ (by
     * name). The other databases in those places are not used (two builds of one project would mix), and a notice
     * says so; a database elsewhere in the tree is read as before.
     */
    static void autoDetectDatabase(
            ScanContext ctx, List<Path> dbs, java.util.function.Predicate<Path> inTree, FindingSink sink, Model model) {
        if (ctx.root() == null) return;
        // the scan root, then each scanned directory (the root is the working directory when it holds them all)
        java.util.Set<Path> bases = new java.util.LinkedHashSet<>();
        bases.add(ctx.root().toAbsolutePath().normalize());
        for (Path b : ctx.boundary().roots()) {
            if (Files.isDirectory(b)) bases.add(b);
        }
        List<Path> places = new ArrayList<>();
        for (Path root : bases) {
            places.addAll(List.of(root, root.resolve("build"), root.resolve("out")));
            try (java.util.stream.Stream<Path> s = Files.list(root)) {
                s.filter(d -> d.getFileName().toString().startsWith("cmake-build-") && Files.isDirectory(d))
                        .sorted()
                        .forEach(places::add);
            } catch (IOException | RuntimeException e) {
                // an unreadable directory: only the fixed places
            }
        }
        Path chosen = null;
        for (Path d : places) {
            Path f = d.resolve("compile_commands.json");
            if (!Files.isRegularFile(f) || !inTree.test(f)) continue;
            if (chosen == null) {
                chosen = f;
                continue;
            }
            if (dbs.remove(f)) {
                sink.notify(new Notification(
                        ctx.relativize(f),
                        0,
                        Level.NOTE,
                        "not-evaluated",
                        "compilation database not used: " + ctx.relativize(chosen)
                                + " was found first (pass -p DIR to choose another)"));
            }
        }
        if (chosen == null) return;
        dbs.remove(chosen);
        dbs.add(0, chosen);
        model.dbUsed = ctx.relativize(chosen)
                + " (found automatically: the first of ./, build/, out/, cmake-build-*/; -p DIR chooses another)";
        model.dbFile = chosen.toAbsolutePath().normalize();
    }

    /**
     * Where a configured CMake build's cache may be: the directory given with {@code -p}, the directory of the
     * compilation database in use, then {@code build/} and {@code out/} of each scanned directory.
     */
    static void buildDirectories(ScanContext ctx, Path given, List<Path> dbs, Model model) {
        java.util.Set<Path> dirs = new java.util.LinkedHashSet<>();
        if (given != null) {
            Path g = given.toAbsolutePath().normalize();
            dirs.add(Files.isDirectory(g) || g.getParent() == null ? g : g.getParent());
        }
        if (dbs != null && !dbs.isEmpty() && dbs.get(0).getParent() != null)
            dirs.add(dbs.get(0).getParent());
        java.util.Set<Path> bases = new java.util.LinkedHashSet<>();
        if (ctx.root() != null) bases.add(ctx.root().toAbsolutePath().normalize());
        for (Path b : ctx.boundary().roots()) {
            if (Files.isDirectory(b)) bases.add(b);
        }
        for (Path b : bases) {
            dirs.add(b.resolve("build"));
            dirs.add(b.resolve("out"));
        }
        model.buildDirs.addAll(dirs);
    }

    private static final List<String> BUILD_FILE_NAMES =
            List.of("CMakeLists.txt", "Makefile", "makefile", "GNUmakefile", "compile_commands.json", "setup.py");

    /**
     * A scan of a file or subdirectory inside a project (the scan found its project root, {@link ScanContext#PROJECT_ROOT}; the scan root is the
     * project root then): the build files of the directories from the project root down to each scanned file are
     * read too, for the build context, as a scan of the whole project reads them. Nothing outside the root.
     */
    static List<Path> withProjectBuildFiles(
            ScanContext ctx, List<Path> files, java.util.function.Predicate<Path> inTree, FindingSink sink) {
        String project = ctx.setting(ScanContext.PROJECT_ROOT).orElse(null);
        if (project == null) return files;
        Path root = Path.of(project).toAbsolutePath().normalize();
        Set<Path> have = new HashSet<>();
        for (Path f : files) have.add(f.toAbsolutePath().normalize());
        List<Path> added = new ArrayList<>();
        Set<Path> seen = new HashSet<>();
        for (Path f : ctx.files()) {
            for (Path d = f.toAbsolutePath().normalize().getParent();
                    d != null && d.startsWith(root) && seen.add(d);
                    d = d.getParent()) {
                for (String n : BUILD_FILE_NAMES) {
                    Path b = d.resolve(n);
                    if (!have.contains(b)
                            && Files.isRegularFile(b, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                            && inTree.test(b)) {
                        added.add(b);
                    }
                }
            }
        }
        if (added.isEmpty()) return files;
        added.sort(BY_DEPTH);
        List<String> names = added.stream().map(ctx::relativize).toList();
        sink.notify(new Notification(
                names.get(0),
                0,
                Level.NOTE,
                "project-build-files",
                "scanned inside the project at " + root + ": its build file" + (names.size() == 1 ? " " : "s ")
                        + String.join(", ", names.subList(0, Math.min(4, names.size())))
                        + (names.size() > 4 ? ", ..." : "") + " read for the build context"));
        List<Path> all = new ArrayList<>(files);
        all.addAll(added);
        return all;
    }

    /** A name such as config.hpp.cmake or version.h.cmake: a configure_file input, not a script. */
    private static final java.util.regex.Pattern TEMPLATE_NAME = java.util.regex.Pattern.compile(
            ".+\\.(h|hh|hpp|hxx|h\\+\\+|inl|c|cc|cpp|cxx|cu|cuh|f90|py|txt|json|xml|pc|rc|in)\\.cmake",
            java.util.regex.Pattern.CASE_INSENSITIVE);
    /**
     * Text only a configure_file template has: #cmakedefine, a C #define of an @VAR@ substitution, or a
     * {@code KEY = ...@VAR@} line of a configuration file (a Doxyfile.cmake's {@code PROJECT_NUMBER = @VERSION@}: no
     * CMake command is written so; session 53, 197 parse-error notices for one Doxygen template).
     */
    private static final java.util.regex.Pattern TEMPLATE_TEXT = java.util.regex.Pattern.compile(
            "(?m)^\\s*#\\s*cmakedefine|^\\s*#\\s*define\\s+\\w+.*@[A-Za-z_][A-Za-z0-9_]*@"
                    + "|^[A-Za-z_][A-Za-z0-9_]*[ \\t]*\\+?=[^\\n]*@[A-Za-z_][A-Za-z0-9_]*@");

    /**
     * Whether a {@code *.cmake} file no evaluated list file includes is a {@code configure_file} template (a header
     * written with {@code #cmakedefine} or {@code @VAR@}) rather than a CMake script: its name or its first 64 KiB.
     */
    static boolean configureTemplate(Path f) {
        if (TEMPLATE_NAME.matcher(f.getFileName().toString()).matches()) return true;
        try (java.io.InputStream in = Files.newInputStream(f)) {
            byte[] head = in.readNBytes(64 * 1024);
            return TEMPLATE_TEXT
                    .matcher(new String(head, StandardCharsets.ISO_8859_1))
                    .find();
        } catch (IOException | RuntimeException e) {
            return false; // read (and reported) as a script
        }
    }
}
