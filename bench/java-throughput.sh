#!/usr/bin/env bash
# Throughput of the java-source analyzer (Eclipse JDT with bindings) on 2 cores.
#
#   bench/java-throughput.sh [SOURCE_DIR [CLASSPATH]] [-- extra bench options]
#
# Defaults: the ImageJ 1.54f sources and jar under $NUMLINT_CORPORA (a folder holding java/ij-src, the unpacked sources jar, and java/ij-1.54f.jar). Builds the analyzer
# (reactor, offline, no tests), then runs dev.numlint.bench.JavaThroughputBench pinned to 2 cores with 2 worker
# threads: best of 5 runs (the first ones warm the JIT), Java source lines/s, CPU time and peak heap.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPORA=${NUMLINT_CORPORA:-}
SRC=${1:-${CORPORA:?give SOURCE_DIR or set NUMLINT_CORPORA}/java/ij-src}
CP=${2-$CORPORA/java/ij-1.54f.jar}
shift $(( $# > 2 ? 2 : $# )) || true
[ "${1:-}" = "--" ] && shift

mvn -B -o -q -pl analyzer -am package -DskipTests >/dev/null
RUNCP=analyzer/target/numlint-analyzer-0.1.0-SNAPSHOT-cli.jar:analyzer/target/test-classes:rules/target/test-classes
PIN=()
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -gt 2 ]; then PIN=(taskset -c 0,1); fi
ARGS=("$SRC" --runs "${RUNS:-5}")
[ -n "$CP" ] && ARGS+=(--classpath "$CP")
"${PIN[@]}" java -XX:ActiveProcessorCount=2 -Xmx${HEAP:-1g} -cp "$RUNCP" dev.numlint.bench.JavaThroughputBench "${ARGS[@]}" "$@"
