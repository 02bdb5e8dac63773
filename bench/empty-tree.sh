#!/usr/bin/env bash
# Scan of a tree with 10,000 files and nothing numlint analyzes (.txt .md .py .png in nested directories): the cost
# of walking and filtering. Target: under 5 s. Usage: bench/empty-tree.sh [FILES] [RUNS]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
FILES="${1:-$([ "$SMOKE" = 1 ] && echo 200 || echo 10000)}"
RUNS="${2:-$([ "$SMOKE" = 1 ] && echo 1 || echo 3)}"
"$ROOT/numlint" --version >/dev/null
TREE="$(mktemp -d)"
trap 'rm -rf "$TREE"' EXIT
exts=(txt md py png)
for i in $(seq 0 $((FILES - 1))); do
  d="$TREE/d$((i % 20))/e$((i % 7))/f$((i % 5))"
  [ -d "$d" ] || mkdir -p "$d"
  printf 'line %d\n' "$i" > "$d/file$i.${exts[$((i % 4))]}"
done
echo "tree: $(find "$TREE" -type f | wc -l) files in $(find "$TREE" -type d | wc -l) directories"
echo "| run | wall s | exit | output |"
echo "|-----|--------|------|--------|"
for r in $(seq "$RUNS"); do
  s=$(date +%s%N)
  set +e
  "$ROOT/numlint" scan --ptx off "$TREE" > "$TREE.out" 2>&1
  rc=$?
  out="$(tail -n1 "$TREE.out")"; rm -f "$TREE.out"
  set -e
  e=$(date +%s%N)
  printf '| %d | %6.2f | %d | %s |\n' "$r" "$(echo "($e - $s) / 1000000000" | bc -l)" "$rc" "$out"
done
