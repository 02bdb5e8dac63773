#!/usr/bin/env bash
# Overhead of the numlint SpotBugs plugin: runs stock SpotBugs (FindBugs2, default effort, -low) on each jar given
# as an argument, without and with the plugin (-pluginList), RUNS times each (default 3), and prints the median wall
# time and peak RSS (GNU time -v) of both, the overhead, and the numlint findings per rule.
#
#   bench/spotbugs-overhead.sh /path/to/ij-1.54f.jar /path/to/commons-math3-3.6.1.jar
#   bench/spotbugs-overhead.sh    (no jar: those two under $NUMLINT_CORPORA/java, or a smoke run on a jar of
#                                  examples/java compiled here; see bench/lib.sh)
#
# Environment: RUNS (3), PAIRED=1 (run base and plugin side by side; for a shared, loaded machine), JAVA (java on PATH), XMX (-Xmx for SpotBugs, 3g), NUMLINT_MVN_ARGS (extra Maven arguments, e.g. -o),
#   PLUGIN_JAR and SPOTBUGS_CP to skip the Maven steps (prebuilt plugin jar / SpotBugs class path),
#   OUT (work directory, spotbugs-plugin/target/bench). The analyzed jars are only read; never commit them.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
JAVA=${JAVA:-java}
OUT=${OUT:-$ROOT/spotbugs-plugin/target/bench}
mkdir -p "$OUT"
if [ $# -eq 0 ]; then
  if [ "$SMOKE" = 1 ]; then
    # a jar of the Java example, compiled here
    rm -rf "$OUT/smoke-classes"; mkdir -p "$OUT/smoke-classes"
    javac -nowarn -d "$OUT/smoke-classes" "$ROOT"/examples/java/*.java
    (cd "$OUT/smoke-classes" && jar cf "$OUT/examples.jar" .)
    set -- "$OUT/examples.jar"
    RUNS=${RUNS:-1}
    PAIRED=${PAIRED:-1}
  else
    set -- "$NUMLINT_CORPORA/java/ij-1.54f.jar" "$NUMLINT_CORPORA/java/commons-math3-3.6.1.jar"
  fi
fi
RUNS=${RUNS:-3}
XMX=${XMX:-3g}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "GNU time ($TIME) is needed for the peak memory" >&2; exit 2; }

if [ -z "${PLUGIN_JAR:-}" ]; then
  if [ "${NUMLINT_BENCH_PREBUILT:-0}" != 1 ] || ! ls "$ROOT"/spotbugs-plugin/target/numlint-spotbugs-plugin-*.jar >/dev/null 2>&1; then
    (cd "$ROOT" && "${MVN[@]}" -pl spotbugs-plugin -am package -DskipTests)
  fi
  PLUGIN_JAR=$(ls "$ROOT"/spotbugs-plugin/target/numlint-spotbugs-plugin-*.jar | grep -v -e sources -e tests | head -1)
fi
if [ -z "${SPOTBUGS_CP:-}" ] && [ "${NUMLINT_BENCH_PREBUILT:-0}" = 1 ] && [ -s "$OUT/cp/classpath.txt" ]; then
  SPOTBUGS_CP=$(cat "$OUT/cp/classpath.txt")
fi
if [ -z "${SPOTBUGS_CP:-}" ]; then
  # stock SpotBugs and its dependencies, resolved by Maven from a tiny pom
  VERSION=$(sed -n 's:.*<spotbugs.version>\(.*\)</spotbugs.version>.*:\1:p' "$ROOT/pom.xml" | head -1)
  mkdir -p "$OUT/cp"
  cat > "$OUT/cp/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>bench</groupId><artifactId>spotbugs-cp</artifactId><version>1</version>
  <dependencies><dependency><groupId>com.github.spotbugs</groupId><artifactId>spotbugs</artifactId><version>$VERSION</version></dependency></dependencies>
</project>
POM
  "${MVN[@]}" -f "$OUT/cp/pom.xml" org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
      -Dmdep.outputFile="$OUT/cp/classpath.txt" >/dev/null
  SPOTBUGS_CP=$(cat "$OUT/cp/classpath.txt")
fi
echo "plugin jar: $PLUGIN_JAR ($(du -k "$PLUGIN_JAR" | cut -f1) KiB)"
echo "java: $("$JAVA" -version 2>&1 | head -1); runs: $RUNS; cores: $(nproc)"

run_one() { # jar mode i
  local jar=$1 mode=$2 i=$3 name; name=$(basename "$jar" .jar)
  local extra=(); [ "$mode" = plugin ] && extra=(-pluginList "$PLUGIN_JAR")
  "$TIME" -v -o "$OUT/$name.$mode.$i.time" "$JAVA" -Xmx"$XMX" -cp "$SPOTBUGS_CP" edu.umd.cs.findbugs.FindBugs2 \
      -low -xml:withMessages "${extra[@]}" -output "$OUT/$name.$mode.$i.xml" "$jar" > "$OUT/$name.$mode.$i.log" 2>&1
}

for jar in "$@"; do
  for i in $(seq 1 "$RUNS"); do
    if [ "${PAIRED:-0}" = 1 ]; then
      # on a shared, loaded machine: run base and plugin side by side so that both see the same load
      run_one "$jar" base "$i" & run_one "$jar" plugin "$i"; wait
    else
      for mode in base plugin; do   # interleaved, so that drifting machine load hits both alike
        run_one "$jar" "$mode" "$i"
      done
    fi
  done
done

python3 - "$OUT" "$RUNS" "$@" <<'PY'
import os, re, statistics, sys, collections
import xml.etree.ElementTree as ET
out, runs, jars = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def measure(path):
    t = open(path).read()
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", t)
    wall = int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
    cpu = float(re.search(r"User time \(seconds\): ([\d.]+)", t).group(1)) + \
        float(re.search(r"System time \(seconds\): ([\d.]+)", t).group(1))
    return wall, rss, cpu
print()
print(f"{'jar':28} {'mode':7} {'wall s (median)':>16} {'runs':>24} {'cpu s (median)':>15} {'peak RSS MiB':>13} {'bugs':>6}")
for jar in jars:
    name = os.path.basename(jar)[:-4]
    med = {}
    for mode in ("base", "plugin"):
        ws, rs, cs = zip(*(measure(f"{out}/{name}.{mode}.{i}.time") for i in range(1, runs + 1)))
        root = ET.parse(f"{out}/{name}.{mode}.1.xml").getroot()
        bugs = root.findall("BugInstance")
        med[mode] = (statistics.median(ws), statistics.median(rs), statistics.median(cs))
        print(f"{name:28} {mode:7} {med[mode][0]:16.1f} {' '.join(f'{w:.1f}' for w in ws):>24} {med[mode][2]:15.1f} {med[mode][1]:13.0f} {len(bugs):6d}")
    print(f"{name:28} overhead: wall {100 * (med['plugin'][0] / med['base'][0] - 1):+.1f}%, "
          f"cpu {100 * (med['plugin'][2] / med['base'][2] - 1):+.1f}%, "
          f"peak RSS {100 * (med['plugin'][1] / med['base'][1] - 1):+.1f}%")
    root = ET.parse(f"{out}/{name}.plugin.1.xml").getroot()
    per = collections.Counter()
    prio = collections.Counter()
    for b in root.findall("BugInstance"):
        if b.get("type", "").startswith("NL"):
            per[b.get("abbrev")] += 1
            prio[(b.get("abbrev"), b.get("priority"))] += 1
    print(f"{name:28} numlint findings: " + ", ".join(f"{k} {per[k]}" for k in sorted(per)) +
          f" (total {sum(per.values())}; by priority " +
          ", ".join(f"{k}/p{p} {n}" for (k, p), n in sorted(prio.items())) + ")")
    print()
PY
