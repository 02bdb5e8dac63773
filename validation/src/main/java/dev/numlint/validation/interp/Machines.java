package dev.numlint.validation.interp;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Gives each mix of instructions its own copy of the interpreter loop, so that the JIT compiles each from a profile
 * of its own.
 *
 * <p>Why: C2 compiles {@link Interpreter#launch}'s loop from the profile gathered so far. One loop shared by every
 * build of every kernel is compiled for the union of their instructions and branch directions (the as-built
 * {@code .ftz}/approximate forms, the strict forms, the exception checks, host conversions): the builds then ran at
 * 118-135 M instructions/s where a loop profiled on one build alone ran at 170-178 (interpreter-speed-session12.md).
 * Here each distinct set of dispatch codes a {@link Program} uses (its instruction mix: the builds of one kernel
 * differ in it) gets a copy of {@code Interpreter} defined from the same class file as a hidden class
 * ({@link MethodHandles.Lookup#defineHiddenClass}): same package, same code, separate methods, so separate profiles
 * and separate compiled code; a copy never sees an opcode outside its set, so no build throws another's compiled
 * loop away. Results are identical by construction (the same bytecode); only the JIT's view differs.
 *
 * <p>A copy starts cold: C2 must compile its loop, about half a second of CPU, which its first launch waits for
 * ({@link ForegroundCompile}; without that, its first launches ran in the bytecode interpreter and C1 code at about
 * 15 M/s meanwhile), while the shared class, profiled and compiled during the once-per-JVM warm-up ({@link Warmup}),
 * runs any build at full speed from its first launch. So a mix moves to its own copy only once its
 * launches have executed {@code copyAfter} instructions in this JVM (default 100 M, {@code
 * -Dnumlint.interp.copyAfter}; 0: from the first launch): a mix that has run that long is likely to run as long again,
 * which pays for the compilation. At most {@code maxCopies} copies per JVM (each compiled loop takes code cache);
 * programs past that, and every program with {@code -Dnumlint.interp.copies=false}, stay on the shared class.
 *
 * <p>All of this is for the programs that have no generated code of their own: by default ({@code
 * -Dnumlint.interp.compile}) each program runs as a class of its own that {@link Compiler} translates it to, and only
 * a program it cannot translate runs on these loops.
 */
final class Machines {
    static final boolean COPIES = Boolean.parseBoolean(System.getProperty("numlint.interp.copies", "true"));

    /** The JVM's copies, with the settings of the system properties. */
    static final Machines JVM = new Machines(
            Integer.getInteger("numlint.interp.maxCopies", 24),
            Long.getLong("numlint.interp.copyAfter", 100_000_000L),
            Compiler.ON);

    private static final MethodType CTOR = MethodType.methodType(void.class, Program.class, Space.class, int.class);
    private static byte[] classFile;

    private final int maxCopies;
    private final long copyAfter;
    private final Map<BitSet, MethodHandle> copies = new HashMap<>();
    /** Instructions executed so far by launches of each mix that has no copy yet. */
    private final Map<BitSet, Long> executed = new HashMap<>();

    private boolean unavailable;

    /** Whether a program runs on its own generated code ({@link Compiler}) where it has some. */
    private final boolean compile;

    Machines(int maxCopies, long copyAfter, boolean compile) {
        this.maxCopies = maxCopies;
        this.copyAfter = copyAfter;
        this.compile = compile;
    }

    /** The loops alone: no generated code. */
    Machines(int maxCopies, long copyAfter) {
        this(maxCopies, copyAfter, false);
    }

    /** The interpreter for a launch of p: the copy for p's instruction mix, or the shared class. */
    Machine create(Program p, Space global, int dynamicShared) {
        Compiler.Code code = compile ? Compiler.of(p) : null;
        if (code != null) { // the program's own generated code (Compiler): no loop, shared or copied, runs it
            Interpreter it = new Interpreter(p, global, dynamicShared);
            it.code = code;
            return it;
        }
        MethodHandle ctor = COPIES ? copyFor(p.mix()) : null;
        if (ctor == null) {
            Warmup.once(); // the shared loop first gets a profile of every decoding
            return new Interpreter(p, global, dynamicShared);
        }
        try {
            return (Machine) ctor.invoke(p, global, dynamicShared);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Whether a launch may run on the shared class: copies are off, or a mix runs there until it has executed
     * copyAfter instructions, or no copy can be made.
     */
    synchronized boolean sharedLoopRuns() {
        // with the generated code (Compiler) on, only a program it cannot translate runs on the shared loop, and
        // that program's first launch warms the loop (create)
        return !compile && (!COPIES || copyAfter > 0 || maxCopies <= 0 || unavailable);
    }

    /** Counts a launch of p that ran on the shared class: executed instructions towards its mix's copy. */
    synchronized void ran(Program p, long instructions) {
        if (COPIES && !(p.compiled instanceof Compiler.Code) && !copies.containsKey(p.mix()))
            executed.merge(p.mix(), instructions, Long::sum);
    }

    /** Copies defined so far. */
    synchronized int copies() {
        return copies.size();
    }

    private synchronized MethodHandle copyFor(BitSet mix) {
        MethodHandle h = copies.get(mix);
        if (h != null || unavailable || copies.size() >= maxCopies) return h;
        if (executed.getOrDefault(mix, 0L) < copyAfter) return null;
        try {
            MethodHandles.Lookup copy = MethodHandles.lookup().defineHiddenClass(classFile(), true);
            h = copy.findConstructor(copy.lookupClass(), CTOR)
                    .asType(MethodType.methodType(Machine.class, Program.class, Space.class, int.class));
        } catch (IOException | ReflectiveOperationException | LinkageError | SecurityException e) {
            unavailable = true; // e.g. a class file this JVM cannot define again: the shared class does the work
            return null;
        }
        copies.put(mix, h);
        executed.remove(mix);
        return h;
    }

    private static synchronized byte[] classFile() throws IOException {
        if (classFile == null) {
            try (InputStream in = Interpreter.class.getResourceAsStream("Interpreter.class")) {
                if (in == null) throw new IOException("Interpreter.class not found");
                classFile = in.readAllBytes();
            }
        }
        return classFile;
    }
}
