#!/usr/bin/env bash
# Runs the bundled validation (see build-gpu-bundle.sh) on a GPU host: bash run.sh [RESULT_DIR] [--gpu MODE] [ARGS...]
# Writes RESULT_DIR/report.json, report.txt, environment.txt (nvidia-smi, nvcc --version when present).
set -uo pipefail
B=$(cd "$(dirname "$0")" && pwd)
R=${1:-${OUT:-$B/result}}
[ $# -gt 0 ] && shift
GPU=require
if [ "${1:-}" = "--gpu" ]; then GPU=$2; shift 2; fi
mkdir -p "$R"
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv 2>&1 || echo "nvidia-smi: not available"
  nvcc --version 2>&1 || echo "nvcc: not available (variants prebuilt: $(cat "$B/variants/nvcc-version.txt" 2>/dev/null))"
  "$B/jre/bin/java" -version 2>&1
} > "$R/environment.txt"
cd "$B/inputs"
J=("$B/jre/bin/java" -jar "$B/numlint.jar" --gpu "$GPU" --variant-cache "$B/variants" "$@")
# a spec file among the inputs (e.g. the white paper's a*a+b inputs for square_plus) is used
[ -f "$B/inputs/spec.yml" ] && J+=(--spec "$B/inputs/spec.yml")
# the as-built flags of every input: nvcc's defaults (the Makefiles' flags add nothing numerically relevant).
# One process per file: CUDA_ERROR_ILLEGAL_ADDRESS is sticky for the whole process, so a kernel that faults on
# the GPU must not take the other files' GPU runs with it.
mkdir -p "$R/parts"
rc=0
: > "$R/stderr.txt"
for f in $(ls *.cu *.ptx 2>/dev/null); do
  echo "== $f" >> "$R/stderr.txt"
  "${J[@]}" --format json --output "$R/parts/$f.json" "$f" 2>> "$R/stderr.txt" || rc=$?
done
"$B/jre/bin/java" -cp "$B/numlint.jar" dev.numlint.validation.report.JsonToText --merge "$R/report.json" "$R"/parts/*.json > "$R/report.txt" 2>>"$R/stderr.txt" || rc=$?
cat "$R/environment.txt" "$R/stderr.txt"
cat "$R/report.txt"
exit $rc
