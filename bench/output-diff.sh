#!/usr/bin/env bash
# Output equivalence of two CLI jars on examples/ (issue 28): a refactoring of the engine (LayerMerge's typed
# identity, rule policies) must leave every report byte-identical, except changes listed on purpose.
#
#   bench/output-diff.sh BEFORE.jar [AFTER.jar]
#
# AFTER defaults to this tree's CLI jar (analyzer/target/numlint-analyzer-*-cli.jar; build it with ./numlint or
# 'mvn -B -q -DskipTests package -pl analyzer -am'). Each example directory and the whole examples/ tree are scanned
# (NUMLINT_DIFF_EACH=1: each example directory too) with --format json, sarif and html, with PTX on (nvcc when found) and off, into a scratch folder; each pair of
# reports is compared with cmp (the HTML report's date line aside), and the script prints a table (one row per scan) and exits 1 when any report differs
# (the first differing lines are shown).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
before=${1:?usage: bench/output-diff.sh BEFORE.jar [AFTER.jar]}
after=${2:-$(ls "$ROOT"/analyzer/target/numlint-analyzer-*-cli.jar | head -n1)}
JAVA="${JAVA:-java}"
work=$(mktemp -d "${TMPDIR:-/tmp}/numlint-output-diff.XXXXXX")
trap 'rm -rf "$work"' EXIT
# the whole tree (the layers of every example meet in one scan); NUMLINT_DIFF_EACH=1 adds each example alone
targets=(examples)
if [ "${NUMLINT_DIFF_EACH:-0}" = 1 ]; then
  for d in "$ROOT"/examples/*/; do targets+=("examples/$(basename "$d")"); done
fi
differ=0
printf '%-20s %-6s %-5s %8s %8s  %s\n' scan format ptx ruleIds bytes result
for t in "${targets[@]}"; do
  for ptx in auto off; do
    for fmt in json sarif html; do
      name=$(echo "$t" | tr '/' '_')-$ptx.$fmt
      for side in before after; do
        jar=$before; [ $side = after ] && jar=$after
        mkdir -p "$work/$side" "$work/cache-$side"
        # exit 1 means findings; 2 and above are failures of the scan itself
        (cd "$ROOT" && "$JAVA" -jar "$jar" scan --format "$fmt" --ptx "$ptx" --cache-dir "$work/cache-$side" \
            "$t" > "$work/$side/$name" 2> "$work/$side/$name.err") || [ $? -eq 1 ] \
          || { echo "scan failed ($side, $t, $fmt, ptx $ptx):" >&2; cat "$work/$side/$name.err" >&2; exit 2; }
      done
      n=$(grep -c '"ruleId"' "$work/after/$name" || true)
      bytes=$(wc -c < "$work/after/$name")
      if [ "$fmt" = html ]; then
        # the HTML report states when it was written: that line differs between any two runs
        for side in before after; do sed -i 's:<tr><th>Date</th><td>[^<]*</td></tr>:<tr><th>Date</th><td>(date)</td></tr>:' "$work/$side/$name"; done
      fi
      if cmp -s "$work/before/$name" "$work/after/$name"; then r=identical; else r=DIFFERS; differ=1; fi
      printf '%-20s %-6s %-5s %8s %8s  %s\n' "$t" "$fmt" "$ptx" "$n" "$bytes" "$r"
      if [ $r = DIFFERS ]; then diff "$work/before/$name" "$work/after/$name" | head -n 20 || true; fi
    done
  done
done
exit $differ
