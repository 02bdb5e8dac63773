package dev.numlint.knowledge;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The names of random-number generators, shared by the CUDA source and PTX layers: the C, CUDA and HIP library
 * generators ({@code rand}, {@code drand48}, {@code curand_uniform}, {@code hiprand_normal} ...), C++ {@code <random>}
 * engines and distributions, and project functions whose name has a {@code rand}, {@code rng} or {@code random}
 * component ({@code rand_uniform01}, {@code randUniform}, {@code rng.next()}: the name is split on underscores, case
 * changes and digits, so {@code operand} and {@code brand} are not generators). Seeding and set-up calls
 * ({@code curand_init}, {@code srand}, {@code rng_seed}) draw nothing. Pure and without dependencies.
 */
public final class RandomGenerators {
    private RandomGenerators() {}

    /** Name components that mark a random-number generator. */
    private static final Set<String> GENERATOR_WORDS = Set.of(
            "rand", "rng", "random", "curand", "hiprand", "rocrand", "drand", "erand", "lrand", "nrand", "mrand",
            "jrand");

    /** Components of calls that set a generator up or fill memory in bulk rather than return a draw. */
    private static final Set<String> SETUP_WORDS = Set.of(
            "init",
            "seed",
            "srand",
            "state",
            "create",
            "destroy",
            "set",
            "skipahead",
            "generate",
            "status",
            "need",
            "free",
            "alloc",
            "malloc");

    private static final Pattern SPLIT = Pattern.compile(
            "_+|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])");

    /** The lower-case components of an identifier: {@code rand_next_scatlen} -> rand, next, scatlen. */
    public static List<String> components(String name) {
        List<String> out = new ArrayList<>();
        for (String s : SPLIT.split(name)) {
            if (!s.isEmpty()) out.add(s.toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /** The C++ <random> engines whose names carry no generator word ({@code std::mt19937 gen; gen()}). */
    private static final Set<String> ENGINES =
            Set.of("mt19937", "mt19937_64", "ranlux24", "ranlux48", "ranlux24_base", "ranlux48_base", "knuth_b");

    /**
     * Whether a variable of the type {@code name} draws when called: a C++ {@code <random>} distribution
     * ({@code std::uniform_real_distribution<float> dist; dist(gen)}) or engine ({@code std::mt19937 gen; gen()}).
     */
    public static boolean isGeneratorType(String name) {
        if (name == null) return false;
        return generatorType(name);
    }

    private static boolean generatorType(String name) {
        int q = name.lastIndexOf("::");
        String base = q >= 0 ? name.substring(q + 2) : name;
        if (ENGINES.contains(base)) return true;
        if (!mayBeGeneratorType(base)) return false;
        List<String> parts = components(base);
        return parts.contains("distribution") || parts.contains("engine") || isGenerator(base);
    }

    /** Whether a call of the function {@code name} (std:: and other qualifiers allowed) returns a random draw. */
    public static boolean isGenerator(String name) {
        if (name == null) return false;
        return generator(name);
    }

    private static boolean generator(String name) {
        int q = name.lastIndexOf("::");
        String base = q >= 0 ? name.substring(q + 2) : name;
        if (!mayBeGenerator(base)) return false;
        List<String> parts = components(base);
        boolean generator = false;
        for (String p : parts) {
            if (SETUP_WORDS.contains(p)) return false;
            if (GENERATOR_WORDS.contains(p)) generator = true;
        }
        return generator;
    }

    /**
     * A cheap test before the name is split: every generator word contains "rand" or "rng" (random, curand, drand
     * ...), so a name without either is no generator. Most identifiers of a file stop here.
     */
    static boolean mayBeGenerator(String name) {
        for (int i = 0, n = name.length(); i < n; i++) {
            char c = name.charAt(i);
            if ((c == 'r' || c == 'R') && rand(name, i)) return true;
        }
        return false;
    }

    /**
     * The same test for a type name: it contains "distribution", "engine", "rand" or "rng" (in any case); one pass
     * over the name.
     */
    static boolean mayBeGeneratorType(String name) {
        for (int i = 0, n = name.length(); i < n; i++) {
            char c = name.charAt(i);
            if ((c == 'r' || c == 'R') && rand(name, i)
                    || (c == 'd' || c == 'D') && name.regionMatches(true, i, "distribution", 0, 12)
                    || (c == 'e' || c == 'E') && ascii(name, i + 1, 'n') && name.regionMatches(true, i, "engine", 0, 6))
                return true;
        }
        return false;
    }

    /** "rand" or "rng", in any case, at {@code i}. */
    private static boolean rand(String s, int i) {
        return ascii(s, i + 1, 'a') && s.regionMatches(true, i, "rand", 0, 4)
                || ascii(s, i + 1, 'n') && s.regionMatches(true, i, "rng", 0, 3);
    }

    /**
     * The character at {@code i} is the lower-case ASCII letter {@code c} or its upper case: for a, n (and r, d, e)
     * no other character equals them ignoring case, so this decides the first letters of a case-blind match cheaply.
     */
    private static boolean ascii(String s, int i, char c) {
        if (i >= s.length()) return false;
        char x = s.charAt(i);
        return x == c || x == c - ('a' - 'A');
    }

    /** A member call {@code object.member()}: {@code rng.next()}, {@code gen.uniform()} with a generator object. */
    public static boolean isGeneratorMember(String object, String member) {
        if (object == null || member == null) return false;
        // the cheap test first: most member calls name no generator at all, and need not be split
        if (!isGenerator(object) && !isGenerator(member)) return false;
        for (String p : components(member)) {
            if (SETUP_WORDS.contains(p)) return false;
        }
        return true;
    }
}
