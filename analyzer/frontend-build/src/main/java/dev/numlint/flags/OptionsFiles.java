package dev.numlint.flags;

import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The options files of a compile command, read in place of the argument that names them: nvcc's
 * {@code --options-file F} / {@code -optf F} (CMake's Makefile generator puts a CUDA target's include directories in
 * {@code CMakeFiles/<target>.dir/includes_CUDA.rsp} this way) and a host compiler's {@code @F} response file. Their
 * words are flags of the entry like any other, validated the same way; the file is read only when it lies inside the
 * trust boundary (the scanned tree or the build directory given with {@code -p}), and is never passed on.
 */
final class OptionsFiles {
    /** Largest options file read (CMake's are a few KB). */
    static final long MAX_BYTES = 1 << 20;

    private OptionsFiles() {}

    /** {@code toks} with each options file replaced by its words (one level: a file naming another is not read). */
    static List<FlagTok> expand(ScanContext ctx, List<FlagTok> toks, Path base, FindingSink sink) {
        List<FlagTok> out = null;
        for (int i = 0; i < toks.size(); i++) {
            FlagTok t = toks.get(i);
            String name = null;
            int used = 1;
            if ((t.text().equals("--options-file") || t.text().equals("-optf")) && i + 1 < toks.size()) {
                name = toks.get(i + 1).text();
                used = 2;
            } else if (t.text().startsWith("--options-file=")) {
                name = t.text().substring("--options-file=".length());
            } else if (t.text().startsWith("@") && t.text().length() > 1 && t.lang() != FlagTok.Lang.CUDA) {
                name = t.text().substring(1);
            }
            if (name == null) {
                if (out != null) out.add(t);
                continue;
            }
            if (out == null) out = new ArrayList<>(toks.subList(0, i));
            out.addAll(read(ctx, t, name, base, sink));
            i += used - 1;
        }
        return out == null ? toks : out;
    }

    private static List<FlagTok> read(ScanContext ctx, FlagTok at, String name, Path base, FindingSink sink) {
        Path f;
        try {
            f = base == null ? Path.of(name) : base.resolve(name);
        } catch (InvalidPathException e) {
            notRead(at, name, "it is not a path", sink);
            return List.of();
        }
        Path real = ctx.boundary().readable(f);
        if (real == null) {
            notRead(at, name, ctx.boundary().refusal(f), sink);
            return List.of();
        }
        String text;
        try {
            if (Files.size(real) > MAX_BYTES) {
                notRead(at, name, "it has more than " + MAX_BYTES + " bytes", sink);
                return List.of();
            }
            text = new String(Files.readAllBytes(real), StandardCharsets.UTF_8);
        } catch (IOException e) {
            notRead(at, name, "it cannot be read", sink);
            return List.of();
        }
        String rel = ctx.relativize(real);
        List<FlagTok> words = new ArrayList<>();
        for (PosText w : ShellWords.split(PosText.of(text, 0, 1, 1))) {
            if (w.text.startsWith("@") || w.text.equals("--options-file") || w.text.equals("-optf")) {
                notRead(at, name, "it names another options file (" + w.text + "), which is not read", sink);
                continue;
            }
            words.add(new FlagTok(
                    w.text,
                    Location.of(rel, w.lineAt(0), w.colAt(0)),
                    at.lang(),
                    at.condition(),
                    at.via() + ", options file " + rel));
        }
        return words;
    }

    private static void notRead(FlagTok at, String name, String why, FindingSink sink) {
        sink.notify(new Notification(
                at.loc().file(),
                at.loc().startLine(),
                Level.WARNING,
                "options-file-not-read",
                "options file '" + name + "' not read: " + why
                        + "; the flags in it (often the include directories) are missing from this entry"));
    }
}
