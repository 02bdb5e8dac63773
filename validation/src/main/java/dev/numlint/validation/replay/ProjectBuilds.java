package dev.numlint.validation.replay;

import dev.numlint.validation.CompileCommand;
import dev.numlint.validation.Nvcc;
import dev.numlint.validation.Variants;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The builds of a recorded kernel from the project's own compile command: {@code validate --replay DIR PATH} scans
 * PATH, and each recorded kernel is rebuilt from the .cu unit of PATH that defines it, with the command the scan
 * found for that unit (compile database, else build files) as-built and per variant (strict, and each hazard's
 * nvcc switch alone: {@link Variants#cuVariants}). The unit is the one the recorded PTX's {@code .file} names
 * (matched by the longest path suffix), else a unit whose text defines a {@code __global__} function of the
 * kernel's name; it is accepted when its as-built build defines the recorded kernel. nvcc runs only through the
 * guarded toolchain ({@link Nvcc}), which validates every flag and path of the command.
 */
public final class ProjectBuilds {
    /** A .cu unit of the scanned project: the file, how it is shown, and its compile command. */
    public record Unit(Path file, String shown, CompileCommand command) {}

    /** One build of the kernel: its name, the rule it isolates (null: as-built, strict), nvcc flags, PTX. */
    public record Build(String name, String rule, List<String> flags, String ptx, String error) {}

    /** The unit found for a kernel, how it was found, its command as the report shows it, and its builds. */
    public record Found(Unit unit, String how, String command, List<Build> builds, List<String> notes) {}

    /** Why no unit was found for a kernel (the report says so and the PTX-level switches stand alone). */
    public record NotFound(String why) {}

    private static final long MAX_UNIT_BYTES = 4L << 20;
    private static final Pattern FILE = Pattern.compile("(?m)^\\s*\\.file\\s+\\d+\\s+\"([^\"\\n]*)\"");

    private final List<Unit> units;
    private final java.util.function.Function<String, java.util.Optional<Nvcc>> nvccForArch;
    private final Map<String, Object> byKernel = new ConcurrentHashMap<>();

    /**
     * {@code units}: the .cu files of the scanned project with their commands; {@code nvccForArch}: the guarded
     * nvcc for an architecture (empty: none installed).
     */
    public ProjectBuilds(List<Unit> units, java.util.function.Function<String, java.util.Optional<Nvcc>> nvccForArch) {
        this.units = List.copyOf(units);
        this.nvccForArch = nvccForArch;
    }

    /** The project's builds of {@code kernel} (mangled, as recorded), or why there are none. */
    public Object of(String kernel, String recordedPtx) {
        return of(kernel, recordedPtx, null);
    }

    /**
     * The same, for a recording made on a GPU of virtual architecture {@code deviceArch} ({@code compute_90}; null:
     * unknown): a command that asks for a newer architecture than that GPU (a build for a list of GPUs, whose highest
     * entry the build model reads) is built for the recording GPU's instead, which the build also targets or its
     * driver could not have run the program there.
     */
    public Object of(String kernel, String recordedPtx, String deviceArch) {
        return byKernel.computeIfAbsent(
                kernel + "\u0000" + (recordedPtx == null ? 0 : recordedPtx.hashCode()) + "\u0000" + deviceArch,
                k -> find(kernel, recordedPtx, deviceArch));
    }

    /** {@code arch}, or {@code deviceArch} when that is older (both {@code compute_NN}; unparsable: arch). */
    static String capped(String arch, String deviceArch) {
        int a = archNumber(arch), d = archNumber(deviceArch);
        return a > 0 && d > 0 && a > d ? "compute_" + d : arch;
    }

    private static int archNumber(String arch) {
        if (arch == null) return -1;
        Matcher m = Pattern.compile("^(?:compute|sm)_(\\d{2,3})[a-z]?$").matcher(arch);
        return m.matches() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static final Pattern INCLUDE = Pattern.compile("(?m)^\\s*#\\s*include\\s*\"([^\"\\n]+)\"");

    /**
     * A header the unit includes by a plain relative name (its own directory or below, no {@code ..}) whose text
     * defines the kernel, or null: CUDA code often keeps its kernels in a {@code _kernel.cuh} the unit includes.
     */
    private static String includedDefinition(Path unit, String text, Pattern defines) {
        Matcher m = INCLUDE.matcher(text);
        Path dir = unit.getParent();
        while (m.find()) {
            String name = m.group(1);
            if (name.startsWith("/") || name.contains("..") || name.contains("\\") || dir == null) continue;
            String h = read(dir.resolve(name));
            if (h != null && defines.matcher(h).find()) return name;
        }
        return null;
    }

    private Object find(String kernel, String recordedPtx, String deviceArch) {
        if (units.isEmpty()) return new NotFound("the scanned PATHs hold no .cu unit");
        Map<Unit, String> candidates = new LinkedHashMap<>();
        if (recordedPtx != null) {
            List<String> sources = new ArrayList<>();
            Matcher m = FILE.matcher(recordedPtx);
            while (m.find())
                if (m.group(1).endsWith(".cu")) sources.add(m.group(1).replace('\\', '/'));
            int best = 0;
            List<Unit> top = new ArrayList<>();
            for (Unit u : units) {
                int s = 0;
                for (String src : sources) s = Math.max(s, commonSuffix(src, u.shown()));
                if (s == 0) continue;
                if (s > best) {
                    best = s;
                    top.clear();
                }
                if (s == best) top.add(u);
            }
            for (Unit u : top) candidates.put(u, "the recorded PTX's source file (" + String.join(", ", sources) + ")");
        }
        String simple = dev.numlint.ptx.Demangler.simpleName(StaticName.base(kernel));
        Pattern defines = Pattern.compile("__global__[^;{]*\\b" + Pattern.quote(simple) + "\\s*[(<]");
        for (Unit u : units) {
            if (candidates.containsKey(u)) continue;
            String text = read(u.file());
            if (text != null && defines.matcher(text).find())
                candidates.put(u, "the unit that defines __global__ " + simple);
        }
        for (Unit u : units) {
            if (candidates.containsKey(u)) continue;
            String text = read(u.file());
            String header = text == null ? null : includedDefinition(u.file(), text, defines);
            if (header != null)
                candidates.put(u, "the unit that includes " + header + ", which defines __global__ " + simple);
        }
        if (candidates.isEmpty())
            return new NotFound("no .cu unit of the scanned PATHs defines " + simple
                    + " (nor is named by the recorded PTX's .file)");
        List<String> tried = new ArrayList<>();
        // a unit a build file compiles before one whose command numlint guessed (a tree of many programs: the
        // kernel's name may be defined in more than one)
        List<Map.Entry<Unit, String>> order = new ArrayList<>(candidates.entrySet());
        order.sort(java.util.Comparator.comparing(e -> e.getKey().command().guessed()));
        for (Map.Entry<Unit, String> c : order) {
            Unit u = c.getKey();
            String arch = capped(u.command().arch(), deviceArch);
            CompileCommand command = arch.equals(u.command().arch())
                    ? u.command()
                    : new CompileCommand(u.command().flags(), arch, u.command().from());
            java.util.Optional<Nvcc> nvcc = nvccForArch.apply(arch);
            if (nvcc.isEmpty()) return new NotFound("nvcc not found: the project's compile command cannot be run");
            List<Variants.PtxVariant> vs = Variants.nvccVariantsOf(u.command().flags());
            Nvcc.Result asBuilt =
                    nvcc.get().compile(u.file(), withLineInfo(vs.get(0).flags()));
            if (asBuilt.ptx == null) {
                tried.add(u.shown() + ": " + asBuilt.error);
                continue;
            }
            String entry = StaticName.entryFor(kernel, asBuilt.ptx);
            if (entry == null) {
                tried.add(u.shown() + ": its build does not define " + kernel);
                continue;
            }
            // a static kernel of a separately compiled unit (__nv_static_<module id>_...): the rebuild may name its
            // module differently (another path on the command line); its static names take the recorded ones
            String from = entry.equals(kernel) ? null : StaticName.prefix(entry), to = StaticName.prefix(kernel);
            List<Build> builds = new ArrayList<>();
            for (Variants.PtxVariant v : vs) {
                Nvcc.Result r = v == vs.get(0) ? asBuilt : nvcc.get().compile(u.file(), withLineInfo(v.flags()));
                String ptx = r.ptx == null || from == null ? r.ptx : r.ptx.replace(from, to);
                builds.add(new Build(v.name(), v.rule(), v.flags(), ptx, r.ptx == null ? r.error : null));
            }
            List<String> notes = new ArrayList<>(asBuilt.notes);
            if (from != null)
                notes.add("the rebuild names the unit's static symbols " + from + "...; renamed to the recorded " + to
                        + "... (separate compilation names a static kernel after its module)");
            if (command != u.command())
                notes.add("built for " + arch + ", the architecture of the GPU the launch was recorded on: the"
                        + " command's highest is " + u.command().arch() + ", whose PTX that GPU cannot load");
            if (!tried.isEmpty()) notes.add("units tried before: " + String.join("; ", tried));
            return new Found(u, c.getValue(), command.describe(u.shown()), builds, notes);
        }
        return new NotFound("no unit's build defines " + kernel + ": " + String.join("; ", tried));
    }

    private static List<String> withLineInfo(List<String> flags) {
        List<String> f = new ArrayList<>(flags);
        if (!f.contains("-lineinfo") && !f.contains("--generate-line-info")) f.add("-lineinfo");
        return f;
    }

    /** Path components two '/'-separated paths share at their ends (0: not even the file name). */
    static int commonSuffix(String a, String b) {
        String[] x = a.split("/"), y = b.split("/");
        int n = 0;
        while (n < x.length && n < y.length && x[x.length - 1 - n].equals(y[y.length - 1 - n])) n++;
        return n;
    }

    private static String read(Path f) {
        try {
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) || Files.size(f) > MAX_UNIT_BYTES) return null;
            return Files.readString(f, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
