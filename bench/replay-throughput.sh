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
# The interpreter loop is compiled in the foreground (interp/ForegroundCompile) unless -Dnumlint.interp.foregroundCompile=false;
# each JVM prints whether it was, and the last table sums up every JVM run (NUMLINT_BENCH_JVMS, NUMLINT_BENCH_FOREGROUND below).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
bench_build validation
if [ $# -gt 0 ]; then dirs=("$@")
elif [ "$SMOKE" = 0 ] && [ -d "$NUMLINT_CORPORA/recordings" ]; then dirs=("$NUMLINT_CORPORA/recordings")
else dirs=("$ROOT/examples/recordings"); fi
CP="validation/target/test-classes:validation/target/classes:ptx-inspector/target/classes:rules/target/classes"
# NUMLINT_BENCH_JVMS=N: N JVMs per setting, run in turn (setting by setting, then again), and a summary table at the
# end: how many JVMs had every build at 150 M/s or more, the lowest warm and cold rates of each JVM, the load average.
# NUMLINT_BENCH_FOREGROUND="on off": also each setting without the foreground compile of the interpreter loop
# (-Dnumlint.interp.foregroundCompile=false; interp/ForegroundCompile), to pair the two on the same machine.
jvms="${NUMLINT_BENCH_JVMS:-1}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for ((j = 1; j <= jvms; j++)); do
  # shellcheck disable=SC2086
  for loop in ${NUMLINT_BENCH_LOOPS:-default copies}; do
    for fg in ${NUMLINT_BENCH_FOREGROUND:-on}; do
      opts=()
      [ "$loop" = copies ] && opts+=(-Dnumlint.interp.copyAfter=0)
      [ "$fg" = off ] && opts+=(-Dnumlint.interp.foregroundCompile=false)
      log="$tmp/$loop-$fg-$j.txt"
      echo "## interpreter loop setting: $loop, foreground compile: $fg (JVM $j of $jvms)"
      # shellcheck disable=SC2086
      java -Xmx4g -Xss16m -XX:ActiveProcessorCount=1 ${NUMLINT_BENCH_JAVA_OPTS:-} "${opts[@]}" \
        -Dnumlint.bench.smoke="$([ "$SMOKE" = 1 ] && echo true || echo false)" \
        -cp "$CP:$(bench_cp validation)" dev.numlint.bench.ReplayThroughput "${dirs[@]}" | tee "$log"
      echo
    done
  done
done
echo "## every JVM (rates in M PTX instructions/s by the benchmark thread's CPU time; target 150)"
python3 - "$tmp" <<'PY'
import glob, os, re, sys
rows = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.txt"))):
    setting = os.path.basename(f).rsplit("-", 1)[0]
    text = open(f).read()
    warm, cold = [], []
    for line in text.splitlines():
        c = [x.strip() for x in line.split("|")]
        if len(c) == 11 and c[5].isdigit():
            cold.append(float(c[7]))
            warm.append(float(c[8]))
    load = re.search(r"load average \(1 min\) at start: ([\d.]+)", text)
    if warm:
        rows.setdefault(setting, []).append((min(warm), min(cold), all(w >= 150 for w in warm), load.group(1) if load else "?"))
print("| loop setting, foreground compile | JVMs | JVMs with every build >= 150 warm | lowest warm per JVM | lowest cold per JVM | load at start |")
print("|---|---:|---:|---|---|---|")
for s, r in rows.items():
    print(f"| {s.replace('-', ', ')} | {len(r)} | {sum(x[2] for x in r)} | {', '.join(f'{x[0]:.0f}' for x in r)} | {', '.join(f'{x[1]:.0f}' for x in r)} | {', '.join(x[3] for x in r)} |")
PY
