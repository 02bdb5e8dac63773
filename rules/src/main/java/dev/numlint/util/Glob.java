package dev.numlint.util;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A path glob for {@code --exclude} and the configuration's {@code exclude}: {@code *} matches within one path
 * segment, {@code **} across segments, {@code ?} one character, {@code [abc]} and {@code {a,b}} as usual. A glob
 * without '/' matches a file or directory name at any depth (like .gitignore); one with '/' is matched against the
 * whole path relative to the scan root. A directory that matches is skipped with everything below it.
 *
 * <p>Matching takes time linear in the path's length whatever the glob (a glob comes from the scanned tree's
 * {@code .numlint.yml}, so it is untrusted): the glob is compiled to a nondeterministic automaton that is simulated
 * over all its states at once, never by backtracking, and the sets of states met are cached as a deterministic
 * automaton of at most {@value #MAX_CACHED_STATES} states and 128 KB (past that the cache starts afresh). A glob is at most
 * {@value #MAX_LENGTH} characters.
 */
public final class Glob {
    /** The longest glob accepted (longer than any path a file system gives). */
    public static final int MAX_LENGTH = 4096;
    /** The most globs a configuration or command line may give. */
    public static final int MAX_COUNT = 1000;

    static final int MAX_CACHED_STATES = 4096;
    /** The cache's memory bound: cached states times automaton states, in bits (128 KB per glob). */
    private static final int MAX_CACHED_BITS = 1 << 20;

    private final String glob;
    private final boolean anyDepth;
    private final Nfa nfa;
    private final Map<BitSet, DState> cache = new HashMap<>();
    private final DState start;
    private final int maxCached;

    public Glob(String glob) {
        if (glob.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("glob of " + glob.length() + " characters is longer than the limit of "
                    + MAX_LENGTH + " ('" + shortText(glob) + "')");
        }
        String g = glob.strip().replace('\\', '/');
        while (g.startsWith("./")) {
            g = g.substring(2);
        }
        if (g.startsWith("/")) {
            g = g.substring(1);
        }
        if (g.endsWith("/")) {
            g = g + "**";
        }
        this.glob = glob;
        this.anyDepth = !g.contains("/");
        this.nfa = Nfa.compile(g);
        this.maxCached = Math.max(16, Math.min(MAX_CACHED_STATES, MAX_CACHED_BITS / nfa.kind.size()));
        this.start = state(nfa.closure(List.of(nfa.start)));
    }

    public String text() {
        return glob;
    }

    /** Whether {@code relative} (a '/'-separated path relative to the root, no leading '/') matches. */
    public boolean matches(String relative) {
        if (relative.isEmpty()) {
            return false;
        }
        if (anyDepth) {
            int from = 0;
            while (from <= relative.length()) {
                int end = relative.indexOf('/', from);
                if (end < 0) {
                    end = relative.length();
                }
                if (run(relative, from, end)) {
                    return true;
                }
                from = end + 1;
            }
            return false;
        }
        return run(relative, 0, relative.length());
    }

    /**
     * Whether a file (a '/'-separated path relative to the root) is excluded by one of {@code globs}: the file
     * matches, or a directory above it does, as when the discovery skipped it.
     */
    public static boolean excludes(java.util.List<Glob> globs, String relativeFile) {
        if (globs.isEmpty() || relativeFile == null || relativeFile.isEmpty() || relativeFile.startsWith("/")) {
            return false;
        }
        for (Glob g : globs) {
            if (g.matches(relativeFile)) {
                return true;
            }
            for (int i = relativeFile.indexOf('/'); i > 0; i = relativeFile.indexOf('/', i + 1)) {
                if (g.matchesDirectory(relativeFile.substring(0, i))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether a directory is excluded: it matches itself, or the glob matches everything below it. */
    public boolean matchesDirectory(String relative) {
        return matches(relative) || (!anyDepth && run(relative + "/", 0, relative.length() + 1));
    }

    /** The automaton over {@code s[from, to)}: one step per character. */
    private synchronized boolean run(String s, int from, int to) {
        DState d = start;
        for (int i = from; i < to; i++) {
            if (d.set.isEmpty()) {
                return false;
            }
            char c = s.charAt(i);
            DState n = d.next.get(c);
            if (n == null) {
                n = state(nfa.step(d.set, c));
                if (d.next.size() < 256) {
                    d.next.put(c, n);
                }
            }
            d = n;
        }
        return d.accept;
    }

    private DState state(BitSet set) {
        DState d = cache.get(set);
        if (d == null) {
            if (cache.size() >= maxCached) {
                cache.clear(); // bounded memory; matching stays linear, only slower
            }
            d = new DState(set, set.get(nfa.accept));
            cache.put(set, d);
        }
        return d;
    }

    private static final class DState {
        final BitSet set;
        final boolean accept;
        final Map<Character, DState> next = new HashMap<>();

        DState(BitSet set, boolean accept) {
            this.set = set;
            this.accept = accept;
        }
    }

    /** A glob's text shortened for a message. */
    static String shortText(String g) {
        return g.length() <= 80 ? g : g.substring(0, 80) + "...";
    }

    /**
     * Thompson automaton: a state consumes one character that its class accepts and goes to {@code out}, or is a
     * split with two empty moves, or is the accepting state. Built from the end of the glob backwards.
     */
    private static final class Nfa {
        private static final int CONSUME = 0;
        private static final int SPLIT = 1;
        private static final int ACCEPT = 2;

        final List<Integer> kind = new ArrayList<>();
        final List<CharClass> cls = new ArrayList<>();
        final List<Integer> out1 = new ArrayList<>();
        final List<Integer> out2 = new ArrayList<>();
        int start;
        int accept;

        private int add(int k, CharClass c, int o1, int o2) {
            kind.add(k);
            cls.add(c);
            out1.add(o1);
            out2.add(o2);
            return kind.size() - 1;
        }

        static Nfa compile(String g) {
            Nfa n = new Nfa();
            List<Item> items = parse(g);
            n.accept = n.add(ACCEPT, null, -1, -1);
            n.start = n.sequence(items, n.accept);
            return n;
        }

        private int sequence(List<Item> items, int next) {
            int at = next;
            for (int i = items.size() - 1; i >= 0; i--) {
                at = item(items.get(i), at);
            }
            return at;
        }

        private int item(Item it, int next) {
            switch (it.type) {
                case ONE:
                    return add(CONSUME, it.cls, next, -1);
                case STAR: {
                    int split = add(SPLIT, null, -1, next);
                    int eat = add(CONSUME, it.cls, split, -1);
                    out1.set(split, eat);
                    return split;
                }
                case ANY_DIRS: { // (?:.*/)?
                    int slash = add(CONSUME, CharClass.literal('/'), next, -1);
                    int loop = add(SPLIT, null, -1, slash);
                    int eat = add(CONSUME, CharClass.ANY, loop, -1);
                    out1.set(loop, eat);
                    return add(SPLIT, null, loop, next);
                }
                default: { // ALT
                    int at = -1;
                    for (int a = it.alternatives.size() - 1; a >= 0; a--) {
                        int s = sequence(it.alternatives.get(a), next);
                        at = at < 0 ? s : add(SPLIT, null, s, at);
                    }
                    return at;
                }
            }
        }

        /** The states reachable from {@code from} by empty moves. */
        BitSet closure(Iterable<Integer> from) {
            BitSet set = new BitSet(kind.size());
            ArrayDeque<Integer> todo = new ArrayDeque<>();
            from.forEach(todo::push);
            while (!todo.isEmpty()) {
                int s = todo.pop();
                if (s < 0 || set.get(s)) {
                    continue;
                }
                set.set(s);
                if (kind.get(s) == SPLIT) {
                    todo.push(out2.get(s));
                    todo.push(out1.get(s));
                }
            }
            return set;
        }

        BitSet step(BitSet set, char c) {
            List<Integer> next = new ArrayList<>();
            for (int s = set.nextSetBit(0); s >= 0; s = set.nextSetBit(s + 1)) {
                if (kind.get(s) == CONSUME && cls.get(s).test(c)) {
                    next.add(out1.get(s));
                }
            }
            return closure(next);
        }
    }

    private enum Type {
        ONE,
        STAR,
        ANY_DIRS,
        ALT
    }

    private static final class Item {
        final Type type;
        final CharClass cls;
        final List<List<Item>> alternatives;

        Item(Type type, CharClass cls, List<List<Item>> alternatives) {
            this.type = type;
            this.cls = cls;
            this.alternatives = alternatives;
        }
    }

    /** One character's test: a set of ranges, maybe negated; '/' is in a class only when it is the literal '/'. */
    private static final class CharClass {
        static final CharClass ANY = new CharClass(new char[] {0, Character.MAX_VALUE}, false, true);
        static final CharClass NOT_SLASH = new CharClass(new char[] {'/', '/'}, true, false);

        private final char[] ranges;
        private final boolean negated;
        private final boolean slash;

        CharClass(char[] ranges, boolean negated, boolean slash) {
            this.ranges = ranges;
            this.negated = negated;
            this.slash = slash;
        }

        static CharClass literal(char c) {
            return new CharClass(new char[] {c, c}, false, c == '/');
        }

        boolean test(char c) {
            if (c == '/' && !slash) {
                return false;
            }
            boolean in = false;
            for (int i = 0; i < ranges.length; i += 2) {
                if (c >= ranges[i] && c <= ranges[i + 1]) {
                    in = true;
                    break;
                }
            }
            return in != negated;
        }
    }

    private static List<Item> parse(String g) {
        List<List<Item>> alts = null; // inside {...}
        List<Item> top = new ArrayList<>();
        List<Item> cur = top;
        int i = 0;
        while (i < g.length()) {
            char c = g.charAt(i);
            switch (c) {
                case '*' -> {
                    if (i + 1 < g.length() && g.charAt(i + 1) == '*') {
                        boolean slashAfter = i + 2 < g.length() && g.charAt(i + 2) == '/';
                        boolean atSegmentStart = i == 0 || g.charAt(i - 1) == '/';
                        if (slashAfter && atSegmentStart) {
                            cur.add(new Item(Type.ANY_DIRS, null, null));
                            i += 3;
                        } else {
                            cur.add(new Item(Type.STAR, CharClass.ANY, null));
                            i += 2;
                        }
                        continue;
                    }
                    cur.add(new Item(Type.STAR, CharClass.NOT_SLASH, null));
                }
                case '?' -> cur.add(new Item(Type.ONE, CharClass.NOT_SLASH, null));
                case '[' -> {
                    // a class is never empty: a ']' right after '[' or '[!' is a member (as in POSIX globs)
                    int first = i + 1 < g.length() && g.charAt(i + 1) == '!' ? i + 2 : i + 1;
                    int end = first + 1 < g.length() ? g.indexOf(']', first + 1) : -1;
                    if (first >= g.length() || end < 0) {
                        throw new IllegalArgumentException("unclosed '[' at position " + (i + 1) + " in glob '"
                                + shortText(g) + "' (a character class needs its ']'; for a literal '[' write '[[]')");
                    }
                    List<Character> r = new ArrayList<>();
                    for (int k = first; k < end; k++) {
                        char m = g.charAt(k);
                        if (m == '/') {
                            throw new IllegalArgumentException("'/' inside the character class at position " + (i + 1)
                                    + " in glob '" + shortText(g) + "' (a class matches one character of a name)");
                        }
                        if (k + 2 < end && g.charAt(k + 1) == '-') {
                            char hi = g.charAt(k + 2);
                            if (hi < m) {
                                throw new IllegalArgumentException("invalid glob '" + shortText(g)
                                        + "': reversed range " + m + "-" + hi + " in a character class");
                            }
                            r.add(m);
                            r.add(hi);
                            k += 2;
                        } else {
                            r.add(m);
                            r.add(m);
                        }
                    }
                    char[] ranges = new char[r.size()];
                    for (int k = 0; k < ranges.length; k++) {
                        ranges[k] = r.get(k);
                    }
                    cur.add(new Item(Type.ONE, new CharClass(ranges, first > i + 1, false), null));
                    i = end;
                }
                case '{' -> {
                    if (alts != null) {
                        throw new IllegalArgumentException(
                                "invalid glob '" + shortText(g) + "': '{' inside '{...}' (alternatives do not nest)");
                    }
                    alts = new ArrayList<>();
                    cur = new ArrayList<>();
                    alts.add(cur);
                }
                case '}' -> {
                    if (alts != null) {
                        top.add(new Item(Type.ALT, null, alts));
                        alts = null;
                        cur = top;
                    } else {
                        cur.add(new Item(Type.ONE, CharClass.literal('}'), null));
                    }
                }
                case ',' -> {
                    if (alts != null) {
                        cur = new ArrayList<>();
                        alts.add(cur);
                    } else {
                        cur.add(new Item(Type.ONE, CharClass.literal(','), null));
                    }
                }
                default -> cur.add(new Item(Type.ONE, CharClass.literal(c), null));
            }
            i++;
        }
        if (alts != null) {
            throw new IllegalArgumentException("unclosed '{' in glob '" + shortText(g) + "'");
        }
        return top;
    }

    @Override
    public String toString() {
        return glob;
    }
}
