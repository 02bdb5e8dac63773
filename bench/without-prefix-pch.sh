#!/usr/bin/env bash
# This tree's launcher with the precompiled system prefix switched off (-Dnumlint.clang.prefixPch=false, session 47):
# the "old" side of bench/small-tree.sh's paired runs, for what the prefix saves and whether the reports stay equal:
#   NUMLINT_BENCH_OLD=bench/without-prefix-pch.sh bench/small-tree.sh 3 TREE...
set -euo pipefail
ROOT="$(cd -P "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS:+$JAVA_TOOL_OPTIONS }-Dnumlint.clang.prefixPch=false"
exec "$ROOT/numlint" "$@"
