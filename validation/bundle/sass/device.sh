#!/bin/bash
# On the GPU host: disassemble every cubin with line info (nvdisasm -g -c) into $OUT/sass/.
set -u
D=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/sass"
{ nvdisasm --version; cuobjdump --version; ptxas --version; nvidia-smi; } > "$OUT/sass/tools.txt" 2>&1
for c in "$D"/cubin/*.cubin; do
  t=$(basename "$c" .cubin)
  nvdisasm -g -c "$c" > "$OUT/sass/$t.sass" 2> "$OUT/sass/$t.err" || echo "nvdisasm failed: $t" >> "$OUT/sass/failures.txt"
  [ -s "$OUT/sass/$t.err" ] || rm -f "$OUT/sass/$t.err"
done
# the device's own ptxas on the hand-written patterns, to see whether it agrees with the build host's
ptxas -arch=sm_90 -lineinfo -o /tmp/p.cubin "$D/patterns.loc.ptx" && nvdisasm -g -c /tmp/p.cubin > "$OUT/sass/patterns.device-ptxas.sass"
ls "$OUT/sass" | wc -l
