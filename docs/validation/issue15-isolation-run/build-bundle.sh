#!/usr/bin/env bash
# Prepares the GPU-host run of issue 15 item 3 (isolated GPU runs) on a host with JDK 17 and Maven:
#   .gpu/iso/numlint.jar  the shaded CLI jar (built here: mvn -B -pl analyzer -am package -DskipTests)
#   .gpu/iso/jre          a jlink runtime (the GPU host has no Java); the GPU child processes run on its bin/java
#   .gpu/iso/fixtures     validation/bundle/{fault,fault-cu,hang}; .gpu/iso/run.sh this directory's run.sh
# Usage: build-bundle.sh [BUNDLE_DIR]  (default .gpu/iso). The device tool carries only ignored folders of the
# session's own checkout: a helper working in another worktree builds into that checkout's ignored .gpu/ (the run
# committed here used /work/main/.gpu/gpuiso), passes it as carry, and runs, from the repository root (for examples/),
#   bash .gpu/gpuiso/run.sh .gpu/gpuiso "$OUT"      (at most 8 files come back from $OUT: tar the output folder)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
B=${1:-$ROOT/.gpu/iso}
cd "$ROOT"
mvn -B -q -pl analyzer -am package -DskipTests
rm -rf "$B" && mkdir -p "$B"
cp analyzer/target/numlint-analyzer-*-cli.jar "$B/numlint.jar"
jlink --add-modules java.base,java.logging,java.xml,jdk.unsupported,java.management,java.sql --strip-debug \
    --no-header-files --no-man-pages --compress=2 --output "$B/jre"
mkdir -p "$B/fixtures"
cp -r validation/bundle/fault validation/bundle/fault-cu validation/bundle/hang "$B/fixtures/"
cp docs/validation/issue15-isolation-run/run.sh "$B/run.sh"
du -sh "$B"
