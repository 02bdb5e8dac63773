package dev.numlint.validation.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numlint.validation.interp.PtxText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code cudaMemcpyToSymbol} writes of a recording (symbols.jsonl): named at record time from the program's ELF
 * symbol table ({@link #name}), and at replay turned into the bytes of each module variable a launch starts from
 * ({@link #apply}): its PTX initialiser (or zeros) with every write made before the launch applied in order.
 */
final class SymbolWrites {
    private SymbolWrites() {}

    static final String FILE = "symbols.jsonl";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LOCAL = Pattern.compile("_ZL(\\d{1,4})([A-Za-z_$][A-Za-z0-9_$]*)");

    /** One write: before which launch, to which host symbol, at what offset, and the bytes. */
    record Write(int beforeLaunch, String name, long offset, byte[] bytes) {}

    /**
     * Names the writes the capture layer could not name (a symbol local to the program is not in its dynamic symbol
     * table) from {@code program}'s full symbol table, rewriting symbols.jsonl; says in messages what stays unnamed.
     */
    static void name(Path recording, Path program, List<String> messages) throws IOException {
        Path f = recording.resolve(FILE);
        if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) return;
        List<String> out = new ArrayList<>();
        int unnamed = 0;
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
            if (line.isBlank()) continue;
            ObjectNode n = (ObjectNode) JSON.readTree(line);
            if (n.path("name").asText().isEmpty()) {
                String name = null;
                if (program != null
                        && program.getFileName() != null
                        && program.getFileName()
                                .toString()
                                .equals(n.path("object").asText())) {
                    name = ElfSymbols.nameAt(
                            program,
                            hex(n.path("address").asText()),
                            hex(n.path("base").asText()));
                }
                if (name != null) {
                    n.put("name", name);
                    n.put("nameFrom", "the program's symbol table");
                } else unnamed++;
            }
            out.add(JSON.writeValueAsString(n));
        }
        Files.write(f, out, StandardCharsets.UTF_8);
        if (unnamed > 0)
            messages.add(unnamed + " cudaMemcpyToSymbol write(s) whose host symbol has no name (not in the named"
                    + " program's symbol table: stripped, or in a shared library): not replayed");
    }

    private static long hex(String s) {
        return s.matches("0x[0-9a-f]{1,16}") ? Long.parseUnsignedLong(s.substring(2), 16) : -1;
    }

    /** The named writes of a recording, in program order; bad lines are problems, not writes. */
    static List<Write> read(Recording r, List<JsonNode> lines) {
        List<Write> ws = new ArrayList<>();
        for (JsonNode n : lines) {
            String name = n.path("name").asText();
            int id = n.path("id").asInt(-1);
            long offset = n.path("offset").asLong(-1), bytes = n.path("bytes").asLong(-1);
            if (name.isEmpty()) continue; // unnamed: `numlint record` said so
            try {
                if (id < 0
                        || offset < 0
                        || bytes <= 0
                        || !Recording.SYMBOL.matcher(name).matches())
                    throw new IOException("a cudaMemcpyToSymbol write without a valid id, name, offset and size");
                byte[] b = r.bytes("data/symbol-" + id + ".bin");
                if (b.length != bytes)
                    throw new IOException(
                            "cudaMemcpyToSymbol write " + id + ": " + b.length + " bytes, the line says " + bytes);
                ws.add(new Write(n.path("beforeLaunch").asInt(Integer.MAX_VALUE), name, offset, b));
            } catch (IOException e) {
                r.problems.add(e.getMessage());
            }
        }
        return ws;
    }

    /** Whether the host symbol name (as the ELF table spells it) is the module variable {@code var}. */
    static boolean names(String host, String var) {
        Matcher m = LOCAL.matcher(host); // a C++ file-local variable: _ZL8c_Kernel
        String plain = m.matches() && Integer.parseInt(m.group(1)) == m.group(2).length() ? m.group(2) : host;
        return var.equals(host) || var.equals(plain) || StaticName.base(var).equals(plain);
    }

    /**
     * Adds to {@code l.globals} each module variable of {@code vars} that the recording did not copy at the launch but
     * that the program wrote with cudaMemcpyToSymbol before it: its initialiser or zeros, the writes applied in order.
     * Returns the names added.
     */
    static List<String> apply(List<Write> writes, Recording.RecordedLaunch l, List<PtxText.Var> vars) {
        List<String> added = new ArrayList<>();
        if (writes.isEmpty()) return added;
        for (PtxText.Var v : vars) {
            if (!("const".equals(v.space) || "global".equals(v.space)) || v.unsized) continue;
            if (l.globals.stream().anyMatch(g -> g.name.equals(v.name))) continue;
            byte[] bytes = v.init != null ? Arrays.copyOf(v.init, v.bytes()) : new byte[v.bytes()];
            boolean any = false;
            for (Write w : writes) {
                if (w.beforeLaunch() > l.id || !names(w.name(), v.name)) continue;
                if (w.offset() + w.bytes().length > bytes.length) continue; // not this variable's size: not it
                System.arraycopy(w.bytes(), 0, bytes, (int) w.offset(), w.bytes().length);
                any = true;
            }
            if (!any) continue;
            Recording.Global g = new Recording.Global();
            g.index = -1;
            g.name = v.name;
            g.before = bytes;
            l.globals.add(g);
            added.add(v.space + " " + v.name);
        }
        return added;
    }
}
