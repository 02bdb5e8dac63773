#!/usr/bin/env bash
# The CPU interpreter on recorded launches (issue 27): every build that `validate --replay` runs (as-built, strict,
# one per hazard, and as-built counting floating-point exceptions, rated by the launch's PTX instructions without
# the checks) of every launch of the recordings, run on one core as the replay runs it (bounds-checked memory,
# the recorded allocations, parameters, module variables and textures). Prints a table per build: instructions,
# CPU seconds, M PTX instructions/s cold (the build's first run, no warm-up of that build) and warm (median of 5
# runs), by the thread's own CPU time (ThreadMXBean: less sensitive to a loaded machine), the warm rate by wall
# time; then a summary with how many builds reach the target (150 M instructions/s), the JVM, the processors and
# the load average. The interpreter's once-per-JVM warm-up is timed on its own line.
# Recordings: $NUMLINT_CORPORA/recordings (directories written by `numlint record`, e.g. the rec/ of
# bench/gpu-replay.sh), else examples/recordings; arguments override both. Smoke mode (bench/lib.sh): one run each.
# NUMLINT_BENCH_JAVA_OPTS: extra JVM options, e.g. -Dnumlint.interp.warmup=false (without the interpreter's
# warm-up), -Dnumlint.bench.warmMillis=10000 (the old per-build warm-up), -Dnumlint.bench.reps=9,
# -Dnumlint.bench.printReps=true (every run's rate in order: when C2's code arrived for each build, see
# docs/validation/interpreter-speed-session15.md).
# Two JVMs, one per interpreter-loop setting (interp/Machines): the default (builds run on the shared loop until their
# instruction mix has executed 100 M instructions, then on a copy of the loop with its own JIT profile), then
# -Dnumlint.interp.copyAfter=0 (each build's mix on its own copy from its first launch: the steady state a long replay
# reaches). NUMLINT_BENCH_LOOPS="default" (or "copies") runs one of them.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
bench_build validation
if [ $# -gt 0 ]; then dirs=("$@")
elif [ "$SMOKE" = 0 ] && [ -d "$NUMLINT_CORPORA/recordings" ]; then dirs=("$NUMLINT_CORPORA/recordings")
else dirs=("$ROOT/examples/recordings"); fi
CP="validation/target/test-classes:validation/target/classes:ptx-inspector/target/classes:rules/target/classes"
# shellcheck disable=SC2086
for loop in ${NUMLINT_BENCH_LOOPS:-default copies}; do
  opts=()
  [ "$loop" = copies ] && opts=(-Dnumlint.interp.copyAfter=0)
  echo "## interpreter loop setting: $loop"
  java -Xmx4g -Xss16m -XX:ActiveProcessorCount=1 ${NUMLINT_BENCH_JAVA_OPTS:-} "${opts[@]}" \
    -Dnumlint.bench.smoke="$([ "$SMOKE" = 1 ] && echo true || echo false)" \
    -cp "$CP:$(bench_cp validation)" dev.numlint.bench.ReplayThroughput "${dirs[@]}"
  echo
done
