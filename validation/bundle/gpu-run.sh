#!/usr/bin/env bash
# On the GPU host (driver, nvcc, ptxas, nvdisasm; no JDK): `numlint validate --gpu require` on the bundle's inputs,
# then the SASS of every as-built build read back (ptxas -lineinfo + nvdisasm -g) for the contraction check.
# Results under $OUT (default: ./result): *.json / *.txt reports, sass/, contraction.txt, summary.txt.
set -uo pipefail
B=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-$B/result}
P=${PARALLEL:-12}
LIMIT=${LIMIT:-300}
mkdir -p "$O/real" "$O/cache" "$O/loc" "$O/sass"
JAVA=("$B/jre/bin/java" -Xss16m -XX:+UseSerialGC)
V=("${JAVA[@]}" -Xmx6g -jar "$B/numlint.jar" validate --gpu "${GPU:-require}" --variant-cache "$O/cache")
{ nvidia-smi; nvcc --version; ptxas --version; nvdisasm --version; } > "$O/environment.txt" 2>&1
# interpreter throughput on one core, bounds checks on, while the machine is otherwise idle
[ -d "$B/work/bench" ] && "${JAVA[@]}" -Xmx2g -XX:ActiveProcessorCount=1 -cp "$B/work/bench:$B/numlint.jar" \
    dev.numlint.bench.ValidationThroughput > "$O/throughput.txt" 2>&1
# the same benchmark on a baseline build (work/bench-old: t, v, p, r = that build's validation test classes,
# validation, ptx-inspector and rules classes), for the cost of the bounds checks
[ -d "$B/work/bench-old" ] && "${JAVA[@]}" -Xmx2g -XX:ActiveProcessorCount=1 \
    -cp "$B/work/bench-old/t:$B/work/bench-old/v:$B/work/bench-old/p:$B/work/bench-old/r:$B/numlint.jar" \
    dev.numlint.bench.ValidationThroughput > "$O/throughput-baseline.txt" 2>&1
t0=$(date +%s)
run() { # name, then validate arguments
  local n=$1; shift
  local s=$(date +%s)
  timeout "$LIMIT" "${V[@]}" --format json --output "$O/$n.json" "$@" > "$O/$n.log" 2>&1
  echo "$n exit $? wall $(( $(date +%s) - s )) s" >> "$O/exit-codes.txt"
}
export -f run
(
  run examples --inputs 4 --write-spec "$O/examples-spec.yml" "$B/work/examples"
  run seeds --inputs 4 --spec "$B/work/seeds/spec.yml" "$B/work/seeds"
  run fault --inputs 2 --all-kernels "$B/work/fault"
) &
[ "${REAL:-1}" = 0 ] || ls -d "$B"/work/real/*/ 2>/dev/null | sed 's#/$##' | timeout "${PHASE:-430}" xargs -P "$P" -I{} bash -c \
  'n=$(basename "{}"); s=$(date +%s); timeout '"$LIMIT"' '"${V[*]}"' --inputs 2 --format json --output '"$O"'/real/$n.json "{}" > '"$O"'/real/$n.log 2>&1; echo "$n exit $? wall $(( $(date +%s) - s )) s" >> '"$O"'/exit-codes.txt'
wait
echo "validation wall $(( $(date +%s) - t0 )) s" >> "$O/exit-codes.txt"
# the machine code of every build in the variant cache
"${JAVA[@]}" -cp "$B/numlint.jar" dev.numlint.validation.report.SassAnnotator prepare "$O/cache" "$O/loc"
ls "$O"/loc/*.loc.ptx | xargs -P 16 -I{} bash -c 'f="{}"; n=$(basename "$f" .loc.ptx); ptxas -arch=sm_90 -lineinfo -o /tmp/$n.cubin "$f" 2>/dev/null && nvdisasm -g -c /tmp/$n.cubin > '"$O"'/sass/$n.sass; rm -f /tmp/$n.cubin'
for r in "$O"/examples.json "$O"/seeds.json "$O"/real/*.json; do
  [ -s "$r" ] || continue
  # report paths are relative to the directory numlint ran in (the scan root)
  "${JAVA[@]}" -cp "$B/numlint.jar" dev.numlint.validation.report.SassAnnotator annotate "$r" "$PWD" "$O/cache" "$O/sass" "${r%.json}.sass.json" >> "$O/sass-findings.txt" 2>&1
done
"${JAVA[@]}" -cp "$B/numlint.jar" dev.numlint.validation.report.SassAnnotator annotate "$O/examples.json" "$PWD" "$O/cache" "$O/sass" /tmp/ignored.json > "$O/contraction.txt" 2>&1
for r in "$O"/*.json "$O"/real/*.json; do
  case "$r" in *.sass.json) continue;; esac
  [ -s "$r" ] && "${JAVA[@]}" -cp "$B/numlint.jar" dev.numlint.validation.report.JsonToText "$r" > "${r%.json}.txt" 2>&1
done
echo "total wall $(( $(date +%s) - t0 )) s" >> "$O/exit-codes.txt"
rm -rf "$O/loc"
cat "$O/exit-codes.txt" | tail -5
