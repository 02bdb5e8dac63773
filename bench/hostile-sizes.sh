#!/usr/bin/env bash
# Hostile input sizes of issue 31 (items 5 and 6), measured through the CLI jar: seconds, peak RSS, exit code.
#
# usage: bench/hostile-sizes.sh [JAR [TIMEOUT]]   (JAR: default the analyzer's CLI jar; TIMEOUT per case, 150 s)
# Each case runs through the release zip's launcher (analyzer/src/release/bin/numlint, with JAR as its lib/numlint.jar),
# so the JVM options are those a user gets: the heap limit of NUMLINT_MAX_HEAP (default 512m, 2g for validation), the
# quick compiler and, for a scan, the serial collector. JAVA picks the java binary, as for the launcher.
# Generates in a temporary directory: one CUDA kernel of 20,000 and of 100,000 lines, a 10 MB .ptx of one function,
# a .ptx with 100,000 nested braces, host code with cudaMalloc(&a, -4) and cudaMalloc(&a, 1ULL << 40) beside the
# validation seeds' PTX, a .ptx declaring 2 GB of .shared and of .local, a --spec that is not valid YAML, and the
# tree-supplied .git and configuration cases: a 7.8 MB version-4 index (150,000 entries, each name 52 bytes longer than
# the one before), a 4,000-commit history of one kernel with 200 suppressions (HTML report, which blames them), an
# exclude glob `*a*a...*b` against a 400-character path and a 250 KB literal exclude (a usage error, exit 2).
# Smoke mode (no NUMLINT_CORPORA, see bench/lib.sh; CI): the same cases at a hundredth of the size, to show the
# script runs; its figures mean nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
JAR=${1:-$(ls "$ROOT"/analyzer/target/numlint-analyzer-*-cli.jar | head -n1)}
T=${2:-150}
echo "heap limit: ${NUMLINT_MAX_HEAP:-512m, 2g for validation (launcher default)}" >&2
SCALE=1; [ "$SMOKE" = 1 ] && SCALE=100
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
mkdir -p "$W/home/bin" "$W/home/lib"
cp "$ROOT/analyzer/src/release/bin/numlint" "$W/home/bin/numlint"
ln -s "$(cd "$(dirname "$JAR")" && pwd)/$(basename "$JAR")" "$W/home/lib/numlint.jar"
cd "$W"
python3 - "$ROOT" "$SCALE" <<'PY'
import os, sys, shutil
root = sys.argv[1]
scale = int(sys.argv[2])
def kernel(n, d):
    os.makedirs(d)
    with open(d + "/k.cu", "w") as f:
        f.write("__global__ void k(float *a, int *idx, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  float s = 0.0f;\n")
        for j in range(n):
            f.write([f"  float v{j} = a[i] * {j}.5f + s;\n", f"  s += v{j-1} / (a[i+1] + 1.0f);\n",
                     f"  if (s > {j}.0f) s = s - v{j-2};\n", f"  idx[i] = (int)(s * {j}.25f);\n",
                     f"  for (int t{j} = 0; t{j} < n; t{j}++) s += a[t{j}] * 0.1f;\n"][j % 5])
        f.write("  a[i] = s;\n}\n")
kernel(20000 // scale, "cuda20k"); kernel(100000 // scale, "cuda100k")
n = 165000 // scale
L = [".version 7.0", ".target sm_70", ".address_size 64", '.file 1 "k.cu"', ".visible .entry k(.param .u64 k_param_0)", "{",
     ".reg .pred %%p<%d>;" % (n + 2), ".reg .f32 %%f<%d>;" % (n + 2), ".reg .b64 %rd<4>;", ".reg .b32 %%r<%d>;" % (n + 2),
     "ld.param.u64 %rd1, [k_param_0];", "cvta.to.global.u64 %rd2, %rd1;", "ld.global.f32 %f0, [%rd2];", "mov.u32 %r0, 0;"]
for j in range(1, n):
    L.append(".loc 1 %d 5" % j)
    m = j % 6
    if m == 0: L += ["$L__BB0_%d:" % j, "add.s32 %%r%d, %%r%d, 1;" % (j, j - 1)]
    elif m == 1: L.append("fma.rn.f32 %%f%d, %%f%d, 0f3F800000, %%f%d;" % (j, j - 1, j - 1))
    elif m == 2: L.append("mul.f32 %%f%d, %%f%d, %%f%d;" % (j, j - 1, j - 2))
    elif m == 3: L.append("cvt.rzi.s32.f32 %%r%d, %%f%d;" % (j, j - 1))
    elif m == 4: L += ["setp.lt.s32 %%p%d, %%r%d, 100;" % (j, j - 1), "@%%p%d bra $L__BB0_%d;" % (j, j - 4)]
    else: L.append("sub.f32 %%f%d, %%f%d, %%f%d;" % (j, j - 2, j - 3))
os.makedirs("ptx10MB"); open("ptx10MB/a.ptx", "w").write("\n".join(L + ["st.global.f32 [%rd2], %f1;", "ret;", "}"]) + "\n")
os.makedirs("braces"); open("braces/b.ptx", "w").write(".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n" + "{" * (100000 // scale) + "}" * (100000 // scale) + "\n")
seeds = root + "/validation/src/test/resources/kernels/seeds.default.ptx"
for d, size in (("malloc-4", "-4"), ("malloc1TB", "1ULL << 40")):
    os.makedirs(d); shutil.copy(seeds, d + "/seeds.ptx")
    open(d + "/main.cu", "w").write("__global__ void square_plus(float* a, float* b, float* c, int n);\nint main() {\n  float *a, *b, *c;\n"
        f"  cudaMalloc(&a, {size});\n  cudaMalloc(&b, 1024 * sizeof(float));\n  cudaMalloc(&c, 1024 * sizeof(float));\n"
        "  square_plus<<<4, 256>>>(a, b, c, 1024);\n  return 0;\n}\n")
os.makedirs("shared2GB"); shutil.copy(seeds, "shared2GB/seeds.ptx")
shutil.copy(root + "/analyzer/src/test/resources/dev/numlint/fuzz/ParserFuzzTestInputs/validation/huge-shared-local", "shared2GB/big.ptx")
open("bad-spec.yml", "w").write("kernels:\n  - kernel: square_plus\n    nonsense: [1, 2\n")
import struct, subprocess
KERNEL = "__global__ void q(const float* in, unsigned char* out, int n) {\n  int i = threadIdx.x;\n  out[i] = (unsigned char) in[i];\n}\n"
def git(d, *args, stdin=None):
    subprocess.run(["git", "-c", "user.name=B", "-c", "user.email=b@example.org", *args], cwd=d, check=True,
                   stdin=stdin, stdout=subprocess.DEVNULL)
if shutil.which("git") is None:
    print("git not found: the index and history cases are skipped", file=sys.stderr)
else:
  os.makedirs("gitindex"); open("gitindex/k.cu", "w").write(KERNEL)
  git("gitindex", "init", "-q"); git("gitindex", "add", "k.cu"); git("gitindex", "commit", "-q", "-m", "k")
  entries = 150000 // scale
  with open("gitindex/.git/index", "wb") as f:
      f.write(struct.pack(">III", 0x44495243, 4, entries))
      e = bytearray(62); e[24:28] = struct.pack(">I", 0o100644); e[36:40] = struct.pack(">I", 1); e[60:62] = b"\x0f\xff"
      rec = bytes(e) + b"\x00" + b"a" * 52 + b"\x00"
      for _ in range(entries): f.write(rec)
  commits, sup, filler = 4000 // scale, 200, 1200
  os.makedirs("history"); git("history", "init", "-q")
  fill = ["    // filler %d\n" % i for i in range(filler)]
  with open("history.fi", "w") as w:
      for c in range(1, commits + 1):
          fill[c % filler] = "    // filler %d revision %d\n" % (c % filler, c)
          per = filler // sup
          t = ["__global__ void q(const float* in, unsigned char* out) {\n"]
          for k in range(sup):
              t += fill[k * per:(k + 1) * per]
              t.append("    // numlint: ignore NL001 -- clamped %d\n    out[%d] = (unsigned char) in[%d];\n" % (k, k, k))
          t.append("}\n"); text = "".join(t); when = 1600000000 + c
          w.write("commit refs/heads/main\nmark :%d\nauthor A <a@example.org> %d +0000\ncommitter A <a@example.org> %d +0000\ndata 1\nx\n" % (c, when, when))
          if c > 1: w.write("from :%d\n" % (c - 1))
          w.write("M 100644 inline k.cu\ndata %d\n%s\n" % (len(text), text))
  with open("history.fi") as fi: git("history", "fast-import", "--quiet", stdin=fi)
  git("history", "reset", "-q", "--hard", "main")
os.makedirs("globs/" + "a" * 200); open("globs/k.cu", "w").write(KERNEL)
open("globs/" + "a" * 200 + "/" + "a" * 200 + ".cu", "w").write(KERNEL)
open("globs/.numlint.yml", "w").write('exclude: ["' + "*a" * 21 + '*b"]\n')
os.makedirs("globhuge"); open("globhuge/k.cu", "w").write(KERNEL)
open("globhuge/.numlint.yml", "w").write('exclude: ["' + "a" * 250000 + '"]\n')
PY
m() {
  local name=$1; shift
  local rc=0
  # wall seconds and the peak RSS of the child (python3 rather than /usr/bin/time, which minimal images lack)
  python3 - "$T" "$W/home/bin/numlint" "$@" > time.txt <<'PY' || rc=$?
import resource, subprocess, sys, time
t0 = time.time()
try:
    rc = subprocess.run(sys.argv[2:], stdout=open("out.txt", "w"), stderr=open("err.txt", "w"), timeout=float(sys.argv[1])).returncode
except subprocess.TimeoutExpired:
    rc = 124
print("%.2f %d" % (time.time() - t0, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(rc)
PY
  read -r s kb < <(tail -n1 time.txt)
  printf '%-10s exit %3s %8s s %6s MB  %s\n' "$name" "$rc" "$s" "$((kb / 1024))" \
      "$(grep -h -o 'not fully analyzed[^;]*\|not analyzed: [0-9]* tokens\|out of memory[^;]*\|nested deeper than [0-9]*\|too large: [^"]\{0,60\}\|is not a valid spec\|dirty state unknown\|git blame stopped[^<]\{0,40\}\|longer than the limit of [0-9]*\|internal error[^(]\{0,50\}' out.txt err.txt $(ls "$name".html 2>/dev/null) | head -n1)"
}
m cuda20k scan --ptx off cuda20k
m cuda100k scan --ptx off cuda100k
m ptx10MB scan ptx10MB
m braces scan braces
m malloc-4 validate --gpu off --ptx off --inputs 1 --format json malloc-4
m malloc1TB validate --gpu off --ptx off --inputs 1 --format json malloc1TB
m shared2GB validate --gpu off --ptx off --all-kernels --inputs 1 --format json shared2GB
m bad-spec validate --gpu off --ptx off --spec bad-spec.yml malloc-4
[ -d gitindex ] && m gitindex scan --ptx off --format html --output gitindex.html gitindex
[ -d history ] && m history scan --ptx off --format html --output history.html history
m glob scan --ptx off --format json globs
m glob250KB scan --ptx off --format json globhuge
