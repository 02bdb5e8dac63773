#!/usr/bin/env bash
# Final GPU-host run (lead): interpreter throughput of main on one pinned core (6 JVMs x 12 launches of the
# arith_loop benchmark kernel, wall/CPU-time rates), and TIGRE (Common/CUDA + setup.py) scanned and validated with
# the GPU (--gpu require), now that setup.py gives it its -DIS_FOR_PYTIGRE build.
set -uo pipefail
B=.gpu/final; J=$B/jre/bin/java; O=$OUT/final; mkdir -p "$O"
{ date -u; nvidia-smi; nvcc --version; lscpu | head -20; } > "$O/host.txt" 2>&1
for i in 1 2 3 4 5 6; do
  taskset -c 3 "$J" -XX:ActiveProcessorCount=1 -cp "$B/probe:$B/res:$B/numlint.jar" Probe 12 >> "$O/throughput.txt" 2>&1
done
N=("$J" -Xss16m -XX:+UseSerialGC -Xmx6g -jar "$B/numlint.jar")
s=$(date +%s)
"${N[@]}" scan "$B/tigre" > "$O/tigre-scan.txt" 2>&1; echo "scan exit $? $(( $(date +%s) - s )) s" >> "$O/exit-codes.txt"
s=$(date +%s)
timeout 420 "${N[@]}" validate --gpu require --inputs 4 --format json --output "$O/tigre-validate.json" "$B/tigre" \
  > "$O/tigre-validate.log" 2>&1; echo "validate exit $? $(( $(date +%s) - s )) s" >> "$O/exit-codes.txt"
[ -s "$O/tigre-validate.json" ] && "$J" -cp "$B/numlint.jar" dev.numlint.validation.report.JsonToText \
  "$O/tigre-validate.json" > "$O/tigre-validate.txt" 2>&1
ps -eo pid,etimes,args | grep '[G]puChild' > "$O/leftover-children.txt"
tar -C "$OUT" -czf "$OUT/final.tgz" final
cat "$O/exit-codes.txt" "$O/throughput.txt"
