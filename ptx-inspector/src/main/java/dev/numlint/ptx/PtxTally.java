package dev.numlint.ptx;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many .cu translation units compiled to PTX, and why the others did not: one project-level {@code ptx-summary}
 * notice, so the text, SARIF and HTML reports can say when the compiler layer is (mostly) off and what to do.
 */
final class PtxTally {
    /** The notice's id. */
    static final String ID = "ptx-summary";

    enum Reason {
        /** A .cu file the configured build does not compile (its flags are its directory's or guessed). */
        NOT_BUILT(
                "units the configured build does not compile (not-compiled-units), so nvcc had guessed flags",
                "nothing for the build's own units; give the others' compile commands to compile them too"),
        /** The build's {@code -I} directory lies outside the scanned tree: dropped, so nvcc misses its headers. */
        INCLUDE_DIR_OUTSIDE(
                "header not found: the build's include directory outside the scanned tree was not passed to nvcc"
                        + " (nvcc-flag-dropped)",
                "add the directories that hold them to the scanned paths (numlint reads nothing outside them)"),
        /** A header of a CUDA library ({@code curand_kernel.h}) that the toolkit nvcc uses does not hold. */
        CUDA_LIBRARY(
                "header of a CUDA library the toolkit does not hold",
                "install the library's development package, or give its include directory (--nvcc-flags \"-I<dir>\")"),
        HEADER_IN_TREE(
                "header not found, though the scanned tree holds it",
                "configure the project and pass -p build (its compile_commands.json), or --nvcc-flags \"-I<dir>\""),
        HEADER_ELSEWHERE(
                "header in neither the scanned tree nor the toolkit (a configured header or another package)",
                "install the package that provides it and pass its directory (--nvcc-flags \"-I<dir>\"), or, for a"
                        + " configured header, configure the project and pass -p build"),
        REFUSED(
                "an include outside the scanned tree was refused",
                "scan the directory that holds the included files too"),
        /** A computed {@code #include MACRO} whose macro the tree or the command may define: not checkable before. */
        COMPUTED(
                "a computed #include whose macro the tree or the compile command may define",
                "see the include-blocked notices"),
        COMPILE_ERROR("compile error", "see the nvcc-failed notices (--format json lists them)"),
        OTHER("other (timeout, unreadable file, nvcc could not run)", "see the nvcc-failed notices");

        final String text;
        final String next;

        Reason(String text, String next) {
            this.text = text;
            this.next = next;
        }
    }

    /** Names walked at most, so a huge tree stays cheap (the classification then may say "neither"). */
    private static final int MAX_NAMES = 200_000;

    /**
     * The file names under the scan root (not following links, version-control directories skipped): whether a
     * header nvcc did not find is in the tree. Only directory entries are read, no file contents.
     */
    static Set<String> treeNames(Path root) {
        Set<String> names = new java.util.HashSet<>();
        if (root == null) return names;
        try {
            java.nio.file.Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult preVisitDirectory(
                        Path d, java.nio.file.attribute.BasicFileAttributes a) {
                    Path n = d.getFileName();
                    return n != null && dev.numlint.spi.TrustBoundary.VCS_DIRS.contains(n.toString())
                            ? java.nio.file.FileVisitResult.SKIP_SUBTREE
                            : java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes a) {
                    names.add(f.getFileName().toString());
                    return names.size() >= MAX_NAMES
                            ? java.nio.file.FileVisitResult.TERMINATE
                            : java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFileFailed(Path f, java.io.IOException e) {
                    return java.nio.file.FileVisitResult.CONTINUE;
                }
            });
        } catch (java.io.IOException | RuntimeException e) {
            // what was walked is kept
        }
        return names;
    }

    /**
     * An architecture the build names that no number gives ({@code -arch=native}: the GPU of the machine that builds;
     * {@code all}, {@code all-major}), as written in the unit's flags.
     */
    private static final java.util.regex.Pattern UNRESOLVED_ARCH =
            java.util.regex.Pattern.compile("(?:--?arch|--?gpu-architecture)[= ]?(native|all|all-major)");

    /** The units compiled for numlint's architecture instead of an unresolved one of the build, by the flag. */
    private final Map<String, AtomicInteger> archUnresolved = new ConcurrentHashMap<>();

    /**
     * Counts a unit whose build names an architecture no number gives ({@link #UNRESOLVED_ARCH}) and sets none other,
     * when the PTX is compiled for the scan's architecture in its place.
     */
    void archOf(dev.numlint.model.BuildContext bc) {
        if (bc.cudaArch() != null) return;
        java.util.stream.Stream.concat(
                        bc.nvccFlags().stream(),
                        bc.origins().stream().map(dev.numlint.model.BuildContext.FlagOrigin::flag))
                .map(String::strip)
                .filter(f -> UNRESOLVED_ARCH.matcher(f).matches())
                .findFirst()
                .ifPresent(f -> archUnresolved
                        .computeIfAbsent(f, k -> new AtomicInteger())
                        .incrementAndGet());
    }

    /**
     * The {@code ptx-arch} note of the units whose build's architecture numlint did not resolve ({@link #archOf}), or
     * null: their PTX is compiled for {@code arch}, not for what the build would pick.
     */
    Notification archNotice(String arch) {
        if (archUnresolved.isEmpty()) return null;
        String b = counted(archUnresolved);
        return new Notification(
                null,
                0,
                Level.NOTE,
                "ptx-arch",
                "PTX compiled for " + arch + " (--cuda-arch sets another), not for the architecture the build leaves to"
                        + " nvcc or the machine: " + b);
    }

    /** "a (1 file), b (3 files)": each key with its count, in the keys' order. */
    static String counted(Map<String, AtomicInteger> counts) {
        StringBuilder b = new StringBuilder();
        new java.util.TreeMap<>(counts).forEach((k, n) -> b.append(b.length() == 0 ? "" : ", ")
                .append(k)
                .append(" (")
                .append(n.get())
                .append(n.get() == 1 ? " file)" : " files)"));
        return b.toString();
    }

    private final AtomicInteger compiled = new AtomicInteger();
    private final Map<Path, Reason> failed = new ConcurrentHashMap<>();
    /** The header nvcc did not find, per failed unit (only for the two header reasons). */
    private final Map<Path, String> missing = new ConcurrentHashMap<>();

    /**
     * Units that are C or C++ sources their compile command builds as CUDA ({@code nvcc -x cu}), not .cu files: all, and
     * those with device code (compiled or failed, as the summary counts).
     */
    private final AtomicInteger builtAsCuda = new AtomicInteger();

    private final AtomicInteger builtAsCudaAll = new AtomicInteger();

    /** A unit that is a C++ source its compile command builds as CUDA (named so in the notices' wording). */
    void builtAsCuda(boolean withDeviceCode) {
        builtAsCudaAll.incrementAndGet();
        if (withDeviceCode) builtAsCuda.incrementAndGet();
    }

    boolean anyBuiltAsCuda() {
        return builtAsCudaAll.get() > 0;
    }

    void compiled() {
        compiled.incrementAndGet();
    }

    /** A unit that did not compile, classified by its compile notices. */
    void failed(Path unit, List<Notification> notes, Set<String> treeNames) {
        failed(unit, notes, treeNames, false);
    }

    /**
     * As {@link #failed(Path, List, Set)}; {@code notBuilt}: the configured build does not compile the unit. A header
     * its guessed flags miss is then no advice for the build's own units: that reason becomes {@link Reason#NOT_BUILT}
     * (a refused include outside the tree, a compile error, stay what they are).
     */
    void failed(Path unit, List<Notification> notes, Set<String> treeNames, boolean notBuilt) {
        Reason r = classify(notes, treeNames);
        if (notBuilt && (r == Reason.HEADER_IN_TREE || r == Reason.HEADER_ELSEWHERE)) r = Reason.NOT_BUILT;
        failed.put(unit, r);
        String h = r == Reason.NOT_BUILT ? null : missingHeader(notes);
        if (h != null) missing.put(unit, h);
    }

    /** The header of the first {@code nvcc-failed} notice that names one ("; header #include <x.h> ..."), or null. */
    static String missingHeader(List<Notification> notes) {
        for (Notification n : notes) {
            if (!n.id().equals("nvcc-failed")) continue;
            String m = n.message();
            int h = m.indexOf("; header ");
            if (h < 0) return null;
            String header = m.substring(h + "; header ".length()).replaceFirst("^#\\s*include\\s*", "");
            int end = header.indexOf(' ');
            header = end < 0 ? header : header.substring(0, end);
            return header.replaceAll("^[\"<]|[\">]$", "");
        }
        return null;
    }

    static Reason classify(List<Notification> notes, Set<String> treeNames) {
        for (Notification n : notes) {
            if (n.id().equals("include-blocked"))
                return n.message().contains("computed #include") ? Reason.COMPUTED : Reason.REFUSED;
        }
        String header = missingHeader(notes);
        String base = header == null ? null : header.substring(header.lastIndexOf('/') + 1);
        // a CUDA library's header the tree does not hold either: the toolkit lacks the library (session 81 round I)
        if (header != null
                && !treeNames.contains(base)
                && dev.numlint.knowledge.CudaLibraryHeaders.library(header) != null) return Reason.CUDA_LIBRARY;
        if (header != null && droppedIncludeDir(notes)) return Reason.INCLUDE_DIR_OUTSIDE;
        if (header != null) {
            return treeNames.contains(base) ? Reason.HEADER_IN_TREE : Reason.HEADER_ELSEWHERE;
        }
        for (Notification n : notes) {
            if (!n.id().equals("nvcc-failed")) continue;
            return n.message().startsWith("nvcc -ptx failed") ? Reason.COMPILE_ERROR : Reason.OTHER;
        }
        return Reason.OTHER;
    }

    /** The files of each {@code nvcc-flag-dropped} message (sorted when reported: units run in parallel). */
    private final Map<String, List<String>> dropped = new java.util.TreeMap<>();

    /**
     * Keeps an {@code nvcc-flag-dropped} notice to be reported once per flag ({@link #droppedNotices}): true when
     * {@code n} is one (a build's flags repeat in every unit: nbody's 14 flags gave 54 notices, session 54).
     */
    synchronized boolean dropped(Notification n) {
        if (!n.id().equals("nvcc-flag-dropped")) return false;
        dropped.computeIfAbsent(n.message(), k -> new ArrayList<>()).add(n.file());
        return true;
    }

    /** One notice per dropped flag: the unit's own when one unit dropped it, else the units counted and named. */
    synchronized List<Notification> droppedNotices() {
        List<Notification> out = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : dropped.entrySet()) {
            List<String> files = new ArrayList<>(e.getValue());
            files.sort(Comparator.nullsFirst(Comparator.naturalOrder()));
            if (files.size() == 1) {
                out.add(new Notification(files.get(0), 0, Level.NOTE, "nvcc-flag-dropped", e.getKey()));
                continue;
            }
            out.add(new Notification(
                    null,
                    0,
                    Level.NOTE,
                    "nvcc-flag-dropped",
                    e.getKey() + " (" + files.size() + " units: " + dev.numlint.rules.Quote.firstOf(files, 3) + ")"));
        }
        return out;
    }

    /** Whether an {@code nvcc-flag-dropped} notice of the unit dropped an include directory outside the tree. */
    static boolean droppedIncludeDir(List<Notification> notes) {
        for (Notification n : notes) {
            if (n.id().equals("nvcc-flag-dropped")
                    && n.message().endsWith(dev.numlint.toolchain.NvccFlagPolicy.OUTSIDE_DIRECTORY)) {
                return true;
            }
        }
        return false;
    }

    /** The summary notice, or null when no .cu unit was compiled or tried. */
    Notification summary() {
        int ok = compiled.get();
        int bad = failed.size();
        if (ok + bad == 0) return null;
        StringBuilder sb = new StringBuilder("PTX layer: ")
                .append(ok)
                .append(" of ")
                .append(ok + bad)
                .append(builtAsCudaAll.get() == 0 ? " .cu file" : " CUDA source file")
                .append(ok + bad == 1 ? "" : "s")
                .append(
                        builtAsCuda.get() == 0
                                ? ""
                                : " (" + builtAsCuda.get()
                                        + " of them C or C++ sources their compile command builds as CUDA)")
                .append(" compiled to PTX");
        if (bad == 0) return new Notification(null, 0, Level.NOTE, ID, sb.toString());
        Map<Reason, Integer> counts = new LinkedHashMap<>();
        for (Reason r : failed.values()) counts.merge(r, 1, Integer::sum);
        List<Map.Entry<Reason, Integer>> byCount = new ArrayList<>(counts.entrySet());
        byCount.sort(Map.Entry.<Reason, Integer>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()));
        sb.append("; ").append(bad).append(" did not compile: ");
        for (int i = 0; i < byCount.size(); i++) {
            Map.Entry<Reason, Integer> e = byCount.get(i);
            sb.append(i == 0 ? "" : ", ")
                    .append(e.getKey().text)
                    .append(" (")
                    .append(e.getValue())
                    .append(')');
        }
        // the headers most often missing, so the next step names what to install or configure
        Map<String, Integer> headers = new LinkedHashMap<>();
        for (String h : new java.util.TreeMap<>(missing).values()) headers.merge(h, 1, Integer::sum);
        if (!headers.isEmpty()) {
            List<Map.Entry<String, Integer>> top = new ArrayList<>(headers.entrySet());
            top.sort(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())
                    .thenComparing(Map.Entry.comparingByKey()));
            sb.append("; missing headers: ");
            for (int i = 0; i < Math.min(3, top.size()); i++) {
                sb.append(i == 0 ? "" : ", ")
                        .append(top.get(i).getKey())
                        .append(" (")
                        .append(top.get(i).getValue())
                        .append(')');
            }
            if (top.size() > 3) sb.append(" and ").append(top.size() - 3).append(" more");
        }
        sb.append("; next step: ").append(byCount.get(0).getKey().next);
        return new Notification(null, 0, bad * 2 > ok + bad ? Level.WARNING : Level.NOTE, ID, sb.toString());
    }
}
