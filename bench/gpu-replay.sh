#!/usr/bin/env bash
# GPU replay benchmark (issue 27): builds a list of cuda-samples programs with nvcc, runs each plainly and under
# `numlint record`, replays each recording with `numlint validate --replay --gpu require` (every recorded launch on
# the interpreter and on the GPU: as-built from the recorded image, strict and per-hazard builds from the recorded
# PTX), and prints a table: programs, launches, verdicts, bit-exact launches, GPU time per launch, plain and recorded
# run time. Runs on the GPU host with only bash, a Java 17 runtime, the numlint jar and the CUDA toolkit (nvcc,
# CUPTI, cuobjdump, a C compiler for the capture library): no Maven, no Python, no network.
#
# Resumable: every step leaves its result in $WORK and is skipped when that result exists, and no new step starts
# after $BUDGET_S seconds; run the script again (same $WORK, machine still warm) to continue, then it prints the
# table of everything done so far.
#
# Environment:
#   NUMLINT_JAR  the numlint CLI jar (default: analyzer/target/numlint-analyzer-*-cli.jar of this checkout)
#   JAVA         java binary (default: $JAVA_HOME/bin/java, else java on PATH)
#   SAMPLES      a cuda-samples checkout (its Common/ and Samples/; session 9 used commit c94ff366)
#                (default: shared/cuda-samples of this checkout)
#   PROGRAMS     Samples/ subdirectories to build, or "dbt" for the DBT example with the host fill of
#                examples/recordings/dbt-host-filled.cu.txt (default: the list below)
#   WORK         work directory, kept between runs (default /tmp/numlint-gpu-replay); OUT: tables and reports
#                (default $WORK/out)
#   BUDGET_S     no new step after this many seconds (default 520; the device tool allows 600 per command)
#   ARCH         nvcc -arch (default sm_90); RDC=1 builds with -rdc=true as the samples' CMake does (the loaded
#                image is then SASS only: variants need PTX, so only the as-built GPU replay runs)
#   LAUNCHES     recorded launches per kernel (2); MAX_BYTES (512M); REPEATS timed GPU repeats (3);
#   INSN_LIMIT   interpreter instructions per launch (200000000; past it the GPU alone gives the verdict)
#   PAR          parallel builds (nproc); PAR_REPLAY: replays run at once (1; the interpreter is one thread each)
#   BUILD        nvcc (default: the script's nvcc line above) or own: each program with its own build, as a user
#                builds it: a cuda-samples program with its CMakeLists.txt (configured in Samples/X/build with
#                CMAKE_EXPORT_COMPILE_COMMANDS, built with `cmake --build`), a Rodinia benchmark ("rodinia/nw") with
#                its Makefile under $RODINIA/cuda; the replay then gets the program's tree as PATH, so that every
#                variant is rebuilt from the project's own compile command (validate --replay DIR PATH)
#   RODINIA      a Rodinia checkout (its cuda/ and common/) for the "rodinia/NAME" programs
#
# Smoke mode (bench/lib.sh: no NUMLINT_CORPORA, as in CI) on a host without a GPU or without $SAMPLES: builds the
# jar when missing and replays the committed examples/recordings with --gpu auto, then prints the same table; it
# shows that the script and the table work, its figures are not the benchmark's.
set -u
. "$(dirname "$0")/lib.sh"
JAR="${NUMLINT_JAR:-$(ls "$ROOT"/analyzer/target/numlint-analyzer-*-cli.jar 2>/dev/null | head -1)}"
JAVA="${JAVA:-$(if [ -n "${JAVA_HOME:-}" ]; then echo "$JAVA_HOME/bin/java"; else echo java; fi)}"
SAMPLES="${SAMPLES:-$(if [ -n "${NUMLINT_CORPORA:-}" ]; then echo "$NUMLINT_CORPORA/cuda-samples"; else echo "$ROOT/shared/cuda-samples"; fi)}"
WORK="${WORK:-/tmp/numlint-gpu-replay}"
OUT="${OUT:-$WORK/out}"
BUDGET_S="${BUDGET_S:-520}"
ARCH="${ARCH:-sm_90}"
RDC="${RDC:-0}"
LAUNCHES="${LAUNCHES:-2}"
MAX_BYTES="${MAX_BYTES:-512M}"
REPEATS="${REPEATS:-3}"
INSN_LIMIT="${INSN_LIMIT:-200000000}"
PAR="${PAR:-$(nproc 2>/dev/null || echo 4)}"
PAR_REPLAY="${PAR_REPLAY:-1}"
BUILD="${BUILD:-nvcc}"
RODINIA="${RODINIA:-}"
PROGRAMS="${PROGRAMS:-dbt
0_Introduction/vectorAdd 0_Introduction/matrixMul 0_Introduction/simpleTemplates 0_Introduction/fp16ScalarProduct
0_Introduction/asyncAPI 0_Introduction/mergeSort 0_Introduction/simpleAtomicIntrinsics
0_Introduction/simplePitchLinearTexture
2_Concepts_and_Techniques/scalarProd 2_Concepts_and_Techniques/convolutionSeparable
2_Concepts_and_Techniques/reduction 2_Concepts_and_Techniques/scan 2_Concepts_and_Techniques/sortingNetworks
2_Concepts_and_Techniques/threadFenceReduction 2_Concepts_and_Techniques/shfl_scan
2_Concepts_and_Techniques/histogram 2_Concepts_and_Techniques/convolutionTexture
5_Domain_Specific/BlackScholes 5_Domain_Specific/binomialOptions 5_Domain_Specific/fastWalshTransform
5_Domain_Specific/quasirandomGenerator 5_Domain_Specific/SobolQRNG 5_Domain_Specific/MonteCarloMultiGPU
6_Performance/transpose 6_Performance/alignedTypes}"

die() { echo "gpu-replay: $*" >&2; exit 2; }
if [ "$SMOKE" = 1 ] && ! { [ -d "$SAMPLES/Samples" ] && nvidia-smi > /dev/null 2>&1; }; then
  echo "(smoke mode: no GPU or no cuda-samples here; replaying examples/recordings with --gpu auto)" >&2
  if [ ! -f "$JAR" ]; then
    (cd "$ROOT" && "${MVN[@]}" -DskipTests package -pl analyzer -am > /dev/null) || die "building the jar failed"
    JAR=$(ls "$ROOT"/analyzer/target/numlint-analyzer-*-cli.jar | head -1)
  fi
  WORK="${WORK:-$(mktemp -d)}"
  mkdir -p "$WORK/rep"
  "$JAVA" -jar "$JAR" validate --replay "$ROOT/examples/recordings" --gpu auto --format json \
    --output "$WORK/rep/dbt.json" > "$WORK/replay.log" 2>&1
  rc=$?
  [ $rc -le 1 ] || { cat "$WORK/replay.log" >&2; die "the replay failed (exit $rc)"; }
  "$JAVA" -cp "$JAR" dev.numlint.validation.replay.ReplaySummary "$WORK/rep/dbt.json"
  exit 0
fi
[ -f "$JAR" ] || die "no numlint jar (set NUMLINT_JAR)"
"$JAVA" -version >/dev/null 2>&1 || die "no Java runtime (set JAVA)"
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
command -v nvcc >/dev/null || die "nvcc not found (put the CUDA toolkit's bin on PATH)"
mkdir -p "$WORK"/bin "$WORK"/rec "$WORK"/rep "$WORK"/log "$WORK"/times "$OUT" || die "cannot create $WORK"
J=("$JAVA" -Xss16m -jar "$JAR")
START=$SECONDS
left() { echo $(( BUDGET_S - (SECONDS - START) )); }
ms() { date +%s%N | cut -c1-13; }
name() { basename "$1"; }
# a program's executable as its build names it, its arguments, and its tree (the PATH its replay scans)
exe() { case "$1" in rodinia/nw) echo needle ;; rodinia/*) basename "$1" ;; *) name "$1" ;; esac; }
args() { case "$1" in rodinia/nw) echo "2048 10" ;; rodinia/pathfinder) echo "100000 100 20" ;; esac; }
tree() {
  if [ "${1#rodinia/}" != "$1" ]; then echo "$RODINIA"
  # the samples' root, so that their Common/ headers are inside the scanned tree; the program's own database
  elif [ "$BUILD" = own ] && [ "$1" != dbt ]; then echo "-p $SAMPLES/Samples/$1/build $SAMPLES"; fi
}

{
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv 2>&1
  nvcc --version | tail -2
  "$JAVA" -version 2>&1 | head -1
  echo "numlint jar: $JAR ($(cksum < "$JAR" | cut -d' ' -f1))"
  echo "samples: $SAMPLES; rodinia: $RODINIA; build $BUILD; arch $ARCH; rdc $RDC; launches $LAUNCHES;" \
    "max-bytes $MAX_BYTES; repeats $REPEATS; replays at once $PAR_REPLAY"
} > "$OUT/env.txt" 2>&1

# 1. builds (in parallel; a program already built is kept)
build() { # subdir
  local p=$1 n d rdc=()
  n=$(name "$p")
  [ -x "$WORK/bin/$n" ] && return 0
  [ "$RDC" = 1 ] && rdc=(-rdc=true)
  if [ "${p#rodinia/}" != "$p" ]; then
    d="$RODINIA/cuda/${p#rodinia/}"
    [ -d "$d" ] || { echo "no such benchmark: $d" > "$WORK/log/build-$n.txt"; return 1; }
    (cd "$d" && make && cp "$(exe "$p")" "$WORK/bin/$n") > "$WORK/log/build-$n.txt" 2>&1
  elif [ "$BUILD" = own ] && [ "$p" != dbt ]; then
    d="$SAMPLES/Samples/$p"
    [ -d "$d" ] || { echo "no such sample: $d" > "$WORK/log/build-$n.txt"; return 1; }
    { cmake -S "$d" -B "$d/build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_BUILD_TYPE=Release \
        && cmake --build "$d/build" -j 4 && cp "$d/build/$n" "$WORK/bin/$n"; } > "$WORK/log/build-$n.txt" 2>&1
  elif [ "$p" = dbt ]; then
    mkdir -p "$WORK/dbt" && cp "$ROOT/examples/recordings/dbt-host-filled.cu.txt" "$WORK/dbt/dbt_filled.cu" || return 1
    (cd "$WORK/dbt" && nvcc --use_fast_math -lineinfo -std=c++17 -arch="$ARCH" "${rdc[@]}" -o "$WORK/bin/dbt" \
      dbt_filled.cu) > "$WORK/log/build-$n.txt" 2>&1
  else
    d="$SAMPLES/Samples/$p"
    [ -d "$d" ] || { echo "no such sample: $d" > "$WORK/log/build-$n.txt"; return 1; }
    # shellcheck disable=SC2046
    (cd "$d" && nvcc -lineinfo -std=c++17 --extended-lambda -Wno-deprecated-gpu-targets -arch="$ARCH" "${rdc[@]}" \
      -I"$SAMPLES/Common" -o "$WORK/bin/$n" $(ls ./*.cu ./*.cpp 2>/dev/null)) > "$WORK/log/build-$n.txt" 2>&1
  fi
}
for p in $PROGRAMS; do
  [ "$(left)" -lt 60 ] && break
  build "$p" &
  while [ "$(jobs -r | wc -l)" -ge "$PAR" ]; do sleep 0.2; done
done
wait
for p in $PROGRAMS; do
  n=$(name "$p")
  if [ -x "$WORK/bin/$n" ]; then echo "built $n"; else echo "NOT BUILT $n: $(grep -m1 -i error "$WORK/log/build-$n.txt")"; fi
done > "$OUT/builds.txt"

# 2. plain run and recorded run, one program at a time (one GPU)
for p in $PROGRAMS; do
  n=$(name "$p")
  [ -x "$WORK/bin/$n" ] || continue
  [ -f "$WORK/times/$n.record" ] && continue
  [ "$(left)" -lt 90 ] && { echo "$n: not recorded, out of time (run again)" >> "$OUT/left.txt"; continue; }
  rm -rf "$WORK/rec/$n"
  # shellcheck disable=SC2046
  s=$(ms); (cd "$WORK/bin" && timeout 120 "./$n" $(args "$p") > "$WORK/log/plain-$n.txt" 2>&1); pe=$?; e=$(ms)
  s2=$(ms)
  # shellcheck disable=SC2046
  (cd "$WORK/bin" && timeout 240 "${J[@]}" record --launches "$LAUNCHES" --max-bytes "$MAX_BYTES" \
    --cache-dir "$WORK/cache" --output "$WORK/rec/$n" -- "./$n" $(args "$p") > "$WORK/log/record-$n.txt" 2>&1)
  re=$?; e2=$(ms)
  echo "$n $((e - s)) $((e2 - s2)) $pe $re" > "$WORK/times/$n.record"
done

# 3. replay on the interpreter and the GPU ($PAR_REPLAY programs at a time); with its tree as PATH when the
#    program was built by its own build, so that the variants come from the project's compile command
replay() { # program
  local p=$1 n l s e rc t
  n=$(name "$p")
  t=$(tree "$p")
  l=$(left); [ "$l" -lt 30 ] && { echo "$n: not replayed, out of time (run again)" >> "$OUT/left.txt"; return; }
  [ "$l" -gt 300 ] && l=300
  s=$(ms)
  # shellcheck disable=SC2086
  timeout "$l" "${J[@]}" validate --replay "$WORK/rec/$n" --gpu require --gpu-timeout 120 \
    --instruction-limit "$INSN_LIMIT" --format json --output "$WORK/rep/$n.json.part" \
    ${t:+--ptx off $t} > "$WORK/log/replay-$n.txt" 2>&1
  rc=$?; e=$(ms)
  # exit 0 (nothing confirmed) and 1 (confirmed) are complete reports; anything else is kept as a log only
  if [ $rc -le 1 ] && [ -s "$WORK/rep/$n.json.part" ]; then mv "$WORK/rep/$n.json.part" "$WORK/rep/$n.json"; fi
  echo "$n $((e - s)) $rc" > "$WORK/times/$n.replay"
}
for p in $PROGRAMS; do
  n=$(name "$p")
  [ -f "$WORK/times/$n.record" ] && [ -d "$WORK/rec/$n" ] || continue
  [ -f "$WORK/rep/$n.json" ] && continue
  replay "$p" &
  while [ "$(jobs -r | wc -l)" -ge "$PAR_REPLAY" ]; do sleep 0.5; done
done
wait

# 4. the table
for f in "$WORK"/times/*.record; do
  [ -f "$f" ] || continue
  n=$(basename "$f" .record)
  read -r _ plain rec pe re < "$f"
  rp=$(cut -d' ' -f2,3 "$WORK/times/$n.replay" 2>/dev/null || echo "- -")
  echo "$n $plain $rec $pe $re $rp"
done > "$OUT/times.txt"
{
  echo "# plain_ms rec_ms: whole-program wall time, plain and under numlint record (JVM start and the capture"
  echo "# library's first-use build included); replay wall time and exit code per program are in times.txt"
  shopt -s nullglob
  "$JAVA" -cp "$JAR" dev.numlint.validation.replay.ReplaySummary --times "$OUT/times.txt" "$WORK"/rep/*.json
} > "$OUT/table.txt" 2>&1
du -sh "$WORK"/rec/* > "$OUT/recording-sizes.txt" 2>/dev/null
cp "$WORK"/rep/*.json "$OUT/" 2>/dev/null
tar -czf "$OUT/logs.tgz" -C "$WORK" log 2>/dev/null
cat "$OUT/builds.txt" "$OUT/table.txt"
[ -f "$OUT/left.txt" ] && cat "$OUT/left.txt"
exit 0
