#!/usr/bin/env bash
# Prepares the GPU-host run of issue 15 item 3 (isolated GPU runs) on a host with JDK 17 and Maven:
#   .gpu/iso/numlint.jar  the shaded CLI jar (built here: mvn -B -pl analyzer -am package -DskipTests)
#   .gpu/iso/jre          a jlink runtime (the GPU host has no Java); the GPU child processes run on its bin/java
# The fixtures and examples travel with the working tree; pass .gpu/iso as carry to the device call, then run
#   bash docs/validation/issue15-isolation-run/run.sh .gpu/iso "$OUT"
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
B=$ROOT/.gpu/iso
cd "$ROOT"
mvn -B -q -pl analyzer -am package -DskipTests
rm -rf "$B" && mkdir -p "$B"
cp analyzer/target/numlint-analyzer-*-cli.jar "$B/numlint.jar"
jlink --add-modules java.base,java.logging,java.xml,jdk.unsupported,java.management,java.sql --strip-debug \
    --no-header-files --no-man-pages --compress=2 --output "$B/jre"
du -sh "$B"
