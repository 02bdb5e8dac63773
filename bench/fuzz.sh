#!/usr/bin/env bash
# Coverage-guided fuzzing of numlint's readers of untrusted input with Jazzer's standalone libFuzzer driver.
#
# usage: bench/fuzz.sh [SECONDS [TARGET...]]   (no arguments and no NUMLINT_CORPORA: smoke mode, 3 s of Ptx)
#   TARGET: Cuda Ptx CMake Make CompileCommands Pom Suppressions Config Baseline Spec Git (default: all), fuzzed one after another
#   env WORKERS=N   fuzzing processes per target, sharing one corpus (default 1)
#   env PARALLEL=1  fuzz all targets at the same time (for a machine with cores to spare)
#   env FUZZ_DIR    where corpora, crash/timeout reproducers and logs go (default analyzer/target/fuzz)
#   env FUZZ_CP     a ready classpath (skips Maven; used on machines without Maven, see --bundle)
# bench/fuzz.sh --bundle DIR   copies the classpath into DIR/lib for a machine with only a Java runtime
#
# Per-input limits: the target's own 10 s watchdog (ParserFuzzTest.BUDGET; the first input, which loads the front end,
# gets 120 s), libFuzzer's -timeout (150 s) as a backstop and -rss_limit_mb (2048); the JVM heap is -Xmx1g, so an input that needs
# more memory is an OutOfMemoryError finding. Seeds: analyzer/src/test/resources/dev/numlint/fuzz/
# ParserFuzzTestInputs/<target>/, the same inputs the normal test suite runs; copy every reproducer found there.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
if [ $# -eq 0 ]; then
  if [ "$SMOKE" = 1 ]; then set -- 3 Ptx; else set -- 600; fi
fi
declare -A SEEDS=([Cuda]=cudaSource [Ptx]=ptx [CMake]=cmake [Make]=makefile [CompileCommands]=compileCommands
                  [Pom]=pomXml [Suppressions]=suppressionComments)
SEEDS[Validation]=validation  # validation inputs: PTX [%% spec [%% host code]] on the interpreter
# issue 31 (sec-git): configuration, baseline, --spec and git reader targets, with inputs up to 1 MB
SEEDS+=([Config]=numlintConfig [Baseline]=baselineSarif [Spec]=validationSpec [Git]=gitReader)
declare -A MAXLEN=([Config]=1048576 [Baseline]=1048576 [Spec]=1048576 [Git]=1048576)
classpath() {
  # one reactor build (bench/lib.sh): compiles the modules, siblings come from the reactor, nothing is installed
  bench_build analyzer 1>&2
  echo "analyzer/target/test-classes:analyzer/target/classes:rules/target/classes:rules/target/test-classes:ptx-inspector/target/classes:validation/target/classes:$(bench_cp analyzer)"
}
if [ "${1:-}" = "--bundle" ]; then
  DIR=${2:-analyzer/target/fuzz-bundle}
  CP=$(classpath); mkdir -p "$DIR/lib" "$DIR/seeds"; DIR=$(cd "$DIR" && pwd)
  i=0
  for e in $(echo "$CP" | tr ':' ' '); do
    i=$((i + 1))
    if [ -d "$e" ]; then (cd "$e" && zip -qr "$DIR/lib/$(printf '%03d' $i)-classes.jar" .); else cp "$e" "$DIR/lib/"; fi
  done
  cp -r analyzer/src/test/resources/dev/numlint/fuzz/ParserFuzzTestInputs/. "$DIR/seeds/"
  cp "$0" "$DIR/fuzz.sh"; cp "$ROOT/bench/lib.sh" "$DIR/lib.sh"
  echo "bundle in $DIR: run FUZZ_CP=\"\$(ls -d $DIR/lib/* | paste -sd: -)\" $DIR/fuzz.sh SECONDS" >&2
  exit 0
fi
SECONDS_PER_TARGET=$1; shift
TARGETS=("$@"); [ ${#TARGETS[@]} -eq 0 ] && TARGETS=(Cuda Ptx CMake Make CompileCommands Pom Suppressions)
[ $# -eq 0 ] && TARGETS+=(Validation)
[ $# -eq 0 ] && TARGETS+=(Config Baseline Spec Git)  # issue 31 (sec-git)
CP=${FUZZ_CP:-$(classpath)}
OUTDIR=${FUZZ_DIR:-analyzer/target/fuzz}
SEEDROOT=${SEEDROOT:-analyzer/src/test/resources/dev/numlint/fuzz/ParserFuzzTestInputs}
[ -d "$SEEDROOT" ] || SEEDROOT="$(dirname "$0")/seeds"
JAVA=${JAVA:-java}
for t in "${TARGETS[@]}"; do
  d="$OUTDIR/$t"; mkdir -p "$d/corpus" "$d/artifacts"
  for w in $(seq 1 "${WORKERS:-1}"); do
    "$JAVA" -Xmx1g -XX:+UseParallelGC -cp "$CP" com.code_intelligence.jazzer.Jazzer \
        --target_class="dev.numlint.fuzz.Targets\$$t" --instrumentation_includes='dev.numlint.**' \
        --keep_going=1000 -max_total_time="$SECONDS_PER_TARGET" -timeout=150 -rss_limit_mb=2048 -max_len="${MAXLEN[$t]:-65536}" \
        -print_final_stats=1 -artifact_prefix="$d/artifacts/" "$d/corpus" "$SEEDROOT/${SEEDS[$t]}" \
        > "$d/worker$w.log" 2>&1 &
  done
  [ "${PARALLEL:-0}" = 1 ] || wait
done
wait
printf '%-16s %12s %10s %8s %8s\n' target executions exec/s crashes hangs
for t in "${TARGETS[@]}"; do
  d="$OUTDIR/$t"
  ex=$(grep -h 'stat::number_of_executed_units' "$d"/worker*.log | awk '{s+=$2} END {print s+0}')
  # distinct findings: crashes are exceptions other than the watchdog's; hangs are the watchdog's and libFuzzer's
  # own timeouts
  found=$(grep -h -A1 '== Java Exception' "$d"/worker*.log | grep -v '== Java Exception\|^--' | sort -u || true)
  hangs=$(printf '%s\n' "$found" | grep -c 'hang: the input took' || true)
  crashes=$(printf '%s\n' "$found" | grep -v 'hang: the input took' | grep -c . || true)
  hangs=$((hangs + $(ls "$d/artifacts" 2>/dev/null | grep -c '^timeout-' || true)))
  printf '%-16s %12s %10s %8s %8s\n' "$t" "$ex" "$((ex / SECONDS_PER_TARGET / ${WORKERS:-1}))" "$crashes" "$hangs"
done
