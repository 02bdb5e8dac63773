package dev.numlint.output;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The git commit and dirty state of a checkout, read from the files under {@code .git} directly: {@code HEAD},
 * loose and packed refs, and the index. Git itself is never run, because running git inside an untrusted
 * repository can execute programs its configuration names ({@code core.fsmonitor}, hooks); for the same reason the
 * repository's configuration is not read at all.
 *
 * <p>Dirty state: every tracked file (index stage 0, no submodules, no skip-worktree entries) is compared with the
 * index: a missing file, a different size, or a different blob hash when the modification time differs. Staged but
 * uncommitted changes (index against HEAD) and untracked files are not detected; clean/dirty filters and line-end
 * conversion configured in git are not applied, so such a file can show as modified.
 *
 * @param workTree   the checkout's top directory
 * @param commit     HEAD's commit id (hex), or null when HEAD names a branch without commits
 * @param branch     the branch HEAD is on, or null when detached
 * @param dirty      whether tracked files differ from the index (null when the index could not be read)
 * @param modified   up to {@link #MAX_LISTED} modified or deleted tracked files, relative to the work tree
 * @param modifiedCount how many tracked files differ
 * @param note       why part of the state is unknown, or null
 * @param modifiedPaths every modified or deleted tracked file, relative to the work tree
 * @param gitDir     the git directory read (inside the work tree), or null when it was not read
 */
public record GitInfo(
        Path workTree,
        String commit,
        String branch,
        Boolean dirty,
        List<String> modified,
        int modifiedCount,
        String note,
        Set<String> modifiedPaths,
        Path gitDir) {
    static final int MAX_LISTED = 20;
    private static final Pattern OID = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");
    private static final Pattern REF = Pattern.compile("refs/[A-Za-z0-9._/+-]+");
    /** Bounds on reading the index (issue 31: a 7.8 MB index took 86 s and 6.4 GB): size, entries, name length. */
    static final long MAX_INDEX = 64L * 1024 * 1024;

    static final int MAX_ENTRIES = 500_000;
    static final int MAX_NAME = 4096;
    /** Time for comparing the index with the work tree, and bytes hashed for that, before giving up with a note. */
    static final long INDEX_MILLIS = 10_000;

    static final long MAX_HASHED = 512L * 1024 * 1024;
    /** Entries of the git directory looked at for links leading out of it. */
    static final int MAX_GIT_ENTRIES = 200_000;

    static final long MAX_META = 64L * 1024 * 1024;

    /** The checkout that contains {@code dir} (looking upwards for {@code .git}), if any. */
    public static Optional<GitInfo> find(Path dir) {
        for (Path d = dir.toAbsolutePath().normalize(); d != null; d = d.getParent()) {
            Path dotGit = d.resolve(".git");
            if (Files.isDirectory(dotGit, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of(read(d, dotGit));
            }
            if (Files.isRegularFile(dotGit, LinkOption.NOFOLLOW_LINKS)) {
                Path gitDir = gitDirOfFile(d, dotGit);
                if (gitDir == null) {
                    return Optional.of(notRead(d, ".git file does not name a git directory"));
                }
                if (!inside(gitDir, d)) {
                    return Optional.of(notRead(d, ".git file points outside the checkout: not read"));
                }
                return Optional.of(read(d, gitDir));
            }
        }
        return Optional.empty();
    }

    private static GitInfo notRead(Path workTree, String why) {
        return new GitInfo(workTree, null, null, null, List.of(), 0, why, Set.of(), null);
    }

    /** Whether {@code p}'s real path is inside (or is) {@code dir}'s real path. */
    static boolean inside(Path p, Path dir) {
        try {
            return p.toRealPath().startsWith(dir.toRealPath());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Why the git directory must not be read, or null: a link anywhere in it (it could lead to another repository's
     * objects, refs or index), alternates (objects from elsewhere), a common directory outside the checkout (a
     * linked worktree of another repository), or an oversized metadata file. Bounded in entries.
     */
    static String untrusted(Path workTree, Path gitDir) {
        if (!inside(gitDir, workTree)) {
            return "the git directory is outside the checkout";
        }
        if (Files.exists(gitDir.resolve("commondir"), LinkOption.NOFOLLOW_LINKS)) {
            return "a linked worktree (commondir): the repository it belongs to is outside the checkout";
        }
        if (Files.exists(gitDir.resolve("objects/info/alternates"), LinkOption.NOFOLLOW_LINKS)
                || Files.exists(gitDir.resolve("objects/info/http-alternates"), LinkOption.NOFOLLOW_LINKS)) {
            return "objects/info/alternates names object directories outside the checkout";
        }
        int[] seen = {0};
        String[] why = {null};
        try (java.util.stream.Stream<Path> all = Files.walk(gitDir)) {
            all.takeWhile(q -> why[0] == null).forEach(q -> {
                if (++seen[0] > MAX_GIT_ENTRIES) {
                    why[0] = "more than " + MAX_GIT_ENTRIES + " entries in the git directory";
                } else if (Files.isSymbolicLink(q)) {
                    why[0] = "a symbolic link in the git directory (" + gitDir.relativize(q) + ")";
                } else if (!Files.isDirectory(q, LinkOption.NOFOLLOW_LINKS)
                        && !Files.isRegularFile(q, LinkOption.NOFOLLOW_LINKS)) {
                    why[0] = "a special file in the git directory (" + gitDir.relativize(q) + ")";
                } else if (q.getParent() != null
                        && q.getParent().equals(gitDir)
                        && Files.isRegularFile(q, LinkOption.NOFOLLOW_LINKS)
                        && !q.getFileName().toString().equals("index")) {
                    try {
                        if (Files.size(q) > MAX_META) {
                            why[0] = q.getFileName() + " larger than " + MAX_META + " bytes";
                        }
                    } catch (IOException e) {
                        why[0] = "cannot read " + q.getFileName();
                    }
                }
            });
        } catch (IOException | RuntimeException e) {
            return "cannot list the git directory";
        }
        return why[0];
    }

    /** A worktree's or submodule's {@code .git} file: "gitdir: PATH". */
    private static Path gitDirOfFile(Path workTree, Path dotGit) {
        try {
            String s = small(dotGit);
            if (s == null || !s.startsWith("gitdir:")) {
                return null;
            }
            Path p = Path.of(s.substring("gitdir:".length()).strip());
            Path g = (p.isAbsolute() ? p : workTree.resolve(p)).normalize();
            return Files.isRegularFile(g.resolve("HEAD")) ? g : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static GitInfo read(Path workTree, Path gitDir) {
        String refused = untrusted(workTree, gitDir);
        if (refused != null) {
            return notRead(workTree, "not read: " + refused);
        }
        String note = null;
        String commit = null;
        String branch = null;
        Path common = gitDir; // a linked worktree's commondir is refused above
        try {
            String head = small(gitDir.resolve("HEAD"));
            if (head == null) {
                note = "HEAD not readable";
            } else if (head.startsWith("ref:")) {
                String ref = head.substring(4).strip();
                if (!REF.matcher(ref).matches() || ref.contains("..")) {
                    note = "HEAD names an invalid ref";
                } else {
                    branch = ref.startsWith("refs/heads/") ? ref.substring("refs/heads/".length()) : ref;
                    commit = resolveRef(gitDir, common, ref);
                    if (commit == null) {
                        note = "branch " + branch + " has no commit yet";
                    }
                }
            } else if (OID.matcher(head.strip()).matches()) {
                commit = head.strip();
            } else {
                note = "HEAD is not a commit id or ref";
            }
        } catch (IOException | RuntimeException e) {
            note = "cannot read " + gitDir.getFileName() + ": " + e.getMessage();
        }
        Boolean dirty = null;
        Set<String> modified = new TreeSet<>();
        int count = 0;
        try {
            Path index = gitDir.resolve("index");
            if (commit != null && commit.length() == 64) {
                note = note == null ? "SHA-256 repository: dirty state not checked" : note;
            } else if (!Files.exists(index)) {
                dirty = Boolean.FALSE;
            } else {
                count = compareIndex(workTree, index, modified);
                dirty = count > 0;
            }
        } catch (IOException | RuntimeException e) {
            String why = "index not readable: " + e.getMessage();
            note = note == null ? why : note + "; " + why;
        }
        List<String> listed = modified.stream().limit(MAX_LISTED).toList();
        return new GitInfo(workTree, commit, branch, dirty, listed, count, note, Set.copyOf(modified), gitDir);
    }

    private static String resolveRef(Path gitDir, Path common, String ref) throws IOException {
        for (Path base : List.of(gitDir, common)) {
            String v = small(base.resolve(ref));
            if (v != null && OID.matcher(v.strip()).matches()) {
                return v.strip();
            }
        }
        String packed = small(common.resolve("packed-refs"));
        if (packed != null) {
            for (String line : packed.split("\n")) {
                String[] parts = line.strip().split(" ");
                if (parts.length == 2
                        && parts[1].equals(ref)
                        && OID.matcher(parts[0]).matches()) {
                    return parts[0];
                }
            }
        }
        return null;
    }

    /** A small metadata file's text, or null when it is absent or not a regular file. */
    private static String small(Path p) throws IOException {
        if (!Files.isRegularFile(p)) {
            return null;
        }
        if (Files.size(p) > 64L * 1024 * 1024) {
            throw new IOException(p.getFileName() + " is too large");
        }
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    /** Parses the index (versions 2 to 4) and counts tracked files that differ from it. */
    static int compareIndex(Path workTree, Path index, Set<String> modified) throws IOException {
        if (Files.size(index) > MAX_INDEX) {
            throw new IOException("index larger than " + MAX_INDEX + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(index));
        if (b.remaining() < 12 || b.getInt() != 0x44495243) { // "DIRC"
            throw new IOException("not a git index");
        }
        int version = b.getInt();
        if (version < 2 || version > 4) {
            throw new IOException("unsupported index version " + version);
        }
        int entries = b.getInt();
        if (entries < 0 || entries > MAX_ENTRIES) {
            throw new IOException("index has " + Integer.toUnsignedString(entries) + " entries, more than the limit of "
                    + MAX_ENTRIES);
        }
        long deadline = System.nanoTime() + INDEX_MILLIS * 1_000_000L;
        long[] hashed = {0};
        int hashLen = 20;
        int count = 0;
        byte[] prev = new byte[0];
        for (int i = 0; i < entries; i++) {
            if ((i & 255) == 0 && System.nanoTime() > deadline) {
                throw new IOException("comparing the index with the work tree took more than " + INDEX_MILLIS / 1000
                        + " s (" + i + " of " + entries + " entries)");
            }
            int start = b.position();
            b.position(start + 8); // ctime
            int mtimeSec = b.getInt();
            int mtimeNsec = b.getInt();
            b.position(b.position() + 8); // dev, ino
            int mode = b.getInt();
            b.position(b.position() + 8); // uid, gid
            int size = b.getInt();
            byte[] oid = new byte[hashLen];
            b.get(oid);
            int flags = b.getShort() & 0xffff;
            boolean extended = (flags & 0x4000) != 0;
            int stage = (flags >> 12) & 3;
            boolean skipWorktree = false;
            if (extended && version >= 3) {
                int ext = b.getShort() & 0xffff;
                skipWorktree = (ext & 0x4000) != 0;
            }
            byte[] name;
            if (version == 4) {
                int strip = varint(b);
                int end = b.position();
                while (b.get(end) != 0) {
                    end++;
                    if (end - b.position() > MAX_NAME) {
                        throw new IOException("index entry " + i + " names a path longer than " + MAX_NAME + " bytes");
                    }
                }
                byte[] suffix = new byte[end - b.position()];
                b.get(suffix);
                b.get(); // NUL
                int keep = Math.max(0, prev.length - strip);
                if (keep + suffix.length > MAX_NAME) {
                    throw new IOException("index entry " + i + " names a path longer than " + MAX_NAME + " bytes");
                }
                name = new byte[keep + suffix.length];
                System.arraycopy(prev, 0, name, 0, keep);
                System.arraycopy(suffix, 0, name, keep, suffix.length);
                prev = name;
            } else {
                int end = b.position();
                while (b.get(end) != 0) {
                    end++;
                    if (end - b.position() > MAX_NAME) {
                        throw new IOException("index entry " + i + " names a path longer than " + MAX_NAME + " bytes");
                    }
                }
                name = new byte[end - b.position()];
                b.get(name);
                int len = b.position() - start;
                int padded = (len + 8) & ~7; // 1 to 8 NUL bytes
                b.position(start + padded);
            }
            int type = mode >>> 12;
            if (stage != 0 || skipWorktree || type == 0xe) { // conflicts, sparse entries, submodules (gitlinks)
                continue;
            }
            String path = new String(name, StandardCharsets.UTF_8);
            if (differs(workTree, path, type, mtimeSec, mtimeNsec, size, oid, hashed)) {
                modified.add(path);
                count++;
            }
        }
        return count;
    }

    private static int varint(ByteBuffer b) {
        int c = b.get() & 0xff;
        int v = c & 0x7f;
        while ((c & 0x80) != 0) {
            v += 1;
            c = b.get() & 0xff;
            v = (v << 7) + (c & 0x7f);
        }
        return v;
    }

    private static boolean differs(
            Path workTree, String rel, int type, int mtimeSec, int mtimeNsec, int size, byte[] oid, long[] hashed)
            throws IOException {
        if (rel.isEmpty() || rel.startsWith("/") || rel.contains("\0")) {
            return false;
        }
        Path p = workTree.resolve(rel).normalize();
        if (!p.startsWith(workTree)) {
            return false;
        }
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (type == 0xa) { // symbolic link: the blob is the link's target
                if (!a.isSymbolicLink()) {
                    return true;
                }
                return !hashEquals(Files.readSymbolicLink(p).toString().getBytes(StandardCharsets.UTF_8), oid);
            }
            if (!a.isRegularFile()) {
                return true;
            }
            if ((int) a.size() != size) {
                return true;
            }
            FileTime t = a.lastModifiedTime();
            long nanos = t.to(java.util.concurrent.TimeUnit.NANOSECONDS);
            if ((int) (nanos / 1_000_000_000L) == mtimeSec && (int) (nanos % 1_000_000_000L) == mtimeNsec) {
                return false;
            }
            hashed[0] += a.size();
            if (hashed[0] > MAX_HASHED) {
                throw new IndexLimit("more than " + MAX_HASHED + " bytes of tracked files to hash");
            }
            try (InputStream in = Files.newInputStream(p)) {
                return !hashEquals(in.readAllBytes(), oid);
            }
        } catch (IndexLimit e) {
            throw e;
        } catch (IOException e) {
            return true; // deleted or unreadable
        }
    }

    /** A bound of the index comparison was reached. */
    private static final class IndexLimit extends IOException {
        private static final long serialVersionUID = 1L;

        IndexLimit(String why) {
            super(why);
        }
    }

    private static boolean hashEquals(byte[] content, byte[] oid) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-1");
            md.update(("blob " + content.length + "\0").getBytes(StandardCharsets.US_ASCII));
            md.update(content);
            return java.util.Arrays.equals(md.digest(), oid);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether the tracked file {@code rel} (relative to the work tree, '/'-separated) differs from the index. */
    public boolean isModified(String rel) {
        return modifiedPaths.contains(rel);
    }

    /** "abc123 (main), clean" etc. */
    public String describe() {
        StringBuilder s = new StringBuilder();
        s.append(commit == null ? "no commit" : commit);
        if (branch != null) {
            s.append(" (branch ").append(branch).append(')');
        } else if (commit != null) {
            s.append(" (detached HEAD)");
        }
        s.append(", ");
        if (dirty == null) {
            s.append("dirty state unknown");
        } else if (dirty) {
            s.append("dirty: ")
                    .append(modifiedCount)
                    .append(modifiedCount == 1 ? " tracked file differs" : " tracked files differ")
                    .append(" from the index");
        } else {
            s.append("clean (tracked files match the index)");
        }
        return s.toString();
    }
}
