package dev.numlint.validation.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.model.Verdict;
import dev.numlint.toolchain.GuardedProcess;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The capture layer without a GPU: numlint_capture.c is built with the host's C compiler against a FAKE driver and
 * CUPTI (fake_cuda.c: device memory is host memory, cuInit loads CUDA_INJECTION64_PATH like the real driver, API
 * calls are reported to the CUPTI subscriber), a tiny driver-API program (fake_program.c) loads a PTX module and
 * launches saxpy_fma three times, numlint record records it, and the recording is replayed on the interpreter.
 * Skipped, with the reason, only where there is no C compiler or no cuda.h/cupti.h to compile against.
 */
class CaptureReplayTest {
    static final int N = 1000;

    @TempDir
    static Path tmp;

    static Path cc, include, fakeDir, program, library;

    static Path headers() {
        for (String d : new String[] {"/usr/local/cuda/include", "/usr/include", "/opt/cuda/include"})
            if (Files.isRegularFile(Path.of(d, "cupti.h")) && Files.isRegularFile(Path.of(d, "cuda.h")))
                return Path.of(d);
        return null;
    }

    static void compile(List<String> args) throws IOException {
        GuardedProcess.Result r = GuardedProcess.run(GuardedProcess.builder(cc)
                .args(args)
                .timeout(Duration.ofMinutes(2))
                .cpuSeconds(120));
        assertTrue(r.ok(), "cc " + args + ": " + r.output());
    }

    static Path resource(String name) throws IOException {
        Path p = tmp.resolve(name);
        try (InputStream in = CaptureReplayTest.class.getResourceAsStream("/replay/" + name)) {
            Files.copy(in, p);
        }
        return p;
    }

    @BeforeAll
    static void build() throws IOException {
        cc = Files.isExecutable(Path.of("/usr/bin/cc")) ? Path.of("/usr/bin/cc") : null;
        assumeTrue(cc != null, "no C compiler at /usr/bin/cc: the capture layer cannot be built here");
        include = headers();
        assumeTrue(
                include != null, "no cuda.h and cupti.h (CUDA toolkit headers) to compile the capture layer against");
        fakeDir = Files.createDirectories(tmp.resolve("fake"));
        Path driver = resource("fake_cuda.c"), prog = resource("fake_program.c");
        compile(List.of(
                "-shared",
                "-fPIC",
                "-O2",
                "-I" + include,
                "-o",
                fakeDir.resolve("libcuda.so.1").toString(),
                driver.toString(),
                "-ldl",
                "-lm",
                "-Wl,-soname,libcuda.so.1"));
        Files.createSymbolicLink(fakeDir.resolve("libcuda.so"), Path.of("libcuda.so.1"));
        Path empty = Files.writeString(tmp.resolve("empty.c"), "int numlint_fake_cupti;\n");
        compile(List.of("-shared", "-fPIC", "-o", fakeDir.resolve("libcupti.so").toString(), empty.toString()));
        program = tmp.resolve("fake_program");
        compile(List.of(
                "-O2",
                "-I" + include,
                "-o",
                program.toString(),
                prog.toString(),
                "-L" + fakeDir,
                "-lcuda",
                "-lm",
                "-Wl,-rpath," + fakeDir));
        library = Recorder.build(cc, include, include, fakeDir, tmp.resolve("cache"));
    }

    Recorder.Result record(Path out, long launches, long every, long maxBytes) throws IOException {
        return record(out, launches, every, maxBytes, List.of(program.toString()));
    }

    Recorder.Result record(Path out, long launches, long every, long maxBytes, List<String> command)
            throws IOException {
        Recorder.Options o = new Recorder.Options();
        o.output = out;
        o.command = command;
        o.library = library;
        o.launches = launches;
        o.every = every;
        o.maxBytes = maxBytes;
        return assertTimeoutPreemptively(Duration.ofSeconds(60), () -> Recorder.record(o));
    }

    static float[] floats(byte[] b) {
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        float[] f = new float[b.length / 4];
        for (int i = 0; i < f.length; i++) f[i] = bb.getFloat(4 * i);
        return f;
    }

    @Test
    void libraryIsCachedByItsSource() throws IOException {
        assertEquals(library, Recorder.build(cc, include, include, fakeDir, tmp.resolve("cache")));
    }

    @Test
    void recordsModuleParamsAndBuffersBeforeAndAfter() throws IOException {
        Path out = tmp.resolve("rec-all");
        Recorder.Result r = record(out, 2, 1, 256L << 20);
        assertEquals(0, r.exitCode(), r.outputTail());
        assertTrue(r.outputTail().contains("saxpy_fma: PASSED"), r.outputTail());
        assertEquals(2, r.launches());
        Recording rec = Recording.read(out);
        assertEquals("1", rec.facts.get("version"));
        assertTrue(rec.facts.get("recordedOn").startsWith("numlint fake driver (no GPU)"), rec.facts.toString());
        assertEquals(1, rec.modules.size());
        assertTrue(rec.modules.get(0).ptx.contains(".entry saxpy_fma("));
        assertTrue(
                rec.notices.stream().anyMatch(n -> n.startsWith("launches saxpy_fma: --launches 2 reached")),
                rec.notices.toString());
        Recording.RecordedLaunch l0 = rec.launches.get(0), l1 = rec.launches.get(1);
        assertEquals("saxpy_fma", l0.kernel);
        assertArrayEquals(new int[] {8, 1, 1}, l0.grid);
        assertArrayEquals(new int[] {128, 1, 1}, l0.block);
        // layout: x, y at 0 and 8 (pointers into allocations 0 and 1), a at 16, n at 20
        assertEquals(4, l0.paramLayout.size());
        assertArrayEquals(new int[] {0, 8, 0, 0}, l0.paramLayout.get(0));
        assertArrayEquals(new int[] {8, 8, 1, 0}, l0.paramLayout.get(1));
        ByteBuffer p = ByteBuffer.wrap(l0.params).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(3.0f, p.getFloat(16));
        assertEquals(N, p.getInt(20));
        float[] x = floats(l0.before.get(0)), y0 = floats(l0.before.get(1)), y1 = floats(l0.after.get(1));
        assertEquals(N, x.length);
        for (int i = 0; i < N; i++) {
            assertEquals(1.0f / (i + 3), x[i]);
            assertEquals(-0.1f * i, y0[i]);
            assertEquals(Math.fma(3.0f, x[i], y0[i]), y1[i], "element " + i);
        }
        // the second launch starts from the first one's output
        assertArrayEquals(l0.after.get(1), l1.before.get(1));
        assertArrayEquals(l0.before.get(0), l0.after.get(0), "x is only read");
    }

    @Test
    void everyKthLaunchAndMaxBytesGiveNotices() throws IOException {
        Path sampled = tmp.resolve("rec-every");
        record(sampled, 5, 2, 256L << 20);
        Recording rec = Recording.read(sampled);
        assertEquals(2, rec.launches.size(), "launches 0 and 2 of 3");
        assertArrayEquals(
                rec.launches.get(0).after.get(1),
                floatsToBytes(floats(rec.launches.get(0).after.get(1))),
                "sanity");
        assertFalse(
                java.util.Arrays.equals(
                        rec.launches.get(0).after.get(1),
                        rec.launches.get(1).before.get(1)),
                "launch 1 ran unrecorded between them");
        Path small = tmp.resolve("rec-small");
        record(small, 3, 1, 9000);
        Recording s = Recording.read(small);
        assertTrue(s.notices.stream().anyMatch(n -> n.startsWith("max-bytes")), s.notices.toString());
        assertTrue(s.launches.stream().allMatch(l -> l.unusable != null), "no launch's buffers fit in 9000 bytes");
    }

    static byte[] floatsToBytes(float[] f) {
        ByteBuffer b = ByteBuffer.allocate(4 * f.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : f) b.putFloat(v);
        return b.array();
    }

    @Test
    void replayReproducesTheRecordedOutputsBitForBit() throws IOException {
        Path out = tmp.resolve("rec-replay");
        record(out, 1, 1, 256L << 20);
        ValidationReport r = new Replayer(100_000_000L).replay(out);
        assertEquals(1, r.kernels.size());
        KernelResult k = r.kernels.get(0);
        assertNotNull(k.verdict, k.reason);
        assertTrue(k.launch.get("asBuiltReproduced").startsWith("yes: all 2000 elements"), k.launch.toString());
        assertEquals(N, k.elementsCompared, "only y changed: " + k.reason);
        assertTrue(k.verdict != Verdict.NOT_RUNNABLE, k.reason);
    }

    @Test
    void constantTablesTheProgramWroteAreRecordedAndRestored() throws IOException {
        // scale_const reads c_table, which the program filled with cuModuleGetGlobal + cuMemcpyHtoD
        // (cudaMemcpyToSymbol); without it the replay reads zeros and cannot reproduce the recorded outputs
        Path out = tmp.resolve("rec-const");
        Recorder.Result res = record(out, 1, 1, 256L << 20, List.of(program.toString(), "const"));
        assertEquals(0, res.exitCode(), res.outputTail());
        assertTrue(res.outputTail().contains("scale_const: PASSED"), res.outputTail());
        Recording rec = Recording.read(out);
        Recording.RecordedLaunch l = rec.launches.get(0);
        assertEquals("scale_const", l.kernel);
        assertEquals(1, l.globals.size());
        assertEquals("c_table", l.globals.get(0).name);
        assertArrayEquals(floatsToBytes(new float[] {0.5f, 3.0f, -1.25f, 1e-3f}), l.globals.get(0).before);
        assertArrayEquals(l.globals.get(0).before, l.globals.get(0).after, "a __constant__ is only read");
        ValidationReport r = new Replayer(100_000_000L).replay(out);
        KernelResult k = r.kernels.get(0);
        assertTrue(k.launch.get("asBuiltReproduced").startsWith("yes: all 2000 elements"), k.launch.toString());
        assertTrue(
                k.notes.contains("module variables restored from the recording: [const c_table]"), k.notes.toString());
        // and on the (stand-in) GPU: the job carries the variables, written into the loaded module
        Path gpuTmp = Files.createDirectories(tmp.resolve("gpu-tmp"));
        KernelResult g = new Replayer(
                        100_000_000L,
                        new dev.numlint.validation.gpu.GpuProcess.Settings(
                                "test-sticky", 0, Duration.ofSeconds(120), gpuTmp),
                        1)
                .replay(out)
                .kernels
                .get(0);
        assertEquals(0, g.gpu.recordedAgreement.elementsDiffering, g.launch.toString());
        assertEquals(2000, g.gpu.recordedAgreement.elementsCompared);
    }

    @Test
    void textureObjectsAreRecordedAndSampledOnReplay() throws IOException {
        // tex_fetch reads an 8x4 float array through a texture object (point, clamp, unnormalized)
        Path out = tmp.resolve("rec-texture");
        Recorder.Result res = record(out, 1, 1, 256L << 20, List.of(program.toString(), "texture"));
        assertEquals(0, res.exitCode(), res.outputTail());
        assertTrue(res.outputTail().contains("tex_fetch: PASSED"), res.outputTail());
        Recording rec = Recording.read(out);
        Recording.RecordedLaunch l = rec.launches.get(0);
        assertEquals("tex_fetch", l.kernel, rec.problems + " " + rec.notices);
        assertNull(l.unusable, l.unusable);
        assertEquals(1, l.textures.size());
        dev.numlint.validation.interp.Texture t = l.textures.values().iterator().next();
        assertEquals(2, t.dims);
        assertEquals(8, t.width);
        assertEquals(4, t.height);
        assertFalse(t.linear);
        ValidationReport r = new Replayer(100_000_000L).replay(out);
        KernelResult k = r.kernels.get(0);
        assertTrue(k.launch.get("asBuiltReproduced").startsWith("yes: all 32 elements"), k.launch + " " + k.reason);
        // on the (stand-in) GPU the texture object is recreated from the recording and its new handle passed
        Path gpuTmp = Files.createDirectories(tmp.resolve("gpu-tmp-tex"));
        KernelResult g = new Replayer(
                        100_000_000L,
                        new dev.numlint.validation.gpu.GpuProcess.Settings(
                                "test-sticky", 0, Duration.ofSeconds(120), gpuTmp),
                        1)
                .replay(out)
                .kernels
                .get(0);
        assertNotNull(g.gpu.recordedAgreement, g.gpu.reason + " " + g.gpu.fault);
        assertEquals(0, g.gpu.recordedAgreement.elementsDiffering, g.launch.toString());
    }

    @Test
    void aTableWrittenWithCudaMemcpyToSymbolIsRecordedNamedAndRestored() throws IOException {
        // CUDA 13's runtime: cudaMemcpyToSymbol reaches CUPTI as a runtime-API call only (no cuModuleGetGlobal); the
        // host symbol is local to the program (not in its dynamic symbol table): `record` names it from .symtab
        Path out = tmp.resolve("rec-const-runtime");
        Recorder.Result res = record(out, 1, 1, 256L << 20, List.of(program.toString(), "const-runtime"));
        assertEquals(0, res.exitCode(), res.outputTail());
        assertTrue(res.outputTail().contains("scale_const (runtime): PASSED"), res.outputTail());
        List<String> lines = Files.readAllLines(out.resolve("symbols.jsonl"), StandardCharsets.UTF_8);
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(
                lines.get(0).contains("\"name\":\"c_table\"") && lines.get(0).contains("symbol table"), lines.get(0));
        assertTrue(lines.get(1).contains("\"offset\":8"), lines.get(1));
        Recording rec = Recording.read(out);
        assertTrue(rec.launches.get(0).globals.isEmpty(), "nothing resolved by name through the driver");
        KernelResult k = new Replayer(100_000_000L).replay(out).kernels.get(0);
        assertTrue(k.launch.get("asBuiltReproduced").startsWith("yes: all 2000 elements"), k.launch + " " + k.notes);
        assertTrue(
                k.notes.contains(
                        "module variables rebuilt from the program's cudaMemcpyToSymbol writes before this launch:"
                                + " [const c_table]"),
                k.notes.toString());
        assertTrue(k.verdict != Verdict.INCONCLUSIVE && k.verdict != Verdict.NOT_RUNNABLE, k.reason);
        // and on the (stand-in) GPU: the rebuilt table travels as a job file
        Path gpuTmp = Files.createDirectories(tmp.resolve("gpu-tmp-runtime"));
        KernelResult g = new Replayer(
                        100_000_000L,
                        new dev.numlint.validation.gpu.GpuProcess.Settings(
                                "test-sticky", 0, Duration.ofSeconds(120), gpuTmp),
                        1)
                .replay(out)
                .kernels
                .get(0);
        assertEquals(0, g.gpu.recordedAgreement.elementsDiffering, g.launch.toString());
    }

    @Test
    void hostSymbolNamesMatchTheModuleVariables() {
        assertTrue(SymbolWrites.names("c_Kernel", "c_Kernel"));
        assertTrue(SymbolWrites.names("_ZL8c_Kernel", "c_Kernel")); // a C++ file-local variable
        assertTrue(SymbolWrites.names(
                "_ZL7c_Table", "__nv_static_52__aa10df35_30_quasirandomGenerator_kernel_cu_71f57a80_c_Table"));
        assertTrue(!SymbolWrites.names("_ZL9c_Kernel", "c_Kernel")); // the length does not match: not a local name
        assertTrue(!SymbolWrites.names("c_Table", "c_Kernel"));
    }

    @Test
    void aDamagedOrForeignFileHasNoSymbolNames() throws IOException {
        Path junk = Files.write(tmp.resolve("junk.elf"), new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0});
        assertEquals(null, ElfSymbols.nameAt(junk, 0x4000, 0));
        byte[] prog = Files.readAllBytes(program);
        Path cut = Files.write(tmp.resolve("cut.elf"), java.util.Arrays.copyOf(prog, prog.length / 3));
        assertEquals(null, ElfSymbols.nameAt(cut, 0x4000, 0));
    }

    @Test
    void aConstantTableTheRecordingLacksMakesTheVerdictInconclusive() throws IOException {
        // the CUDA 13 runtime resolves a cudaMemcpyToSymbol target without the traced cuModuleGetGlobal (seen on
        // cuda-samples' convolutionSeparable): the recording then lacks the table, the replay reads zeros, and a
        // verdict from those inputs would speak for a run that never happened
        Path out = tmp.resolve("rec-const-lost");
        Recorder.Result res = record(out, 1, 1, 256L << 20, List.of(program.toString(), "const"));
        assertEquals(0, res.exitCode(), res.outputTail());
        Path jsonl = out.resolve("launches.jsonl");
        String lines = Files.readString(jsonl, StandardCharsets.UTF_8);
        String lost = lines.replaceAll("\"globals\":\\[[^\\]]*\\]", "\"globals\":[]");
        assertTrue(!lost.equals(lines), lines);
        Files.writeString(jsonl, lost, StandardCharsets.UTF_8);
        KernelResult k = new Replayer(100_000_000L).replay(out).kernels.get(0);
        assertTrue(k.launch.get("asBuiltReproduced").startsWith("no: "), k.launch.toString());
        assertEquals(Verdict.INCONCLUSIVE, k.verdict, k.reason);
        assertTrue(
                k.reason.startsWith("inconclusive: the recording does not hold the module variables [const c_table]"),
                k.reason);
        assertTrue(
                k.findings.stream().allMatch(f -> f.verdict != Verdict.CONFIRMED && f.verdict != Verdict.NOT_OBSERVED));
        // with the table recorded, the same launch has a verdict (constantTablesTheProgramWroteAreRecordedAndRestored)
    }

    @Test
    void damagedRecordingIsReportedNotFollowed() throws IOException {
        Path out = tmp.resolve("rec-damaged");
        record(out, 1, 1, 256L << 20);
        Files.delete(out.resolve("data/launch-0-alloc-1-after.bin"));
        Files.writeString(
                out.resolve("launches.jsonl"),
                "{\"id\":7,\"kernel\":\"k\",\"paramBytes\":\"../../etc/passwd\"}\n",
                StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.APPEND);
        Recording rec = Recording.read(out);
        assertTrue(rec.launches.get(0).unusable.contains("missing from the recording"), rec.launches.get(0).unusable);
        assertTrue(rec.launches.get(1).unusable.contains("outside it"), rec.launches.get(1).unusable);
        ValidationReport r = new Replayer(100_000_000L).replay(out);
        assertTrue(r.kernels.stream().allMatch(k -> k.verdict == Verdict.NOT_RUNNABLE));
    }
}
