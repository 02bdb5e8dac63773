#!/usr/bin/env bash
# Start-up time of `numlint rules` (catalog loaded, nothing scanned): the plain `java -jar` against the flags the
# ./numlint launcher uses (class-data sharing archive + quick compiler). Usage: bench/cli-startup.sh [RUNS]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS="${1:-10}"
"$ROOT/numlint" --version >/dev/null   # builds the jar and the CDS archive when needed
JAR="$(ls -t "$ROOT"/analyzer/target/numlint-analyzer-*-cli.jar | head -n1)"
JSA="$(ls -t "$ROOT"/analyzer/target/numlint-*.jsa 2>/dev/null | head -n1 || true)"

measure() { # label, command...
  local label="$1"; shift
  local times=()
  for _ in $(seq "$RUNS"); do
    local s e
    s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
    times+=($(( (e - s) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v label="$label" '
    { t[NR] = $1; sum += $1 }
    END { printf "| %-44s | %6d | %6d | %6d | %6d |\n", label, sum / NR, t[1], t[int((NR + 1) / 2)], t[NR] }'
}

echo "numlint rules, $RUNS runs each, $(nproc) cores, $(java -version 2>&1 | head -n1)"
echo "| variant                                      | mean ms | min ms | median | max ms |"
echo "|----------------------------------------------|--------|--------|--------|--------|"
measure "java -jar (no flags)" java -jar "$JAR" rules
measure "java -XX:TieredStopAtLevel=1 -Xshare:auto" java -XX:TieredStopAtLevel=1 -Xshare:auto -jar "$JAR" rules
if [ -n "$JSA" ]; then
  measure "java + CDS archive + TieredStopAtLevel=1" java -XX:SharedArchiveFile="$JSA" -XX:TieredStopAtLevel=1 \
    -Xlog:disable -jar "$JAR" rules
fi
measure "./numlint rules (launcher, incl. stale check)" "$ROOT/numlint" rules
