package dev.numlint.scan;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.FindingVerdict;
import dev.numlint.model.HostLaunch;
import dev.numlint.model.Layer;
import dev.numlint.model.Verdict;
import dev.numlint.spi.HostCodeReader;
import dev.numlint.validation.CompileCommand;
import dev.numlint.validation.ValidationOptions;
import dev.numlint.validation.Validator;
import dev.numlint.validation.replay.ProjectBuilds;
import dev.numlint.validation.report.FindingResult;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Joins a scan with the validation stage: which kernels the analyzers flagged, validating them as they are really
 * built (each file with its own build flags), and attaching the verdicts to the scan's findings.
 */
public final class ScanValidation {
    private ScanValidation() {}

    /**
     * Kernels with unsuppressed CUDA-source or PTX findings: absolute .cu/.ptx file path, then kernel (function)
     * name, then the rule ids found in it.
     */
    public static Map<String, Map<String, Set<String>>> flaggedKernels(ScanResult scan) {
        Map<String, Map<String, Set<String>>> out = new TreeMap<>();
        for (Finding f : scan.findings()) {
            if (f.suppressed() || f.function() == null) continue;
            if (f.layer() != Layer.CUDA_SOURCE && f.layer() != Layer.PTX) continue;
            String file = ptxFileOf(f);
            if (file == null) file = f.location().file();
            if (!(file.endsWith(".cu") || file.endsWith(".ptx"))) continue;
            String abs = absolute(scan, file).toString();
            out.computeIfAbsent(abs, k -> new TreeMap<>())
                    .computeIfAbsent(f.function(), k -> new TreeSet<>())
                    .add(f.ruleId());
            String mangled = f.identity().symbol(); // the kernel's name in the compiled code (PTX findings)
            if (mangled != null) {
                out.get(abs).computeIfAbsent(mangled, k -> new TreeSet<>()).add(f.ruleId());
            }
        }
        return out;
    }

    /**
     * For a PTX finding read from a .ptx file (reported at the .cu line its .loc names), that .ptx file: validation
     * runs the PTX that was scanned, not a fresh nvcc build of the .cu, and reports under the .ptx.
     */
    private static String ptxFileOf(Finding f) {
        if (f.layer() != Layer.PTX) return null;
        for (dev.numlint.model.Evidence e : f.evidence()) {
            if ("ptx".equals(e.kind())
                    && e.location() != null
                    && e.location().file().endsWith(".ptx")) return e.location().file();
        }
        return null;
    }

    /**
     * Validates the flagged kernels of the scan (every kernel of every .cu/.ptx file under {@code paths} with
     * {@code allKernels}). Each file is built with the flags the scan found for it plus {@code base.buildFlags}.
     * Kernel result paths are made relative to the scan root.
     */
    public static ValidationReport validate(ScanResult scan, List<Path> paths, ValidationOptions base)
            throws IOException {
        Map<String, Map<String, Set<String>>> flagged = flaggedKernels(scan);
        List<Path> files = new ArrayList<>();
        if (base.allKernels) {
            for (Path p : paths) {
                if (Files.isDirectory(p)) {
                    files.addAll(regularFiles(
                            p,
                            f -> Files.isRegularFile(f)
                                    && (f.toString().endsWith(".cu")
                                            || f.toString().endsWith(".ptx"))));
                } else {
                    files.add(p.toAbsolutePath().normalize());
                }
            }
        } else {
            flagged.keySet().forEach(f -> files.add(Path.of(f)));
        }
        ValidationReport report = new ValidationReport();
        if (base.hostLaunches == null) base.hostLaunches = hostLaunches(scan, paths);
        if (!files.isEmpty()) base.probeGpu(); // once for all files: the copies below share the answer
        for (Path file : files) {
            ValidationOptions o = base.copy();
            // what nvcc may read: the scan's trust boundary (the scanned PATHs), never the working directory
            if (o.roots.isEmpty()) {
                List<Path> scanned = paths.isEmpty() ? List.of(scan.root()) : paths;
                o.roots = new ArrayList<>(
                        dev.numlint.spi.TrustBoundary.of(scanned).roots());
            }
            // the project's own compile command for the unit (flags, architecture), with where it came from
            CompileCommand cmd = compileCommand(scan, file, base);
            o.buildFlags = new ArrayList<>(cmd.flags());
            o.arch = cmd.arch();
            o.compileCommand = cmd;
            if (!base.allKernels) {
                o.flagged = Map.of(file.toString(), flagged.getOrDefault(file.toString(), Map.of()));
            }
            ValidationReport part = Validator.validate(List.of(file), o);
            part.environment.forEach(report.environment::putIfAbsent);
            for (KernelResult k : part.kernels) {
                k.file = scan.root()
                        .relativize(Path.of(k.file).toAbsolutePath().normalize())
                        .toString()
                        .replace('\\', '/');
                for (FindingResult fr : k.findings) { // source paths from the PTX's .file: relative to the root
                    if (fr.source == null) continue;
                    Path sp = Path.of(fr.source);
                    Path abs = (sp.isAbsolute()
                                    ? sp
                                    : Path.of(k.file).getParent() == null
                                            ? sp
                                            : scan.root()
                                                    .resolve(k.file)
                                                    .getParent()
                                                    .resolve(sp))
                            .toAbsolutePath()
                            .normalize();
                    if (abs.startsWith(scan.root().toAbsolutePath().normalize())) {
                        fr.source = scan.root()
                                .toAbsolutePath()
                                .normalize()
                                .relativize(abs)
                                .toString()
                                .replace('\\', '/');
                    }
                }
                report.kernels.add(k);
            }
        }
        return report;
    }

    /**
     * The compile command of {@code file} as the scan found it (the compile database, else the build files), with
     * the command line's {@code --nvcc-flags} and {@code --cuda-arch} applied as in the scan's PTX layer.
     */
    public static CompileCommand compileCommand(ScanResult scan, Path file, ValidationOptions base) {
        BuildContext ctx = scan.buildContext(file);
        return CompileCommand.of(ctx, base.buildFlags, base.arch, base.archGiven);
    }

    /**
     * The .cu units under {@code paths} (inside the scan root) with the compile command the scan found for each, for
     * rebuilding recorded kernels ({@code validate --replay DIR PATH}); nvcc may read only the scanned trees.
     */
    public static ProjectBuilds projectBuilds(ScanResult scan, List<Path> paths, ValidationOptions base)
            throws IOException {
        Path root = scan.root().toAbsolutePath().normalize();
        List<ProjectBuilds.Unit> units = new ArrayList<>();
        for (Path p : paths) {
            Path a = p.toAbsolutePath().normalize();
            List<Path> cu = Files.isDirectory(a)
                    ? regularFiles(
                            a,
                            f -> Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                                    && f.toString().endsWith(".cu"))
                    : a.toString().endsWith(".cu") ? List.of(a) : List.of();
            for (Path f : cu) {
                if (!f.startsWith(root)) continue;
                String rel = root.relativize(f).toString().replace('\\', '/');
                units.add(new ProjectBuilds.Unit(f, rel, compileCommand(scan, f, base)));
            }
        }
        List<Path> roots = base.roots.isEmpty()
                ? dev.numlint.spi.TrustBoundary.of(paths.isEmpty() ? List.of(scan.root()) : paths)
                        .roots()
                : base.roots;
        Map<String, java.util.Optional<dev.numlint.validation.Nvcc>> byArch =
                new java.util.concurrent.ConcurrentHashMap<>();
        return new ProjectBuilds(
                units,
                arch -> byArch.computeIfAbsent(
                        arch, a -> dev.numlint.validation.Nvcc.find(base.nvcc, a, roots, base.cacheDir)));
    }

    private static final java.util.regex.Pattern HOST_FILE =
            java.util.regex.Pattern.compile(".*\\.(cu|cuh|cpp|cc|cxx|c|h|hpp|java)$");
    /** Host files larger than this are not read for launches. */
    private static final long MAX_HOST_FILE = 4L << 20;

    /**
     * Kernel launches in the host code under paths (files inside the scan root only), by kernel name (the first
     * launch of a kernel in file order) and by file and kernel name ({@link Validator#launchKey}): validation takes
     * the launch in the kernel's own file first.
     */
    /**
     * The files under {@code dir} that {@code keep} accepts, sorted; links are not followed and version-control
     * directories not entered. A directory the system cannot open (a path longer than it allows, no permission) is
     * passed over: the scan's file discovery already named it in a notification, and validation goes on.
     */
    static List<Path> regularFiles(Path dir, java.util.function.Predicate<Path> keep) throws IOException {
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(dir, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(
                    Path d, java.nio.file.attribute.BasicFileAttributes attrs) {
                Path n = d.getFileName();
                return !d.equals(dir) && n != null && dev.numlint.spi.TrustBoundary.VCS_DIRS.contains(n.toString())
                        ? java.nio.file.FileVisitResult.SKIP_SUBTREE
                        : java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes attrs) {
                if (keep.test(f)) out.add(f);
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path f, IOException e) {
                return java.nio.file.FileVisitResult.CONTINUE;
            }
        });
        out.sort(null);
        return out;
    }

    public static Map<String, HostLaunch> hostLaunches(ScanResult scan, List<Path> paths) throws IOException {
        Map<String, HostLaunch> out = new LinkedHashMap<>();
        // a front end reads them (the CUDA front end's host launch reader), found through the spi
        HostCodeReader<HostLaunch> reader = HostCodeReader.of(HostLaunch.class);
        if (reader == null) return out;
        Path root = scan.root().toAbsolutePath().normalize();
        List<Path> files = new ArrayList<>();
        for (Path p : paths) {
            Path a = p.toAbsolutePath().normalize();
            if (Files.isDirectory(a)) {
                files.addAll(regularFiles(
                        a,
                        f -> Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                                && HOST_FILE.matcher(f.getFileName().toString()).matches()));
            } else if (Files.isRegularFile(a, java.nio.file.LinkOption.NOFOLLOW_LINKS)) files.add(a);
        }
        for (Path f : files) {
            if (!f.startsWith(root) || Files.size(f) > MAX_HOST_FILE) continue;
            String text;
            try {
                text = Files.readString(f, java.nio.charset.StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                continue; // not UTF-8 text: the scan itself reports unreadable files
            }
            String rel = root.relativize(f).toString().replace('\\', '/');
            for (HostLaunch l : reader.read(rel, text)) {
                if (l.kernel == null) continue;
                out.putIfAbsent(l.kernel, l);
                // and by translation unit: two .cu files may each define and launch a kernel of one name
                out.putIfAbsent(Validator.launchKey(rel, l.kernel), l);
            }
        }
        return out;
    }

    /**
     * The scan's findings with each validated finding's typed verdict ({@link FindingVerdict}: verdict, kernel,
     * executor, element and ULP statistics, which build is closer to the reference, the floating-point exceptions
     * counted on its line), which the reports write as {@code properties.validation}.
     */
    public static List<Finding> annotate(ScanResult scan, ValidationReport report) {
        List<Finding> out = new ArrayList<>(scan.findings().size());
        for (Finding f : scan.findings()) {
            KernelResult k = f.function() == null ? null : kernelOf(report, f);
            if (k == null) {
                out.add(f);
                continue;
            }
            Verdict verdict = k.verdict;
            Long differing = k.elementsDiffering;
            FindingResult match = null;
            for (FindingResult fr : k.findings) { // the same rule, at the same source line when known
                if (!f.ruleId().equals(fr.rule)) continue;
                if (match == null
                        || fr.sourceLine != null
                                && fr.sourceLine == f.location().startLine()) match = fr;
            }
            if (match != null) {
                if (match.verdict != null) verdict = match.verdict;
                if (match.elementsDiffering != null) differing = match.elementsDiffering;
            }
            // the kernel's attribution table: the differing elements each single-switch build alone removes
            List<FindingVerdict.Attribution> attribution = new ArrayList<>();
            for (dev.numlint.validation.report.Attribution a : k.attribution) {
                attribution.add(new FindingVerdict.Attribution(a.rule, a.variant, a.elementsDiffering));
            }
            FindingVerdict v = new FindingVerdict(
                    verdict,
                    k.kernel,
                    k.executor,
                    k.inputs,
                    k.elementsCompared,
                    differing,
                    k.maxUlp,
                    k.meanUlp,
                    k.closerToReference,
                    k.reason,
                    attribution,
                    k.build,
                    match == null ? null : match.fusedInMachineCode,
                    // floating-point exceptions the as-built run raised on this finding's line (empty: none seen)
                    match == null ? null : match.exceptions,
                    // the ULP distances of the elements this hazard's switch alone changes, by bucket
                    match == null ? null : match.ulpHistogram);
            out.add(f.toBuilder().verdict(v).build());
        }
        return out;
    }

    private static KernelResult kernelOf(ValidationReport report, Finding f) {
        String ptx = ptxFileOf(f);
        for (KernelResult k : report.kernels) {
            if (!k.file.equals(f.location().file()) && !k.file.equals(ptx)) continue;
            String simple = dev.numlint.util.Demangler.simpleName(k.kernel);
            if (f.function().equals(k.kernel) || f.function().equals(simple)) {
                return k;
            }
        }
        return null;
    }

    private static Path absolute(ScanResult scan, String file) {
        Path p = Path.of(file);
        return (p.isAbsolute() ? p : scan.root().resolve(p)).toAbsolutePath().normalize();
    }
}
