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
rule() { grep -c " $2 " "$1" || true; }

echo "front ends, PTX off, $(nproc) cores; clang-tidy: ${TIDY:-not installed}"
echo "| code base | files | legacy s | clang s | clang-tidy s | functions (Clang) | only Clang analyzed | files Clang reported errors in | atomicAdd grep / NL009 legacy / clang | unsigned casts grep / NL001 legacy / clang | intrinsics grep / reported legacy / clang | NL004 legacy / clang |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for d in "${dirs[@]}"; do
  [ -d "$d" ] || continue
  name="$(basename "$d")"
  nfiles="$(sources "$d" | wc -l)"
  tl="$(wall ./numlint scan --frontend legacy --ptx off --format json "$d")"
  tc="$(wall ./numlint scan --frontend clang --ptx off --format json "$d")"
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
  for fe in legacy clang; do
    java -Dnumlint.frontend=$fe -Xmx2g -cp "$CP" dev.numlint.cuda.CudaCorpusMain --findings "$tmp/$fe.f" \
      --notes "$tmp/$fe.n" "$d" > "$tmp/$fe.out" 2>&1 || true
  done
  stats="$(grep -o 'clang(files[^ ]*)=[0-9/]*' "$tmp/clang.out" | sed 's/.*=//')"
  IFS=/ read -r _cf cerr cfun crec _cadd _cres _cms <<< "${stats:-0/0/0/0/0/0/0}"
  atom="$(count "$d" 'atomicAdd(_block|_system)?[[:space:]]*\(')"
  casts="$(count "$d" '\((unsigned( int| char| short| long( long)?)?|uint(8|16|32|64)_t|size_t)\)|static_cast<(unsigned|uint|size_t)')"
  intr="$(count "$d" '__(fdividef|sinf|cosf|tanf|expf|exp10f|logf|log2f|log10f|powf|sincosf)[[:space:]]*\(')"
  il="$(grep -cE 'NL002.*__fdividef|NL00[0-9].*__(sinf|cosf|tanf|expf|exp10f|logf|log2f|log10f|powf|sincosf)' "$tmp/legacy.f" || true)"
  ic="$(grep -cE 'NL002.*__fdividef|NL00[0-9].*__(sinf|cosf|tanf|expf|exp10f|logf|log2f|log10f|powf|sincosf)' "$tmp/clang.f" || true)"
  echo "| $name | $nfiles | $tl | $tc | $tt | $cfun | $crec | $cerr | $atom / $(rule "$tmp/legacy.f" NL009) / $(rule "$tmp/clang.f" NL009) | $casts / $(rule "$tmp/legacy.f" NL001) / $(rule "$tmp/clang.f" NL001) | $intr / $il / $ic | $(rule "$tmp/legacy.f" NL004) / $(rule "$tmp/clang.f" NL004) |"
done
