#!/usr/bin/env bash
# numlint validate (the real CLI, shaded jar) on the GPU host: the examples as built, then each corpus kernel file
# with its launch spec, one process per file (CUDA_ERROR_ILLEGAL_ADDRESS is sticky for a whole process).
set -uo pipefail
B=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-$B/result}
R=$(mktemp -d)
GPU=${GPU:-require}
mkdir -p "$O"
cd "$B"
J=(../jre/bin/java -jar numlint.jar validate --gpu "$GPU" --inputs 4 --variant-cache ../variants)
{ nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv; nvcc --version; } > "$O/environment.txt" 2>&1
t0=$(date +%s)
echo "== numlint validate --gpu $GPU --inputs 4 examples" >> "$O/stderr.txt"
"${J[@]}" --format json --output "$R/examples.json" examples 2>> "$O/stderr.txt"; echo "examples exit $?" >> "$O/exit-codes.txt"
for f in ../inputs/*.cu; do
  n=$(basename "$f")
  echo "== numlint validate --gpu $GPU --inputs 4 --spec spec.yml $n" >> "$O/stderr.txt"
  "${J[@]}" --spec ../inputs/spec.yml --format json --output "$R/$n.json" "$f" 2>> "$O/stderr.txt"
  echo "$n exit $?" >> "$O/exit-codes.txt"
done
echo "wall $(( $(date +%s) - t0 )) s" >> "$O/exit-codes.txt"
../jre/bin/java -cp numlint.jar dev.numlint.validation.report.JsonToText --merge "$O/report.json" "$R"/*.json > "$O/report.txt" 2>> "$O/stderr.txt"
tar -czf "$O/parts.tar.gz" -C "$R" .
cat "$O/exit-codes.txt"; grep -E "^\S.*: (confirmed|not-observed|not-runnable)" "$O/report.txt"
