#!/usr/bin/env bash
# PTX front-end benchmarks: parse+analysis throughput on one thread, heap for a 1,000,000-line PTX file under
# -Xmx1g, and an end-to-end scan of a PTX directory through the analyzer SPI on 2 worker threads.
#
# usage: bench/ptx-throughput.sh PTX_DIR [iterations]
#   PTX_DIR: a directory tree of .ptx files (e.g. real projects compiled with nvcc -ptx -lineinfo)
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:?usage: bench/ptx-throughput.sh PTX_DIR [iterations]}
ITER=${2:-10}
mvn -B -o -q -pl ptx-inspector -am test-compile
# our own modules from the reactor's target folders, third-party jars from the local repository
mvn -B -o -q -pl ptx-inspector dependency:build-classpath -Dmdep.outputFile="$PWD/ptx-inspector/target/bench.cp" >/dev/null
DEPS=$(tr ':' '\n' < ptx-inspector/target/bench.cp | grep -v '/dev/numlint/' | paste -sd: -)
CP=ptx-inspector/target/classes:ptx-inspector/target/test-classes:rules/target/classes:rules/target/test-classes:$DEPS
JAVA=${JAVA:-java}

echo "== throughput: parse + model + CFG/def-use/loops + all PTX rules, one thread, $ITER iterations"
"$JAVA" -XX:+UseSerialGC -XX:ActiveProcessorCount=1 -cp "$CP" dev.numlint.bench.PtxThroughputBench throughput "$DIR" "$ITER"

echo; echo "== heap: 1,000,000-line PTX file (corpus PTX concatenated, functions renamed), -Xmx1g"
BIG=ptx-inspector/target/bench-1M.ptx
"$JAVA" -cp "$CP" dev.numlint.bench.PtxThroughputBench generate "$DIR" "$BIG" 1000000
"$JAVA" -Xmx1g -XX:+UseSerialGC -cp "$CP" dev.numlint.bench.PtxThroughputBench heap "$BIG"

echo; echo "== end-to-end: PtxAnalyzer over $DIR through the ScanContext SPI (TestScanContext, 2 worker threads),"
echo "   cold JVM, default JIT and C1-only (-XX:TieredStopAtLevel=1, less JIT work for a short run)"
for OPT in "" "-XX:TieredStopAtLevel=1"; do
  echo "-- java $OPT"
  /usr/bin/time -f "process: %e s wall, %U s user, %S s sys" "$JAVA" $OPT -XX:ActiveProcessorCount=2 -cp "$CP" \
      dev.numlint.bench.PtxScanBench "$DIR" 2>&1 | grep -v '^NOTE'
done
