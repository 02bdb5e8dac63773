#!/usr/bin/env bash
# Parse rate of the CUDA source front end per project: functions found by the splitter, functions whose body the
# statement grammar parsed, and the percentage. Every function not parsed is a WARNING notification with its reason;
# with NOTES=DIR the notifications of each project are written to DIR/<project>.txt.
#   bench/cuda-parse-rate.sh [DIR...]   (default: rodinia cuda-samples tigre astra mcx rtk under $NUMLINT_CORPORA;
#                                        without it a smoke run on examples/, see bench/lib.sh)
# Files: every file the analyzer accepts (.cu .cuh .c .cc .cpp .cxx .h .hpp) and the files they include.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
DIRS=("$@")
if [ ${#DIRS[@]} -eq 0 ]; then
  if [ "$SMOKE" = 1 ]; then
    DIRS=(examples)
  else
    for p in rodinia cuda-samples tigre astra mcx rtk; do DIRS+=("$NUMLINT_CORPORA/$p"); done
  fi
fi
bench_build analyzer
CP=rules/target/classes:rules/target/test-classes:ptx-inspector/target/classes:validation/target/classes:analyzer/target/classes:analyzer/target/test-classes:$(bench_cp analyzer)
printf '%-14s %7s %9s %8s %7s %8s\n' project files functions parsed failed parsed%
for d in "${DIRS[@]}"; do
  name=$(basename "$d")
  notes=/dev/null
  if [ -n "${NOTES:-}" ]; then mkdir -p "$NOTES"; notes="$NOTES/$name.txt"; fi
  line=$(java -cp "$CP" dev.numlint.cuda.CudaCorpusMain --notes "$notes" "$d" | grep '^files ')
  # files F  lines L  functions N  sll S  ll L  failed X (P%)
  read -r _ files _ _ _ fns _ _ _ _ _ failed _ <<< "$line"
  printf '%-14s %7s %9s %8s %7s %8s\n' "$name" "$files" "$fns" "$((fns - failed))" "$failed" \
    "$(echo "scale=2; 100 * ($fns - $failed) / ($fns + ($fns == 0))" | bc)"
done
