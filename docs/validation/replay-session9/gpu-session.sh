#!/bin/bash
# The GPU-host script of docs/validation/replay-session9.md (run 2). Needs on the GPU host: the CUDA toolkit
# (nvcc, cupti, cuobjdump), a packed Java 17 runtime (jre.tar.xz) and numlint.jar next to this script, the
# cuda-samples sources under samples/ (Common/*.h and the Samples/ folders listed below) and dbt/dbt_filled.cu
# (examples/recordings/dbt-host-filled.cu.txt). Prints tables into $OUT: builds, plain vs recorded run time.
# numlint replay session 9 on the GPU host: build the capture library (numlint record does it at first use),
# build the DBT example (host fill added) and cuda-samples programs with nvcc, record each, replay each on the
# interpreter, time plain vs recorded runs. Everything lands in $OUT.
set -u
G=$(cd "$(dirname "$0")" && pwd)
W=/tmp/w; mkdir -p $W/bin $W/rec $W/rep $W/log
cd $W
(tar -xJf $G/jre.tar.xz -C $W) || exit 1
JAVA=$(ls -d $W/*/bin/java | head -1)
J="$JAVA -Xss16m -jar $G/numlint.jar"
export PATH=/usr/local/cuda/bin:$PATH
{ nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv; nvcc --version | tail -2; $JAVA -version 2>&1 | head -1; which cuobjdump; ls /usr/local/cuda/include/cupti.h /usr/local/cuda/extras/CUPTI/include/cupti.h /usr/local/cuda/lib64/libcupti.so* /usr/local/cuda/extras/CUPTI/lib64/libcupti.so* 2>&1; } > $OUT/env.txt 2>&1
S=$G/samples/Samples
build() { # name dir flags...
  local n=$1 d=$2; shift 2
  local srcs=$(ls $d/*.cu $d/*.cpp 2>/dev/null)
  local rdc=""  # run 2: whole-program compilation (their CMake asks -rdc=true, whose linked image is SASS only)
  ( cd $d && nvcc -lineinfo -std=c++17 --extended-lambda -Wno-deprecated-gpu-targets -arch=sm_90 $rdc -I$G/samples/Common "$@" -o $W/bin/$n $srcs ) > $W/log/build-$n.txt 2>&1 && echo "built $n ($rdc $*)" || echo "BUILD FAILED $n"
}
{
build dbt $G/dbt --use_fast_math
for p in 0_Introduction/vectorAdd 0_Introduction/matrixMul 0_Introduction/simpleTemplates 0_Introduction/fp16ScalarProduct 0_Introduction/asyncAPI 5_Domain_Specific/BlackScholes 5_Domain_Specific/binomialOptions 5_Domain_Specific/fastWalshTransform 5_Domain_Specific/quasirandomGenerator 2_Concepts_and_Techniques/scalarProd 2_Concepts_and_Techniques/convolutionSeparable 2_Concepts_and_Techniques/reduction 2_Concepts_and_Techniques/scan 6_Performance/alignedTypes; do
  build $(basename $p) $S/$p &
done; wait
} > $OUT/builds.txt 2>&1
progs=$(cd $W/bin && ls)
# plain runs (time) then recorded runs, one program at a time (one GPU)
{
printf "%-22s %8s %8s %6s %s\n" program plain_ms record_ms exit launches
for n in $progs; do
  [ $SECONDS -gt 200 ] && { echo "$n: not recorded, out of time"; continue; }
  s=$(date +%s%N); timeout 120 $W/bin/$n > $W/log/plain-$n.txt 2>&1; pe=$?; e=$(date +%s%N)
  s2=$(date +%s%N); timeout 300 $J record --launches 2 --max-bytes 512M --cache-dir $W/cache --output $W/rec/$n -- $W/bin/$n > $W/log/record-$n.txt 2>&1; re=$?; e2=$(date +%s%N)
  printf "%-22s %8d %8d %3s/%-3s %s\n" $n $(( (e - s) / 1000000 )) $(( (e2 - s2) / 1000000 )) $pe $re "$(grep -o '[0-9]* launch(es) recorded' $W/log/record-$n.txt)"
done
} > $OUT/record-table.txt 2>&1
# replays on the interpreter, 8 at a time
for n in $progs; do
  left=$((330 - SECONDS)); [ $left -gt 120 ] && left=120
  if [ $left -lt 20 ]; then echo "$n: not replayed, out of time" >> $OUT/record-table.txt; continue; fi
  ( timeout $left $J validate --replay $W/rec/$n --gpu off --format json --output $W/rep/$n.json > $W/rep/$n.out 2>&1; echo "exit $?" >> $W/rep/$n.out
  ) &
  while [ $(jobs -r | wc -l) -ge 8 ]; do sleep 1; done
done; wait
du -sh $W/rec/* > $OUT/recording-sizes.txt
tar -czf $OUT/reports.tgz -C $W rep log
tar -czf $OUT/rec-dbt.tgz -C $W/rec dbt
# small recordings (metadata + modules only) for inspection here
tar -czf $OUT/rec-meta.tgz -C $W/rec --exclude='*.bin' .
ls -la $OUT
