package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Why a Clang worker ended, read from the JVM's crash report ({@code -XX:ErrorFile} in the worker's private
 * directory): a signal in libclang ends the worker JVM with exit code 1 and nothing on its standard error, so the exit
 * code alone said only "the Clang worker ended (exit code 1)".
 */
class ClangWorkerCrashTest {
    /** The head of the report of the crash that ended cornerstone-octree's workers (C++20 with the wrapper PCH). */
    static final String REPORT =
            """
            #
            # A fatal error has been detected by the Java Runtime Environment:
            #
            #  SIGSEGV (0xb) at pc=0x00007f4a4c725d49, pid=21371, tid=21451
            #
            # JRE version: OpenJDK Runtime Environment (17.0.15+6) (build 17.0.15+6-Debian-1deb12u1)
            # Java VM: OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1, mixed mode, emulated-client, sharing, tiered, compressed oops, compressed class ptrs, serial gc, linux-amd64)
            # Problematic frame:
            # C  [libclang.so+0x1525d49]  clang::Sema::ActOnCXXDelete(clang::SourceLocation, bool, bool, clang::Expr*) [clone .localalias]+0xb69
            #
            # CreateCoredumpOnCrash turned off, no core file dumped
            """;

    @Test
    void aCrashInLibclangNamesTheSignalAndTheFunction() {
        assertThat(ClangWorkers.Worker.crashReason(REPORT))
                .isEqualTo("libclang crashed (SIGSEGV in clang::Sema::ActOnCXXDelete)");
    }

    @Test
    void aCrashElsewhereNamesTheLibraryAndOneWithoutAFrameTheSignal() {
        assertThat(ClangWorkers.Worker.crashReason(REPORT.replace(
                        "C  [libclang.so+0x1525d49]  clang::Sema::ActOnCXXDelete(clang::SourceLocation, bool, bool,"
                                + " clang::Expr*) [clone .localalias]+0xb69",
                        "V  [libjvm.so+0x7a1b2c]  ObjectMonitor::enter(JavaThread*)+0x4c")))
                .isEqualTo("the Clang worker (libjvm.so) crashed (SIGSEGV in ObjectMonitor::enter)");
        assertThat(
                        ClangWorkers.Worker.crashReason(
                                "#\n# A fatal error has been detected by the Java Runtime Environment:\n#\n#  SIGBUS (0x7) at pc=0\n"))
                .isEqualTo("the Clang worker crashed (SIGBUS)");
    }

    @Test
    void noReportNoReason() {
        assertThat(ClangWorkers.Worker.crashReason("")).isNull();
        assertThat(ClangWorkers.Worker.crashReason("Exception in thread \"main\" java.lang.Error"))
                .isNull();
    }
}
