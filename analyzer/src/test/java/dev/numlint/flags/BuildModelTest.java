package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Confidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Notification;
import dev.numlint.spi.BuildOptions;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The build model: which configuration of a Makefile / CMake project / compilation database a source gets. */
class BuildModelTest {
    private static final Path MAKE =
            Path.of("src/test/resources/build-model/make-goal").toAbsolutePath();
    private static final Path CMAKE =
            Path.of("src/test/resources/build-model/cmake-option").toAbsolutePath();

    private static TestScanContext scan(Path dir, BuildOptions o) {
        return new TestScanContext(dir).run(new BuildFlagAnalyzer(o));
    }

    private static BuildOptions make(String target) {
        return new BuildOptions(null, target, Map.of(), null);
    }

    private static BuildOptions cmake(Map<String, String> defs, String preset) {
        return new BuildOptions(null, null, defs, preset);
    }

    // ------------------------------------------------------------------------------------------ make

    @Test
    void makefileDefaultGoalChainAppliesTargetSpecificValues() {
        TestScanContext ctx = scan(MAKE, BuildOptions.DEFAULT);
        BuildContext k = ctx.buildContext(MAKE.resolve("kern.cu"));
        assertThat(k.effectiveFastMath())
                .as("release: NVCCFLAGS += -use_fast_math on the goal chain")
                .isTrue();
        assertThat(k.defines())
                .contains("FAST_PATH", "MODE_FAST", "COMMON_DEF=1")
                .doesNotContain("DEBUG_PATH", "WITH_DEBUG_LOGS");
        assertThat(k.includePaths()).contains(MAKE.resolve("inc").normalize());
        assertThat(k.nvccFlags()).contains("-I" + MAKE.resolve("inc").normalize(), "-DFAST_PATH", "-lineinfo");
        assertThat(k.configuration())
                .startsWith("Makefile goal all -> release -> app -> kern.o")
                .endsWith("(Makefile)");
        assertThat(k.precDiv())
                .as("-prec-div=false is in the unselected 'debug' target")
                .isNull();
        assertThat(k.precSqrt())
                .as("-prec-sqrt=false is under a condition on $(shell)")
                .isNull();
        assertThat(k.origins())
                .extracting(BuildContext.FlagOrigin::flag)
                .contains("-use_fast_math")
                .doesNotContain("-prec-div=false", "-prec-sqrt=false", "-ftz=true");
    }

    @Test
    void flagsOfUnselectedConfigurationsAreAuditedWhereWrittenButNotApplied() {
        TestScanContext ctx = scan(MAKE, BuildOptions.DEFAULT);
        Finding precDiv = ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL002") && f.message().startsWith("-prec-div=false"))
                .findFirst()
                .orElseThrow();
        assertThat(precDiv.location().startLine()).isEqualTo(33);
        assertThat(precDiv.confidence()).isEqualTo(Confidence.MEDIUM);
        assertThat(precDiv.message()).endsWith("; only under Makefile target 'debug'");
        assertThat(precDiv.properties())
                .containsEntry("condition", "Makefile target 'debug' (not built by the default goal 'all')");
        Finding ftz = ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL007") && f.message().startsWith("-ftz=true"))
                .findFirst()
                .orElseThrow();
        assertThat(ftz.location().startLine()).isEqualTo(15);
        assertThat(ftz.message()).contains("the else branch of ifeq ($(MODE),fast)");
        Finding sqrt = ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL006") && f.message().startsWith("-prec-sqrt=false"))
                .findFirst()
                .orElseThrow();
        assertThat(sqrt.message()).contains("ifeq ($(GPU),A100) (value unknown)");
        Finding fast = ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL002") && f.message().startsWith("-use_fast_math"))
                .findFirst()
                .orElseThrow();
        assertThat(fast.confidence()).isEqualTo(Confidence.HIGH);
        assertThat(fast.location().startLine()).isEqualTo(30);
        assertThat(ctx.notifications()).anySatisfy(n -> {
            assertThat(n.id()).isEqualTo("not-evaluated");
            assertThat(n.message()).contains("$(shell ...)").contains("not run");
        });
    }

    /**
     * A flag set chosen by {@code $(if)} over a {@code $(shell ...)} that numlint never runs (a CPU probe of an SDR
     * library), through recursive variables only the recipe expands: both branches' flags are reported under a
     * condition numlint cannot decide, and the not-evaluated notice names the $(shell ...).
     */
    @Test
    void flagsOfAnIfOverAShellProbeAreReportedAsUndecided(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("lib.c"), "float f(float x) { return x; }\n");
        Files.writeString(
                dir.resolve("Makefile"),
                """
                cpufeature = $(if $(findstring $(1),$(shell cat /proc/cpuinfo)),$(2))
                PARAMS_SSE = -msse4.1 -O3 -ffast-math
                PARAMS_NEON = -mfpu=neon -funsafe-math-optimizations
                PARAMS_SIMD = $(if $(call cpufeature,sse,yes),$(PARAMS_SSE),$(PARAMS_NEON))
                CFLAGS = $(PARAMS_SIMD) -Wall
                all: lib.o
                lib.o: lib.c
                \tgcc $(CFLAGS) -c lib.c -o lib.o
                """);
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        assertThat(ctx.findings())
                .filteredOn(f -> f.location().startLine() == 2 || f.location().startLine() == 3)
                .extracting(f -> f.message().split(" ")[0])
                .contains("-ffast-math", "-funsafe-math-optimizations");
        assertThat(ctx.findings())
                .filteredOn(f -> f.message().startsWith("-ffast-math"))
                .allSatisfy(f -> assertThat(f.message()).contains("$(shell ...)"));
        assertThat(ctx.notifications()).anySatisfy(n -> {
            assertThat(n.id()).isEqualTo("not-evaluated");
            assertThat(n.message()).contains("$(shell ...)").contains("not run");
        });
    }

    @Test
    void makeTargetSelectsAnotherGoal() {
        TestScanContext ctx = scan(MAKE, make("debug"));
        BuildContext k = ctx.buildContext(MAKE.resolve("kern.cu"));
        assertThat(k.effectiveFastMath()).isFalse();
        assertThat(k.effectivePrecDiv()).isFalse();
        assertThat(k.defines()).contains("DEBUG_PATH").doesNotContain("FAST_PATH");
        assertThat(k.configuration()).startsWith("Makefile goal debug -> app -> kern.o");
        Finding fast = ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL002") && f.message().startsWith("-use_fast_math"))
                .findFirst()
                .orElseThrow();
        assertThat(fast.message()).endsWith("; only under Makefile target 'release'");
        assertThat(fast.properties())
                .containsEntry("condition", "Makefile target 'release' (not built by --make-target 'debug')");
        TestScanContext none = scan(MAKE, make("nosuch"));
        assertThat(none.notifications()).anySatisfy(n -> assertThat(n.message()).contains("--make-target 'nosuch'"));
    }

    @Test
    void aFileCompiledOnlyThroughItsIncluderGetsTheIncludersContext() {
        TestScanContext ctx = scan(MAKE, BuildOptions.DEFAULT);
        BuildContext rng = ctx.buildContext(MAKE.resolve("rng.cu"));
        assertThat(rng.compiledVia()).isEqualTo(MAKE.resolve("kern.cu"));
        assertThat(rng.effectiveFastMath()).isTrue();
        assertThat(rng.configuration()).startsWith("compiled through kern.cu: Makefile goal all");
        BuildContext header = ctx.buildContext(MAKE.resolve("inc/params.cuh"));
        assertThat(header.compiledVia()).isEqualTo(MAKE.resolve("kern.cu"));
        // not compiled and not included: the flag variables as the goal sees them, without the target's values
        BuildContext tool = ctx.buildContext(MAKE.resolve("tool.cu"));
        assertThat(tool.compiledVia()).isNull();
        assertThat(tool.effectiveFastMath()).isFalse();
        assertThat(tool.defines()).contains("MODE_FAST");
        assertThat(tool.configuration()).startsWith("Makefile goal all, flag variables");
    }

    @Test
    void makeVariablesFunctionsAndConditionals(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.cu"), "");
        Files.writeString(dir.resolve("b.cu"), "");
        Files.createDirectories(dir.resolve("mk"));
        Files.writeString(dir.resolve("mk/flags.mk"), "override EXTRA := -DFROM_INCLUDE\n");
        Files.writeString(
                dir.resolve("Makefile"),
                """
                -include mk/flags.mk
                include /etc/outside.mk
                EXTRA = -DIGNORED
                A := x
                B = $(A)
                A := y
                C ::= $(subst y,z,$(B))
                LIST := a b c
                WORDS := $(words $(LIST)) $(firstword $(LIST)) $(word 2,$(LIST)) $(lastword $(LIST))
                SORTED := $(sort c a b a)
                D := $(if $(filter y,$(A)),-DIF_TRUE,-DIF_FALSE)
                E := $(foreach w,1 2,-DW$(w))
                F := $(LIST:%=-DL_%)
                define MULTI
                -DMULTI_LINE
                endef
                ifneq ($(C),z)
                  NVCCFLAGS += -DWRONG_C
                else ifeq ($(WORDS),3 a b c)
                  NVCCFLAGS += -DWORDS_OK
                endif
                ifeq "$(SORTED)" "a b c"
                  NVCCFLAGS += -DSORT_OK
                endif
                ifndef UNDEFINED_THING
                  NVCCFLAGS += -DNDEF_OK
                endif
                ifeq ($(CUDA_HOME),/usr/local/cuda)
                  NVCCFLAGS += -DENV_DEPENDENT
                endif
                NVCCFLAGS += $(EXTRA) $(D) $(E) $(F) $(MULTI)
                all: a.o
                a.o: a.cu ; nvcc $(NVCCFLAGS) -c $< -o $@
                """);
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        BuildContext a = ctx.buildContext(dir.resolve("a.cu"));
        assertThat(a.defines())
                .contains(
                        "WORDS_OK",
                        "SORT_OK",
                        "NDEF_OK",
                        "FROM_INCLUDE",
                        "IF_TRUE",
                        "W1",
                        "W2",
                        "L_a",
                        "L_c",
                        "MULTI_LINE")
                .doesNotContain("WRONG_C", "IGNORED", "IF_FALSE", "ENV_DEPENDENT");
        assertThat(ctx.notifications())
                .anySatisfy(n -> assertThat(n.message()).contains("'/etc/outside.mk' lies outside the scanned tree"));
    }

    /** The shape of issue 25: the Makefile finds its own directory through realpath/dir/lastword MAKEFILE_LIST. */
    @Test
    void makefileListRealpathAndDirGiveTheMakefilesOwnDirectory(@TempDir Path tmp) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("proj"));
        Files.createDirectories(dir.resolve("src"));
        Files.createDirectories(dir.resolve("mk"));
        Files.writeString(dir.resolve("src/k.cu"), "#include \"k.cuh\"\n");
        Files.writeString(dir.resolve("src/k.cuh"), "#pragma once\n");
        Files.writeString(
                dir.resolve("mk/common.mk"),
                """
                MKDIR := $(dir $(lastword $(MAKEFILE_LIST)))
                NVCCFLAGS += -DMKDIR_$(subst /,,$(MKDIR)) -DCOUNT_$(words $(MAKEFILE_LIST))
                """);
        Files.writeString(dir.resolve("mk/a.inc"), "NVCCFLAGS += -DGLOB_A\n");
        Files.writeString(dir.resolve("mk/b.inc"), "NVCCFLAGS += -DGLOB_B\n");
        Files.writeString(
                dir.resolve("Makefile"),
                """
                NVCCFLAGS := -O3
                here = $(realpath $(dir $(lastword $(MAKEFILE_LIST))))
                root = $(here)
                srcdir = $(root)/src
                NVCCFLAGS += -I$(srcdir)/ -DFIRST_$(firstword $(MAKEFILE_LIST)) -DCUR_$(notdir $(CURDIR))
                include mk/common.mk
                include mk/*.inc
                OUTSIDE := $(realpath ..)
                ifeq ($(OUTSIDE),)
                  NVCCFLAGS += -DOUTSIDE_EMPTY
                endif
                NVCCFLAGS += -DGONE_$(realpath missing)X
                all: src/k.o
                src/k.o: src/k.cu
                \tnvcc $(NVCCFLAGS) -c $< -o $@
                """);
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        BuildContext k = ctx.buildContext(dir.resolve("src/k.cu"));
        // NVCCFLAGS is simple (:=), so += expands $(MAKEFILE_LIST) now, before mk/common.mk is read, as make does
        assertThat(k.includePaths()).contains(dir.resolve("src"));
        assertThat(k.defines())
                .contains("FIRST_Makefile", "CUR_proj", "MKDIR_mk", "COUNT_2", "GONE_X", "GLOB_A", "GLOB_B")
                .as("$(realpath ..) lies outside the scanned tree: unknown, so the ifeq is not known true")
                .doesNotContain("OUTSIDE_EMPTY");
        assertThat(ctx.notifications()).anySatisfy(n -> assertThat(n.message())
                .contains("$(realpath ..) names a path outside the scanned tree"));
    }

    @Test
    void evalOfCallTemplatesDefinesRulesAndVariables(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.cu"), "");
        Files.writeString(dir.resolve("b.cu"), "");
        Files.writeString(
                dir.resolve("Makefile"),
                """
                NVCCFLAGS := -O3
                KERNELS := a b
                define KRULE
                $(1).o: $(1).cu
                \tnvcc $$(NVCCFLAGS) -DKERNEL_$(1) -c $$< -o $$@
                endef
                all: $(KERNELS:%=%.o)
                $(foreach k,$(KERNELS),$(eval $(call KRULE,$(k))))
                $(eval EXTRA := -DFROM_EVAL)
                NVCCFLAGS += $(EXTRA)
                $(eval $(shell ./configure-flags))
                define LOOP
                $$(eval $$(LOOP)) $$(eval $$(LOOP))
                endef
                $(eval $(LOOP))
                """);
        TestScanContext ctx = assertTimeoutPreemptively(
                Duration.ofSeconds(10), () -> scan(dir, BuildOptions.DEFAULT), "an $(eval) that evaluates itself");
        BuildContext a = ctx.buildContext(dir.resolve("a.cu"));
        assertThat(a.defines()).contains("KERNEL_a", "FROM_EVAL").doesNotContain("KERNEL_b");
        assertThat(a.configuration()).startsWith("Makefile goal all -> a.o");
        assertThat(ctx.buildContext(dir.resolve("b.cu")).defines()).contains("KERNEL_b", "FROM_EVAL");
        assertThat(ctx.notifications())
                .anySatisfy(n -> assertThat(n.message()).contains("$(eval ...) of a value numlint cannot know"));
    }

    @Test
    void shellMetacharactersInFlagsStayData(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("k.cu"), "");
        Files.writeString(dir.resolve("evil.sh"), "touch pwned\n");
        Files.writeString(
                dir.resolve("Makefile"),
                """
                NVCCFLAGS = -DX=`./evil.sh` -I'$(shell ./evil.sh)' -use_fast_math
                k.o: k.cu
                \tnvcc $(NVCCFLAGS) -c k.cu
                """);
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        assertThat(Files.exists(dir.resolve("pwned"))).isFalse();
        BuildContext k = ctx.buildContext(dir.resolve("k.cu"));
        assertThat(k.defines()).contains("X=`./evil.sh`");
        assertThat(k.effectiveFastMath()).isTrue();

        Path cm = Files.createDirectories(dir.resolve("cm"));
        Files.writeString(cm.resolve("k.cu"), "");
        Files.writeString(
                cm.resolve("CMakeLists.txt"),
                """
                add_executable(app k.cu)
                target_compile_definitions(app PRIVATE "Y=$(./evil.sh)")
                target_include_directories(app PRIVATE "`./evil.sh`")
                """);
        BuildContext c = scan(cm, BuildOptions.DEFAULT).buildContext(cm.resolve("k.cu"));
        assertThat(c.defines()).contains("Y=$(./evil.sh)");
        assertThat(c.includePaths()).contains(cm.resolve("`./evil.sh`"));

        Path db = Files.createDirectories(dir.resolve("db"));
        Files.writeString(db.resolve("k.cu"), "");
        Files.writeString(
                db.resolve("compile_commands.json"),
                """
                [{"directory": "%s", "file": "k.cu", "arguments": ["nvcc", "-DZ=`./evil.sh`", "-c", "k.cu"]}]
                """
                        .formatted(db.toString().replace("\\", "/")));
        assertThat(scan(db, BuildOptions.DEFAULT)
                        .buildContext(db.resolve("k.cu"))
                        .defines())
                .containsExactly("Z=`./evil.sh`");
        assertThat(Files.exists(dir.resolve("pwned"))).isFalse();
    }

    // ------------------------------------------------------------------------------------------ CMake

    @Test
    void cmakeOptionDefaultsDecideBranchesAndSubdirectoriesInherit() {
        TestScanContext ctx = scan(CMAKE, BuildOptions.DEFAULT);
        BuildContext k = ctx.buildContext(CMAKE.resolve("sub/kern.cu"));
        assertThat(k.effectiveFastMath())
                .as("else() branch of if(USE_HIP) with USE_HIP OFF")
                .isTrue();
        assertThat(k.effectivePrecDiv()).isFalse(); // by fast math, not by the skipped -prec-div=false
        assertThat(k.origins()).noneMatch(o -> o.flag().equals("-prec-div=false"));
        assertThat(k.defines())
                .contains("FAST_PATH", "CUDA_ONLY", "SINGLE_PATH")
                .doesNotContain("HIP_PATH", "DOUBLE_PATH");
        assertThat(k.includePaths()).contains(CMAKE.resolve("sub/include"));
        assertThat(k.configuration())
                .startsWith("CMake target app (CMakeLists.txt;")
                .contains("USE_HIP=OFF");
        assertThat(k.effectiveFtz()).isTrue();
        assertThat(k.origins()).noneMatch(o -> o.flag().equals("-ftz=true")); // its condition is unknown
        Finding pd = ctx.findings().stream()
                .filter(f -> f.message().startsWith("-prec-div=false"))
                .findFirst()
                .orElseThrow();
        assertThat(pd.location().startLine()).isEqualTo(7);
        assertThat(pd.confidence()).isEqualTo(Confidence.MEDIUM);
        // the condition in short in the message, its line as a related location, the whole of it a property
        assertThat(pd.message()).endsWith("; only under if(USE_HIP) (false by default: USE_HIP=OFF)");
        assertThat(pd.related())
                .anySatisfy(r -> assertThat(r.location().shortText()).isEqualTo("CMakeLists.txt:6"));
        assertThat(pd.properties().get("condition").toString())
                .contains("if(USE_HIP) at CMakeLists.txt:6, which is false in the default configuration (USE_HIP=OFF)");
        Finding ftz = ctx.findings().stream()
                .filter(f -> f.message().startsWith("-ftz=true"))
                .findFirst()
                .orElseThrow();
        assertThat(ftz.message()).contains("CUDAToolkit_VERSION").contains("value unknown");
    }

    /** The shape of issue 25: cuda/ is added only under if(USE_CUDA), OFF by default, and needs the parent's scope. */
    @Test
    void aSubdirectoryUnderAnOffOptionGetsItsParentsScope(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("include"));
        Files.createDirectories(dir.resolve("cuda/inc"));
        Files.writeString(dir.resolve("cuda/k.cu"), "#include \"top.h\"\n");
        Files.writeString(dir.resolve("k_top.cu"), "\n");
        Files.writeString(dir.resolve("include/top.h"), "#pragma once\n");
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                project(p LANGUAGES CXX)
                option(USE_CUDA "build the CUDA backend" OFF)
                include_directories(${PROJECT_SOURCE_DIR}/include)
                add_definitions(-DTOP_DEF)
                set(KERNEL_DEFS FROM_PARENT_VAR)
                if(USE_CUDA)
                  include_directories(cuda/common)
                  set(BRANCH_DEFS BRANCH_VAR)
                  add_subdirectory(cuda)
                endif()
                """);
        Files.writeString(
                dir.resolve("cuda/CMakeLists.txt"),
                """
                include_directories(inc)
                add_library(kern k.cu)
                target_compile_definitions(kern PRIVATE ${KERNEL_DEFS} ${BRANCH_DEFS} CUDA_SUB)
                target_compile_options(kern PRIVATE --use_fast_math)
                """);
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        BuildContext k = ctx.buildContext(dir.resolve("cuda/k.cu"));
        assertThat(k.includePaths())
                .contains(dir.resolve("include"), dir.resolve("cuda/inc"), dir.resolve("cuda/common"));
        assertThat(k.defines()).contains("TOP_DEF", "FROM_PARENT_VAR", "BRANCH_VAR", "CUDA_SUB");
        assertThat(ctx.buildContext(dir.resolve("k_top.cu")))
                .as("the branch's include directory is not the parent's")
                .satisfiesAnyOf(c -> assertThat(c).isNull(), c -> assertThat(c.includePaths())
                        .doesNotContain(dir.resolve("cuda/common")));
        assertThat(k.effectiveFastMath())
                .as("the only configuration that builds k.cu")
                .isTrue();
        assertThat(k.configuration())
                .startsWith("CMake target kern (CMakeLists.txt")
                .contains("not in the default configuration: added under if(USE_CUDA) at CMakeLists.txt:6");
        Finding fast = ctx.findings().stream()
                .filter(f -> f.location().file().equals("cuda/CMakeLists.txt"))
                .findFirst()
                .orElseThrow();
        assertThat(ctx.findings())
                .filteredOn(f -> f.location().file().equals("cuda/CMakeLists.txt")
                        && f.ruleId().equals(fast.ruleId()))
                .hasSize(1);
        assertThat(fast.confidence()).isEqualTo(Confidence.MEDIUM);
        assertThat(fast.message()).contains("only under if(USE_CUDA)");
    }

    /** The shape of issue 25: FindCUDA targets with CUDA_NVCC_FLAGS and cuda_include_directories. */
    @Test
    void findCudaTargetsGetNvccFlagsAndCudaIncludeDirectories(@TempDir Path dir) throws IOException {
        for (String d : List.of("include", "cuinc", "src")) Files.createDirectories(dir.resolve(d));
        for (String f : List.of("src/a.cu", "src/b.cpp", "src/main.cu")) Files.writeString(dir.resolve(f), "\n");
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                cmake_minimum_required(VERSION 3.5)
                project(f CXX)
                find_package(CUDA REQUIRED)
                include_directories(include)
                add_definitions(-DUSE_GPU)
                list(APPEND CUDA_NVCC_FLAGS "-arch=sm_60;--use_fast_math")
                set(CUDA_NVCC_FLAGS_RELEASE ${CUDA_NVCC_FLAGS_RELEASE} -DREL_ONLY)
                cuda_include_directories(${CMAKE_CURRENT_SOURCE_DIR}/cuinc)
                cuda_add_library(gpu src/a.cu src/b.cpp OPTIONS -DOPT_A)
                cuda_add_executable(app src/main.cu)
                """);
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        BuildContext a = ctx.buildContext(dir.resolve("src/a.cu"));
        assertThat(a.includePaths()).contains(dir.resolve("include"), dir.resolve("cuinc"));
        assertThat(a.defines()).contains("USE_GPU", "OPT_A").doesNotContain("REL_ONLY");
        assertThat(a.effectiveFastMath()).isTrue();
        assertThat(a.configuration()).startsWith("CMake target gpu (CMakeLists.txt");
        BuildContext m = ctx.buildContext(dir.resolve("src/main.cu"));
        assertThat(m.includePaths()).contains(dir.resolve("include"), dir.resolve("cuinc"));
        assertThat(m.defines()).contains("USE_GPU").doesNotContain("OPT_A");
        assertThat(m.effectiveFastMath()).isTrue();
        BuildContext b = ctx.buildContext(dir.resolve("src/b.cpp"));
        assertThat(b.defines()).contains("USE_GPU");
        assertThat(b.includePaths()).contains(dir.resolve("include")).doesNotContain(dir.resolve("cuinc"));
    }

    /**
     * cudpp's shape (issue 25): a directory named only by a variable, include_directories(${CMAKE_CURRENT_SOURCE_DIR}),
     * was dropped because no character of it was written in the CMakeLists.txt; a .cu in a subdirectory then missed
     * the header beside its CMakeLists.txt.
     */
    @Test
    void anIncludeDirectoryMadeOnlyOfAVariableIsKept(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("src/lib/app"));
        Files.writeString(dir.resolve("src/lib/util.h"), "#define SCALE 2.0f\n");
        Files.writeString(dir.resolve("src/lib/app/k.cu"), "#include \"util.h\"\n");
        Files.writeString(dir.resolve("CMakeLists.txt"), "project(r)\nfind_package(CUDA)\nadd_subdirectory(src/lib)\n");
        Files.writeString(
                dir.resolve("src/lib/CMakeLists.txt"),
                "include_directories(\n  ${CMAKE_CURRENT_SOURCE_DIR}\n  ${PROJECT_SOURCE_DIR}\n)\n"
                        + "cuda_add_library(lib STATIC app/k.cu)\n");
        BuildContext k = scan(dir, BuildOptions.DEFAULT).buildContext(dir.resolve("src/lib/app/k.cu"));
        assertThat(k.includePaths()).contains(dir.resolve("src/lib"), dir);
    }

    /** zfp's shape (issue 25): FindCUDA's cuda_wrap_srcs(target OBJ var sources... OPTIONS ...) builds the sources. */
    @Test
    void cudaWrapSrcsSourcesGetTheTargetsFlags(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("include"));
        Files.createDirectories(dir.resolve("src/cuda_zfp"));
        Files.writeString(dir.resolve("src/cuda_zfp/cuZFP.cu"), "\n");
        Files.writeString(dir.resolve("CMakeLists.txt"), "project(z)\nfind_package(CUDA)\nadd_subdirectory(src)\n");
        Files.writeString(
                dir.resolve("src/CMakeLists.txt"),
                """
                cuda_include_directories(${PROJECT_SOURCE_DIR}/include)
                cuda_wrap_srcs(zfp OBJ zfp_cuda_backend_obj cuda_zfp/cuZFP.cu OPTIONS --use_fast_math)
                add_library(zfp zfp.c ${zfp_cuda_backend_obj})
                """);
        // zfp also has a GNU make build of its C library, with no rule for the .cu: the CMake target decides
        Files.writeString(dir.resolve("src/Makefile"), "all: libzfp.a\nlibzfp.a: zfp.o\n\tar rc $@ $^\n");
        BuildContext k = scan(dir, BuildOptions.DEFAULT).buildContext(dir.resolve("src/cuda_zfp/cuZFP.cu"));
        assertThat(k.configuration()).startsWith("CMake target zfp");
        assertThat(k.includePaths()).contains(dir.resolve("include"));
        assertThat(k.effectiveFastMath()).isTrue();
    }

    @Test
    void cmakeDefinesAndPresetsOverrideDefaults() {
        BuildContext dbl =
                scan(CMAKE, cmake(Map.of("PRECISION", "double"), null)).buildContext(CMAKE.resolve("sub/kern.cu"));
        assertThat(dbl.effectiveFastMath()).isFalse();
        assertThat(dbl.defines()).contains("DOUBLE_PATH").doesNotContain("SINGLE_PATH");
        TestScanContext hip = scan(CMAKE, cmake(Map.of(), "hip"));
        BuildContext h = hip.buildContext(CMAKE.resolve("sub/kern.cu"));
        assertThat(h.effectivePrecDiv()).isFalse();
        assertThat(h.effectiveFastMath()).isFalse();
        assertThat(h.defines()).contains("HIP_PATH");
        assertThat(h.configuration()).contains("preset hip");
        // --cmake-define wins over the preset
        BuildContext both =
                scan(CMAKE, cmake(Map.of("USE_HIP", "OFF"), "hip")).buildContext(CMAKE.resolve("sub/kern.cu"));
        assertThat(both.defines()).contains("DOUBLE_PATH").doesNotContain("HIP_PATH");
        TestScanContext missing = scan(CMAKE, cmake(Map.of(), "nosuch"));
        assertThat(missing.notifications()).anySatisfy(n -> assertThat(n.message())
                .contains("no configure preset named 'nosuch'")
                .contains("base, hip"));
    }

    @Test
    void cmakeConditionRules() {
        Map<String, PosText> vars = new java.util.HashMap<>();
        vars.put("ON_VAR", PosText.of("ON", -1, 0, 0));
        vars.put("NAME", PosText.of("cuda", -1, 0, 0));
        vars.put("NF", PosText.of("CUDA-NOTFOUND", -1, 0, 0));
        vars.put("VER", PosText.of("11.8", -1, 0, 0));
        vars.put("LIST", PosText.of("a;b;c", -1, 0, 0));
        CMakeCondition c = new CMakeCondition(vars, p -> true);
        c.unknownPrefix("CUDAToolkit");
        Map<String, Integer> cases = new java.util.LinkedHashMap<>();
        cases.put("ON_VAR", 1);
        cases.put("NOT ON_VAR", 0);
        cases.put("UNDEFINED_VAR", 0);
        cases.put("NF", 0);
        cases.put("\"NAME\"", 0); // quoted: not dereferenced, not a true constant
        cases.put("NAME STREQUAL \"cuda\"", 1);
        cases.put("NAME STREQUAL cuda", 1);
        cases.put("Y AND (N OR 2)", 1);
        cases.put("YES AND NOT (FALSE OR IGNORE)", 1);
        cases.put("DEFINED NAME AND NOT DEFINED OTHER", 1);
        cases.put("VER VERSION_LESS 12", 1);
        cases.put("VER VERSION_GREATER_EQUAL 11.8.0", 1);
        cases.put("3 LESS 10", 1);
        cases.put("10 GREATER 3 AND 2 EQUAL 2.0", 1);
        cases.put("NAME MATCHES \"^cu\"", 1);
        cases.put("b IN_LIST LIST", 1);
        cases.put("x IN_LIST LIST", 0);
        cases.put("CUDAToolkit_FOUND", 2);
        cases.put("CUDAToolkit_FOUND OR ON_VAR", 1);
        cases.put("CUDAToolkit_FOUND AND NF", 0);
        cases.put("CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 12", 2);
        for (Map.Entry<String, Integer> e : cases.entrySet()) {
            CMakeLexer lx = CMakeLexer.lex("if(" + e.getKey() + ")\n", 0);
            int v = c.eval(lx.commands.get(0).args(), args -> {
                List<PosText> out = new java.util.ArrayList<>();
                for (CMakeLexer.Arg a : args) {
                    String t = a.text().text;
                    if (a.kind() == CMakeLexer.Kind.UNQUOTED)
                        out.addAll(a.text().splitList());
                    else out.add(PosText.of(t, -1, 0, 0));
                }
                return out;
            });
            assertThat(v).as("if(" + e.getKey() + ")").isEqualTo(e.getValue());
        }
        // a backtracking pattern from the scanned tree: bounded (known false or unknown), never a hang
        CMakeLexer lx = CMakeLexer.lex("if(\"" + "a".repeat(3000) + "!\" MATCHES \"^(a|aa|a?a)+$\")\n", 0);
        int v = assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> c.eval(
                        lx.commands.get(0).args(),
                        args -> List.of(PosText.of(args.get(0).text().text, -1, 0, 0))));
        assertThat(v).isIn(0, 2);
    }

    // ------------------------------------------------------------------------------------------ compile database

    @Test
    void compileCommandsWinOverBuildFilesAndMayComeFromMinusP(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("k.cu"), "");
        Files.writeString(dir.resolve("Makefile"), "k.o: k.cu\n\tnvcc -use_fast_math -DFROM_MAKE -c k.cu\n");
        Path build = Files.createDirectories(dir.resolve("build-release"));
        String db =
                """
                [{"directory": "%s", "file": "../k.cu",
                  "arguments": ["nvcc", "-DFROM_DB", "-Iinc", "-ftz=true", "-c", "../k.cu"]}]
                """
                        .formatted(build.toString().replace("\\", "/"));
        Files.writeString(build.resolve("compile_commands.json"), db);
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        BuildContext k = ctx.buildContext(dir.resolve("k.cu"));
        assertThat(k.defines()).containsExactly("FROM_DB");
        assertThat(k.effectiveFastMath()).isFalse();
        assertThat(k.effectiveFtz()).isTrue();
        assertThat(k.includePaths()).containsExactly(build.resolve("inc"));
        assertThat(k.configuration()).isEqualTo("compile_commands.json entry (build-release/compile_commands.json:1)");
        // the Makefile's fast math is still audited where it is written
        assertThat(ctx.findings())
                .anySatisfy(f -> assertThat(f.location().file()).isEqualTo("Makefile"));

        // -p DIR outside the scanned files
        Path elsewhere = Files.createDirectories(dir.resolve("other"));
        Path proj = Files.createDirectories(dir.resolve("proj"));
        Files.writeString(proj.resolve("k.cu"), "");
        Files.writeString(
                elsewhere.resolve("compile_commands.json"),
                """
                [{"directory": "%s", "file": "k.cu", "command": "nvcc -DVIA_P -c k.cu"}]
                """
                        .formatted(proj.toString().replace("\\", "/")));
        TestScanContext p = scan(proj, new BuildOptions(elsewhere, null, Map.of(), null));
        assertThat(p.buildContext(proj.resolve("k.cu")).defines()).containsExactly("VIA_P");
    }

    /**
     * Session 10 evaluation (niftyreg, tiny-cuda-nn): CMake's Makefile generator gives a CUDA target's include
     * directories in an options file, {@code --options-file CMakeFiles/<target>.dir/includes_CUDA.rsp}, and a host
     * compiler's in a response file {@code @...rsp}; they are read (inside the boundary) as the entry's own flags.
     */
    @Test
    void optionsFilesOfACompileCommandAreReadAsItsFlags(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("k.cu"), "");
        Files.writeString(dir.resolve("h.cpp"), "");
        Path build = Files.createDirectories(dir.resolve("build"));
        Path rsp = Files.createDirectories(build.resolve("CMakeFiles/k.dir"));
        Files.writeString(
                rsp.resolve("includes_CUDA.rsp"),
                "-I" + dir.resolve("inc") + " \"-I" + dir.resolve("my inc") + "\"\n-DFROM_RSP\n");
        Files.writeString(rsp.resolve("includes_CXX.rsp"), "-DHOST_RSP\n");
        String db =
                """
                [{"directory": "%1$s", "file": "../k.cu",
                  "command": "nvcc -DFROM_DB --options-file CMakeFiles/k.dir/includes_CUDA.rsp -c ../k.cu"},
                 {"directory": "%1$s", "file": "../h.cpp",
                  "command": "g++ @CMakeFiles/k.dir/includes_CXX.rsp -c ../h.cpp"},
                 {"directory": "%1$s", "file": "../k.cu",
                  "command": "nvcc -optf /etc/hostname -c ../k.cu"}]
                """
                        .formatted(build.toString().replace("\\", "/"));
        Files.writeString(build.resolve("compile_commands.json"), db);
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        BuildContext k = ctx.buildContext(dir.resolve("k.cu"));
        assertThat(k.defines()).containsExactly("FROM_DB", "FROM_RSP");
        assertThat(k.includePaths()).containsExactly(dir.resolve("inc"), dir.resolve("my inc"));
        assertThat(ctx.buildContext(dir.resolve("h.cpp")).defines()).containsExactly("HOST_RSP");
        // an options file outside the boundary is named and not read
        assertThat(ctx.notifications()).anySatisfy(n -> {
            assertThat(n.id()).isEqualTo("options-file-not-read");
            assertThat(n.message()).contains("/etc/hostname").contains("outside the scanned tree");
        });
    }

    /**
     * Session 23 (an evaluation's NWQ-Sim): CMake gives the include directories of imported targets (MPI, Eigen3) as
     * {@code -isystem="DIR"} in the options file; they reach nvcc -ptx too, not only the front ends' include paths.
     */
    @Test
    void systemIncludeDirectoriesOfACompileCommandReachNvcc(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("k.cu"), "");
        Path sys1 = Files.createDirectories(dir.resolve("pkg/include"));
        Path sys2 = Files.createDirectories(dir.resolve("pkg2/include"));
        Path build = Files.createDirectories(dir.resolve("build"));
        Path rsp = Files.createDirectories(build.resolve("CMakeFiles/k.dir"));
        Files.writeString(rsp.resolve("includes_CUDA.rsp"), "-isystem=\"" + sys1 + "\" -isystem " + sys2 + "\n");
        Files.writeString(
                build.resolve("compile_commands.json"),
                """
                [{"directory": "%1$s", "file": "../k.cu",
                  "command": "nvcc -forward-unknown-to-host-compiler --options-file CMakeFiles/k.dir/includes_CUDA.rsp -c ../k.cu"}]
                """
                        .formatted(build.toString().replace("\\", "/")));
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        BuildContext k = ctx.buildContext(dir.resolve("k.cu"));
        assertThat(k.includePaths()).containsExactly(sys1, sys2);
        assertThat(k.nvccFlags()).containsSubsequence("-isystem=" + sys1, "-isystem=" + sys2);
    }

    /**
     * Session 45 (an evaluation's ACMMP): a host compile command gives an installed library's headers as {@code
     * -isystem DIR} (CMake's imported OpenCV target): the directory is an include path of the file's context, as
     * {@code -I} is, so Clang finds {@code <opencv2/core.hpp>} and sees the types of what the code converts.
     */
    @Test
    void systemIncludeDirectoriesOfAHostCompileCommandAreIncludePaths(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("k.cpp"), "");
        Path sys = Files.createDirectories(dir.resolve("pkg/include/opencv4"));
        Path build = Files.createDirectories(dir.resolve("build"));
        Files.writeString(
                build.resolve("compile_commands.json"),
                """
                [{"directory": "%1$s", "file": "../k.cpp",
                  "arguments": ["/usr/bin/c++", "-isystem", "%2$s", "-O3", "-std=c++11", "-c", "../k.cpp"]}]
                """
                        .formatted(
                                build.toString().replace("\\", "/"),
                                sys.toString().replace("\\", "/")));
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        BuildContext k = ctx.buildContext(dir.resolve("k.cpp"));
        assertThat(k.includePaths()).containsExactly(sys);
    }

    /**
     * Issue 25 (zfp): a .cu file that a target names only under an option that is OFF by default gets a note naming
     * the option to turn on, since it is compiled without its target's flags.
     */
    @Test
    void aCudaSourceBuiltOnlyUnderAnOffOptionNamesTheOption(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("src/cuda"));
        Files.writeString(dir.resolve("src/k.c"), "");
        Files.writeString(dir.resolve("src/cuda/k.cu"), "");
        Files.writeString(dir.resolve("src/cuda/default.cu"), "");
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                project(p C)
                option(WITH_GPU "GPU backend" OFF)
                add_subdirectory(src)
                """);
        Files.writeString(
                dir.resolve("src/CMakeLists.txt"),
                """
                if(WITH_GPU)
                  find_package(CUDA)
                  cuda_wrap_srcs(core OBJ gpu_objs cuda/k.cu)
                endif()
                add_library(core k.c cuda/default.cu ${gpu_objs})
                target_include_directories(core PUBLIC ${CMAKE_SOURCE_DIR}/include)
                """);
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        assertThat(ctx.notifications())
                .filteredOn(n -> n.id().equals("not-default-source"))
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.file()).isEqualTo("src/cuda/k.cu");
                    assertThat(n.message()).contains("if(WITH_GPU)").contains("--cmake-define WITH_GPU=ON");
                });
    }

    /**
     * A compile command of the compilation database compiles the source: the build decides, and the note that CMake's
     * default configuration leaves it out would be false for the build the user gave (a Make-generated database of a
     * project that also has a CMakeLists.txt).
     */
    @Test
    void aSourceTheDatabaseCompilesGetsNoNotDefaultNote(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("src/cuda"));
        Files.writeString(dir.resolve("src/k.c"), "");
        Files.writeString(dir.resolve("src/cuda/k.cu"), "");
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                project(p C)
                option(WITH_GPU "GPU backend" OFF)
                if(WITH_GPU)
                  find_package(CUDA)
                  cuda_wrap_srcs(core OBJ gpu_objs src/cuda/k.cu)
                endif()
                add_library(core src/k.c ${gpu_objs})
                """);
        Files.writeString(
                dir.resolve("compile_commands.json"),
                """
                [{"directory": "%s", "file": "src/cuda/k.cu", "command": "nvcc -c src/cuda/k.cu -o k.o"}]
                """
                        .formatted(dir.toString().replace("\\", "/")));
        TestScanContext ctx = scan(dir, new BuildOptions(dir, null, Map.of(), null));
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("not-default-source"));
    }

    // ------------------------------------------------------------------------------------------ bounded work

    @Test
    void doublingMakeVariablesFinishQuicklyWithANotice(@TempDir Path dir) throws IOException {
        StringBuilder mk = new StringBuilder("A0 := -DX\n");
        StringBuilder rec = new StringBuilder("R0 = -DY\n");
        for (int i = 1; i <= 40; i++) {
            mk.append("A")
                    .append(i)
                    .append(" := $(A")
                    .append(i - 1)
                    .append(") $(A")
                    .append(i - 1)
                    .append(")\n");
            rec.append("R")
                    .append(i)
                    .append(" = $(R")
                    .append(i - 1)
                    .append(") $(R")
                    .append(i - 1)
                    .append(")\n");
        }
        Files.writeString(dir.resolve("k.cu"), "");
        Files.writeString(
                dir.resolve("Makefile"),
                mk + rec.toString()
                        + "NVCCFLAGS = -use_fast_math $(A40) $(R40)\nk.o: k.cu\n\tnvcc $(NVCCFLAGS) -c k.cu\n");
        assertThat(mk.length() + rec.length()).isLessThan(2048);
        TestScanContext ctx = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> scan(dir, BuildOptions.DEFAULT));
        assertThat(ctx.notifications()).anySatisfy(n -> {
            assertThat(n.id()).isEqualTo("not-evaluated");
            assertThat(n.message()).contains("not fully evaluated");
        });
    }

    /**
     * The fuzz seed hostile/Makefile-doubling (826 bytes), once reported as a >10 s hang: recursive '=' doubling. The
     * evaluator must cut the expansion and say so; how fast it does is bench/hostile-sizes.sh's figure, not a test's.
     */
    @Test
    void recursiveDoublingSeedIsCutWithANotice(@TempDir Path dir) throws IOException {
        StringBuilder mk = new StringBuilder("A0 = x\n");
        for (int i = 1; i <= 40; i++) {
            mk.append("A")
                    .append(i)
                    .append(" = $(A")
                    .append(i - 1)
                    .append(") $(A")
                    .append(i - 1)
                    .append(")\n");
        }
        mk.append("NVCCFLAGS = $(A40)\nall:\n\tnvcc $(NVCCFLAGS) k.cu\n");
        assertThat(mk.length()).isEqualTo(826);
        Files.writeString(dir.resolve("Makefile"), mk.toString());
        // a hang guard only (2^40 words would never finish); the time it takes is measured by the benchmark
        TestScanContext ctx = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> scan(dir, BuildOptions.DEFAULT));
        assertThat(ctx.notifications()).anySatisfy(n -> {
            assertThat(n.id()).isEqualTo("not-evaluated");
            assertThat(n.message()).contains("not fully evaluated");
        });
        assertThat(ctx.notifications()).extracting(Notification::id).doesNotContain("internal-error");
    }

    /**
     * Found by fuzzing (session 10): the doubling chain above with its base undefined, so every value stays empty and
     * neither MAX_EXPANSION nor MAX_WORK (characters produced) is ever reached while four million references are
     * expanded (seconds; ten under the fuzzer's instrumentation). The evaluator stops at a count of references and
     * says so.
     */
    @Test
    void blankDoublingChainIsCutByTheReferenceCount(@TempDir Path dir) throws IOException {
        StringBuilder mk = new StringBuilder();
        for (int i = 20; i <= 40; i++) {
            mk.append("A")
                    .append(i)
                    .append(" = $(A")
                    .append(i - 1)
                    .append(")$(A")
                    .append(i - 1)
                    .append(")\n");
        }
        mk.append("NVCCFLAGS = $(A40)\nall:\n\tnvcc $(NVCCFLAGS) k.cu\n");
        Files.writeString(dir.resolve("Makefile"), mk.toString());
        TestScanContext ctx = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> scan(dir, BuildOptions.DEFAULT));
        assertThat(ctx.notifications()).anySatisfy(n -> {
            assertThat(n.id()).isEqualTo("not-evaluated");
            assertThat(n.message()).contains("more than 500000 variable references expanded");
        });
    }

    /** Found by fuzzing (session 10): a target source written as "/" (a path without a file name) failed the audit. */
    @Test
    void aTargetSourceThatIsTheRootIsNoSourceAndNoInternalError(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("CMakeLists.txt"), "add_library(t STATIC / k.cu)\n");
        Files.writeString(dir.resolve("k.cu"), "");
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        assertThat(ctx.notifications()).extracting(Notification::id).doesNotContain("internal-error");
        assertThat(ctx.notifications()).extracting(Notification::message).noneMatch(m -> m.contains("audit failed"));
    }

    @Test
    void doublingCMakeVariablesFinishQuicklyWithANotice(@TempDir Path dir) throws IOException {
        StringBuilder cm = new StringBuilder("set(A0 \"-DX\")\n");
        for (int i = 1; i <= 40; i++) {
            cm.append("set(A")
                    .append(i)
                    .append(" \"${A")
                    .append(i - 1)
                    .append("} ${A")
                    .append(i - 1)
                    .append("}\")\n");
        }
        cm.append("set(CMAKE_CUDA_FLAGS \"--use_fast_math ${A40}\")\nadd_executable(app k.cu)\n");
        Files.writeString(dir.resolve("k.cu"), "");
        Files.writeString(dir.resolve("CMakeLists.txt"), cm.toString());
        assertThat(cm.length()).isLessThan(2048);
        TestScanContext ctx = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> scan(dir, BuildOptions.DEFAULT));
        assertThat(ctx.notifications()).anySatisfy(n -> {
            assertThat(n.id()).isEqualTo("not-evaluated");
            assertThat(n.message()).contains("not fully evaluated");
        });
    }

    @Test
    void hostileMakefileShapesFinishQuickly(@TempDir Path dir) throws IOException {
        StringBuilder s = new StringBuilder();
        s.append("override ".repeat(20000)).append("X := 1\n"); // long modifier runs
        s.append("R = $(R) x\nNVCCFLAGS = $(R)\n"); // self reference
        s.append("ifeq (".repeat(2000)).append("\n"); // broken conditionals
        s.append("F = $(call F,$(1))\nG := $(call F,1)\n"); // unbounded recursion
        s.append("all: all\n\tnvcc $(NVCCFLAGS) -c all.cu\n"); // a goal that is its own prerequisite
        Files.writeString(dir.resolve("Makefile"), s.toString());
        TestScanContext ctx = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> scan(dir, BuildOptions.DEFAULT));
        assertThat(ctx.notifications()).extracting(Notification::id).doesNotContain("internal-error");
    }

    // ------------------------------------------------------------------------------------------ size limits

    @Test
    void buildFlagsMaxFileSizeAppliesToIncludedCMakeAndMakeFiles(@TempDir Path dir) throws IOException {
        // names the scan itself does not pick up: only the audit, following the include, reads them
        String pad = "# " + "x".repeat(400) + "\n";
        Files.writeString(dir.resolve("k.cu"), "");
        Path cm = Files.createDirectories(dir.resolve("cm"));
        Files.writeString(
                cm.resolve("CMakeLists.txt"),
                "include(${CMAKE_CURRENT_LIST_DIR}/flags.txt)\nadd_executable(app k.cu)\n");
        Files.writeString(cm.resolve("flags.txt"), "set(CMAKE_CUDA_FLAGS \"--use_fast_math\")\n" + pad);
        Path mk = Files.createDirectories(dir.resolve("mk"));
        Files.writeString(mk.resolve("Makefile"), "include flags.inc\nall:\n\tnvcc $(NVCCFLAGS) -c k.cu\n");
        Files.writeString(mk.resolve("flags.inc"), "NVCCFLAGS = -prec-div=false\n" + pad);
        java.util.function.Function<String, dev.numlint.scan.ScanResult> scan =
                cfg -> dev.numlint.scan.Scanner.scan(dev.numlint.scan.ScanOptions.builder(dir)
                        .analyzers(List.of(new BuildFlagAnalyzer()))
                        .config(dev.numlint.config.NumlintConfig.parse(cfg, "cfg"))
                        .cacheDir(dir.resolve(".cache"))
                        .build());
        dev.numlint.scan.ScanResult limited = scan.apply("max-file-size-by-layer: {build-flags: 300}\n");
        assertThat(limited.findings())
                .as("the included files are too large to read")
                .isEmpty();
        assertThat(limited.notifications())
                .filteredOn(n -> n.id().equals("file-too-large"))
                .extracting(Notification::file)
                .contains("cm/flags.txt", "mk/flags.inc");
        assertThat(limited.notifications())
                .filteredOn(n -> n.file().equals("cm/flags.txt"))
                .anySatisfy(n -> assertThat(n.message()).contains("max-file-size for build-flags (300)"));
        dev.numlint.scan.ScanResult dflt = scan.apply("");
        assertThat(dflt.notifications()).extracting(Notification::id).doesNotContain("file-too-large");
        assertThat(dflt.findings()).extracting(f -> f.location().file()).contains("cm/flags.txt", "mk/flags.inc");
    }
    // ------------------------------------------------------------------------------------------ setup.py

    @Test
    void aSetupPyExtensionGivesItsSourcesTheirMacrosIncludesAndNvccFlags(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("src/inc"));
        Files.writeString(
                dir.resolve("src/k.cu"), "#include \"inc/h.cuh\"\n__global__ void k(float* a) { a[0] /= 3.0f; }\n");
        Files.writeString(dir.resolve("src/inc/h.cuh"), "#pragma once\n");
        Files.writeString(dir.resolve("src/other.cu"), "__global__ void o() {}\n");
        Files.writeString(
                dir.resolve("setup.py"),
                """
                from setuptools import setup, Extension
                macros = [("FOR_PYTHON", None), ("LEVEL", "2")]
                NVCC = ["--use_fast_math"]
                ext = Extension(
                    "_k",
                    sources=["src/k.cu", "/etc/passwd", "../outside.cu"],
                    define_macros=macros,
                    include_dirs=["src/inc", "/usr/include/evil"],
                    extra_compile_args={"nvcc": NVCC + ["-O3"], "cxx": ["-O2"]},
                )
                setup(name="k", ext_modules=[ext])
                """);
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        BuildContext k = ctx.buildContext(dir.resolve("src/k.cu"));
        assertThat(k.defines()).contains("FOR_PYTHON", "LEVEL=2");
        assertThat(k.effectiveFastMath()).isTrue();
        // (an include directory outside the tree stays in the model; the compile step never passes it to nvcc and
        // the preprocessor never reads there: HostileRepositoryTest)
        assertThat(k.includePaths()).contains(dir.resolve("src/inc"));
        assertThat(k.configuration()).isEqualTo("setup.py extension _k (setup.py:4)");
        assertThat(ctx.buildContext(dir.resolve("src/other.cu")))
                .as("not a source of the extension")
                .satisfiesAnyOf(c -> assertThat(c).isNull(), c -> assertThat(c.defines())
                        .isEmpty());
        // the hazardous flag is reported where setup.py writes it
        assertThat(ctx.findings()).anySatisfy(f -> {
            assertThat(f.location().file()).isEqualTo("setup.py");
            assertThat(f.location().startLine()).isEqualTo(3);
        });
    }

    /**
     * {@code -funsafe-math-optimizations} and {@code -freciprocal-math} on one line turn x/y into x*(1/y) once: one
     * NL002 finding, at the first (session 51: a lattice-Boltzmann Makefile had two warnings for one effect); on
     * another line, each its own.
     */
    @Test
    void reciprocalFlagsOnOneLineAreOneFinding(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("main.cpp"), "double f(double a, double b) { return a / b; }\n");
        Files.writeString(
                dir.resolve("Makefile"),
                """
                CXXFLAGS = -O3
                CXXFLAGS += -funsafe-math-optimizations -fassociative-math -freciprocal-math
                debug: CXXFLAGS += -freciprocal-math
                all: main.o
                main.o: main.cpp
                \tg++ $(CXXFLAGS) -c main.cpp -o main.o
                """);
        TestScanContext ctx = scan(dir, BuildOptions.DEFAULT);
        assertThat(ctx.findings())
                .filteredOn(f -> f.ruleId().equals("NL002"))
                .extracting(f -> f.location().startLine() + " " + f.message().split(" ")[0])
                .containsExactlyInAnyOrder("2 -funsafe-math-optimizations", "3 -freciprocal-math");
    }
}
