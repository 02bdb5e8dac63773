#!/usr/bin/env bash
# Throughput benchmark of the CUDA source front end (dev.numlint.cuda.CudaSourceAnalyzer).
#   bench/cuda-throughput.sh [DIR...]     (default: rodinia/cuda, cuda-samples and tigre under $NUMLINT_CORPORA;
#                                          without it a smoke run on examples/, see bench/lib.sh)
#   HOST=1 bench/cuda-throughput.sh ...   also the host C/C++ files (.c .cc .cpp .cxx .h .hpp) the analyzer reads
# Prints: warm single-thread lines/s (in-process, best of N runs), whole-process wall time of numlint's
# analyzer main vs `cppcheck --enable=warning` on the same file list (both pinned to one core when
# taskset exists), and the heap of a whole-corpus run under a small -Xmx (memory must not grow with files).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
DIRS=("$@")
if [ ${#DIRS[@]} -eq 0 ]; then
  if [ "$SMOKE" = 1 ]; then
    DIRS=(examples)
  else
    C=$NUMLINT_CORPORA
    DIRS=("$C/rodinia/cuda" "$C/cuda-samples" "$C/tigre")
  fi
fi
REPEAT=${REPEAT:-$([ "$SMOKE" = 1 ] && echo 1 || echo 8)}
# the analyzer's test class path: its front ends, the sibling modules, ANTLR and the YAML reader
bench_build analyzer
CP=rules/target/classes:rules/target/test-classes:ptx-inspector/target/classes:validation/target/classes:analyzer/target/classes:analyzer/target/test-classes:$(bench_cp analyzer)
LIST=$(mktemp)
if [ "${HOST:-0}" = 1 ]; then
  find "${DIRS[@]}" -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.c' -o -name '*.cc' -o -name '*.cpp' \
    -o -name '*.cxx' -o -name '*.h' -o -name '*.hpp' \) | sort > "$LIST"
else
  find "${DIRS[@]}" -type f \( -name '*.cu' -o -name '*.cuh' \) | sort > "$LIST"
fi
NFILES=$(wc -l < "$LIST")
NLINES=$(xargs cat < "$LIST" | wc -l)
PIN=""
if command -v taskset >/dev/null; then PIN="taskset -c 0"; fi
MAIN=dev.numlint.cuda.CudaCorpusMain

warm=$($PIN java -cp "$CP" $MAIN --repeat "$REPEAT" "@$LIST" | tail -1)

# whole process, best of 3: default JVM, and C1 only (a short run does not pay back C2's compile time)
wall() {
  local best=999999
  for _ in $(seq "$([ "$SMOKE" = 1 ] && echo 1 || echo 3)"); do
    local t0 t1 d
    t0=$(date +%s.%N)
    $PIN java "$@" -cp "$CP" $MAIN "@$LIST" > /dev/null
    t1=$(date +%s.%N)
    d=$(echo "$t1 - $t0" | bc -l)
    best=$(echo "if ($d < $best) $d else $best" | bc -l)
  done
  echo "$best"
}
numlint_s=$(wall -Xshare:auto)
numlint_c1_s=$(if [ "$SMOKE" = 1 ]; then echo "$numlint_s"; else wall -XX:TieredStopAtLevel=1; fi)

cpp_s="n/a"
if command -v cppcheck >/dev/null; then
  t0=$(date +%s.%N)
  $PIN cppcheck -q -j 1 --enable=warning --file-list="$LIST" > /dev/null 2>&1 || true
  t1=$(date +%s.%N)
  cpp_s=$(echo "$t1 - $t0" | bc -l)
fi

heap=$(java -Xmx48m -cp "$CP" $MAIN "@$LIST" | grep "heap after run")
half=$(mktemp)
head -n $(( NFILES / 4 > 0 ? NFILES / 4 : 1 )) "$LIST" > "$half"
heap4=$(if [ "$SMOKE" = 1 ]; then echo "(smoke: not measured)"; else java -Xmx48m -cp "$CP" $MAIN "@$half" | grep "heap after run"; fi)

printf '\n%-44s %s\n' "files / lines" "$NFILES / $NLINES"
printf '%-44s %s\n' "numlint warm, one thread (best of $REPEAT)" "$warm"
printf '%-44s %.2f s\n' "numlint whole process (wall, 1 core)" "$numlint_s"
printf '%-44s %.2f s\n' "numlint whole process, -XX:TieredStopAtLevel=1" "$numlint_c1_s"
if [ "$cpp_s" != "n/a" ]; then
  printf '%-44s %.2f s\n' "cppcheck --enable=warning (wall, 1 core)" "$cpp_s"
  printf '%-44s %.1fx\n' "numlint speed-up over cppcheck" "$(echo "$cpp_s / $numlint_s" | bc -l)"
  printf '%-44s %.1fx\n' "numlint (C1 only) speed-up over cppcheck" "$(echo "$cpp_s / $numlint_c1_s" | bc -l)"
fi
printf '%-44s %s\n' "heap, all files, -Xmx48m" "$heap"
printf '%-44s %s\n' "heap, first quarter of the files, -Xmx48m" "$heap4"
rm -f "$LIST" "$half"
