# Shared by the benchmark scripts (sourced). The scripts run from a fresh clone after the README's two commands:
# Maven runs online unless NUMLINT_MVN_ARGS says otherwise (e.g. NUMLINT_MVN_ARGS=-o), and sibling modules come
# from the reactor (-am), never from the local repository.
#
# Environment:
#   NUMLINT_CORPORA        folder with the real code the full benchmarks read (rodinia, cuda-samples, tigre,
#                          java/ij-src, ...). Unset: smoke mode, a tiny built-in input (examples/ and generated
#                          files), few repetitions, to show that the script runs; its figures mean nothing.
#   NUMLINT_BENCH_SMOKE=1  smoke mode even when NUMLINT_CORPORA is set.
#   NUMLINT_BENCH_PREBUILT=1  skip the Maven step when MODULE/target/bench.cp exists (.ci/run builds everything once).
#   NUMLINT_MVN_ARGS       extra Maven arguments.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC2206
MVN=(mvn -B -q -Dstyle.color=never ${NUMLINT_MVN_ARGS:-})
if [ -z "${NUMLINT_CORPORA:-}" ] || [ "${NUMLINT_BENCH_SMOKE:-0}" = 1 ]; then SMOKE=1; else SMOKE=0; fi
if [ "$SMOKE" = 1 ]; then
  echo "(smoke mode: tiny built-in input; set NUMLINT_CORPORA for the real benchmark)" >&2
fi

# bench_build MODULE [GOAL]: compiles MODULE and the modules it needs (GOAL, default test-compile) and writes
# MODULE/target/bench.cp, its test class path (third-party jars and the sibling modules' class directories).
bench_build() {
  local m=$1 goal=${2:-test-compile}
  if [ "${NUMLINT_BENCH_PREBUILT:-0}" = 1 ] && [ -f "$ROOT/$m/target/bench.cp" ]; then return 0; fi
  (cd "$ROOT" && "${MVN[@]}" -pl "$m" -am -DskipTests "$goal" dependency:build-classpath \
      -Dmdep.outputFile=target/bench.cp >/dev/null)
}

# bench_cp MODULE: the class path written by bench_build, without any numlint jar from the local repository
bench_cp() {
  tr ':' '\n' < "$ROOT/$1/target/bench.cp" | grep -v '/dev/numlint/' | paste -sd: -
}
