#!/usr/bin/env bash
# Where `mvn -B verify` spends its test time: reads every module's target/surefire-reports and
# target/failsafe-reports (the XML reports of the last build) and prints one table per module (test classes, tests,
# seconds of the test suites) and the slowest classes of the whole build. Usage:
#   bench/ci-time.sh [TOP]          the reports of the last build (default: the 15 slowest classes)
#   bench/ci-time.sh --run [TOP]    runs `mvn -B verify` first (NUMLINT_MVN_ARGS, e.g. -o, is passed on) and prints
#                                   its wall time, its CPU seconds (user + sys of Maven and every process it
#                                   started, from /usr/bin/time where installed), the cores it kept busy on average
#                                   (CPU / wall) and the load average before and after
# The seconds are the suites' own wall times as surefire measures them: on a shared machine they move with its load,
# compare the classes' shares and the counts. Without reports (smoke mode from a fresh clone) it says so and exits 0.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
RUN=0
if [ "${1:-}" = --run ]; then RUN=1; shift; fi
TOP="${1:-15}"
if [ "$RUN" = 1 ]; then
  mkdir -p "$ROOT/target"
  load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
  timed=()
  cpu="$ROOT/target/ci-time-cpu.txt"
  rm -f "$cpu"
  # user and sys seconds of mvn and its children (surefire's JVMs, nvcc, Clang workers, CLI JVMs of the tests)
  if [ -x /usr/bin/time ]; then timed=(/usr/bin/time -f "%U %S" -o "$cpu"); fi
  s=$(date +%s)
  (cd "$ROOT" && "${timed[@]}" mvn -B -Dstyle.color=never ${NUMLINT_MVN_ARGS:-} verify \
      >"$ROOT/target/ci-time-verify.log" 2>&1) \
    || { echo "mvn verify failed: see target/ci-time-verify.log" >&2; exit 1; }
  wall=$(( $(date +%s) - s ))
  echo "mvn -B verify: $wall s wall (load average before: $load0; after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
  if [ -s "$cpu" ]; then
    awk -v w="$wall" 'END { c = $1 + $2; printf "CPU: %.0f s user + %.0f s sys = %.0f s; %.2f cores busy on average\n", \
      $1, $2, c, (w > 0 ? c / w : 0) }' "$cpu"
  fi
fi
python3 - "$ROOT" "$TOP" <<'PY'
import glob, os, sys
import xml.etree.ElementTree as ET

root, top = sys.argv[1], int(sys.argv[2])
rows, classes = {}, []
for d in sorted(glob.glob(os.path.join(root, "**", "target", "*-reports"), recursive=True)):
    kind = os.path.basename(d).split("-")[0]  # surefire or failsafe
    if kind not in ("surefire", "failsafe"):
        continue
    module = os.path.relpath(os.path.dirname(os.path.dirname(d)), root)
    for f in sorted(glob.glob(os.path.join(d, "TEST-*.xml"))):
        try:
            s = ET.parse(f).getroot()
        except ET.ParseError:
            continue
        t = float(s.get("time", "0") or 0)
        n = int(s.get("tests", "0"))
        skipped = int(s.get("skipped", "0"))
        r = rows.setdefault((module, kind), [0, 0, 0, 0.0])
        r[0] += 1
        r[1] += n
        r[2] += skipped
        r[3] += t
        classes.append((t, module, s.get("name", f).rsplit(".", 1)[-1], n, kind))
if not rows:
    print("no surefire or failsafe reports under %s (run `mvn -B verify` first, or bench/ci-time.sh --run)" % root)
    sys.exit(0)
print("| module | reports | test classes | tests | skipped | seconds |")
print("|--------|---------|--------------|-------|---------|---------|")
tot = [0, 0, 0, 0.0]
for (m, k), r in sorted(rows.items()):
    print("| %s | %s | %d | %d | %d | %.1f |" % (m, k, r[0], r[1], r[2], r[3]))
    tot = [a + b for a, b in zip(tot, r)]
print("| all | | %d | %d | %d | %.1f |" % tuple(tot))
print()
print("| slowest classes | module | tests | seconds |")
print("|-----------------|--------|-------|---------|")
for t, m, c, n, k in sorted(classes, reverse=True)[:top]:
    print("| %s%s | %s | %d | %.1f |" % (c, "" if k == "surefire" else " (" + k + ")", m, n, t))
PY
