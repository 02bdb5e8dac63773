#!/usr/bin/env bash
# Prepares a GPU host run of `numlint validate` (the shaded CLI jar: the same picocli command, options and exit
# codes as here) for a host with a driver, nvcc, ptxas and nvdisasm but no JDK:
#   OUT/numlint.jar   analyzer/target/numlint-analyzer-<version>-cli.jar (build it first: mvn -pl analyzer -am package)
#   OUT/jre           jlink runtime (java.base, java.logging, java.xml, jdk.unsupported; java.management, jdk.management
#                     and jdk.jfr for the interpreter's foreground compile: the diagnostic command bean lists the
#                     compiler commands only when jdk.jfr is present, see interp/ForegroundCompile)
#   OUT/work/...      the inputs: examples/, the seeds kernels with their spec, the fault-isolation fixture, and
#                     the real projects given as arguments (source files only; each validated on its own)
#   OUT/run.sh        validation/bundle/gpu-run.sh
# Usage: validation/bundle/build-gpu-bundle.sh OUT [PROJECT_DIR_OR_FILE...]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: build-gpu-bundle.sh OUT [PROJECT...]}
shift
version=$(sed -n 's:.*<artifactId>numlint-parent</artifactId>.*<version>\([^<]*\)</version>.*:\1:p;/<artifactId>numlint-parent<\/artifactId>/{n;s:.*<version>\([^<]*\)</version>.*:\1:p}' "$ROOT/pom.xml" | head -n1)
mkdir -p "$OUT/work/real" "$OUT/work/seeds" "$OUT/work/fault"
cp "$ROOT/analyzer/target/numlint-analyzer-$version-cli.jar" "$OUT/numlint.jar"
[ -x "$OUT/jre/bin/java" ] || jlink --add-modules java.base,java.logging,java.xml,jdk.unsupported,java.management,jdk.management,jdk.jfr --strip-debug \
    --no-header-files --no-man-pages --compress=2 --output "$OUT/jre"
rm -rf "$OUT/work/examples" && cp -r "$ROOT/examples" "$OUT/work/examples"
cp "$ROOT/validation/src/test/resources/kernels/seeds.cu" "$OUT/work/seeds/"
cp "$ROOT/validation/bundle/inputs/spec.yml" "$OUT/work/seeds/spec.yml"
cp "$ROOT/validation/bundle/fault/"*.ptx "$OUT/work/fault/"
cp "$ROOT/validation/bundle/gpu-run.sh" "$OUT/run.sh"
# the interpreter benchmark (validation's test classes: dev.numlint.bench and the bench kernels)
mkdir -p "$OUT/work/bench" && cp -r "$ROOT/validation/target/test-classes/dev" "$ROOT/validation/target/test-classes/kernels" "$OUT/work/bench/"
for p in "$@"; do
  name=$(echo "$p" | sed 's#^/work/corpora/##; s#[/ ]#__#g')
  rm -rf "$OUT/work/real/$name"; mkdir -p "$OUT/work/real/$name"
  if [ -d "$p" ]; then
    (cd "$p" && find . -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.h' -o -name '*.hpp' -o -name '*.c' \
        -o -name '*.cpp' -o -name 'Makefile' -o -name 'CMakeLists.txt' \) -size -2M -print0 | tar -cf - --null -T - | tar -xf - -C "$OUT/work/real/$name")
  else
    cp "$p" "$OUT/work/real/$name/"
    # headers next to a single file
    find "$(dirname "$p")" -maxdepth 1 \( -name '*.h' -o -name '*.cuh' -o -name '*.hpp' \) -exec cp {} "$OUT/work/real/$name/" \;
  fi
done
du -sh "$OUT"
