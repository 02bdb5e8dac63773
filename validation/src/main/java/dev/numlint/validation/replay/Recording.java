package dev.numlint.validation.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A recording written by {@code numlint record} (format: docs/validation/recording-format.md, version 1), read as
 * hostile input: every file it names must be a regular file (no link) inside the recording directory, sizes are
 * checked against the manifest, and a malformed line is reported as a problem of its launch, never followed.
 */
public final class Recording {
    /** The texture flag of sRGB reads (cuda.h): texels converted from sRGB before filtering, not modelled. */
    static final int CU_TRSF_SRGB = 0x10;

    public static final int VERSION = 1;
    /** The largest file read from a recording (module images, buffers, parameter blocks). */
    public static final long MAX_FILE_BYTES = 256L << 20;

    private static final ObjectMapper JSON = new ObjectMapper();

    public final Path dir;
    /** manifest.json (written by numlint record) or capture.json (written by the capture library). */
    public final Map<String, String> facts = new LinkedHashMap<>();

    public final List<Module> modules = new ArrayList<>();
    public final List<RecordedLaunch> launches = new ArrayList<>();

    /** A symbol name a recording may hold (a module variable, a host symbol): anything else is refused. */
    static final java.util.regex.Pattern SYMBOL = java.util.regex.Pattern.compile("[A-Za-z_$.][A-Za-z0-9_$.]*");
    /** The program's cudaMemcpyToSymbol writes, named, in program order (symbols.jsonl). */
    final List<SymbolWrites.Write> symbolWrites = new ArrayList<>();
    /** Limits hit and things not recorded, as the capture layer wrote them. */
    public final List<String> notices = new ArrayList<>();
    /** Problems of the recording itself (malformed lines, missing files), with the file named. */
    public final List<String> problems = new ArrayList<>();

    /** One module image the program loaded: its file, kind (ptx, cubin, fatbin) and the PTX text when it has one. */
    public static final class Module {
        public String file;
        public String kind;
        /** The PTX of this image: the image itself, or extracted next to it at record time (module-N.ptx). */
        public String ptx;
    }

    /** One recorded launch. */
    public static final class RecordedLaunch {
        public int id;
        public String kernel;
        public int[] grid, block;
        public int dynamicShared;
        public byte[] params;
        /** The recording's file of the parameter block. */
        public String paramFile;

        public boolean paramsKnown;
        public final List<int[]> paramLayout = new ArrayList<>(); // offset, size, alloc (-1), offsetInAlloc
        public final List<byte[]> before = new ArrayList<>();
        /** null when the outputs were not recorded (launch failed, limits). */
        public List<byte[]> after;
        /** Why this launch cannot be replayed (null when it can). */
        public String unusable;
        /** The module variables the program had resolved by name, before (and after) this launch. */
        public final List<Global> globals = new ArrayList<>();
        /** The texture objects the launch's parameters name, by their handle. */
        public final Map<Long, dev.numlint.validation.interp.Texture> textures = new LinkedHashMap<>();
        /** The same texture objects as recorded (their descriptors and texel file), to recreate them on a GPU. */
        public final List<dev.numlint.validation.gpu.GpuJob.Texture> textureDescriptors = new ArrayList<>();
        /** Why the interpreter cannot model this launch's texture reads (the GPU still replays it); empty when it can. */
        public final List<String> textureNotModelled = new ArrayList<>();
    }

    private static final dev.numlint.validation.interp.Texture.Format[] FORMATS =
            new dev.numlint.validation.interp.Texture.Format[0x21];

    static {
        FORMATS[0x01] = dev.numlint.validation.interp.Texture.Format.U8;
        FORMATS[0x02] = dev.numlint.validation.interp.Texture.Format.U16;
        FORMATS[0x03] = dev.numlint.validation.interp.Texture.Format.U32;
        FORMATS[0x08] = dev.numlint.validation.interp.Texture.Format.S8;
        FORMATS[0x09] = dev.numlint.validation.interp.Texture.Format.S16;
        FORMATS[0x0a] = dev.numlint.validation.interp.Texture.Format.S32;
        FORMATS[0x10] = dev.numlint.validation.interp.Texture.Format.F16;
        FORMATS[0x20] = dev.numlint.validation.interp.Texture.Format.F32;
    }

    /** A recorded texture object (its descriptors as cuTexObjectCreate got them, its texels from the file). */
    private dev.numlint.validation.interp.Texture texture(int id, JsonNode t) throws IOException {
        int format = t.path("format").asInt(-1);
        if (format < 0 || format >= FORMATS.length || FORMATS[format] == null)
            throw new IOException("launch " + id + ": a texture of an unknown format " + format);
        byte[] data = bytes("data/launch-" + id + "-texture-" + t.path("index").asInt(-1) + ".bin");
        dev.numlint.validation.interp.Texture x;
        try {
            x = new dev.numlint.validation.interp.Texture(
                    t.path("dims").asInt(),
                    t.path("width").asInt(),
                    Math.max(1, t.path("height").asInt(1)),
                    Math.max(1, t.path("depth").asInt(1)),
                    t.path("layers").asInt(0),
                    t.path("channels").asInt(),
                    FORMATS[format],
                    t.path("pitch").asLong(0),
                    data);
        } catch (IllegalArgumentException e) {
            throw new IOException("launch " + id + ": a texture that does not fit its data: " + e.getMessage());
        }
        dev.numlint.validation.interp.Texture.Address[] modes = dev.numlint.validation.interp.Texture.Address.values();
        for (int d = 0; d < 3; d++) {
            int a = t.path("address").path(d).asInt(1);
            x.address[d] = a >= 0 && a < modes.length ? modes[a] : dev.numlint.validation.interp.Texture.Address.CLAMP;
        }
        x.linear = t.path("filter").asInt() == 1;
        int flags = t.path("flags").asInt();
        x.normalizedCoords = (flags & 2) != 0;
        boolean small = x.format != dev.numlint.validation.interp.Texture.Format.F32
                && x.format != dev.numlint.validation.interp.Texture.Format.F16
                && x.format != dev.numlint.validation.interp.Texture.Format.U32
                && x.format != dev.numlint.validation.interp.Texture.Format.S32;
        x.normalizedFloat = small && (flags & 1) == 0; // CU_TRSF_READ_AS_INTEGER off: 8/16-bit texels as floats
        for (int c = 0; c < 4; c++)
            x.border[c] = (float) t.path("border").path(c).asDouble(0);
        return x;
    }

    /** A module variable ({@code __constant__}, {@code __device__}) copied at a launch. */
    public static final class Global {
        public int index;
        public String name;
        /** The recording's file of its bytes before the launch. */
        public String file;

        public byte[] before;
        /** null when the outputs after the launch were not recorded. */
        public byte[] after;
    }

    private Recording(Path dir) {
        this.dir = dir;
    }

    public static Recording read(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS))
            throw new IOException(dir + ": not a recording directory (no such directory, or a link)");
        Recording r = new Recording(dir);
        for (String meta : new String[] {"capture.json", "manifest.json", "device.json"}) {
            Path p = dir.resolve(meta);
            if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) continue;
            try {
                JsonNode n = JSON.readTree(r.bytes(meta));
                n.fields().forEachRemaining(e -> {
                    if (e.getValue().isValueNode())
                        r.facts.put(e.getKey(), e.getValue().asText());
                });
            } catch (IOException | RuntimeException e) {
                r.problems.add(dir.resolve(meta) + ": not readable JSON: " + e.getMessage());
            }
        }
        String version = r.facts.get("version");
        if (version == null)
            throw new IOException(dir + ": not a numlint recording (no capture.json or manifest.json with a version)");
        if (!version.equals(Integer.toString(VERSION)))
            throw new IOException(dir + ": recording format version " + version + ", this numlint reads " + VERSION);
        for (JsonNode m : r.lines("modules.jsonl")) {
            Module mod = new Module();
            mod.file = m.path("file").asText();
            mod.kind = m.path("kind").asText();
            try {
                if (mod.kind.equals("ptx")) mod.ptx = new String(r.bytes(mod.file), StandardCharsets.UTF_8);
                else {
                    String extracted = extractedPtx(mod.file);
                    if (Files.isRegularFile(dir.resolve(extracted), LinkOption.NOFOLLOW_LINKS))
                        mod.ptx = new String(r.bytes(extracted), StandardCharsets.UTF_8);
                }
                if (mod.ptx != null) mod.ptx = mod.ptx.replace("\0", "");
            } catch (IOException e) {
                r.problems.add(e.getMessage());
            }
            r.modules.add(mod);
        }
        Map<Integer, Boolean> done = new LinkedHashMap<>();
        for (JsonNode d : r.lines("launches-done.jsonl"))
            done.put(d.path("id").asInt(-1), d.path("afterRecorded").asBoolean());
        for (JsonNode n : r.lines("launches.jsonl")) r.launches.add(r.launch(n, done));
        r.symbolWrites.addAll(SymbolWrites.read(r, r.lines(SymbolWrites.FILE)));
        for (JsonNode n : r.lines("notices.jsonl"))
            r.notices.add(n.path("kind").asText()
                    + (n.path("kernel").asText().isEmpty()
                            ? ""
                            : " " + n.path("kernel").asText()) + ": "
                    + n.path("message").asText());
        return r;
    }

    private RecordedLaunch launch(JsonNode n, Map<Integer, Boolean> done) {
        RecordedLaunch l = new RecordedLaunch();
        l.id = n.path("id").asInt(-1);
        l.kernel = n.path("kernel").asText();
        l.grid = ints(n.path("grid"));
        l.block = ints(n.path("block"));
        l.dynamicShared = n.path("dynamicShared").asInt();
        l.paramsKnown = n.path("paramsKnown").asBoolean();
        try {
            l.paramFile = n.path("paramBytes").asText();
            l.params = bytes(l.paramFile);
            for (JsonNode p : n.path("params")) {
                int off = p.path("offset").asInt(-1), size = p.path("size").asInt(-1);
                if (off < 0 || size < 0 || off + size > l.params.length)
                    throw new IOException("launch " + l.id + ": parameter at " + off + " (" + size
                            + " bytes) outside its " + l.params.length + "-byte block");
                l.paramLayout.add(new int[] {
                    off,
                    size,
                    p.has("alloc") ? p.path("alloc").asInt() : -1,
                    p.path("offsetInAlloc").asInt()
                });
            }
            if (!n.path("buffersRecorded").asBoolean()) {
                l.unusable = "its buffers were not recorded (--max-bytes reached or a copy failed; see the notices)";
                return l;
            }
            int allocs = n.path("allocs").size();
            for (int a = 0; a < allocs; a++) {
                long want = n.path("allocs").get(a).path("bytes").asLong();
                byte[] b = bytes(allocFile(l.id, a, "before"));
                if (b.length != want)
                    throw new IOException("launch " + l.id + " allocation " + a + ": " + b.length
                            + " bytes, the manifest says " + want);
                l.before.add(b);
            }
            for (JsonNode g : n.path("globals")) {
                Global gl = new Global();
                gl.index = g.path("index").asInt(-1);
                gl.name = g.path("name").asText();
                if (gl.index < 0
                        || gl.name.isEmpty()
                        || !SYMBOL.matcher(gl.name).matches())
                    throw new IOException("launch " + l.id + ": a module variable without a valid index and name");
                gl.file = globalFile(l.id, gl.index, "before");
                gl.before = bytes(gl.file);
                if (gl.before.length != g.path("bytes").asLong(-1))
                    throw new IOException("launch " + l.id + " module variable " + gl.name + ": " + gl.before.length
                            + " bytes, the manifest says " + g.path("bytes").asLong(-1));
                l.globals.add(gl);
            }
            for (JsonNode t : n.path("textures")) {
                String h = t.path("handle").asText();
                if (!h.matches("0x[0-9a-f]{1,16}"))
                    throw new IOException("launch " + l.id + ": a texture without a valid handle");
                l.textures.put(Long.parseUnsignedLong(h.substring(2), 16), texture(l.id, t));
                if ((t.path("flags").asInt() & CU_TRSF_SRGB) != 0)
                    l.textureNotModelled.add("texture " + h + " is read as sRGB (CU_TRSF_SRGB), which the interpreter's"
                            + " texture unit does not model");
                dev.numlint.validation.gpu.GpuJob.Texture d = new dev.numlint.validation.gpu.GpuJob.Texture();
                d.param = t.path("param").asInt(-1);
                d.resource = t.path("resource").asText("array");
                d.dims = t.path("dims").asInt();
                d.width = t.path("width").asLong();
                d.height = t.path("height").asLong(1);
                d.depth = t.path("depth").asLong(1);
                d.layers = t.path("layers").asLong(0);
                d.format = t.path("format").asInt();
                d.channels = t.path("channels").asInt();
                d.pitch = l.textures.get(Long.parseUnsignedLong(h.substring(2), 16)).rowPitch; // packed when 0
                d.address = new int[] {
                    t.path("address").path(0).asInt(1),
                    t.path("address").path(1).asInt(1),
                    t.path("address").path(2).asInt(1)
                };
                d.filter = t.path("filter").asInt();
                d.flags = t.path("flags").asInt();
                d.border = new float[4];
                for (int c = 0; c < 4; c++)
                    d.border[c] = (float) t.path("border").path(c).asDouble(0);
                d.file = file("data/launch-" + l.id + "-texture-"
                                + t.path("index").asInt(-1) + ".bin")
                        .toString();
                l.textureDescriptors.add(d);
            }
            for (int[] p : l.paramLayout)
                if (p[2] >= allocs || p[2] >= 0 && p[3] > l.before.get(p[2]).length)
                    throw new IOException("launch " + l.id + ": a parameter points outside the recorded allocations");
            if (Boolean.TRUE.equals(done.get(l.id))) {
                l.after = new ArrayList<>();
                for (int a = 0; a < allocs; a++) {
                    byte[] b = bytes(allocFile(l.id, a, "after"));
                    if (b.length != l.before.get(a).length)
                        throw new IOException(
                                "launch " + l.id + " allocation " + a + ": before and after differ in size");
                    l.after.add(b);
                }
                for (Global g : l.globals) {
                    g.after = bytes(globalFile(l.id, g.index, "after"));
                    if (g.after.length != g.before.length)
                        throw new IOException(
                                "launch " + l.id + " module variable " + g.name + ": before and after differ in size");
                }
            }
        } catch (IOException | RuntimeException e) {
            l.unusable = "the recording of this launch is damaged: " + e.getMessage();
        }
        return l;
    }

    private static int[] ints(JsonNode a) {
        int[] r = {1, 1, 1};
        for (int i = 0; i < 3 && i < a.size(); i++) r[i] = Math.max(1, a.get(i).asInt(1));
        return r;
    }

    private List<JsonNode> lines(String name) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        Path p = dir.resolve(name);
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) return out;
        String[] ls = new String(bytes(name), StandardCharsets.UTF_8).split("\n");
        for (int i = 0; i < ls.length; i++) {
            if (ls[i].isBlank()) continue;
            try {
                out.add(JSON.readTree(ls[i]));
            } catch (IOException e) {
                problems.add(p + ":" + (i + 1) + ": not a JSON line (the recording was cut off?): " + e.getMessage());
            }
        }
        return out;
    }

    /** A file of the recording: relative, inside the directory, regular, not a link, at most MAX_FILE_BYTES. */
    byte[] bytes(String relative) throws IOException {
        return Files.readAllBytes(file(relative));
    }

    /**
     * The path of a file of the recording, checked as {@link #bytes} checks it (for a child process that reads it
     * where it is: a recording is never copied).
     */
    public Path file(String relative) throws IOException {
        if (relative.isEmpty() || relative.startsWith("/") || relative.contains("..") || relative.contains("\\"))
            throw new IOException(dir + ": the recording names a file outside it: " + relative);
        Path p = dir.resolve(relative).normalize();
        if (!p.startsWith(dir.normalize()))
            throw new IOException(dir + ": the recording names a file outside it: " + relative);
        for (Path q = p; q != null && !q.equals(dir.normalize()); q = q.getParent())
            if (Files.isSymbolicLink(q))
                throw new IOException(p + ": a link; recordings are read without following links");
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
            throw new IOException(p + ": missing from the recording");
        long size = Files.size(p);
        if (size > MAX_FILE_BYTES)
            throw new IOException(
                    p + ": " + size + " bytes, more than the " + MAX_FILE_BYTES + " read from a recording");
        return p.toAbsolutePath();
    }

    /** The file of module variable g of launch id, "before" or "after" the launch. */
    public static String globalFile(int id, int g, String when) {
        return "data/launch-" + id + "-global-" + g + "-" + when + ".bin";
    }

    /** The file of allocation a of launch id, "before" or "after" the launch. */
    public static String allocFile(int id, int a, String when) {
        return "data/launch-" + id + "-alloc-" + a + "-" + when + ".bin";
    }

    /**
     * Where numlint record puts the PTX it extracted from a fatbinary image: next to it, named so that no scan takes
     * it for a PTX source file of the project (modules/module-0.fatbin -> modules/module-0.fatbin.ptx.txt).
     */
    public static String extractedPtx(String imageFile) {
        return imageFile + ".ptx.txt";
    }

    /** The PTX module that defines kernel (an .entry of that name), or null. */
    public Module moduleOf(String kernel) {
        java.util.regex.Pattern entry =
                java.util.regex.Pattern.compile("\\.entry\\s+" + java.util.regex.Pattern.quote(kernel) + "\\s*\\(");
        for (Module m : modules) if (m.ptx != null && entry.matcher(m.ptx).find()) return m;
        return null;
    }
}
