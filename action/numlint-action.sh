#!/usr/bin/env bash
# The shell part of the numlint GitHub Action (action.yml at the repository root). It also runs on its own, e.g. in
# GitLab CI or locally:  NUMLINT_ARGS="src" path/to/numlint/action/numlint-action.sh
#
# 1. gets numlint: unpacks NUMLINT_ZIP (a numlint-<version>.zip path or https URL) or, without it, builds the
#    release zip from NUMLINT_SOURCE (the numlint checkout this script belongs to: the action's ref) with Maven;
# 2. runs `numlint scan --format sarif` in the current directory with the given arguments;
# 3. writes the outputs sarif-file and exit-code to $GITHUB_OUTPUT when that is set.
#
# Environment (all optional):
#   NUMLINT_ARGS              what to scan and how, after `numlint scan` (default "."); split at whitespace, no
#                             quoting and no glob expansion, e.g. "src --exclude third_party/** --nvcc-flags=-O3"
#   NUMLINT_SARIF             SARIF file to write (default numlint.sarif)
#   NUMLINT_FAIL_ON           error, warning, note or none (default error)
#   NUMLINT_BASELINE          SARIF of an earlier run: only new results count for NUMLINT_FAIL_ON
#   NUMLINT_SARIF_SUPPRESSED  omit (default: GitHub code scanning shows suppressed results as open alerts) or keep
#   NUMLINT_SARIF_MIN_LEVEL   lowest level uploaded to code scanning: note, warning (default) or error; the HTML
#                             report keeps every finding
#   NUMLINT_CATEGORY          SARIF automationDetails category (default numlint)
#   NUMLINT_HTML              also write the HTML audit report to this file
#   NUMLINT_COMPILE_COMMANDS  directory of the build's compile_commands.json (passed as -p); numlint never runs the
#                             build: configure the project in an earlier step
#   NUMLINT_ANNOTATIONS       github (default under GitHub Actions): the findings the SARIF holds are also printed in
#                             the job log as workflow annotations; none: not
#   NUMLINT_ZIP, NUMLINT_SOURCE, NUMLINT_HOME (where numlint is unpacked; default $RUNNER_TEMP or a temporary dir)
#   NUMLINT_DEFER_FAILURE     true (default): exit 0 when the scan only found hazards (exit-code output 1), so the
#                             SARIF is uploaded before the action fails; false: exit with numlint's own code
# Exit codes: numlint's (0 clean, 1 findings at or above NUMLINT_FAIL_ON unless deferred, 2 usage, 3 internal).
set -euo pipefail

log() { echo "numlint-action: $*" >&2; }

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
source_dir="${NUMLINT_SOURCE:-$(dirname "$here")}"
sarif="${NUMLINT_SARIF:-numlint.sarif}"
fail_on="${NUMLINT_FAIL_ON:-error}"
suppressed="${NUMLINT_SARIF_SUPPRESSED:-omit}"
min_level="${NUMLINT_SARIF_MIN_LEVEL:-warning}"
category="${NUMLINT_CATEGORY:-numlint}"
base="${NUMLINT_HOME:-${RUNNER_TEMP:-}}"
if [ -z "$base" ]; then
  base="$(mktemp -d)"
fi
mkdir -p "$base"

# --- 1. numlint itself --------------------------------------------------------------------------------------------
zip="${NUMLINT_ZIP:-}"
case "$zip" in
  https://*)
    log "downloading $zip"
    dl="$base/numlint-download.zip"
    if command -v curl >/dev/null 2>&1; then
      curl -fsSL --retry 3 -o "$dl" "$zip"
    elif command -v wget >/dev/null 2>&1; then
      wget -q -O "$dl" "$zip"
    else
      log "error: neither curl nor wget to download $zip"; exit 2
    fi
    zip="$dl" ;;
  http://*)
    log "error: refusing to download numlint over plain http: $zip"; exit 2 ;;
  "")
    if ! command -v mvn >/dev/null 2>&1; then
      log "error: no NUMLINT_ZIP given and no Maven to build numlint from $source_dir"; exit 2
    fi
    log "building numlint from $source_dir (mvn package)"
    (cd "$source_dir" && mvn -B -q -Dstyle.color=never -DskipTests package -pl analyzer -am) >&2
    zip="$(ls "$source_dir"/analyzer/target/numlint-*.zip | head -n 1)" ;;
esac
if [ ! -f "$zip" ]; then
  log "error: release zip '$zip' not found"; exit 2
fi

unpack="$base/numlint-release"
rm -rf "$unpack"
mkdir -p "$unpack"
if command -v unzip >/dev/null 2>&1; then
  unzip -q "$zip" -d "$unpack"
else
  (cd "$unpack" && jar xf "$zip")
fi
launcher="$(ls -d "$unpack"/numlint-*/bin/numlint | head -n 1)"
chmod +x "$launcher"
log "$("$launcher" --version)"

# --- 2. the scan ---------------------------------------------------------------------------------------------------
set -f
# shellcheck disable=SC2206 # split at whitespace on purpose (documented), globbing is off
user_args=(${NUMLINT_ARGS:-.})
set +f
args=(scan --format sarif --output "$sarif" --fail-on "$fail_on" --sarif-suppressed "$suppressed"
      --sarif-min-level "$min_level" --sarif-category "$category")
if [ -n "${NUMLINT_BASELINE:-}" ]; then
  args+=(--baseline "$NUMLINT_BASELINE")
fi
build_args=()
if [ -n "${NUMLINT_COMPILE_COMMANDS:-}" ]; then
  build_args=(-p "$NUMLINT_COMPILE_COMMANDS")
fi
args+=("${build_args[@]}")
annotations="${NUMLINT_ANNOTATIONS:-$([ -n "${GITHUB_ACTIONS:-}" ] && echo github || echo none)}"
args+=(--annotations "$annotations")
code=0
"$launcher" "${args[@]}" "${user_args[@]}" || code=$?
if [ -n "${NUMLINT_HTML:-}" ] && [ "$code" -le 1 ]; then
  html_args=(scan --format html --output "$NUMLINT_HTML" --fail-on none "${build_args[@]}")
  if [ -n "${NUMLINT_BASELINE:-}" ]; then
    html_args+=(--baseline "$NUMLINT_BASELINE")
  fi
  "$launcher" "${html_args[@]}" "${user_args[@]}" 2>/dev/null || log "warning: the HTML report could not be written"
fi

# --- 3. outputs ----------------------------------------------------------------------------------------------------
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  if [ -f "$sarif" ]; then
    echo "sarif-file=$sarif" >> "$GITHUB_OUTPUT"
  fi
  echo "exit-code=$code" >> "$GITHUB_OUTPUT"
fi
case "$code" in
  0) log "no finding at or above --fail-on $fail_on" ;;
  1) log "findings at or above --fail-on $fail_on (see $sarif)"
     if [ "${NUMLINT_DEFER_FAILURE:-true}" = "true" ]; then exit 0; fi ;;
esac
exit "$code"
