package dev.numlint.cuda.clang;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * numlint's declarations of the CUDA libraries' entry points (cuRAND, cuBLAS, cuDNN, cuFFT), for Clang where the
 * toolkit lacks the library's headers: without them {@code #include <curand_kernel.h>} is a fatal "file not found"
 * and every call into the library is untyped ({@code curand_uniform}'s float, {@code cublasSgemm}'s precision). The
 * headers are resources of this jar ({@code dev/numlint/cuda/clang/stubs/}), written from NVIDIA's public API
 * documentation (declarations only), extracted beside the other stub headers into a folder named by their content's
 * hash ({@link #extract}), and searched after every real include directory ({@code -idirafter}, {@link
 * Libclang#stubArguments}): an installed header of the toolkit or the tree always wins.
 */
public final class LibraryStubs {
    private LibraryStubs() {}

    /** Whether Clang reads them ({@code -Dnumlint.clang.libraryStubs=false} switches them off, to compare). */
    public static boolean enabled() {
        return !"false".equals(System.getProperty("numlint.clang.libraryStubs"));
    }

    /** A library numlint declares: its name and the headers its stubs answer for. */
    public record Library(String name, List<String> headers) {}

    /** The libraries, with the headers of each (a file of the stub folder each). */
    public static final List<Library> LIBRARIES = List.of(
            new Library("cuRAND", List.of("curand_kernel.h", "curand.h")),
            new Library("cuBLAS", List.of("cublas_v2.h", "cublas_api.h", "cublasLt.h")),
            new Library("cuDNN", List.of("cudnn.h")),
            new Library("cuFFT", List.of("cufft.h")));

    /**
     * The runtime types the declarations use: the toolkit's headers where the unit reads them, else stand-ins (a host
     * unit without the toolkit on its include path), so that a declaration never stops a parse with "file not found".
     */
    private static final String TYPES = "numlint_cuda_types.h";

    private static final String RESOURCES = "/dev/numlint/cuda/clang/stubs/";

    /** The headers' texts by file name, read once from the jar (empty when a resource is missing). */
    private static final Map<String, String> TEXTS = load();

    /** The first 12 hex digits of the SHA-256 of the headers' names and texts: the folder's name. */
    static final String HASH = hash(TEXTS);

    private static Map<String, String> load() {
        Map<String, String> m = new LinkedHashMap<>();
        List<String> files = new ArrayList<>(List.of(TYPES));
        for (Library l : LIBRARIES) files.addAll(l.headers());
        for (String h : files) {
            try (InputStream in = LibraryStubs.class.getResourceAsStream(RESOURCES + h)) {
                if (in == null) return Map.of();
                m.put(h, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                return Map.of();
            }
        }
        return m;
    }

    private static String hash(Map<String, String> texts) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (Map.Entry<String, String> e : texts.entrySet()) {
                d.update(e.getKey().getBytes(StandardCharsets.UTF_8));
                d.update((byte) 0);
                d.update(e.getValue().getBytes(StandardCharsets.UTF_8));
                d.update((byte) 0);
            }
            StringBuilder sb = new StringBuilder();
            for (byte b : d.digest()) sb.append(String.format("%02x", b));
            return sb.substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            return "0";
        }
    }

    /**
     * Writes the headers into {@code stubs} ({@link Libclang#stubHeaders}'s folder), in {@code libraries-<hash>}, and
     * returns that folder; null when the resources are missing or it cannot be written.
     */
    static Path extract(Path stubs) throws IOException {
        if (stubs == null || TEXTS.isEmpty()) return null;
        Path dir = folder(stubs);
        Files.createDirectories(dir);
        for (Map.Entry<String, String> e : TEXTS.entrySet())
            Libclang.write(dir.resolve(e.getKey()), e.getValue(), true);
        return dir;
    }

    /** The folder of the library headers in the stub folder {@code stubs}. */
    static Path folder(Path stubs) {
        return stubs.resolve("libraries-" + HASH);
    }

    private static final Pattern ENTRY = Pattern.compile("\\b((?:curand|cublas|cudnn|cufft|skipahead)\\w*)\\s*\\(");

    /** How many entry points (function names) numlint declares for {@code library}. */
    public static int entryPoints(Library library) {
        TreeSet<String> names = new TreeSet<>();
        for (String h : library.headers()) {
            Matcher m = ENTRY.matcher(TEXTS.getOrDefault(h, ""));
            while (m.find()) names.add(m.group(1));
        }
        return names.size();
    }

    private static final Pattern INCLUDE = Pattern.compile("(?m)^[ \\t]*#[ \\t]*include[ \\t]*[<\"]([^>\"\\n]+)[>\"]");

    /**
     * The libraries whose headers {@code text} includes and none of {@code dirs} holds (the toolkit's include folders,
     * the file's include paths and its own folder): Clang reads numlint's declarations for them.
     */
    public static List<Library> stubbed(byte[] text, List<Path> dirs) {
        List<Library> out = new ArrayList<>();
        if (text == null || TEXTS.isEmpty() || !enabled()) return out;
        Matcher m = INCLUDE.matcher(new String(text, StandardCharsets.ISO_8859_1));
        while (m.find()) {
            String name = m.group(1).strip();
            for (Library l : LIBRARIES) {
                if (out.contains(l) || !l.headers().contains(name)) continue;
                boolean found = false;
                for (Path d : dirs) {
                    if (d != null && Files.isRegularFile(d.resolve(name))) found = true;
                }
                if (!found) out.add(l);
            }
        }
        return out;
    }
}
