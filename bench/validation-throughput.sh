#!/usr/bin/env bash
# Builds the validation module and prints the CPU-interpreter benchmarks as a table:
# interpreted PTX instructions/s on one core, and the wall time of validating one flagged kernel
# (3 builds + reference, 16 input sets of 2^16 elements).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -o -q -pl validation -am test-compile -DskipTests
mvn -B -o -q -pl validation dependency:build-classpath -Dmdep.outputFile=target/validation-bench.cp >/dev/null  # written to validation/target/
# our own modules from their build directories (never from the local repository)
CP="validation/target/test-classes:validation/target/classes:ptx-inspector/target/classes:rules/target/classes"
EXT=$(tr ':' '\n' < validation/target/validation-bench.cp | grep -v '/dev/numlint/' | paste -sd: -)
exec java -Xmx2g -XX:ActiveProcessorCount=1 -cp "$CP:$EXT" dev.numlint.bench.ValidationThroughput
