#!/usr/bin/env bash
# Speed of the C/C++/CUDA scan against clang-tidy (issue 26): per code base, the wall time of a scan with PTX off
# with the hand-written front end (--frontend legacy), with the default without the precompiled headers
# (-Dnumlint.clang.pch=false) and with the default (auto: Clang in guarded workers, with the
# precompiled CUDA runtime headers), clang-tidy-19 running one check (bugprone-narrowing-conversions) on the same
# source files with the same compile commands, the ratio auto / clang-tidy (wall time, and CPU time: user and system
# of the scan's JVM and its Clang workers, of xargs and its clang-tidy processes), and the peak resident memory of the
# scan (its JVM and its Clang workers summed, sampled) per file scanned. Then, on the last code base given with --ptx-tree
# (a small CUDA tree), PTX on: the share of the scan's wall time spent in nvcc (--jobs 1; nvcc is timed by a wrapper
# passed as --nvcc).
#
# Compile commands: a tree with build/compile_commands.json (configured with its own CMake) gets a clang-style copy of
# it (language, -D/-U, -I, -isystem, -std of each entry; nvcc's --options-file read; CUDA as clang's -x cuda host
# side) in a temporary directory that both numlint (-p) and clang-tidy (-p) read. A tree without one: numlint guesses
# its flags, clang-tidy gets fixed CUDA host-side flags (the column says "guessed").
# Note: clang-tidy stops a file at its first fatal error (a header not found); numlint's Clang keeps going.
#
# With --ptx-tree, the re-scans with the per-file analysis cache (cold caches, nothing changed, one changed .cu
# file, one changed header: NUMLINT_BENCH_CHANGED_CU / NUMLINT_BENCH_CHANGED_HEADER, paths relative to the tree, else
# the first .cu and .cuh), each report compared with a scan of the same tree without that cache
# (-Dnumlint.cuda.cache=false). NUMLINT_BENCH_PTX_FLAGS: nvcc flags of the PTX-on scans (--nvcc-flags), "{tree}"
# standing for the scanned copy of the tree, for a tree without a compile database whose headers nvcc does not find
# by itself (cuda-samples' Common/: NUMLINT_BENCH_PTX_FLAGS='-I{tree}/Common'); without them every nvcc call fails,
# a failure is not cached, and the re-scans compile every .cu file again.
#
# "build scope": the auto scan with --scope build, the files clang-tidy analyzes: the compile database's sources and
# the project headers they include (every other C/C++/CUDA file of the tree is left out, with a note); its wall and
# CPU time against clang-tidy's are the issue's comparison ("same files, same compile commands"). The whole-tree
# columns stay: they are what a scan without --scope costs.
#
# "auto, PCH kept": the auto scan once more with a fresh analysis cache but the precompiled CUDA headers (and the stub
# headers they name) that the auto scan left in its cache directory: a scan on a machine or CI cache that has scanned
# before. Its report must equal the auto scan's.
#
# Paired runs on a shared machine: NUMLINT_BENCH_OLD=/path/to/other/numlint runs that launcher's auto scan right
# before this tree's on each code base (columns "old auto s" and "auto / old"; NUMLINT_BENCH_KEEP=DIR keeps the
# reports of each code base in DIR/NAME), and in the re-scan table each step
# with the old launcher right before the new one, each on its own copy of the tree and its own cache directory (the
# two reports compared: "JSON = old"). NUMLINT_BENCH_RUNS=N repeats the re-scan table N times (default 1).
#
# Usage: bench/frontend-speed.sh [--ptx-tree DIR [--ptx-only]] DIR...   (without code bases: examples/, a smoke run;
#        --ptx-only: the PTX-on table alone)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
ptx_tree=""
ptx_only=0
dirs=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --ptx-tree) ptx_tree="$2"; shift 2 ;;
    --ptx-only) ptx_only=1; shift ;;
    *) dirs+=("$1"); shift ;;
  esac
done
if [ "${#dirs[@]}" = 0 ] && [ "$ptx_only" = 0 ]; then dirs=("$ROOT/examples"); fi
./numlint --version >/dev/null   # builds the CLI jar when needed
OLD="${NUMLINT_BENCH_OLD:-}"
RUNS="${NUMLINT_BENCH_RUNS:-1}"
if [ -n "$OLD" ]; then "$OLD" --version >/dev/null; fi
TIDY="$(command -v clang-tidy-19 || command -v clang-tidy || true)"
CUDA="${CUDA_PATH:-/usr/local/cuda}"
NVCC="$(command -v nvcc || echo "$CUDA/bin/nvcc")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/stubs"
: > "$tmp/stubs/texture_fetch_functions.h"
: > "$tmp/stubs/curand_mtgp32_kernel.h"
MEASURE="$ROOT/bench/measure.py"

# same_reports JSON...: "yes" when every report equals the first, the run's provenance (dates, paths) aside
same_reports() {
  python3 -c 'import json,sys
strip=lambda d: {k: v for k, v in d.items() if k != "provenance"}
r=[strip(json.load(open(p))) for p in sys.argv[1:]]
print("yes" if all(x == r[0] for x in r) else "NO")' "$@"
}

sources() { find "$1" -path "$1/build" -prune -o -type f \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.cu' \) -print | sort; }
scanned() { find "$1" -path "$1/build" -prune -o -type f \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.cu' -o -name '*.h' -o -name '*.hpp' -o -name '*.cuh' -o -name '*.hxx' -o -name '*.inl' \) -print | wc -l; }

# clangdb DB OUTDIR: a clang-style compile_commands.json of DB's entries (see above); prints the number of entries
clangdb() {
  python3 - "$1" "$2" "$CUDA" "$tmp/stubs" <<'PY'
import json, os, shlex, sys
db, out, cuda, stubs = sys.argv[1:]
entries = []
for e in json.load(open(db)):
    d = e.get("directory", ".")
    args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
    words = []
    for a in args[1:]:
        words.append(a)
    expanded = []
    i = 0
    while i < len(words):
        a = words[i]
        if a == "--options-file" and i + 1 < len(words):
            p = os.path.join(d, words[i + 1])
            if os.path.isfile(p):
                expanded.extend(shlex.split(open(p).read()))
            i += 2
            continue
        expanded.append(a)
        i += 1
    f = e["file"] if os.path.isabs(e["file"]) else os.path.join(d, e["file"])
    keep = []
    i = 0
    while i < len(expanded):
        a = expanded[i]
        if a in ("-I", "-isystem", "-D", "-U", "-include") and i + 1 < len(expanded):
            v = expanded[i + 1]
            if a in ("-I", "-isystem"):
                v = os.path.normpath(os.path.join(d, v))
            keep += [a, v]
            i += 2
            continue
        if a.startswith(("-D", "-U")) or a.startswith("-std="):
            keep.append(a)
        elif a.startswith("-I"):
            keep.append("-I" + os.path.normpath(os.path.join(d, a[2:])))
        i += 1
    if f.endswith(".cu"):
        lang = ["clang++", "-x", "cuda", "--cuda-path=" + cuda, "--cuda-gpu-arch=sm_80", "-nocudalib",
                "--cuda-host-only", "-Wno-unknown-cuda-version", "-idirafter", stubs]
    elif f.endswith(".c"):
        lang = ["clang", "-x", "c"]
    else:
        lang = ["clang++", "-x", "c++"]
    entries.append({"directory": d, "file": f, "arguments": lang + keep + ["-c", f]})
os.makedirs(out, exist_ok=True)
json.dump(entries, open(os.path.join(out, "compile_commands.json"), "w"), indent=1)
print(len(entries))
PY
}

if [ "${#dirs[@]}" -gt 0 ]; then
  echo "C/C++/CUDA scan speed, PTX off; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); clang-tidy: ${TIDY:-not installed}"
  echo "| code base | sources (tidy) / files scanned | compile commands | numlint legacy s | numlint auto, no PCH s | numlint auto s | auto, PCH kept s | clang-tidy s | auto / clang-tidy | PCH kept / clang-tidy | auto CPU s | clang-tidy CPU s | auto / clang-tidy, CPU | files, build scope | build scope s | build scope CPU s | build scope / clang-tidy | build scope / clang-tidy, CPU | old auto s | auto / old | auto / old, CPU | peak RSS MB (auto, all processes) | MB per file | JSON auto = no PCH = PCH kept (= old) |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
fi
for d in ${dirs[@]+"${dirs[@]}"}; do
  [ -d "$d" ] || continue
  d="$(cd "$d" && pwd)"
  name="$(basename "$d")"
  nfiles="$(scanned "$d")"
  pargs=()
  if [ -f "$d/build/compile_commands.json" ]; then
    ndb="$(clangdb "$d/build/compile_commands.json" "$tmp/db/$name")"
    mapfile -t files < <(python3 -c 'import json,sys; [print(e["file"]) for e in json.load(open(sys.argv[1]))]' "$tmp/db/$name/compile_commands.json" | sort -u)
    pargs=(-p "$tmp/db/$name")
    cc="compile DB ($ndb entries)"
    tpre=(-p "$tmp/db/$name")
    tpost=()
  else
    mapfile -t files < <(sources "$d")
    cc="guessed"
    tpre=()
    tpost=(-- -w -nocudalib --cuda-host-only "--cuda-path=$CUDA" -Wno-unknown-cuda-version -idirafter "$tmp/stubs")
  fi
  # each scan cold: a cache directory of its own (the per-file analysis cache would otherwise serve one scan from the
  # entries of the one before it)
  read -r tl _ < <(python3 "$MEASURE" ./numlint scan --frontend legacy --ptx off --cache-dir "$tmp/cache-legacy-$name" \
    ${pargs[@]+"${pargs[@]}"} --format json --output "$tmp/legacy.json" "$d")
  read -r tn _ < <(JAVA_TOOL_OPTIONS=-Dnumlint.clang.pch=false python3 "$MEASURE" ./numlint scan --frontend auto --ptx off \
    --cache-dir "$tmp/cache-nopch-$name" ${pargs[@]+"${pargs[@]}"} --format json --output "$tmp/nopch.json" "$d")
  to="-"
  co="-"
  if [ -n "$OLD" ]; then
    read -r to _ co < <(python3 "$MEASURE" "$OLD" scan --frontend auto --ptx off --cache-dir "$tmp/cache-old-$name" \
      ${pargs[@]+"${pargs[@]}"} --format json --output "$tmp/old.json" "$d")
  fi
  read -r ta rss ca < <(python3 "$MEASURE" ./numlint scan --frontend auto --ptx off --cache-dir "$tmp/cache-auto-$name" \
    ${pargs[@]+"${pargs[@]}"} --format json --output "$tmp/auto.json" "$d")
  # the files clang-tidy analyzes (--scope build): the compile database's sources and the headers they include
  read -r tb _ cb < <(python3 "$MEASURE" ./numlint scan --frontend auto --ptx off --scope build \
    --cache-dir "$tmp/cache-build-$name" ${pargs[@]+"${pargs[@]}"} --format json --output "$tmp/build.json" "$d")
  nbuild="$(python3 -c 'import json,sys
n=sum(1 for x in json.load(open(sys.argv[1]))["notifications"]
      if x["id"] == "outside-build" and "/build/" not in "/" + x["file"])
print(int(sys.argv[2]) - n)' "$tmp/build.json" "$nfiles")"
  # the precompiled CUDA headers the auto scan kept, in a cache directory without any analysis entry
  mkdir -p "$tmp/cache-kept-$name"
  for k in "$tmp/cache-auto-$name"/clang-pch-* "$tmp/cache-auto-$name"/clang-stubs-*; do
    if [ -e "$k" ]; then cp -rp "$k" "$tmp/cache-kept-$name/"; fi
  done
  read -r tk _ < <(python3 "$MEASURE" ./numlint scan --frontend auto --ptx off --cache-dir "$tmp/cache-kept-$name" \
    ${pargs[@]+"${pargs[@]}"} --format json --output "$tmp/kept.json" "$d")
  tt="-"
  ct="-"
  ratio="-"
  kratio="-"
  cratio="-"
  bratio="-"
  bcratio="-"
  if [ -n "$TIDY" ] && [ "${#files[@]}" -gt 0 ]; then
    # one file per clang-tidy process, as many at once as cores (as run-clang-tidy does; the scan uses every core)
    printf '%s\0' "${files[@]}" > "$tmp/files"
    read -r tt _ ct < <(python3 "$MEASURE" xargs -0 -P "$(nproc)" -I{} -a "$tmp/files" sh -c \
      'exec "$0" -checks="-*,bugprone-narrowing-conversions" --quiet "$@"' "$TIDY" ${tpre[@]+"${tpre[@]}"} "{}" ${tpost[@]+"${tpost[@]}"})
    ratio="$(awk -v a="$ta" -v t="$tt" 'BEGIN { printf "%.2f", a / t }')"
    kratio="$(awk -v a="$tk" -v t="$tt" 'BEGIN { printf "%.2f", a / t }')"
    cratio="$(awk -v a="$ca" -v t="$ct" 'BEGIN { printf "%.2f", a / t }')"
    bratio="$(awk -v a="$tb" -v t="$tt" 'BEGIN { printf "%.2f", a / t }')"
    bcratio="$(awk -v a="$cb" -v t="$ct" 'BEGIN { printf "%.2f", a / t }')"
  fi
  oratio="-"
  ocratio="-"
  if [ "$to" != "-" ]; then
    oratio="$(awk -v a="$ta" -v o="$to" 'BEGIN { printf "%.2f", a / o }')"
    ocratio="$(awk -v a="$ca" -v o="$co" 'BEGIN { printf "%.2f", a / o }')"
  fi
  # the precompiled headers must not change a finding or a notice: the two reports, without their dates
  cmp=("$tmp/nopch.json" "$tmp/auto.json" "$tmp/kept.json")
  if [ "$to" != "-" ]; then cmp+=("$tmp/old.json"); fi
  same="$(same_reports "${cmp[@]}")"
  # NUMLINT_BENCH_KEEP=DIR: the reports of each code base kept in DIR/NAME (to see what differs)
  if [ -n "${NUMLINT_BENCH_KEEP:-}" ]; then
    mkdir -p "$NUMLINT_BENCH_KEEP/$name"
    cp "$tmp"/*.json "$NUMLINT_BENCH_KEEP/$name/"
  fi
  awk -v same="$same" -v n="$name" -v s="${#files[@]}" -v f="$nfiles" -v cc="$cc" -v tl="$tl" -v tn="$tn" -v ta="$ta" -v tk="$tk" -v tt="$tt" -v r="$ratio" -v kr="$kratio" -v to="$to" -v or="$oratio" -v rss="$rss" \
    -v ca="$ca" -v ct="$ct" -v cr="$cratio" -v ocr="$ocratio" -v nb="$nbuild" -v tb="$tb" -v cb="$cb" -v br="$bratio" -v bcr="$bcratio" \
    'BEGIN { printf "| %s | %s / %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %.1f | %s |\n", n, s, f, cc, tl, tn, ta, tk, tt, r, kr, ca, ct, cr, nb, tb, cb, br, bcr, to, or, ocr, rss / 1024, rss / 1024 / (f > 0 ? f : 1), same }'
done

if [ -n "$ptx_tree" ] && [ -d "$ptx_tree" ]; then
  # nvcc timed by a wrapper per launcher (numlint runs nvcc with a scrubbed environment: the log's path is written in)
  for t in old new; do
    cat > "$tmp/nvcc-$t" <<EOF
#!/bin/sh
s=\$(date +%s%N)
"$NVCC" "\$@"
rc=\$?
echo \$(( \$(date +%s%N) - s )) >> "$tmp/nvcc-$t.log"
exit \$rc
EOF
    chmod +x "$tmp/nvcc-$t"
  done
  # scan_ptx CLI TAG [JVM options]: one scan of the copy $tmp/tree-TAG, PTX on, with the PTX cache and the per-file
  # analysis cache in $tmp/cache-TAG; prints its wall time; its nvcc calls go to $tmp/nvcc-TAG.log, its report to
  # $tmp/ptx-TAG.json
  # ptx_flags TAG: the --nvcc-flags argument for the copy $tmp/tree-TAG (none without NUMLINT_BENCH_PTX_FLAGS)
  ptx_flags() {
    if [ -n "${NUMLINT_BENCH_PTX_FLAGS:-}" ]; then printf -- '--nvcc-flags=%s\n' "${NUMLINT_BENCH_PTX_FLAGS//\{tree\}/$tmp/tree-$1}"; fi
  }
  scan_ptx() {
    : > "$tmp/nvcc-$2.log"
    local fl
    mapfile -t fl < <(ptx_flags "$2")
    JAVA_TOOL_OPTIONS="${3:-}" python3 "$MEASURE" "$1" scan --ptx auto ${fl[@]+"${fl[@]}"} \
      --nvcc "$tmp/nvcc-$2" --cache-dir "$tmp/cache-$2" --jobs 1 --format json --output "$tmp/ptx-$2.json" "$tmp/tree-$2" \
      2>/dev/null | cut -d' ' -f1
  }
  # the same tree without the analysis cache (the PTX cache warm): the report the cached scan must equal
  uncached() {
    local fl
    mapfile -t fl < <(ptx_flags "$2")
    JAVA_TOOL_OPTIONS=-Dnumlint.cuda.cache=false "$1" scan --ptx auto ${fl[@]+"${fl[@]}"} --nvcc "$NVCC" --cache-dir "$tmp/cache-$2" \
      --jobs 1 --format json --output "$tmp/uncached-$2.json" "$tmp/tree-$2" >/dev/null 2>&1 || true
  }
  nvcc_of() { awk '{ s += $1 } END { printf "%.1f (%d)", s / 1e9, NR }' "$tmp/nvcc-$1.log"; }
  tags=(new)
  if [ -n "$OLD" ]; then tags=(old new); fi
  cli_of() { if [ "$1" = old ]; then echo "$OLD"; else echo ./numlint; fi; }
  # step LABEL [JVM options]: each launcher (the old one first) scans its own copy; one row
  step() {
    local label="$1" opts="${2:-}" t w w_new w_old="-" same eq_old="-" ratio="-" failed
    for t in "${tags[@]}"; do
      w="$(scan_ptx "$(cli_of "$t")" "$t" "$opts")"
      if [ "$t" = new ]; then w_new="$w"; else w_old="$w"; fi
    done
    if [ -n "$opts" ]; then
      same="-"
    else
      uncached ./numlint new
      same="$(same_reports "$tmp/ptx-new.json" "$tmp/uncached-new.json")"
    fi
    if [ -n "$OLD" ]; then
      eq_old="$(same_reports "$tmp/ptx-new.json" "$tmp/ptx-old.json")"
      ratio="$(awk -v a="$w_new" -v o="$w_old" 'BEGIN { printf "%.2f", a / o }')"
    fi
    # .cu files nvcc did not compile (a failure is not cached: each re-scan runs nvcc on them again)
    failed="$(python3 -c 'import json,sys
print(sum(1 for x in json.load(open(sys.argv[1]))["notifications"] if x["id"] == "nvcc-failed"))' "$tmp/ptx-new.json" 2>/dev/null || echo "?")"
    echo "| $run | $label | $w_new | $(nvcc_of new) | $failed | $w_old | $ratio | $same | $eq_old |"
  }
  echo
  echo "PTX on, $(basename "$ptx_tree") ($(sources "$ptx_tree" | wc -l) sources), --jobs 1${NUMLINT_BENCH_PTX_FLAGS:+, --nvcc-flags '$NUMLINT_BENCH_PTX_FLAGS'}, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "| run | scan | wall s | nvcc s (calls) | nvcc-failed | old wall s | new / old | JSON = without the analysis cache | JSON = old |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for run in $(seq 1 "$RUNS"); do
    for t in "${tags[@]}"; do
      rm -rf "$tmp/tree-$t" "$tmp/cache-$t"
      cp -r "$ptx_tree" "$tmp/tree-$t"
    done
    one="${NUMLINT_BENCH_CHANGED_CU:-$(cd "$tmp/tree-new" && find . -name '*.cu' | sort | head -n1)}"
    hdr="${NUMLINT_BENCH_CHANGED_HEADER:-$(cd "$tmp/tree-new" && find . -name '*.cuh' | sort | head -n1)}"
    step "without the analysis cache, PTX cache cold" -Dnumlint.cuda.cache=false
    step "without the analysis cache, re-scan, nothing changed" -Dnumlint.cuda.cache=false
    for t in "${tags[@]}"; do rm -rf "$tmp/cache-$t"; done
    step "cold caches"
    step "re-scan, nothing changed"
    for t in "${tags[@]}"; do echo "// changed" >> "$tmp/tree-$t/$one"; done
    step "re-scan after one changed .cu file ($(basename "$one"))"
    if [ -n "$hdr" ]; then
      for t in "${tags[@]}"; do echo "// changed" >> "$tmp/tree-$t/$hdr"; done
      step "re-scan after one changed header ($(basename "$hdr"))"
    fi
  done
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
