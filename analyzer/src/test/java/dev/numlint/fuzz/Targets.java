package dev.numlint.fuzz;

/**
 * Entry points of the fuzz targets for Jazzer's standalone driver ({@code --target_class=...$Cuda}), used by
 * bench/fuzz.sh to fuzz with libFuzzer's own per-input limits ({@code -timeout}, {@code -rss_limit_mb}) and several
 * workers; the same targets run under JUnit in {@link ParserFuzzTest}.
 */
final class Targets {
    private Targets() {}

    /** CUDA/C++ front end. */
    static final class Cuda {
        public static void fuzzerTestOneInput(byte[] data) {
            new ParserFuzzTest().cudaSource(data);
        }
    }

    /** PTX reader and checks. */
    static final class Ptx {
        public static void fuzzerTestOneInput(byte[] data) {
            new ParserFuzzTest().ptx(data);
        }
    }

    /** CMake reader. */
    static final class CMake {
        public static void fuzzerTestOneInput(byte[] data) {
            new ParserFuzzTest().cmake(data);
        }
    }

    /** Makefile reader. */
    static final class Make {
        public static void fuzzerTestOneInput(byte[] data) {
            new ParserFuzzTest().makefile(data);
        }
    }

    /** compile_commands.json reader. */
    static final class CompileCommands {
        public static void fuzzerTestOneInput(byte[] data) {
            new ParserFuzzTest().compileCommands(data);
        }
    }

    /** pom.xml reader. */
    static final class Pom {
        public static void fuzzerTestOneInput(byte[] data) {
            new ParserFuzzTest().pomXml(data);
        }
    }

    /** Suppression-comment parser. */
    static final class Suppressions {
        public static void fuzzerTestOneInput(byte[] data) {
            new ParserFuzzTest().suppressionComments(data);
        }
    }

    /** Validation inputs: PTX, --spec and host launches run on the interpreter (issue 31). */
    static final class Validation {
        public static void fuzzerTestOneInput(byte[] data) {
            new ParserFuzzTest().validation(data);
        }
    }
    // ---- issue 31 (sec-git) ----

    /** .numlint.yml, with its exclude globs matched against a long path. */
    static final class Config {
        public static void fuzzerTestOneInput(byte[] data) {
            new ParserFuzzTest().numlintConfig(data);
        }
    }

    /** The baseline SARIF. */
    static final class Baseline {
        public static void fuzzerTestOneInput(byte[] data) {
            new ParserFuzzTest().baselineSarif(data);
        }
    }

    /** The --spec YAML. */
    static final class Spec {
        public static void fuzzerTestOneInput(byte[] data) {
            new ParserFuzzTest().validationSpec(data);
        }
    }

    /** The git reader (commit, dirty state, blame) on a synthetic .git. */
    static final class Git {
        public static void fuzzerTestOneInput(byte[] data) {
            new ParserFuzzTest().gitReader(data);
        }
    }
    // ---- end of issue 31 (sec-git) ----
}
