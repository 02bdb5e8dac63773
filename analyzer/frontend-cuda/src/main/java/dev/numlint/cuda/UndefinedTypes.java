package dev.numlint.cuda;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The C, C++ and CUDA types that Clang saw used but that no file it read defines (a configured header not generated,
 * a header of another package, an include directory the build did not give): one project-level notice at the end of
 * the scan, as the Java front end says which packages it could not resolve. Without those types Clang cannot tell a
 * float from an integer there, so float atomics and unsigned casts on them may be missed.
 */
final class UndefinedTypes {
    /** Type names the notice names; the rest are counted. */
    private static final int NAMED = 4;

    /** The template types of texture and surface references, which CUDA 12 removed: no header defines them. */
    private static final java.util.Set<String> REMOVED_FROM_CUDA_12 = java.util.Set.of("texture", "surface");

    private final Map<String, AtomicInteger> places = new ConcurrentHashMap<>();
    /** One file's undefined type names and its path (null when not known). */
    private record FileTypes(String name, java.util.Set<String> types) {}

    /** Each file's undefined type names (the notice counts the files with one left, and names up to three). */
    private final List<FileTypes> files = java.util.Collections.synchronizedList(new ArrayList<>());

    /** The files the notice names when no more than this many are left with an undefined type. */
    private static final int FILES_NAMED = 3;

    /** One file's undefined types, each with the number of its functions (or other places) that use it. */
    void add(Map<String, Integer> types) {
        add(null, types);
    }

    /** {@link #add(Map)} for the file {@code name} (its path in the report). */
    void add(String name, Map<String, Integer> types) {
        if (types.isEmpty()) return;
        files.add(new FileTypes(name, java.util.Set.copyOf(types.keySet())));
        types.forEach((type, n) ->
                places.computeIfAbsent(type, k -> new AtomicInteger()).addAndGet(n));
    }

    /**
     * Type names some file of the scan defines (a typedef, struct, class or enum its reading saw): a header parsed on
     * its own may use one that its includers define first (ecos's data.h uses opts.h's pfloat); the header's own
     * clang-error note says so, and the type is not "defined in no file read".
     */
    private final java.util.Set<String> defined = ConcurrentHashMap.newKeySet();

    void defined(java.util.Collection<String> names) {
        defined.addAll(names);
    }

    /**
     * What the compiler and the toolkit define: CUDA's vector and library types, the fixed-width integers, and the
     * CUDA keywords a header parsed on its own as host C++ shows as unknown type names (sputnik: "__global__",
     * "float2", "int64_t" were named as defined in no file read).
     */
    UndefinedTypes() {
        defined.addAll(Builtins.TYPES.keySet());
        defined.addAll(java.util.Set.of(
                "__global__",
                "__device__",
                "__host__",
                "__shared__",
                "__constant__",
                "__managed__",
                "__forceinline__",
                "__noinline__",
                "__restrict__",
                "__launch_bounds__"));
        // C++'s own keywords, which a C++ header read as C (a .h no C unit includes: filter_audio's vad.h, session
        // 59) shows as unknown type names: "namespace" is defined by the language, not by a package
        defined.addAll(java.util.Set.of(
                "namespace",
                "class",
                "template",
                "typename",
                "using",
                "public",
                "private",
                "protected",
                "virtual",
                "explicit",
                "operator",
                "friend",
                "mutable",
                "constexpr",
                "decltype",
                "noexcept",
                "nullptr",
                "thread_local",
                "alignas",
                "static_assert",
                // C++'s and C23's bool, stdbool.h's before: a C header read alone, without the <stdbool.h> its
                // includers bring (session 71 round B: a GNSS receiver's copy of a radio's libbladeRF.h)
                "bool"));
        // keywords of a later language standard than a header's parse used ("unknown type name 'requires'" of a
        // C++20 header read as C++17) and the standard library's own names, which a header read without its
        // includers' #include <vector> does not see ("no template named 'vector'"): defined by the language and
        // its library, not by a package the build leaves out (session 51)
        defined.addAll(java.util.Set.of(
                "requires",
                "concept",
                "co_await",
                "co_yield",
                "co_return",
                "char8_t",
                "consteval",
                "constinit",
                "_BitInt",
                "nullptr_t",
                "vector",
                "string",
                "string_view",
                "map",
                "unordered_map",
                "set",
                "unordered_set",
                "array",
                "pair",
                "tuple",
                "optional",
                "variant",
                "function",
                "unique_ptr",
                "shared_ptr",
                "weak_ptr",
                "complex",
                "valarray",
                "deque",
                "list",
                "span",
                "size_t",
                "ptrdiff_t",
                "ostream",
                "istream",
                "ifstream",
                "ofstream",
                "stringstream",
                "ostringstream",
                "istringstream",
                "thread",
                "mutex",
                "atomic",
                "numeric_limits",
                "initializer_list",
                "FILE"));
    }

    /** ARM NEON ({@code uint8x16x2_t}, {@code float32x4_t}) and SVE ({@code svfloat32_t}) vector types. */
    private static final java.util.regex.Pattern ARM_VECTOR = java.util.regex.Pattern.compile(
            "(?:(?:u?int|float|poly|bfloat|mfloat)\\d+x\\d+(?:x\\d)?|sv(?:u?int|float|bfloat)\\d+(?:x\\d)?|svbool)_t");

    /**
     * The notice, or null when every type used was defined.
     *
     * @param databaseGiven whether the scan has a compilation database ({@code -p}): then "configure the project and
     *     pass -p build" is no next step, and the notice says that the given compile commands do not reach them
     */
    Notification summary(boolean databaseGiven) {
        List<Map.Entry<String, AtomicInteger>> byUse = new ArrayList<>(places.entrySet());
        byUse.removeIf(e -> defined.contains(e.getKey()));
        if (byUse.isEmpty()) return null;
        byUse.sort(Comparator.<Map.Entry<String, AtomicInteger>>comparingInt(
                        e -> -e.getValue().get())
                .thenComparing(Map.Entry::getKey));
        int total = 0;
        for (Map.Entry<String, AtomicInteger> e : byUse) total += e.getValue().get();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(NAMED, byUse.size()); i++) {
            Map.Entry<String, AtomicInteger> e = byUse.get(i);
            sb.append(i == 0 ? "" : ", ")
                    .append(e.getKey())
                    .append(" (")
                    .append(e.getValue().get())
                    .append(')');
        }
        if (byUse.size() > NAMED)
            sb.append(" and ").append(byUse.size() - NAMED).append(" more");
        // no include directory defines these: the toolkit itself removed them (session 74 round C: a diffusion
        // solver's texture references got the advice to give their directory)
        List<String> removed = byUse.stream()
                .map(Map.Entry::getKey)
                .filter(REMOVED_FROM_CUDA_12::contains)
                .toList();
        if (!removed.isEmpty())
            sb.append(" (")
                    .append(String.join(", ", removed))
                    .append(": texture and surface references, removed in CUDA 12; the code needs texture objects)");
        // an ARM target's vector types (uint8x16x2_t, svfloat32_t): no include directory defines them on x86
        // (session 75 round D: an HDR library's NEON sources got the advice to give their directory)
        List<String> arm = byUse.stream()
                .map(Map.Entry::getKey)
                .filter(n -> ARM_VECTOR.matcher(n).matches())
                .toList();
        if (!arm.isEmpty())
            sb.append(" (")
                    .append(String.join(", ", arm.subList(0, Math.min(3, arm.size()))))
                    .append(arm.size() > 3 ? " ..." : "")
                    .append(": ARM NEON or SVE types, defined only when compiling for an ARM target)");
        int f;
        List<String> named;
        synchronized (files) {
            List<FileTypes> left = files.stream()
                    .filter(t -> t.types().stream().anyMatch(n -> !defined.contains(n)))
                    .toList();
            f = left.size();
            named = left.stream()
                    .map(FileTypes::name)
                    .filter(java.util.Objects::nonNull)
                    .distinct()
                    .sorted()
                    .toList();
        }
        // a few files: which (session 74 round D: prose of a file read as code named "On, must, To" in "1 file")
        String where = f <= FILES_NAMED && named.size() == f && f > 0 ? " (" + String.join(", ", named) + ")" : "";
        return new Notification(
                null,
                0,
                Level.WARNING,
                "types-undefined",
                byUse.size() + " C/C++/CUDA type" + (byUse.size() == 1 ? "" : "s") + " used at " + total + " place"
                        + (total == 1 ? "" : "s") + " (functions) in " + f + " file" + (f == 1 ? "" : "s") + where
                        + " are defined in no file read: " + sb
                        + "; what depends on them is not known to be floating or integral, so findings may be missed:"
                        + (databaseGiven
                                ? " the compile commands given with -p reach no definition (a header read out of its"
                                        + " includers' context, or a package the build does not give), so give the"
                                        + " directory that defines them (--nvcc-flags \"-I<dir>\")"
                                : " configure the project and pass -p build (its compile_commands.json; configured"
                                        + " headers are found in the build tree), or give the directory that defines"
                                        + " them (--nvcc-flags \"-I<dir>\")"));
    }
}
