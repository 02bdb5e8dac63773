#!/usr/bin/env bash
# Builds the validation module and prints the CPU-interpreter benchmarks as a table:
# interpreted PTX instructions/s on one core, and the wall time of validating one flagged kernel
# (3 builds + reference, 16 input sets of 2^16 elements). Smoke mode (bench/lib.sh): a few iterations only.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
bench_build validation
# our own modules from their build directories (never from the local repository)
CP="validation/target/test-classes:validation/target/classes:ptx-inspector/target/classes:rules/target/classes"
exec java -Xmx2g -XX:ActiveProcessorCount=1 -Dnumlint.bench.smoke="$([ "$SMOKE" = 1 ] && echo true || echo false)" \
    -cp "$CP:$(bench_cp validation)" dev.numlint.bench.ValidationThroughput
