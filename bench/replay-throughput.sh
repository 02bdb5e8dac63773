#!/usr/bin/env bash
# The CPU interpreter on recorded launches (issue 27): every build that `validate --replay` runs (as-built, strict,
# one per hazard, and as-built counting floating-point exceptions, rated by the launch's PTX instructions without
# the checks) of every launch of the recordings, run on one core as the replay runs it (bounds-checked memory,
# the recorded allocations, parameters, module variables and textures); prints a table of interpreted PTX
# instructions per second per build, per launch and overall, by wall time and by the thread's own CPU time
# (ThreadMXBean: less sensitive to a loaded machine). Median of 5 runs after a warm-up of 2 runs and at least 10 s
# per build (-Dnumlint.bench.warmMillis): C2 recompiles the loop when a build runs instructions the builds before it
# never ran, which takes seconds on a loaded machine. Target: 150 M instructions/s.
# Recordings: $NUMLINT_CORPORA/recordings (directories written by `numlint record`, e.g. the rec/ of
# bench/gpu-replay.sh), else examples/recordings; arguments override both. Smoke mode (bench/lib.sh): one run each.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
bench_build validation
if [ $# -gt 0 ]; then dirs=("$@")
elif [ "$SMOKE" = 0 ] && [ -d "$NUMLINT_CORPORA/recordings" ]; then dirs=("$NUMLINT_CORPORA/recordings")
else dirs=("$ROOT/examples/recordings"); fi
CP="validation/target/test-classes:validation/target/classes:ptx-inspector/target/classes:rules/target/classes"
exec java -Xmx4g -Xss16m -XX:ActiveProcessorCount=1 \
    -Dnumlint.bench.smoke="$([ "$SMOKE" = 1 ] && echo true || echo false)" \
    -cp "$CP:$(bench_cp validation)" dev.numlint.bench.ReplayThroughput "${dirs[@]}"
