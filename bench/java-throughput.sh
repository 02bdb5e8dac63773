#!/usr/bin/env bash
# Throughput of the java-source analyzer (Eclipse JDT with bindings) on 2 cores.
#
#   bench/java-throughput.sh [SOURCE_DIR [CLASSPATH]] [-- extra bench options]
#
# Defaults: the ImageJ 1.54f sources and jar under $NUMLINT_CORPORA (a folder holding java/ij-src, the unpacked
# sources jar, and java/ij-1.54f.jar); without it a smoke run on examples/java (bench/lib.sh). Builds the analyzer
# (reactor, no tests), then runs dev.numlint.bench.JavaThroughputBench pinned to 2 cores with 2 worker
# threads: best of 5 runs (the first ones warm the JIT), Java source lines/s, CPU time and peak heap.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
if [ "$SMOKE" = 1 ]; then
  SRC=${1:-examples/java}
  CP=${2-}
  RUNS=${RUNS:-1}
else
  SRC=${1:-$NUMLINT_CORPORA/java/ij-src}
  CP=${2-$NUMLINT_CORPORA/java/ij-1.54f.jar}
fi
shift $(( $# > 2 ? 2 : $# )) || true
[ "${1:-}" = "--" ] && shift

bench_build analyzer
RUNCP=analyzer/target/classes:analyzer/target/test-classes:rules/target/classes:rules/target/test-classes:ptx-inspector/target/classes:validation/target/classes:$(bench_cp analyzer)
PIN=()
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -gt 2 ]; then PIN=(taskset -c 0,1); fi
ARGS=("$SRC" --runs "${RUNS:-5}")
[ -n "$CP" ] && ARGS+=(--classpath "$CP")
"${PIN[@]}" java -XX:ActiveProcessorCount=2 -Xmx${HEAP:-1g} -cp "$RUNCP" dev.numlint.bench.JavaThroughputBench "${ARGS[@]}" "$@"
