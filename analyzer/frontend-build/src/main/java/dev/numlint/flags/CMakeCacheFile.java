package dev.numlint.flags;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cache of a configured CMake build ({@code CMakeCache.txt} in the build directory given with {@code -p} or found
 * in the tree): the values the user configured with ({@code cmake -DGPUACCELERATED=1 ...}) win over the project's
 * {@code option()} and {@code set(... CACHE ...)} defaults, as they do when CMake re-runs in that build directory.
 *
 * <p>The file is hostile input: it is read only inside the scanned tree, only up to {@link #MAX_BYTES}, only its
 * {@code NAME:TYPE=VALUE} lines are taken (CMake's internal and static entries are not user settings and are left
 * out, except the internal results of the project's configure-time checks), nothing in it is run, and it applies only to the project it was configured from (its
 * {@code CMAKE_HOME_DIRECTORY} is the directory of the evaluated top-level CMakeLists.txt).
 */
final class CMakeCacheFile {
    static final long MAX_BYTES = 4L << 20;
    private static final int MAX_ENTRIES = 20_000;
    private static final Pattern ENTRY = Pattern.compile("([A-Za-z_][A-Za-z0-9_.+\\-]*):([A-Z]+)=(.*)");

    private CMakeCacheFile() {}

    /**
     * @param values the user's cache entries, empty when none applies
     * @param file   the cache read, or null
     * @param problem why a cache that was found was not used, or null
     */
    record Result(Map<String, String> values, Path file, String problem) {}

    /** The cache of the first build directory configured from {@code sourceDir}. */
    static Result forProject(Path sourceDir, List<Path> buildDirs, Predicate<Path> inTree) {
        Path src = sourceDir.toAbsolutePath().normalize();
        String problem = null;
        Path problemFile = null;
        for (Path d : buildDirs) {
            Path f = d.resolve("CMakeCache.txt").toAbsolutePath().normalize();
            if (!Files.isRegularFile(f) || !inTree.test(f)) continue;
            Result r = read(f);
            if (r.problem() != null) {
                if (problem == null) {
                    problem = r.problem();
                    problemFile = f;
                }
                continue;
            }
            String home = r.values().get("CMAKE_HOME_DIRECTORY");
            if (home == null || !(sameProject(Path.of(home), src) || relocated(Path.of(home), src, f))) continue;
            Map<String, String> user = new LinkedHashMap<>(r.values());
            user.remove("CMAKE_HOME_DIRECTORY");
            return new Result(user, f, null);
        }
        return new Result(Map.of(), problemFile, problem);
    }

    private static boolean sameProject(Path home, Path src) {
        return home.toAbsolutePath().normalize().equals(src);
    }

    /**
     * A tree configured elsewhere and moved here (a CI artifact, a copied checkout): the directory it was configured
     * from does not exist on this machine, has the source directory's name, and the cache lies inside the source
     * directory.
     */
    private static boolean relocated(Path home, Path src, Path cache) {
        Path name = home.getFileName();
        return home.isAbsolute()
                && name != null
                && src.getFileName() != null
                && name.toString().equals(src.getFileName().toString())
                && cache.startsWith(src)
                && !Files.exists(home);
    }

    /** Whether an internal entry's name is a project's own (a check's result), not CMake's bookkeeping. */
    private static boolean checkResult(String name) {
        return !name.startsWith("CMAKE_")
                && !name.startsWith("_")
                && !name.contains("__")
                && !name.startsWith("FIND_PACKAGE_MESSAGE_DETAILS_");
    }

    /** The entries of one cache; CMAKE_HOME_DIRECTORY is kept (internal) to match the project. */
    static Result read(Path f) {
        try {
            if (Files.size(f) > MAX_BYTES) return new Result(Map.of(), f, "larger than 4 MiB; not read");
            Map<String, String> out = new LinkedHashMap<>();
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                if (line.isEmpty() || line.startsWith("#") || line.startsWith("//")) continue;
                Matcher m = ENTRY.matcher(line);
                if (!m.matches()) continue;
                String name = m.group(1);
                String type = m.group(2);
                if (type.equals("INTERNAL")) {
                    // the results of the project's configure-time checks (check_cxx_compiler_flag(-ffast-math
                    // CC_HAS_FAST_MATH): CC_HAS_FAST_MATH:INTERNAL=1) are kept, CMake's own bookkeeping is not
                    // (session 75 round B: an encoder's fast-math flag "only under if(CC_HAS_FAST_MATH) (value
                    // unknown)" where the cache held its value)
                    if (name.equals("CMAKE_HOME_DIRECTORY") || checkResult(name)) out.putIfAbsent(name, m.group(3));
                    continue;
                }
                if (type.equals("STATIC")) continue;
                out.put(name, m.group(3));
                if (out.size() > MAX_ENTRIES) return new Result(Map.of(), f, "more than 20000 entries; not read");
            }
            return new Result(out, f, null);
        } catch (IOException | RuntimeException e) {
            return new Result(Map.of(), f, "unreadable (" + e.getClass().getSimpleName() + "); not read");
        }
    }
}
