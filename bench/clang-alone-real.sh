#!/usr/bin/env bash
# How far Clang's facts alone are from the default run on real code (issue 26: the hand-written front end retires
# once Clang alone gives the same answers). bench/clang-alone-count.py measures it on the fixtures; fixtures are
# written for both front ends, so this script measures it where it matters: one tree, scanned twice with PTX off
# and fresh caches, by the default run and by Clang's facts alone (-Dnumlint.clang.alone=true through
# JAVA_TOOL_OPTIONS). Prints a table per run (wall time, findings, default-visible findings) and the differences:
# findings whose (file, line, rule, level) is in one run only, and the default-visible ones of those listed.
#
# Usage: bench/clang-alone-real.sh [-p BUILD_DIR] PATH...   (arguments as for `numlint scan`)
#        without arguments a smoke run on examples/ (its figures mean nothing)
# Environment: LIST (how many default-visible differences to list, default 40), JOBS (--jobs, default 2).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
if [ "$#" = 0 ]; then
  set -- "$ROOT/examples"
  echo "(no arguments: a smoke run on examples/; its figures mean nothing)" >&2
fi
./numlint --version >/dev/null # builds the CLI jar when needed
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for mode in default alone; do
  opts=""
  [ "$mode" = alone ] && opts="-Dnumlint.clang.alone=true"
  s=$(date +%s%N)
  JAVA_TOOL_OPTIONS="$opts" ./numlint scan --ptx off --jobs "${JOBS:-2}" --format json --notes \
    --cache-dir "$tmp/cache-$mode" --output "$tmp/$mode.json" "$@" >/dev/null 2>"$tmp/$mode.err" || true
  e=$(date +%s%N)
  echo "$(( (e - s) / 1000000 ))" >"$tmp/$mode.ms"
  [ -s "$tmp/$mode.json" ] || { echo "the $mode scan wrote no report:"; cat "$tmp/$mode.err"; exit 1; }
done
python3 - "$tmp" "${LIST:-40}" <<'EOF'
import collections, json, sys
tmp, limit = sys.argv[1], int(sys.argv[2])
runs = {}
for mode in ("default", "alone"):
    report = json.load(open(f"{tmp}/{mode}.json"))
    ms = int(open(f"{tmp}/{mode}.ms").read())
    keys = collections.Counter((f["file"], f["line"], f["ruleId"], f["level"]) for f in report["findings"])
    visible = collections.Counter(
        (f["file"], f["line"], f["ruleId"])
        for f in report["findings"]
        if f["level"] in ("warning", "error") and not f.get("suppressed"))
    runs[mode] = (ms, keys, visible, len(report.get("notifications", [])))
print("| run | wall s | findings | default-visible | notices |")
print("|---|---:|---:|---:|---:|")
for mode, (ms, keys, visible, notices) in runs.items():
    print(f"| {mode} | {ms / 1000:.2f} | {sum(keys.values())} | {sum(visible.values())} | {notices} |")
(_, ka, va, _), (_, kb, vb, _) = runs["default"], runs["alone"]
print()
print(f"findings in one run only (file, line, rule, level): default {sum((ka - kb).values())}, "
      f"alone {sum((kb - ka).values())}")
print(f"default-visible in one run only (file, line, rule): default {sum((va - vb).values())}, "
      f"alone {sum((vb - va).values())}")
diffs = [("default only", k) for k in sorted(va - vb)] + [("alone only", k) for k in sorted(vb - va)]
for side, (f, line, rule) in diffs[:limit]:
    print(f"  {side}: {f}:{line} {rule}")
if len(diffs) > limit:
    print(f"  ... and {len(diffs) - limit} more")
EOF
