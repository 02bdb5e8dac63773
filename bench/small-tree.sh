#!/usr/bin/env bash
# The fixed cost of a scan of a small C/C++ tree (issue 26's speed bar: with PTX off, numlint's wall time at most 0.5x
# clang-tidy's, one check, same files, same compile commands): paired runs of this tree's ./numlint ("new") and
# another build's launcher ("old", NUMLINT_BENCH_OLD=/path/to/numlint), alternating which goes first, and clang-tidy-19
# (-checks=-*,bugprone-narrowing-conversions) on the sources of the tree's compile database, one process per file,
# as many at once as the scan's --jobs. Each scan: PTX off, --jobs 2 (NUMLINT_BENCH_JOBS), --scope build (the files
# clang-tidy reads and the project headers they include), the tree's own compile database (-p TREE/build), a fresh
# analysis cache (a cold scan). The launchers are run once before the rounds (a first run after a build makes its
# class-data archives). Wall and CPU (user + system of the process and the children it reaped: the scan's JVM and its
# Clang workers; xargs and its clang-tidy processes) per run, from bench/measure.py; the load average before each
# round; the medians and the median of the per-round ratios; whether old and new reported the same findings.
#
# NUMLINT_BENCH_OLD_OPTIONS="-D...": Java options of the old side's scans (its launcher this tree's when
# NUMLINT_BENCH_OLD is not given): one setting against the default, e.g. the precompiled system prefix off
# (session 47: NUMLINT_BENCH_OLD_OPTIONS=-Dnumlint.clang.prefixPch=false).
#
# Usage: NUMLINT_BENCH_OLD=../old/numlint bench/small-tree.sh [ROUNDS] TREE...   (each TREE configured with its own
#        build: TREE/build/compile_commands.json; without NUMLINT_BENCH_OLD only new and clang-tidy run)
#        Without a TREE (smoke mode): one round on a built-in two-file tree with its own compile database; its
#        figures mean nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
ROUNDS=5
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then ROUNDS="$1"; shift; fi
JOBS="${NUMLINT_BENCH_JOBS:-2}"
OLD="${NUMLINT_BENCH_OLD:-}"
OLD_OPTIONS="${NUMLINT_BENCH_OLD_OPTIONS:-}"
NEW="$ROOT/numlint"
if [ -n "$OLD_OPTIONS" ] && [ -z "$OLD" ]; then OLD="$NEW"; fi
TIDY="$(command -v clang-tidy-19 || command -v clang-tidy || true)"
MEASURE="$ROOT/bench/measure.py"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ "$#" = 0 ]; then
  ROUNDS=1
  mkdir -p "$tmp/smoke/build"
  echo 'unsigned pixel(float v) { return (unsigned)(v * 255.0f); }' > "$tmp/smoke/pixel.c"
  echo 'double mean(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i]; return s / n; }' \
    > "$tmp/smoke/mean.c"
  printf '[{"directory": "%s", "file": "%s", "command": "cc -std=c99 -O2 -c %s"},\n {"directory": "%s", "file": "%s", "command": "cc -std=c99 -O2 -c %s"}]\n' \
    "$tmp/smoke" "$tmp/smoke/pixel.c" "$tmp/smoke/pixel.c" "$tmp/smoke" "$tmp/smoke/mean.c" "$tmp/smoke/mean.c" \
    > "$tmp/smoke/build/compile_commands.json"
  set -- "$tmp/smoke"
fi

# findings JSON...: "yes" when every report has the same findings and notifications as the first
same_findings() {
  python3 -c 'import json,sys
r=[(json.load(open(p))) for p in sys.argv[1:]]
key=lambda d: (d["findings"], d["notifications"])
print("yes" if all(key(x) == key(r[0]) for x in r) else "NO")' "$@"
}

# scan LAUNCHER TREE LABEL: "WALL CPU" of one cold scan; the report in $tmp/LABEL.json
scan() {
  local l="$1" d="$2" label="$3" opts="${JAVA_TOOL_OPTIONS:-}"
  rm -rf "$tmp/cache-$label"
  case "$label" in *old) opts="${opts:+$opts }$OLD_OPTIONS" ;; esac
  read -r w _ c < <(JAVA_TOOL_OPTIONS="$opts" python3 "$MEASURE" "$l" scan --ptx off --jobs "$JOBS" --scope build -p "$d/build" \
    --cache-dir "$tmp/cache-$label" --format json --output "$tmp/$label.json" "$d")
  echo "$w $c"
}

tidy() {
  read -r w _ c < <(python3 "$MEASURE" xargs -0 -P "$JOBS" -I{} -a "$tmp/files" "$TIDY" \
    -checks='-*,bugprone-narrowing-conversions' --quiet -p "$1/build" {})
  echo "$w $c"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) printf "-"; else if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

"$NEW" --version >/dev/null
if [ -n "$OLD" ]; then "$OLD" --version >/dev/null; fi
echo "$(nproc) cores; ${TIDY:-no clang-tidy}; numlint --jobs $JOBS --scope build --ptx off, cold analysis cache"
for d in "$@"; do
  d="$(cd "$d" && pwd)"
  name="$(basename "$d")"
  [ -f "$d/build/compile_commands.json" ] || { echo "$name: no build/compile_commands.json, skipped" >&2; continue; }
  python3 -c 'import json,sys,os
fs=sorted({e["file"] if os.path.isabs(e["file"]) else os.path.join(e["directory"], e["file"]) for e in json.load(open(sys.argv[1]))})
sys.stdout.write("".join(f + "\0" for f in fs))' "$d/build/compile_commands.json" > "$tmp/files"
  nsrc="$(tr -cd '\0' < "$tmp/files" | wc -c)"
  nent="$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$d/build/compile_commands.json")"
  # one untimed scan each: the launchers' first run after a build (class-data archives), the JavaCPP cache
  scan "$NEW" "$d" warm-new >/dev/null
  if [ -n "$OLD" ]; then scan "$OLD" "$d" warm-old >/dev/null; fi
  echo
  echo "### $name: $nsrc sources, $nent compile commands"
  echo
  echo "| round | load | old wall s | old CPU s | new wall s | new CPU s | clang-tidy wall s | clang-tidy CPU s | new / old CPU | new / clang-tidy wall | new / clang-tidy CPU | same findings |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  : > "$tmp/rows"
  for r in $(seq "$ROUNDS"); do
    load="$(cut -d' ' -f1 /proc/loadavg)"
    ow="-"; oc="-"
    if [ -n "$OLD" ] && [ $((r % 2)) = 1 ]; then read -r ow oc < <(scan "$OLD" "$d" old); fi
    read -r nw nc < <(scan "$NEW" "$d" new)
    if [ -n "$OLD" ] && [ $((r % 2)) = 0 ]; then read -r ow oc < <(scan "$OLD" "$d" old); fi
    tw="-"; tc="-"
    if [ -n "$TIDY" ]; then read -r tw tc < <(tidy "$d"); fi
    same="-"
    if [ -n "$OLD" ]; then same="$(same_findings "$tmp/new.json" "$tmp/old.json")"; fi
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == "-" || a == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }
    no="$(ratio "$nc" "$oc")"; ntw="$(ratio "$nw" "$tw")"; ntc="$(ratio "$nc" "$tc")"
    echo "| $r | $load | $ow | $oc | $nw | $nc | $tw | $tc | $no | $ntw | $ntc | $same |"
    echo "$ow $oc $nw $nc $tw $tc $no $ntw $ntc" >> "$tmp/rows"
  done
  med=()
  for c in 1 2 3 4 5 6 7 8 9; do med+=("$(awk -v c="$c" '$c != "-" { print $c }' "$tmp/rows" | median)"); done
  echo "| median | | ${med[0]} | ${med[1]} | ${med[2]} | ${med[3]} | ${med[4]} | ${med[5]} | ${med[6]} | ${med[7]} | ${med[8]} | |"
done
