package dev.numlint.flags;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.numlint.model.Location;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a JSON compilation database (compile_commands.json): per entry the compiled {@code file}, its
 * {@code directory}, and the compiler arguments from {@code arguments} (an array) or {@code command} (a string split
 * like a shell does), each with the line and column where it is written. Streaming, so a syntax error keeps the
 * entries before it.
 */
final class CompileCommandsAudit {
    private static final JsonFactory JSON = JsonFactory.builder().build();
    /** Entries read from one database (a real one of a large project has some ten thousand). */
    static final int MAX_ENTRIES = 200_000;
    /** Arguments read from one entry. */
    static final int MAX_ARGS = 20_000;

    /**
     * One entry. {@code program}: the compiler's file name as the command gives it ({@code gcc}, {@code clang-19},
     * {@code nvcc}), after a launcher ({@code ccache}).
     */
    record Entry(String file, String directory, FlagTok.Lang compiler, String program, List<FlagTok> toks, int line) {}

    static final class Out {
        final List<Entry> entries = new ArrayList<>();
        final List<String[]> problems = new ArrayList<>();
    }

    private CompileCommandsAudit() {}

    static Out audit(String relFile, String text) {
        Out out = new Out();
        try (JsonParser p = JSON.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t != JsonToken.START_ARRAY) {
                out.problems.add(new String[] {
                    relFile,
                    Integer.toString(line(p)),
                    "ERROR",
                    "not a compilation database: expected a JSON array of entries"
                });
                return out;
            }
            while ((t = p.nextToken()) != JsonToken.END_ARRAY && t != null) {
                if (out.entries.size() >= MAX_ENTRIES) {
                    out.problems.add(new String[] {
                        relFile,
                        Integer.toString(line(p)),
                        "WARNING",
                        "not-evaluated",
                        "not fully evaluated: more than " + MAX_ENTRIES + " entries; the rest is not read"
                    });
                    break;
                }
                if (t != JsonToken.START_OBJECT) {
                    out.problems.add(new String[] {
                        relFile, Integer.toString(line(p)), "WARNING", "entry is not a JSON object; skipped"
                    });
                    p.skipChildren();
                    continue;
                }
                entry(p, relFile, out);
            }
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            out.problems.add(new String[] {
                relFile,
                Integer.toString(l == null ? 0 : l.getLineNr()),
                "WARNING",
                "malformed JSON (" + e.getOriginalMessage() + "); " + out.entries.size()
                        + " entries before it were read"
            });
        } catch (IOException e) {
            out.problems.add(new String[] {relFile, "0", "ERROR", "cannot read: " + e.getMessage()});
        }
        return out;
    }

    private static int line(JsonParser p) {
        return p.currentTokenLocation().getLineNr();
    }

    private static void entry(JsonParser p, String relFile, Out out) throws IOException {
        int entryLine = line(p);
        String file = null;
        String dir = null;
        List<PosText> args = null;
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            t = p.nextToken();
            switch (name) {
                case "file" -> file = t == JsonToken.VALUE_STRING ? p.getText() : null;
                case "directory" -> dir = t == JsonToken.VALUE_STRING ? p.getText() : null;
                case "command" -> {
                    if (t == JsonToken.VALUE_STRING && args == null) {
                        JsonLocation l = p.currentTokenLocation();
                        args = ShellWords.split(PosText.of(p.getText(), 0, l.getLineNr(), l.getColumnNr() + 1));
                    } else {
                        p.skipChildren();
                    }
                }
                case "arguments" -> {
                    if (t == JsonToken.START_ARRAY) {
                        args = new ArrayList<>();
                        while ((t = p.nextToken()) != JsonToken.END_ARRAY && t != null) {
                            if (t == JsonToken.VALUE_STRING && args.size() < MAX_ARGS) {
                                JsonLocation l = p.currentTokenLocation();
                                args.add(PosText.of(p.getText(), 0, l.getLineNr(), l.getColumnNr() + 1));
                            } else {
                                p.skipChildren();
                            }
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (file == null || args == null || args.isEmpty()) {
            out.problems.add(new String[] {
                relFile,
                Integer.toString(entryLine),
                "WARNING",
                "entry without 'file' and 'arguments'/'command'; skipped"
            });
            return;
        }
        int k = 0;
        while (k < args.size() - 1 && isWrapper(args.get(k).text)) k++;
        FlagTok.Lang lang = MakeFlags.compilerOf(args.get(k).text);
        if (lang == null) {
            lang = file.endsWith(".cu") ? FlagTok.Lang.CUDA : FlagTok.Lang.HOST;
        }
        String base = args.get(k).text.substring(args.get(k).text.lastIndexOf('/') + 1);
        List<FlagTok> toks = new ArrayList<>();
        for (PosText a : args.subList(k + 1, args.size())) {
            toks.add(new FlagTok(
                    a.text,
                    Location.of(relFile, a.lineAt(0), a.colAt(0)),
                    lang,
                    null,
                    "compile_commands.json entry for " + file.substring(file.lastIndexOf('/') + 1) + " (" + base
                            + ")"));
        }
        out.entries.add(new Entry(file, dir, lang, base, toks, entryLine));
    }

    private static boolean isWrapper(String w) {
        String b = w.substring(w.lastIndexOf('/') + 1);
        return b.equals("ccache") || b.equals("sccache") || b.equals("distcc") || b.equals("env");
    }

    /**
     * The scanned file an entry compiles: its path (relative to {@code base}, the entry's directory as the database's
     * own directory resolves it), or (database from another machine) the same path tail.
     */
    static Path resolve(ScanContext ctx, Entry e, Path base, Map<String, Path> byName, Set<String> ambiguous) {
        Path p;
        try {
            p = Path.of(e.file());
            if (!p.isAbsolute() && base != null) p = base.resolve(p);
            else if (!p.isAbsolute() && e.directory() != null)
                p = Path.of(e.directory()).resolve(p);
            p = p.normalize();
        } catch (InvalidPathException ex) {
            return null;
        }
        if (Files.exists(p)) return p;
        Path fn = p.getFileName();
        if (fn == null) return null;
        String n = fn.toString();
        if (!ambiguous.contains(n)) return byName.get(n);
        Path best = null;
        int bestCommon = 0;
        for (Path c : ctx.files()) {
            if (!c.getFileName().toString().equals(n)) continue;
            int k = 0;
            while (k < Math.min(c.getNameCount(), p.getNameCount())
                    && c.getName(c.getNameCount() - 1 - k).equals(p.getName(p.getNameCount() - 1 - k))) k++;
            if (k > bestCommon) {
                bestCommon = k;
                best = c;
            }
        }
        return bestCommon >= 2 ? best : null;
    }
}
