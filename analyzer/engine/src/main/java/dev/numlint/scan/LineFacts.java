package dev.numlint.scan;

import dev.numlint.model.Finding;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.UnitArithmetic;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the front ends tell the scan about source lines, by file (a path as the scan relativizes it), for merging the
 * layers: the lines whose values the CUDA source layer proved random variates
 * ({@link dev.numlint.spi.ScanContext#addRandomVariateLines}) and, from the PTX layer, the lines the compiler emitted
 * code for and those of them that carry an FP64 instruction ({@link dev.numlint.spi.ScanContext#addCompiledLines}).
 * Thread-safe while the front ends add.
 */
final class LineFacts {
    /** Lines whose values the source layer proved random variates. */
    final Map<String, Set<Integer>> variates = new ConcurrentHashMap<>();

    private final Map<String, Set<Integer>> code = new ConcurrentHashMap<>();
    private final Map<String, Set<Integer>> fp64 = new ConcurrentHashMap<>();

    /** What the layers saw of each unit's arithmetic ({@link dev.numlint.spi.ScanContext#addUnitArithmetic}). */
    private final Map<String, List<UnitArithmetic>> units = new ConcurrentHashMap<>();

    void addUnit(UnitArithmetic u) {
        units.computeIfAbsent(u.file(), k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                .add(u);
    }

    /** The unit facts, by unit, in a stable order. */
    Map<String, List<UnitArithmetic>> units() {
        Map<String, List<UnitArithmetic>> out = new java.util.TreeMap<>();
        units.forEach((k, v) -> {
            synchronized (v) {
                out.put(k, List.copyOf(v));
            }
        });
        return out;
    }

    /** The functions the front ends saw defined or declared ({@link dev.numlint.spi.ScanContext#addFunctions}). */
    private final Set<dev.numlint.model.DeclaredFunction> functions = ConcurrentHashMap.newKeySet();

    void addFunctions(java.util.Collection<dev.numlint.model.DeclaredFunction> fns) {
        functions.addAll(fns);
    }

    /** The declared functions, in a stable order (file, name, type). */
    List<dev.numlint.model.DeclaredFunction> functions() {
        return functions.stream()
                .sorted(java.util.Comparator.comparing(dev.numlint.model.DeclaredFunction::file)
                        .thenComparing(dev.numlint.model.DeclaredFunction::name)
                        .thenComparing(f -> String.valueOf(f.floating())))
                .toList();
    }

    /** The calls of the files the front ends read whole ({@link dev.numlint.spi.ScanContext#addCalls}), by file. */
    private final Map<String, dev.numlint.model.FileCalls> calls = new ConcurrentHashMap<>();

    /** A file analyzed more than once (through several includers, in several configurations): every call counts. */
    void addCalls(dev.numlint.model.FileCalls c) {
        calls.merge(c.file(), c, (a, b) -> {
            List<dev.numlint.model.FileCalls.Call> all = new ArrayList<>(a.calls());
            all.addAll(b.calls());
            return new dev.numlint.model.FileCalls(a.file(), all);
        });
    }

    /** The calls of each file read whole, in file order. */
    List<dev.numlint.model.FileCalls> calls() {
        return calls.values().stream()
                .sorted(java.util.Comparator.comparing(dev.numlint.model.FileCalls::file))
                .toList();
    }

    /** The kernel launches the front ends read ({@link dev.numlint.spi.ScanContext#addLaunches}). */
    private final Set<dev.numlint.model.KernelLaunch> launches = ConcurrentHashMap.newKeySet();

    void addLaunches(java.util.Collection<dev.numlint.model.KernelLaunch> ls) {
        launches.addAll(ls);
    }

    /** The kernel launches, in a stable order (file, line, kernel, configuration). */
    List<dev.numlint.model.KernelLaunch> launches() {
        return launches.stream()
                .sorted(java.util.Comparator.comparing(dev.numlint.model.KernelLaunch::file)
                        .thenComparingInt(dev.numlint.model.KernelLaunch::line)
                        .thenComparing(dev.numlint.model.KernelLaunch::kernel)
                        .thenComparing(l -> String.valueOf(l.configuration())))
                .toList();
    }

    void addVariates(String file, Set<Integer> lines) {
        if (!lines.isEmpty()) lines(variates, file).addAll(lines);
    }

    void addCompiled(String file, Set<Integer> code, Set<Integer> fp64) {
        lines(this.code, file).addAll(code);
        lines(this.fp64, file).addAll(fp64);
    }

    /** The units the PTX layer tried, and those whose PTX it read ({@link dev.numlint.spi.ScanContext#addPtxUnit}). */
    private final Set<String> ptxTried = ConcurrentHashMap.newKeySet();

    private final Set<String> ptxRead = ConcurrentHashMap.newKeySet();

    void addPtxUnit(String unit, boolean read) {
        (read ? ptxRead : ptxTried).add(unit);
    }

    /** Whether the PTX layer read the PTX of every unit it tried, and tried one: its lines are the GPU's whole code. */
    boolean ptxComplete() {
        return !ptxTried.isEmpty() && ptxRead.containsAll(ptxTried);
    }

    private static Set<Integer> lines(Map<String, Set<Integer>> by, String file) {
        return by.computeIfAbsent(file, k -> ConcurrentHashMap.newKeySet());
    }

    /** Facts of no lines: no variates, no PTX. */
    static LineFacts none() {
        return new LineFacts();
    }

    /**
     * A source finding of a rule whose policy says {@code no-fp64-note} (double arithmetic written in the source),
     * on lines the PTX compiled (some line of its span has PTX code) none of which carries an FP64 instruction: the
     * compiler narrowed the double arithmetic to float ({@code 0.25*(a+b)} of floats rounded to float is a float
     * multiply by an exact factor, the same result), so nothing double runs on the GPU. It becomes a note with a
     * bounded impact, the message says why ({@code ptx-no-fp64}) and the property {@code narrowedInPtx} marks it. A
     * finding that a PTX finding of its rule joins (on its lines, or moved there by the merge), one in a file without
     * PTX, or one on lines without PTX code (host code, a
     * function nvcc did not emit) keeps its level: the source layer's guess stands where no PTX contradicts it.
     */
    List<Finding> narrowed(List<Finding> in) {
        if (code.isEmpty()) {
            return in;
        }
        Set<String> ptx = new java.util.HashSet<>();
        for (Finding f : in) {
            if (f.layer() == Layer.PTX)
                ptx.add(f.ruleId() + "\u0000" + f.location().file() + "\u0000"
                        + f.location().startLine());
        }
        List<Finding> out = new ArrayList<>(in.size());
        for (Finding f : in) {
            out.add(narrowed(f, ptx));
        }
        return out;
    }

    /**
     * A source finding about code nvcc compiles for the GPU only (property {@link Finding#DEVICE_CODE}: nvcc's
     * {@code -fmad}, its fast-math flags) in a function none of whose lines has code in the PTX, when the PTX of every
     * unit the scan compiled was read: nvcc emitted no device code for the function (a {@code __host__ __device__}
     * function only host code calls, a kernel template nothing instantiates), so the hazard does not run. It becomes a
     * note with a bounded impact, the message says why ({@code ptx-not-emitted}) and the property
     * {@code notEmittedInPtx} marks it. The function is the innermost definition with lines that the front ends gave
     * ({@link #addFunctions}: those of files the build compiles) holding the finding's line; without one, or with a
     * unit whose PTX was not read, the finding keeps its level.
     */
    List<Finding> notEmitted(List<Finding> in) {
        if (!ptxComplete()) {
            return in;
        }
        Map<String, List<dev.numlint.model.DeclaredFunction>> byFile = new java.util.HashMap<>();
        for (dev.numlint.model.DeclaredFunction d : functions) {
            if (d.line() > 0 && d.endLine() >= d.line())
                byFile.computeIfAbsent(d.file(), k -> new ArrayList<>()).add(d);
        }
        List<Finding> out = new ArrayList<>(in.size());
        for (Finding f : in) {
            out.add(
                    f.layer() == Layer.CUDA_SOURCE
                                    && f.level() != Level.NOTE
                                    && Boolean.TRUE.equals(f.properties().get(Finding.DEVICE_CODE))
                            ? notEmitted(f, byFile.getOrDefault(f.location().file(), List.of()))
                            : f);
        }
        return out;
    }

    private Finding notEmitted(Finding f, List<dev.numlint.model.DeclaredFunction> definitions) {
        int line = f.location().startLine();
        dev.numlint.model.DeclaredFunction inner = null;
        for (dev.numlint.model.DeclaredFunction d : definitions) {
            if (d.line() <= line
                    && line <= d.endLine()
                    && (inner == null || d.endLine() - d.line() < inner.endLine() - inner.line())) inner = d;
        }
        if (inner == null) {
            return f;
        }
        Set<Integer> withCode = code.getOrDefault(f.location().file(), Set.of());
        for (int l = inner.line(); l <= inner.endLine(); l++) {
            if (withCode.contains(l)) {
                return f;
            }
        }
        return ptxNote(f, "ptx-not-emitted", "notEmittedInPtx");
    }

    /**
     * {@code f} as a note whose bounded impact and message say what the PTX showed (the catalog phrase {@code why}),
     * marked with the property {@code property}.
     */
    private static Finding ptxNote(Finding f, String why, String property) {
        String text = RuleCatalog.get().phrase(why);
        String expression = f.identity().expression();
        Finding.Builder b = f.toBuilder()
                .level(Level.NOTE)
                .impact(new Impact(Impact.Kind.BOUNDED, text, null, null))
                .property(property, true);
        if (expression != null) {
            b.message(RuleCatalog.get().phrase("ptx-no-fp64-message", "message", expression, "consequence", text));
        }
        return b.build();
    }

    private Finding narrowed(Finding f, Set<String> ptx) {
        if (f.layer() != Layer.CUDA_SOURCE
                || !RuleCatalog.get().policy(f.ruleId()).noFp64Note()) {
            return f;
        }
        Set<Integer> withCode = code.get(f.location().file());
        if (withCode == null) {
            return f;
        }
        Set<Integer> withFp64 = fp64.getOrDefault(f.location().file(), Set.of());
        int first = f.location().startLine();
        int last = Math.max(first, f.location().endLine());
        boolean compiled = false;
        for (int line = first; line <= last; line++) {
            if (withFp64.contains(line)
                    || ptx.contains(f.ruleId() + "\u0000" + f.location().file() + "\u0000" + line)) {
                return f; // double code on the line, or a PTX finding of the rule the merge joins to it
            }
            compiled |= withCode.contains(line);
        }
        if (!compiled) {
            return f;
        }
        return ptxNote(f, "ptx-no-fp64", "narrowedInPtx");
    }
}
