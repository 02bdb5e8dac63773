#!/usr/bin/env bash
# On the GPU host, from the repository root (driver and nvcc; no JDK): `numlint validate --gpu require` on
#   1. fault/isolation.ptx  clock_fault (reads at an address offset by %clock: in bounds on the
#      interpreter, CUDA_ERROR_ILLEGAL_ADDRESS on the GPU), then good_after -- the fixture whose good kernel failed
#      with the same error in the first issue 15 run (../issue15-run/fault.txt)
#   2. fault-cu/                       the same from CUDA source: clockFault, then goodAfter (nvcc builds
#      as-built and strict, so the GPU itself can confirm the good kernel's contraction)
#   3. examples/                              the bundled examples, as a new user runs them
#   4. hang/                           spinForever (never finishes on the GPU) with --gpu-timeout 30, then
#      goodAfterHang (last, so that a GPU left busy could not spoil the runs above)
# (fixtures from validation/bundle/, copied into BUNDLE/fixtures by build-bundle.sh; examples/ of the repository root)
# Usage, from the repository root: bash BUNDLE/run.sh BUNDLE OUT   (BUNDLE from build-bundle.sh)
set -uo pipefail
B=${1:?bundle}
O=${2:?output directory}
GPU=${GPU:-require}
mkdir -p "$O"
JAVA=$B/jre/bin/java
N=("$JAVA" -Xss16m -XX:+UseSerialGC -Xmx6g -jar "$B/numlint.jar")
{
  date -u
  nvidia-smi
  nvcc --version
  echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  echo "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-}"
  ldconfig -p | grep -E 'libcuda\.so' || echo "libcuda not in the loader cache"
  echo "ulimit -v: $(ulimit -v)"
  "$JAVA" -version
} > "$O/environment.txt" 2>&1
run() { # name, then validate arguments
  local n=$1; shift
  local s=$(date +%s%N)
  timeout 280 "${N[@]}" validate --gpu "$GPU" "$@" --format json --output "$O/$n.json" > "$O/$n.log" 2>&1
  local rc=$?
  echo "$n exit $rc wall $(( ($(date +%s%N) - s) / 1000000 )) ms" >> "$O/exit-codes.txt"
  [ -s "$O/$n.json" ] && "$JAVA" -cp "$B/numlint.jar" dev.numlint.validation.report.JsonToText "$O/$n.json" > "$O/$n.txt" 2>&1
  # no GPU child may outlive its run
  ps -eo pid,etimes,args | grep '[G]puChild' >> "$O/leftover-children.txt"
}
run fault-ptx --all-kernels --inputs 2 "$B/fixtures/fault/isolation.ptx"
# if the GPU child could not load the driver library although the host has one, say where it is and retry once with
# that directory on numlint's LD_LIBRARY_PATH (numlint passes exactly that directory on to its GPU children)
if grep -q 'no GPU can be used here' "$O/fault-ptx.log"; then
  lib=$(timeout 30 find /usr /lib /lib64 /opt /run -name 'libcuda.so.1' 2>/dev/null | head -n1)
  echo "probe failed: $(grep -o 'no GPU can be used here.*' "$O/fault-ptx.log"); libcuda.so.1 found at: ${lib:-nowhere}" >> "$O/exit-codes.txt"
  if [ -n "$lib" ]; then
    export LD_LIBRARY_PATH="$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    mv "$O/fault-ptx.log" "$O/fault-ptx-first-attempt.log"
    run fault-ptx --all-kernels --inputs 2 "$B/fixtures/fault/isolation.ptx"
  fi
fi
run fault-cu --all-kernels --inputs 2 "$B/fixtures/fault-cu"
run examples --inputs 4 examples
run hang --all-kernels --inputs 2 --gpu-timeout 30 "$B/fixtures/hang"
{ echo "after the runs:"; nvidia-smi --query-gpu=name,utilization.gpu,memory.used --format=csv
  nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv; } >> "$O/environment.txt" 2>&1
[ -s "$O/leftover-children.txt" ] || echo "none" > "$O/leftover-children.txt"
cat "$O/exit-codes.txt"
