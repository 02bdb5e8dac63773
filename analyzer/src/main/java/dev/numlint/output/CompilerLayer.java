package dev.numlint.output;

import dev.numlint.model.Notification;
import dev.numlint.scan.ScanResult;

/**
 * The one line that says how far the compiler (PTX) layer got: "PTX layer: 28 of 78 .cu files compiled to PTX; 50
 * did not compile: ...; next step: ..." or "PTX layer off: nvcc not found ...". Shown at the end of the text
 * output and in the HTML header; SARIF carries it as a tool execution notification. Likewise the line of the
 * C/C++/CUDA types that no file read defines ("2 C/C++/CUDA types used at 40 places ... configure the project and pass
 * -p build").
 */
final class CompilerLayer {
    private CompilerLayer() {}

    /** The line, or null when the scan did not try to compile .cu files (no .cu file, or --ptx off). */
    static String line(ScanResult r) {
        for (Notification n : r.notifications()) {
            if (n.file() == null && n.id().equals("ptx-summary")) return n.message();
        }
        for (Notification n : r.notifications()) {
            if (n.file() == null && n.id().equals("ptx-unavailable")) {
                String m = n.message();
                return m.startsWith("PTX layer off") ? m : "PTX layer off: " + m;
            }
        }
        return null;
    }

    /** The line of the C/C++/CUDA types no file read defines, or null when every type used was defined. */
    static String undefinedTypes(ScanResult r) {
        for (Notification n : r.notifications()) {
            if (n.file() == null && n.id().equals("types-undefined")) return n.message();
        }
        return null;
    }
}
