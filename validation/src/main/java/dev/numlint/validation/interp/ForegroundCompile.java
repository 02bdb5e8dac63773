package dev.numlint.validation.interp;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Asks HotSpot to compile the interpreter loop ({@link Interpreter#run}, in the shared class and in every copy that
 * {@link Machines} defines) and the code generated for each program ({@link Compiler}) in the foreground: the thread that reaches a compile threshold waits for the compiled
 * code instead of going on in slower code while the compile runs in the background.
 *
 * <p>Why: the loop is one large method, and the optimizing compiler (C2) takes 0.5 to 1 s of wall time to compile it,
 * longer when the machine is busy or C2's queue holds other methods. With background compilation the launches of that
 * time ran on the profiling tier's code, on-stack-replacement code or an intermediate tier at 15 to 100 M
 * instructions/s, and how long depended on the machine's load: the same command measured the first build of a JVM at
 * 220 M/s in one run and at 82 M/s for all 15 of its runs in the next (interpreter-speed-session16.md). Waiting for
 * the compile costs about the same CPU and makes every launch after it run on C2's code.
 *
 * <p>For the generated code the same holds per program: measured on the build host, the first run of each build went
 * from 113-267 M/s to 242-460 with these methods compiled in the foreground (interpreter-foreground-session16.md).
 *
 * <p>How: compiler directives ({@code BackgroundCompilation: false} for these methods), added once per JVM
 * through the platform's diagnostic command bean ({@code Compiler.directives_add}, the same as {@code jcmd}), read from
 * a temporary file this class writes (owner-only, deleted at once). Nothing else changes: the directive applies to
 * these methods only, and results are the same by construction (the same bytecode). Where the bean is absent or has
 * no compiler commands (a jlink runtime without the {@code jdk.management} module, or without {@code jdk.jfr}: the
 * bean then lists only {@code jfrConfigure}), the loop compiles in the background as before and {@link #status()}
 * says why. Off with {@code -Dnumlint.interp.foregroundCompile=false}.
 */
final class ForegroundCompile {
    private ForegroundCompile() {}

    /**
     * The methods the directives cover: the loop of the shared class and of each hidden-class copy, and the code
     * generated for each program (interp/Compiler: the classes {@code CompiledN} and their shared {@code
     * CompiledOps}).
     */
    static final java.util.List<String> MATCH = java.util.List.of(
            "dev/numlint/validation/interp/Interpreter*.run", "dev/numlint/validation/interp/Compiled*.*");

    private static String status;

    /** Adds the directive unless it was added (or tried) in this JVM or is turned off. */
    static synchronized void install() {
        if (status != null) return;
        if (!Boolean.parseBoolean(System.getProperty("numlint.interp.foregroundCompile", "true"))) {
            status = "off (-Dnumlint.interp.foregroundCompile=false)";
            return;
        }
        status = add();
    }

    /** What {@link #install} did: "on", "off (...)", "unavailable (...)", or "not tried" before the first launch. */
    static synchronized String status() {
        return status == null ? "not tried" : status;
    }

    private static String add() {
        Path file = null;
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName bean = new ObjectName("com.sun.management:type=DiagnosticCommand");
            if (!server.isRegistered(bean)) return "unavailable (no diagnostic command bean in this runtime)";
            file = Files.createTempFile("numlint-directive", ".json");
            StringBuilder json = new StringBuilder("[");
            for (String m : MATCH)
                json.append(json.length() > 1 ? ", " : "")
                        .append("{ match: \"")
                        .append(m)
                        .append("\", BackgroundCompilation: false }");
            Files.writeString(file, json.append(']'), StandardCharsets.UTF_8);
            Object answer = server.invoke(
                    bean, "compilerDirectivesAdd", new Object[] {new String[] {file.toString()}}, new String[] {
                        String[].class.getName()
                    });
            String text = String.valueOf(answer).strip();
            return text.startsWith(MATCH.size() + " compiler directives added")
                    ? "on"
                    : "unavailable (the JVM answered: " + text + ")";
        } catch (JMException | java.io.IOException | RuntimeException | LinkageError e) {
            Throwable why = e.getCause() != null ? e.getCause() : e; // the bean wraps a missing command's exception
            return "unavailable (" + why.getClass().getSimpleName() + ": " + why.getMessage() + ")";
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (java.io.IOException ignored) {
                    // left in the temporary directory: it holds only the directive text above
                }
            }
        }
    }
}
