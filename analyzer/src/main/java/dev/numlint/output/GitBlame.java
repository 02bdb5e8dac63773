package dev.numlint.output;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jgit.blame.BlameGenerator;
import org.eclipse.jgit.blame.BlameResult;
import org.eclipse.jgit.errors.ConfigInvalidException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.storage.file.FileBasedConfig;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.util.FS;
import org.eclipse.jgit.util.SystemReader;

/**
 * Who last changed a line and when, for the audit report's suppressions: the blame of the committed file (HEAD),
 * computed in process by JGit. git itself is never run: a scanned tree may ship its own {@code .git}, whose
 * configuration could make git run programs ({@code core.fsmonitor}, {@code core.sshCommand}, an {@code ext::} or
 * promisor remote that a partial clone fetches from, textconv, {@code diff.external}) or read files outside the tree
 * ({@code blame.ignoreRevsFile}). JGit starts no program for a blame, has no lazy fetch (a missing object is "not
 * available"), no textconv and no ignore-revs file; numlint gives it a system reader with empty system, user and
 * JGit configurations (so it neither runs {@code git} to find the system configuration nor writes timestamp probes
 * into the repository), and refuses repositories whose own configuration includes other files ({@code include},
 * {@code includeIf}) or is a partial clone. {@link GitInfo} has already refused git directories outside the checkout,
 * with links, alternates or a foreign common directory.
 *
 * <p>Bounded: at most {@value #MAX_LINES} suppression lines, {@value #MAX_OBJECTS} objects read, objects of at most
 * {@value #MAX_OBJECT_BYTES} bytes and {@value #BUDGET_SECONDS} s in all ({@code NUMLINT_BLAME=full} raises the
 * bounds to {@value #FULL_LINES} lines, {@value #FULL_OBJECTS} objects and {@value #FULL_SECONDS} s). Past a bound
 * every further line says "not available" and why. A file with uncommitted changes is not blamed (its line numbers
 * differ from HEAD's).
 */
final class GitBlame {
    static final int MAX_LINES = 200;
    static final long MAX_OBJECTS = 100_000;
    static final long MAX_OBJECT_BYTES = 32L * 1024 * 1024;
    static final int BUDGET_SECONDS = 10;
    static final int FULL_LINES = 100_000;
    static final long FULL_OBJECTS = 10_000_000;
    static final int FULL_SECONDS = 600;
    private static final long MAX_CONFIG = 1024 * 1024;
    private static final DateTimeFormatter DAY = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

    private final GitInfo info;
    private final String refused;
    private final boolean full;
    private final Map<String, String> cache = new HashMap<>();
    private final Map<String, Object> files = new HashMap<>(); // BlameResult, or the reason it is not available
    private FileRepository repo;
    private long deadline;
    private long objects;
    private String stopped;
    private int lines;

    private GitBlame(GitInfo info, String refused, boolean full) {
        this.info = info;
        this.refused = refused;
        this.full = full;
    }

    /** A blamer for the checkout, when there is one with a commit. */
    static Optional<GitBlame> of(GitInfo info) {
        if (info == null || info.commit() == null || info.gitDir() == null) {
            return Optional.empty();
        }
        boolean full = "full".equals(System.getenv("NUMLINT_BLAME"));
        return Optional.of(new GitBlame(info, refusal(info.gitDir()), full));
    }

    /** Why the repository's own configuration rules blame out, or null. */
    static String refusal(Path gitDir) {
        Path cfg = gitDir.resolve("config");
        if (!Files.exists(cfg)) {
            return null;
        }
        try {
            if (Files.size(cfg) > MAX_CONFIG) {
                return "the repository config is larger than " + MAX_CONFIG + " bytes";
            }
            Config c = new Config(); // the base class never reads included files
            c.fromText(Files.readString(cfg, StandardCharsets.UTF_8));
            for (String section : c.getSections()) {
                String s = section.toLowerCase(Locale.ROOT);
                if (s.equals("include") || s.equals("includeif")) {
                    return "the repository config includes other files (" + section + ")";
                }
            }
            if (c.getString("extensions", null, "partialClone") != null) {
                return "a partial clone (extensions.partialClone): objects may be missing";
            }
            for (String remote : c.getSubsections("remote")) {
                if (c.getBoolean("remote", remote, "promisor", false)) {
                    return "a partial clone (a promisor remote): objects may be missing";
                }
            }
            return null;
        } catch (IOException | ConfigInvalidException | RuntimeException e) {
            return "the repository config cannot be read";
        }
    }

    /** "author, 2024-05-01 (commit 1a2b3c4d)" or "not available: reason". */
    String whoAndWhen(Path file, int line) {
        if (refused != null) {
            return "not available: " + refused;
        }
        Path abs = file.toAbsolutePath().normalize();
        Path tree = info.workTree().toAbsolutePath().normalize();
        if (!abs.startsWith(tree)) {
            return "not available: the file is outside the git checkout";
        }
        String rel = tree.relativize(abs).toString().replace(File.separatorChar, '/');
        if (info.dirty() == null) {
            return "not available: the dirty state of the checkout is unknown";
        }
        if (info.isModified(rel)) {
            return "not available: the file has uncommitted changes";
        }
        return cache.computeIfAbsent(rel + ":" + line, k -> blame(rel, line));
    }

    private String blame(String rel, int line) {
        if (stopped != null) {
            return "not available: " + stopped;
        }
        if (lines >= (full ? FULL_LINES : MAX_LINES)) {
            return "not available: more than " + (full ? FULL_LINES : MAX_LINES) + " suppressions (the first are blamed"
                    + (full ? ")" : "; NUMLINT_BLAME=full blames more)");
        }
        lines++;
        try {
            Object f = files.get(rel);
            if (f == null) {
                f = start(rel);
                files.put(rel, f);
            }
            if (f instanceof String why) {
                return "not available: " + why;
            }
            BlameResult r = (BlameResult) f;
            int i = line - 1;
            if (i < 0 || i >= r.getResultContents().size()) {
                return "not available: line " + line + " is not in the committed file";
            }
            r.computeRange(i, i + 1);
            RevCommit c = r.getSourceCommit(i);
            PersonIdent who = r.getSourceAuthor(i);
            if (c == null || who == null) {
                return "not available: no commit found for the line";
            }
            return who.getName() + ", " + DAY.format(who.getWhenAsInstant()) + " (commit "
                    + c.name().substring(0, 12) + ")";
        } catch (Limit e) {
            stopped = e.getMessage();
            return "not available: " + stopped;
        } catch (MissingObjectException e) {
            return "not available: an object of the history is missing ("
                    + e.getObjectId().name() + ")";
        } catch (IOException | RuntimeException e) {
            return "not available: the history cannot be read";
        }
    }

    private Object start(String rel) throws IOException {
        if (repo == null) {
            deadline = System.nanoTime()
                    + Duration.ofSeconds(full ? FULL_SECONDS : BUDGET_SECONDS).toNanos();
            Quiet.install();
            FileRepositoryBuilder b = new FileRepositoryBuilder()
                    .setGitDir(info.gitDir().toFile())
                    .setWorkTree(info.workTree().toFile())
                    .setFS(FS.DETECTED)
                    .setMustExist(true);
            b.setup();
            repo = new Bounded(b, this);
        }
        BlameGenerator g = new BlameGenerator(repo, rel);
        g.push(null, ObjectId.fromString(info.commit()));
        BlameResult r = BlameResult.create(g);
        return r == null ? "the file is not in the commit" : r;
    }

    /** Called before every object read: the time and count bounds. */
    private void count() throws Limit {
        if (++objects > (full ? FULL_OBJECTS : MAX_OBJECTS)) {
            throw new Limit("git blame stopped after reading " + (full ? FULL_OBJECTS : MAX_OBJECTS)
                    + " objects of the history" + (full ? "" : " (NUMLINT_BLAME=full reads more)"));
        }
        if (System.nanoTime() > deadline) {
            throw new Limit("git blame stopped after " + (full ? FULL_SECONDS : BUDGET_SECONDS) + " s"
                    + (full ? "" : " (NUMLINT_BLAME=full allows more)"));
        }
    }

    /** Called after every object read: the size bound. */
    private static void size(ObjectLoader l) throws Limit {
        if (l.getSize() > MAX_OBJECT_BYTES) {
            throw new Limit("an object of the history is larger than " + MAX_OBJECT_BYTES + " bytes");
        }
    }

    /** A bound reached; ends blaming for the rest of the report. */
    private static final class Limit extends IOException {
        private static final long serialVersionUID = 1L;

        Limit(String why) {
            super(why);
        }
    }

    /** The repository with every object read counted against the bounds. */
    private static final class Bounded extends FileRepository {
        private final GitBlame owner;

        Bounded(FileRepositoryBuilder b, GitBlame owner) throws IOException {
            super(b);
            this.owner = owner;
        }

        @Override
        public ObjectReader newObjectReader() {
            ObjectReader inner = super.newObjectReader();
            return new ObjectReader.Filter() {
                @Override
                protected ObjectReader delegate() {
                    return inner;
                }

                @Override
                public ObjectLoader open(AnyObjectId id, int typeHint) throws IOException {
                    owner.count();
                    ObjectLoader l = inner.open(id, typeHint);
                    size(l);
                    return l;
                }

                @Override
                public ObjectReader newReader() {
                    return owner.repo.newObjectReader();
                }
            };
        }
    }

    /**
     * JGit's system reader with no system, user, XDG or JGit configuration and no environment: JGit then neither
     * runs {@code git} to locate the system configuration nor reads the user's files, and with a timestamp
     * resolution given it never measures the file system by writing probe files (into the scanned repository).
     */
    static final class Quiet extends SystemReader.Delegate {
        private static volatile boolean installed;
        private final FileBasedConfig empty = new Empty();

        private Quiet(SystemReader d) {
            super(d);
        }

        static synchronized void install() {
            if (!installed) {
                SystemReader.setInstance(new Quiet(SystemReader.getInstance()));
                installed = true;
            }
        }

        @Override
        public String getenv(String name) {
            return null;
        }

        @Override
        public FileBasedConfig openUserConfig(Config parent, FS fs) {
            return new Empty();
        }

        @Override
        public FileBasedConfig openSystemConfig(Config parent, FS fs) {
            return new Empty();
        }

        @Override
        public FileBasedConfig openJGitConfig(Config parent, FS fs) {
            return new Empty();
        }

        @Override
        public StoredConfig getUserConfig() {
            return empty;
        }

        @Override
        public StoredConfig getJGitConfig() {
            return empty;
        }

        @Override
        public StoredConfig getSystemConfig() {
            return empty;
        }

        @Override
        public Path getXdgConfigDirectory(FS fs) {
            return null;
        }

        @Override
        public Path getXdgCacheDirectory(FS fs) {
            return null;
        }
    }

    /** An empty configuration that loads and saves nothing, but knows a file-system timestamp resolution. */
    private static final class Empty extends FileBasedConfig {
        Empty() {
            super(null, null, FS.DETECTED);
        }

        @Override
        public void load() {}

        @Override
        public void save() {}

        @Override
        public boolean isOutdated() {
            return false;
        }

        @Override
        public String getString(String section, String subsection, String name) {
            if ("filesystem".equals(section) && "timestampResolution".equals(name)) {
                return "1 second";
            }
            if ("filesystem".equals(section) && "minRacyThreshold".equals(name)) {
                return "0 milliseconds";
            }
            return super.getString(section, subsection, name);
        }
    }
}
