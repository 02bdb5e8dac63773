#!/usr/bin/env bash
# PTX front-end benchmarks: parse+analysis throughput on one thread, heap for a 1,000,000-line PTX file under
# -Xmx1g, and an end-to-end scan of a PTX directory through the analyzer SPI on 2 worker threads.
#
# usage: bench/ptx-throughput.sh [PTX_DIR [iterations]]
#   PTX_DIR: a directory tree of .ptx files (e.g. real projects compiled with nvcc -ptx -lineinfo); default
#   $NUMLINT_CORPORA/ptx, or without NUMLINT_CORPORA a smoke run on examples/ptx (bench/lib.sh)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
if [ "$SMOKE" = 1 ]; then
  DIR=${1:-examples/ptx}; ITER=${2:-1}; LINES=20000
else
  DIR=${1:-$NUMLINT_CORPORA/ptx}; ITER=${2:-10}; LINES=1000000
fi
[ -d "$DIR" ] || { echo "no PTX directory $DIR; usage: bench/ptx-throughput.sh PTX_DIR [iterations]" >&2; exit 2; }
# our own modules from the reactor's target folders, third-party jars from the local repository
bench_build ptx-inspector
DEPS=$(bench_cp ptx-inspector)
CP=ptx-inspector/target/classes:ptx-inspector/target/test-classes:rules/target/classes:rules/target/test-classes:$DEPS
JAVA=${JAVA:-java}

echo "== throughput: parse + model + CFG/def-use/loops + all PTX rules, one thread, $ITER iterations"
"$JAVA" -XX:+UseSerialGC -XX:ActiveProcessorCount=1 -cp "$CP" dev.numlint.bench.PtxThroughputBench throughput "$DIR" "$ITER"

echo; echo "== heap: $LINES-line PTX file (corpus PTX concatenated, functions renamed), -Xmx1g"
BIG=ptx-inspector/target/bench-$LINES.ptx
"$JAVA" -cp "$CP" dev.numlint.bench.PtxThroughputBench generate "$DIR" "$BIG" "$LINES"
"$JAVA" -Xmx1g -XX:+UseSerialGC -cp "$CP" dev.numlint.bench.PtxThroughputBench heap "$BIG"

echo; echo "== end-to-end: PtxAnalyzer over $DIR through the ScanContext SPI (TestScanContext, 2 worker threads),"
echo "   cold JVM, default JIT and C1-only (-XX:TieredStopAtLevel=1, less JIT work for a short run)"
for OPT in "" "-XX:TieredStopAtLevel=1"; do
  echo "-- java $OPT"
  /usr/bin/time -f "process: %e s wall, %U s user, %S s sys" "$JAVA" $OPT -XX:ActiveProcessorCount=2 -cp "$CP" \
      dev.numlint.bench.PtxScanBench "$DIR" 2>&1 | grep -v '^NOTE'
done
