#!/usr/bin/env bash
# Output equivalence of two CLI jars on examples/ (issue 28): a refactoring of the engine (LayerMerge's typed
# identity, rule policies) must leave every report byte-identical, except changes listed on purpose.
#
#   bench/output-diff.sh [BEFORE.jar [AFTER.jar]]
#
# AFTER defaults to this tree's CLI jar (analyzer/target/numlint-analyzer-*-cli.jar, built when missing). BEFORE is
# the jar of the commit to compare with (build it in a checkout of that commit); without it the script compares AFTER
# with itself, which shows that the reports are deterministic (the smoke run of .ci/run). The whole examples/ tree
# (NUMLINT_DIFF_EACH=1: each example directory too) is scanned with --format json, sarif and html, with PTX on (nvcc
# when found) and off (smoke mode: off only), into a scratch folder; each pair of reports is compared with cmp (the
# HTML report's date line aside), and the script prints a table (one row per scan) and exits 1 when any report
# differs (the first differing lines are shown).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
jar() { ls "$ROOT"/analyzer/target/numlint-analyzer-*-cli.jar 2>/dev/null | head -n1; }
after=${2:-$(jar)}
if [ -z "$after" ]; then
  (cd "$ROOT" && "${MVN[@]}" -DskipTests package -pl analyzer -am >/dev/null)
  after=$(jar)
fi
before=${1:-$after}
[ "$before" = "$after" ] && echo "(no BEFORE jar: the same jar twice, a determinism check)" >&2
# NUMLINT_DIFF_PTX="auto off" chooses the PTX modes (default: both; smoke mode: off)
ptxmodes=(auto off)
[ "$SMOKE" = 1 ] && ptxmodes=(off)
if [ -n "${NUMLINT_DIFF_PTX:-}" ]; then read -r -a ptxmodes <<< "$NUMLINT_DIFF_PTX"; fi
JAVA="${JAVA:-java}"
work=$(mktemp -d "${TMPDIR:-/tmp}/numlint-output-diff.XXXXXX")
trap 'rm -rf "$work"' EXIT
# the whole tree (the layers of every example meet in one scan); NUMLINT_DIFF_EACH=1 adds each example alone
targets=(examples)
if [ "${NUMLINT_DIFF_EACH:-0}" = 1 ]; then
  for d in "$ROOT"/examples/*/; do targets+=("examples/$(basename "$d")"); done
fi
# the JSON report's provenance states when it was written: one fixed date for both jars
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1700000000}
differ=0
printf '%-20s %-6s %-5s %8s %8s  %s\n' scan format ptx ruleIds bytes result
for t in "${targets[@]}"; do
  for ptx in "${ptxmodes[@]}"; do
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
