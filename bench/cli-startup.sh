#!/usr/bin/env bash
# Start-up time of `numlint rules` (catalog loaded, nothing scanned): the plain `java -jar` against the flags the
# ./numlint launcher uses (class-data sharing archive + quick compiler). Usage: bench/cli-startup.sh [RUNS]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
RUNS="${1:-$([ "$SMOKE" = 1 ] && echo 1 || echo 10)}"
"$ROOT/numlint" --version >/dev/null   # builds the jar and the CDS archive when needed
JAR="$(ls -t "$ROOT"/analyzer/target/numlint-analyzer-*-cli.jar | head -n1)"
JSA="$(ls -t "$ROOT"/analyzer/target/numlint-*.jsa 2>/dev/null | head -n1 || true)"

measure() { # label, command...: wall time and CPU time (user+sys) per run, in ms
  local label="$1"; shift
  local out; out="$(mktemp)"
  for _ in $(seq "$RUNS"); do
    if [ -x /usr/bin/time ]; then
      /usr/bin/time -f "%e %U %S" -a -o "$out" "$@" >/dev/null 2>&1
    else   # no GNU time: wall time only
      local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
      echo "$(( (e - s) / 1000000 )).0 0 0" | awk '{ printf "%.3f 0 0\n", $1 / 1000 }' >> "$out"
    fi
  done
  sort -n -k1 "$out" | awk -v label="$label" '
    { w[NR] = $1 * 1000; wsum += w[NR]; csum += ($2 + $3) * 1000 }
    END { printf "| %-46s | %7d | %6d | %6d | %6d | %7d |\n", label, wsum / NR, w[1], w[int((NR + 1) / 2)], w[NR], csum / NR }'
  rm -f "$out"
}

echo "numlint rules, $RUNS runs each, $(nproc) cores, $(java -version 2>&1 | head -n1)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| variant                                        | wall ms | min ms | median | max ms | CPU ms  |"
echo "|------------------------------------------------|---------|--------|--------|--------|---------|"
measure "java -jar (no flags)" java -jar "$JAR" rules
measure "java -XX:TieredStopAtLevel=1 -Xshare:auto" java -XX:TieredStopAtLevel=1 -Xshare:auto -jar "$JAR" rules
if [ -n "$JSA" ]; then
  measure "java + CDS archive + TieredStopAtLevel=1" java -XX:SharedArchiveFile="$JSA" -XX:TieredStopAtLevel=1 \
    -Xlog:disable -jar "$JAR" rules
fi
measure "./numlint rules (launcher, incl. stale check)" "$ROOT/numlint" rules
