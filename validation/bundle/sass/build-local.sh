#!/bin/bash
# Builds as-built PTX (nvcc defaults, -lineinfo) of the given .cu files, relocates .loc to PTX lines, and
# assembles each with ptxas -lineinfo into a cubin (the device host disassembles them).
cd "$(dirname "$0")"
for f in "$@"; do
  tag=$(echo "$f" | sed 's#^/work/corpora/##; s#^/work/wt/valid/##; s#[/ ]#__#g; s#\.cu$##')
  [ -f "cubin/$tag.cubin" ] && continue
  if timeout 120 nvcc -ptx -arch=sm_90 -lineinfo -I"$(dirname "$f")" -I/work/corpora/cuda-samples/Common -o "ptx/$tag.ptx" "$f" 2>"ptx/$tag.err"; then
    python3 relocate.py "ptx/$tag.ptx" "/tmp/$tag.loc.ptx" "$tag.ptx" && ptxas -arch=sm_90 -lineinfo -o "cubin/$tag.cubin" "/tmp/$tag.loc.ptx" 2>>"ptx/$tag.err" && rm -f "ptx/$tag.err" "/tmp/$tag.loc.ptx"
  fi
done
