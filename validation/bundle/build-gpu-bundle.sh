#!/usr/bin/env bash
# Builds a self-contained validation bundle for a GPU host that has the NVIDIA driver but no JDK and no CUDA
# toolkit:  validation/bundle/build-gpu-bundle.sh [OUT_DIR] [PATH...]
#   OUT_DIR/numlint.jar   thin jar (rules + ptx-inspector + validation + antlr/jackson/snakeyaml + jcuda natives),
#                         main class dev.numlint.validation.ValidateMain
#   OUT_DIR/jre/          jlink runtime with only the modules the validate path needs
#   OUT_DIR/inputs/       copies of the .cu/.ptx PATHs (and the headers next to them)
#   OUT_DIR/variants/     the PTX variants (as-built, strict, single-switch) prebuilt with the local nvcc
#   OUT_DIR/run.sh        runs the validation on the GPU host: bash OUT_DIR/run.sh [RESULT_DIR] [--gpu MODE]
# Default OUT_DIR: .gpu/ at the repository root (git-ignored). Needs JDK 17 (jlink), Maven and nvcc here.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-$ROOT/.gpu}
[ $# -gt 0 ] && shift
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cd "$ROOT"
mvn -B -o -q -DskipTests package -pl validation -am
mvn -B -o -q -pl validation dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile="$OUT/.cp"
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
# the reactor's own classes (not ~/.m2 snapshots), then the third-party runtime jars
for c in rules ptx-inspector validation; do cp -r "$c/target/classes/." "$STAGE/"; done
tr ':' '\n' < "$OUT/.cp" | grep -v '/dev/numlint/' | while read -r j; do (cd "$STAGE" && unzip -qo "$j" -x 'META-INF/*.SF' 'META-INF/*.RSA' 'META-INF/*.DSA' 'META-INF/MANIFEST.MF' 'module-info.class' 'META-INF/versions/*' 'lib/libJNvPTXCompiler*' 'lib/libJNvrtc*' 'lib/libJCudaRuntime*' 2>/dev/null || true); done
rm -f "$OUT/.cp"
printf 'Main-Class: dev.numlint.validation.ValidateMain\n' > "$STAGE.mf"
rm -f "$OUT/numlint.jar"
jar --create --file "$OUT/numlint.jar" --manifest "$STAGE.mf" -C "$STAGE" .
rm -f "$STAGE.mf"
# java.base: everything; java.logging: JCuda's logger; java.xml: snakeyaml/jackson probes; jdk.unsupported: sun.misc.Unsafe
rm -rf "$OUT/jre"
jlink --add-modules java.base,java.logging,java.xml,jdk.unsupported --strip-debug --no-header-files --no-man-pages \
      --compress=2 --output "$OUT/jre"
mkdir -p "$OUT/inputs" "$OUT/variants"
for p in "$@"; do
  if [ -d "$p" ]; then cp -r "$p/." "$OUT/inputs/"; else cp "$p" "$OUT/inputs/"; d=$(dirname "$p"); cp "$d"/*.h "$OUT/inputs/" 2>/dev/null || true; fi
done
# launch specs for the kernels used in docs/validation (white-paper inputs, 2-D tiled Rodinia kernels)
[ -f "$OUT/inputs/spec.yml" ] || cp "$ROOT/validation/bundle/inputs/spec.yml" "$OUT/inputs/spec.yml"
if ls "$OUT/inputs"/*.cu >/dev/null 2>&1; then
  "$OUT/jre/bin/java" -jar "$OUT/numlint.jar" --prebuild --variant-cache "$OUT/variants" "$OUT/inputs"
fi
cp "$ROOT/validation/bundle/run.sh" "$OUT/run.sh"
du -sh "$OUT"/numlint.jar "$OUT"/jre "$OUT"/variants "$OUT"
