#!/usr/bin/env bash
# Class-data sharing for a scan's start: a cold scan (PTX off, fresh analysis cache) of a two-file C tree, its JVM
# run as the ./numlint launcher runs it (quick compiler, serial collector) with
#   none:  the JDK's own archive only (-Xshare:auto)
#   rules: an archive trained on `numlint rules` (the launcher's archive before session 23)
#   scan:  an archive trained on a scan of the same kind of tree (the launcher's archive since session 23)
# and, in each, the Clang worker without and with its archive (-Dnumlint.clang.workerArchive, trained on the worker a
# scan started). Rounds alternate the variants; wall and CPU (user + system, the worker included) per run, the
# workers' start as the scan times it (-Dnumlint.timings=true), the load average before each round, medians.
# Usage: bench/cds-startup.sh [ROUNDS]   (smoke mode, without NUMLINT_CORPORA: one round; the tree is built in)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ROUNDS="${1:-5}"
if [ "$SMOKE" = 1 ]; then ROUNDS=1; fi
"$ROOT/numlint" --version >/dev/null
JAR="$(ls -t "$ROOT"/analyzer/target/numlint-analyzer-*-cli.jar | head -n1)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tree"
echo 'unsigned pixel(float v) { return (unsigned)(v * 255.0f); }' > "$tmp/tree/pixel.c"
echo 'double mean(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i]; return s / n; }' \
  > "$tmp/tree/mean.c"
FLAGS=(-Xlog:disable -XX:TieredStopAtLevel=1 -XX:+UseSerialGC)
# timed COMMAND...: its standard error, then "TIME WALL USER SYSTEM" (the command and the children it reaped: the
# scan's JVM and its Clang workers); no /usr/bin/time needed
timed() {
  python3 -c 'import os, subprocess, sys, time
t = time.monotonic(); a = os.times()
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
b = os.times()
sys.stdout.write(p.stderr)
print("TIME %.2f %.2f %.2f" % (time.monotonic() - t, b.children_user - a.children_user, b.children_system - a.children_system))' "$@"
}
export LIBCLANG_DISABLE_CRASH_RECOVERY=1
scan() { # OUTPUT-TAG JVM-OPTION...: one cold scan
  local tag="$1"; shift
  rm -rf "$tmp/cache"
  java "$@" -jar "$JAR" scan --ptx off --cache-dir "$tmp/cache" --format json --output "$tmp/$tag.json" "$tmp/tree"
}
# the archives: trained as the launcher trains them
java -XX:ArchiveClassesAtExit="$tmp/rules.jsa" "${FLAGS[@]}" -jar "$JAR" rules >/dev/null 2>&1 || true
scan train -XX:ArchiveClassesAtExit="$tmp/scan.jsa" "${FLAGS[@]}" \
  "-Dnumlint.clang.workerOptions=-XX:DumpLoadedClassList=$tmp/worker.classes" >/dev/null 2>&1 || true
# (no worker class list when the training scan started no Clang worker: the +worker variants then run without one)
if [ -s "$tmp/worker.classes" ]; then
  java -Xshare:dump -XX:SharedClassListFile="$tmp/worker.classes" -XX:SharedArchiveFile="$tmp/worker.jsa" \
    -Xlog:disable -cp "$(readlink -f "$JAR")" >/dev/null 2>&1 || echo "(the worker's archive could not be made)" >&2
fi
echo "$(nproc) cores; $(java -version 2>&1 | head -n1); $ROUNDS rounds"
echo
echo "| round | load | variant | wall s | CPU s | worker start ms |"
echo "|---|---|---|---:|---:|---:|"
: > "$tmp/rows"
for r in $(seq "$ROUNDS"); do
  load="$(cut -d' ' -f1 /proc/loadavg)"
  for v in none rules scan none+worker scan+worker; do
    case "$v" in
      none*) a=(-Xshare:auto) ;;
      rules) a=(-XX:SharedArchiveFile="$tmp/rules.jsa") ;;
      scan*) a=(-XX:SharedArchiveFile="$tmp/scan.jsa") ;;
    esac
    case "$v" in *+worker) if [ -f "$tmp/worker.jsa" ]; then a+=("-Dnumlint.clang.workerArchive=$tmp/worker.jsa"); fi ;; esac
    out="$(timed java "${a[@]}" "${FLAGS[@]}" -Dnumlint.timings=true -jar "$JAR" scan \
      --ptx off --cache-dir "$tmp/cache-$v-$r" --format json --output "$tmp/r.json" "$tmp/tree" || true)"
    read -r w c < <(echo "$out" | awk '/^TIME/ { printf "%s %.2f\n", $2, $3 + $4 }')
    ws="$(echo "$out" | sed -n 's/.*clang worker started \([0-9]*\) ms.*/\1/p' | head -n1)"
    echo "| $r | $load | $v | $w | $c | ${ws:--} |"
    echo "$v $w $c ${ws:--}" >> "$tmp/rows"
  done
done
for v in none rules scan none+worker scan+worker; do
  awk -v v="$v" '$1 == v' "$tmp/rows" | python3 -c 'import sys, statistics as s
rows=[l.split() for l in sys.stdin]
def med(i):
    v = [float(r[i]) for r in rows if len(r) > i and r[i] != "-"]
    return "%.2f" % s.median(v) if v else "-"
print("| median | | %s | %s | %s | %s |" % (sys.argv[1], med(1), med(2), med(3)))' "$v"
done
