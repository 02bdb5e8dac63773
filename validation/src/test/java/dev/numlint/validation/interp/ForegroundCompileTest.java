package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * A launch asks the JVM, once, to compile the interpreter loop in the foreground (ForegroundCompile): after it, the
 * JVM's compiler directives hold one for the loop of the shared class and of its copies, and the status says so.
 */
class ForegroundCompileTest {
    @Test
    void aLaunchAddsTheDirectiveForTheLoopOnce() throws Exception {
        Program p = Decoder.decode(PtxModelAdapter.read(SlicesTest.LOOP), "t", false, false);
        for (int i = 0; i < 2; i++) {
            Launch l = new Launch(p);
            l.param(0, l.alloc(new byte[4 * 64], "out"));
            l.run(new int[] {2, 1, 1}, new int[] {32, 1, 1}, 0, 10_000_000);
        }

        assertThat(Launch.foregroundCompile()).isEqualTo("on");
        String directives = (String) ManagementFactory.getPlatformMBeanServer()
                .invoke(
                        new ObjectName("com.sun.management:type=DiagnosticCommand"),
                        "compilerDirectivesPrint",
                        new Object[] {new String[0]},
                        new String[] {String[].class.getName()});
        assertThat(ForegroundCompile.MATCH).hasSize(2);
        for (String match : ForegroundCompile.MATCH) {
            int at = directives.indexOf("matching: " + match);
            assertThat(at).as(directives).isNotNegative();
            assertThat(directives.indexOf("matching: " + match, at + 1))
                    .as("added once")
                    .isNegative();
            assertThat(directives.substring(at)).contains("BackgroundCompilation:false");
        }
    }
}
