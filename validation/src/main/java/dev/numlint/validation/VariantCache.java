package dev.numlint.validation;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Prebuilt PTX variants of .cu files, so that a host without the CUDA toolkit can validate: each entry is
 * {@code <file name>-<sha256 of (file content, arch, flags)>.ptx}; the key depends on the source's content, not its
 * path, so the cache can be copied to another host. {@code nvcc-version.txt} records the compiler that built it.
 */
public final class VariantCache {
    public static final String VERSION_FILE = "nvcc-version.txt";
    private final Path dir;

    public VariantCache(Path dir) {
        this.dir = dir;
    }

    /** The cache file name of a build: source file name and a hash of (content, arch, flags). */
    public static String key(Path cu, String arch, List<String> flags) throws IOException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(Files.readAllBytes(cu));
            md.update((byte) 0);
            md.update(arch.getBytes(StandardCharsets.UTF_8));
            for (String f : flags) {
                md.update((byte) 0);
                md.update(f.getBytes(StandardCharsets.UTF_8));
            }
            return cu.getFileName() + "-"
                    + HexFormat.of().formatHex(md.digest()).substring(0, 20) + ".ptx";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public Optional<String> get(Path cu, String arch, List<String> flags) {
        try {
            Path p = dir.resolve(key(cu, arch, flags));
            return Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    ? Optional.of(Files.readString(p, StandardCharsets.UTF_8))
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    public void put(Path cu, String arch, List<String> flags, String ptx) {
        try {
            // atomically, never through a link: an interrupted run leaves no partial entry
            dev.numlint.spi.SafeFiles.directory(dir);
            byte[] bytes = ptx.getBytes(StandardCharsets.UTF_8);
            dev.numlint.spi.SafeFiles.write(dir.resolve(key(cu, arch, flags)), out -> out.write(bytes));
        } catch (IOException e) {
            // a cache that cannot be written only costs a rebuild
        }
    }

    public Optional<String> nvccVersion() {
        try {
            Path p = dir.resolve(VERSION_FILE);
            return Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    ? Optional.of(Files.readString(p, StandardCharsets.UTF_8).trim())
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    public void putNvccVersion(String v) {
        try {
            dev.numlint.spi.SafeFiles.directory(dir);
            byte[] bytes = (v + "\n").getBytes(StandardCharsets.UTF_8);
            dev.numlint.spi.SafeFiles.write(dir.resolve(VERSION_FILE), out -> out.write(bytes));
        } catch (IOException e) {
            // informational only
        }
    }
}
