#!/usr/bin/env bash
# The C/C++/CUDA front ends side by side on real code bases (PTX off): wall time of a scan with the hand-written
# front end (--frontend legacy), with Clang (--frontend clang: libclang parses every file with its compile command
# and fills what the hand-written facts miss) and of clang-tidy-19 running one check on the same files (when
# installed); then, from one Clang run of CudaCorpusMain, the functions Clang sees, those only Clang analyzed, and grep
# counts of float atomics, casts to unsigned types and approximate intrinsics against the findings of each front end.
# Usage: bench/frontend.sh [DIR...]   (default: $NUMLINT_CORPORA/clang/*; smoke mode: examples/)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
if [ "$#" -gt 0 ]; then
  dirs=("$@")
elif [ "$SMOKE" = 1 ]; then
  dirs=("$ROOT/examples")
else
  dirs=("$NUMLINT_CORPORA"/clang/*)
fi
./numlint --version >/dev/null   # builds the CLI jar when needed
bench_build analyzer
CP=rules/target/classes:rules/target/test-classes:ptx-inspector/target/classes:validation/target/classes:analyzer/target/classes:analyzer/target/test-classes:$(bench_cp analyzer)
TIDY="$(command -v clang-tidy-19 || command -v clang-tidy || true)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

wall() { # command...: wall seconds of one run
  local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
  awk -v ns=$((e - s)) 'BEGIN { printf "%.1f", ns / 1e9 }'
}
sources() { find "$1" -type f \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.cu' \) | sort; }
count() { { grep -rEho --include='*.c' --include='*.cc' --include='*.cpp' --include='*.cxx' --include='*.cu' \
  --include='*.h' --include='*.hpp' --include='*.cuh' --include='*.hxx' --include='*.inl' "$2" "$1" || true; } | wc -l; }

echo "front ends, PTX off, $(nproc) cores; clang-tidy: ${TIDY:-not installed}"
echo "| code base | sources | legacy s | clang s | clang-tidy s | functions (Clang) | not analyzed (legacy) | read by Clang: named + silently lost | files with Clang errors | atomicAdd grep / NL009 legacy / clang | unsigned casts grep / NL001 legacy / clang | intrinsics grep / reported legacy / clang | NL004 legacy / clang |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for d in "${dirs[@]}"; do
  [ -d "$d" ] || continue
  name="$(basename "$d")"
  nfiles="$(sources "$d" | wc -l)"
  tl="$(wall ./numlint scan --frontend legacy --ptx off --format json --output "$tmp/legacy.json" "$d")"
  tc="$(wall ./numlint scan --frontend clang --ptx off --format json --output "$tmp/clang.json" "$d")"
  tt="-"
  if [ -n "$TIDY" ]; then
    mapfile -t files < <(sources "$d")
    # one check, the same files; compile commands from the tree's compile_commands.json when it has one, else the
    # flags numlint guesses (CUDA host side with the toolkit, the stub headers numlint keeps in its cache)
    pdir="$(dirname "$(find "$d" -name compile_commands.json | head -n1)" 2>/dev/null || true)"
    if [ -n "$pdir" ] && [ -f "$pdir/compile_commands.json" ]; then
      targs=(-p "$pdir")
    else
      targs=(-- -w -nocudalib --cuda-host-only --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version
        -idirafter "${XDG_CACHE_HOME:-$HOME/.cache}/numlint/clang-stubs-20")
    fi
    tt="$(wall "$TIDY" -checks='-*,bugprone-narrowing-conversions' --quiet "${files[@]}" "${targs[@]}")"
  fi
  # Clang's function inventory of the sources (CudaCorpusMain prints the front end's statistics)
  java -Dnumlint.frontend=clang -Xmx2g -cp "$CP" dev.numlint.cuda.CudaCorpusMain "$d" > "$tmp/clang.out" 2>&1 || true
  cfun="$(grep -o 'clang(files[^ ]*)=[0-9/]*' "$tmp/clang.out" | sed 's/.*=//' | cut -d/ -f3 || true)"
  atom="$(count "$d" 'atomicAdd(_block|_system)?[[:space:]]*\(')"
  casts="$(count "$d" '\((unsigned( int| char| short| long( long)?)?|uint(8|16|32|64)_t|size_t)\)|static_cast<(unsigned|uint|size_t)')"
  intr="$(count "$d" '__(fdividef|sinf|cosf|tanf|expf|exp10f|logf|log2f|log10f|powf|sincosf)[[:space:]]*\(')"
  python3 - "$tmp/legacy.json" "$tmp/clang.json" "$name" "$nfiles" "$tl" "$tc" "$tt" "${cfun:-?}" "$atom" "$casts" "$intr" <<'PY'
import json, re, sys
leg, cla = (json.load(open(p)) for p in sys.argv[1:3])
name, nfiles, tl, tc, tt, cfun, atom, casts, intr = sys.argv[3:]
def rule(d, r): return sum(1 for f in d["findings"] if f["ruleId"] == r)
intrinsic = re.compile(r"__(fdividef|sinf|cosf|tanf|expf|exp10f|logf|log2f|log10f|powf|sincosf)\(")
def intr_rep(d): return sum(1 for f in d["findings"] if intrinsic.search(f["message"]))
ns = cla["notifications"]
failed_legacy = sum(1 for n in leg["notifications"] if n["id"] == "parse-error")
read_by_clang = sum(1 for n in ns if n["id"] == "parse-error" and "Clang read it" in n["message"])
silent = sum(int(re.match(r"(\d+)", n["message"]).group(1)) for n in ns if n["id"] == "clang-only")
errors = sum(1 for n in ns if n["id"] == "clang-error")
print(f"| {name} | {nfiles} | {tl} | {tc} | {tt} | {cfun} | {failed_legacy} | {read_by_clang} + {silent} | {errors} "
      f"| {atom} / {rule(leg, 'NL009')} / {rule(cla, 'NL009')} | {casts} / {rule(leg, 'NL001')} / {rule(cla, 'NL001')} "
      f"| {intr} / {intr_rep(leg)} / {intr_rep(cla)} | {rule(leg, 'NL004')} / {rule(cla, 'NL004')} |")
PY
done
