#!/usr/bin/env bash
# Paired re-scans after one changed file (issue 26: under 3 s on cuda-samples with the caches), for a shared machine
# where single wall times move with the load: two copies of TREE and two cache directories, each warmed by one scan
# of its launcher; then N times a comment is appended to the same FILE in both copies and OLD and this tree's
# ./numlint each re-scan their copy, the order alternating; the two reports are compared each time (the copies'
# names aside). Prints each pair and a summary: the medians, the per-pair ratio new / old, how many re-scans took
# under 3 s.
#
# Usage: bench/rescan-paired.sh OLD_NUMLINT TREE FILE [N]   (FILE relative to TREE; N default 8); without arguments
#        a smoke run (this tree's numlint against itself on examples/, one pair)
# Environment: PTX (auto or off, default auto), JOBS (--jobs, default the scan's own), NVCC_FLAGS (passed as
#              --nvcc-flags; '{tree}' stands for each copy's root, e.g. NVCC_FLAGS='-I{tree}/Common' for cuda-samples,
#              whose sources include Common/ by name: without it every nvcc call fails and the re-scan measures no PTX).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
if [ "$#" = 0 ]; then
  # smoke (no arguments, as .ci/run calls it): this tree's launcher on both sides, examples/, one pair
  set -- ./numlint "$ROOT/examples" "$(cd "$ROOT/examples" && find . -name '*.cu' | sort | head -1 | sed 's#^\./##')" 1
  echo "(no arguments: a smoke run, this tree's numlint against itself on examples/; its figures mean nothing)" >&2
fi
old="$1"
tree="$(cd "$2" && pwd)"
file="$3"
n="${4:-8}"
ptx="${PTX:-auto}"
jobs=()
if [ -n "${JOBS:-}" ]; then jobs=(--jobs "$JOBS"); fi
./numlint --version >/dev/null   # builds the CLI jar when needed
"$old" --version >/dev/null
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cli() { if [ "$1" = old ]; then echo "$old"; else echo ./numlint; fi; }
scan() { # TAG: one scan of the copy; prints its wall time in seconds
  local s e nv=()
  if [ -n "${NVCC_FLAGS:-}" ]; then nv=("--nvcc-flags=${NVCC_FLAGS//\{tree\}/$tmp/tree-$1}"); fi
  s=$(date +%s%N)
  "$(cli "$1")" scan --ptx "$ptx" ${jobs[@]+"${jobs[@]}"} ${nv[@]+"${nv[@]}"} --cache-dir "$tmp/cache-$1" --format json \
    --output "$tmp/$1.json" "$tmp/tree-$1" >/dev/null 2>&1 || true
  e=$(date +%s%N)
  awk -v d=$((e - s)) 'BEGIN { printf "%.2f", d / 1e9 }'
}
for t in old new; do
  cp -r "$tree" "$tmp/tree-$t"
  scan "$t" >/dev/null
done
echo "re-scan after a change to $file, PTX $ptx, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| pair | old s | new s | new / old | reports equal |"
echo "|---|---|---|---|---|"
: > "$tmp/pairs"
for i in $(seq 1 "$n"); do
  for t in old new; do echo "// changed $i" >> "$tmp/tree-$t/$file"; done
  if [ $((i % 2)) = 1 ]; then order=(old new); else order=(new old); fi
  for t in "${order[@]}"; do
    w="$(scan "$t")"
    if [ "$t" = old ]; then wo="$w"; else wn="$w"; fi
  done
  same="$(python3 -c 'import json,sys
strip=lambda d: {k: v for k, v in d.items() if k != "provenance"}
a,b=(strip(json.loads(open(p).read().replace("tree-old","tree-new"))) for p in sys.argv[1:])
print("yes" if a==b else "NO")' "$tmp/old.json" "$tmp/new.json")"
  echo "$wo $wn" >> "$tmp/pairs"
  awk -v i="$i" -v o="$wo" -v w="$wn" -v s="$same" 'BEGIN { printf "| %d | %s | %s | %.2f | %s |\n", i, o, w, w / o, s }'
done
python3 - "$tmp/pairs" <<'PY'
import statistics, sys
pairs = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
o = [p[0] for p in pairs]
w = [p[1] for p in pairs]
r = [b / a for a, b in pairs]
print(f"old median {statistics.median(o):.2f} s, new median {statistics.median(w):.2f} s, new / old per pair: median "
      f"{statistics.median(r):.2f} (min {min(r):.2f}, max {max(r):.2f}); under 3 s: new {sum(x < 3 for x in w)} of "
      f"{len(w)}, old {sum(x < 3 for x in o)} of {len(o)}")
PY
python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print("new report: %d findings; %s" % (len(d["findings"]), "; ".join(n.get("message","") for n in d.get("notifications",[]) if n.get("message","").startswith("PTX layer")) or "no PTX layer summary"))' "$tmp/new.json"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
