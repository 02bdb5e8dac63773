#!/usr/bin/env bash
# Speed of the C/C++/CUDA scan against clang-tidy (issue 26): per code base, the wall time of a scan with PTX off
# with the hand-written front end (--frontend legacy), with the default without the precompiled headers
# (-Dnumlint.clang.pch=false) and with the default (auto: Clang in guarded workers, with the
# precompiled CUDA runtime headers), clang-tidy-19 running one check (bugprone-narrowing-conversions) on the same
# source files with the same compile commands, the ratio auto / clang-tidy, and the peak resident memory of the scan
# (its JVM and its Clang workers summed, sampled) per file scanned. Then, on the last code base given with --ptx-tree
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
# file, one changed header: NUMLINT_BENCH_CHANGED_CU / NUMLINT_BENCH_CHANGED_HEADER, paths in the copy, else the first
# .cu and .cuh), each report compared with a scan of the same tree without that cache (-Dnumlint.cuda.cache=false).
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
TIDY="$(command -v clang-tidy-19 || command -v clang-tidy || true)"
CUDA="${CUDA_PATH:-/usr/local/cuda}"
NVCC="$(command -v nvcc || echo "$CUDA/bin/nvcc")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/stubs"
: > "$tmp/stubs/texture_fetch_functions.h"
: > "$tmp/stubs/curand_mtgp32_kernel.h"
MEASURE="$ROOT/bench/measure.py"

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
  echo "| code base | sources (tidy) / files scanned | compile commands | numlint legacy s | numlint auto, no PCH s | numlint auto s | clang-tidy s | auto / clang-tidy | peak RSS MB (auto, all processes) | MB per file | JSON auto = no PCH |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
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
  read -r ta rss < <(python3 "$MEASURE" ./numlint scan --frontend auto --ptx off --cache-dir "$tmp/cache-auto-$name" \
    ${pargs[@]+"${pargs[@]}"} --format json --output "$tmp/auto.json" "$d")
  tt="-"
  ratio="-"
  if [ -n "$TIDY" ] && [ "${#files[@]}" -gt 0 ]; then
    # one file per clang-tidy process, as many at once as cores (as run-clang-tidy does; the scan uses every core)
    printf '%s\0' "${files[@]}" > "$tmp/files"
    read -r tt _ < <(python3 "$MEASURE" xargs -0 -P "$(nproc)" -I{} -a "$tmp/files" sh -c \
      'exec "$0" -checks="-*,bugprone-narrowing-conversions" --quiet "$@"' "$TIDY" ${tpre[@]+"${tpre[@]}"} "{}" ${tpost[@]+"${tpost[@]}"})
    ratio="$(awk -v a="$ta" -v t="$tt" 'BEGIN { printf "%.2f", a / t }')"
  fi
  # the precompiled headers must not change a finding or a notice: the two reports, without their dates
  same="$(python3 -c 'import json,sys
a,b=(json.load(open(p)) for p in sys.argv[1:3])
strip=lambda d: {k: v for k, v in d.items() if k != "provenance"}
print("yes" if strip(a)==strip(b) else "NO")' "$tmp/nopch.json" "$tmp/auto.json")"
  awk -v same="$same" -v n="$name" -v s="${#files[@]}" -v f="$nfiles" -v cc="$cc" -v tl="$tl" -v tn="$tn" -v ta="$ta" -v tt="$tt" -v r="$ratio" -v rss="$rss" \
    'BEGIN { printf "| %s | %s / %s | %s | %s | %s | %s | %s | %s | %.0f | %.1f | %s |\n", n, s, f, cc, tl, tn, ta, tt, r, rss / 1024, rss / 1024 / (f > 0 ? f : 1), same }'
done

if [ -n "$ptx_tree" ] && [ -d "$ptx_tree" ]; then
  cp -r "$ptx_tree" "$tmp/tree"
  cat > "$tmp/nvcc" <<EOF
#!/bin/sh
s=\$(date +%s%N)
"$NVCC" "\$@"
rc=\$?
echo \$(( \$(date +%s%N) - s )) >> "$tmp/nvcc.log"
exit \$rc
EOF
  chmod +x "$tmp/nvcc"
  # one scan of the copy, PTX on, with the PTX cache and the per-file analysis cache in $tmp/cache (extra JVM options
  # in $1, e.g. -Dnumlint.cuda.cache=false); prints its wall time; the nvcc calls go to $tmp/nvcc.log
  scan_ptx() {
    : > "$tmp/nvcc.log"
    JAVA_TOOL_OPTIONS="${1:-}" python3 "$MEASURE" ./numlint scan --ptx auto --nvcc "$tmp/nvcc" --cache-dir "$tmp/cache" \
      --jobs 1 --format json --output "$tmp/ptx.json" "$tmp/tree" 2>/dev/null | cut -d' ' -f1
  }
  # the same tree without the analysis cache (the PTX cache warm): the report the cached scan must equal, dates aside
  same_as_uncached() {
    JAVA_TOOL_OPTIONS=-Dnumlint.cuda.cache=false ./numlint scan --ptx auto --nvcc "$NVCC" --cache-dir "$tmp/cache" \
      --jobs 1 --format json --output "$tmp/uncached.json" "$tmp/tree" >/dev/null 2>&1 || true
    python3 -c 'import json,sys
a,b=(json.load(open(p)) for p in sys.argv[1:3])
strip=lambda d: {k: v for k, v in d.items() if k != "provenance"}
print("yes" if strip(a)==strip(b) else "NO")' "$tmp/ptx.json" "$tmp/uncached.json"
  }
  row() { # label wall same
    awk -v l="$1" -v w="$2" -v n="$(awk '{ s += $1 } END { printf "%.1f", s / 1e9 }' "$tmp/nvcc.log")" \
      -v c="$(wc -l < "$tmp/nvcc.log")" -v same="$3" \
      'BEGIN { printf "| %s | %s | %s (%s) | %.0f%% | %s |\n", l, w, n, c, (w > 0 ? 100 * n / w : 0), same }'
  }
  one="${NUMLINT_BENCH_CHANGED_CU:-$(find "$tmp/tree" -name '*.cu' | sort | head -n1)}"
  hdr="${NUMLINT_BENCH_CHANGED_HEADER:-$(find "$tmp/tree" -name '*.cuh' | sort | head -n1)}"
  echo
  echo "PTX on, $(basename "$ptx_tree") ($(sources "$ptx_tree" | wc -l) sources), --jobs 1, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "| scan | wall s | nvcc s (calls) | nvcc share | JSON = without the analysis cache |"
  echo "|---|---|---|---|---|"
  w="$(scan_ptx -Dnumlint.cuda.cache=false)"; row "without the analysis cache, PTX cache cold" "$w" "-"
  w="$(scan_ptx -Dnumlint.cuda.cache=false)"; row "without the analysis cache, re-scan, nothing changed" "$w" "-"
  rm -rf "$tmp/cache"
  w="$(scan_ptx)"; row "cold caches" "$w" "$(same_as_uncached)"
  w="$(scan_ptx)"; row "re-scan, nothing changed" "$w" "$(same_as_uncached)"
  echo "// changed" >> "$one"
  w="$(scan_ptx)"; row "re-scan after one changed .cu file ($(basename "$one"))" "$w" "$(same_as_uncached)"
  if [ -n "$hdr" ]; then
    echo "// changed" >> "$hdr"
    w="$(scan_ptx)"; row "re-scan after one changed header ($(basename "$hdr"))" "$w" "$(same_as_uncached)"
  fi
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
