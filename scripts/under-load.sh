#!/usr/bin/env bash
# Runs a command beside N CPU-burning processes (default 1), as on CI's busy 2-core machine or a
# newcomer's laptop: `scripts/under-load.sh 1 npm test`. With FRESH_FONTS=1 the command sees only
# the 22 DejaVu faces of a fresh Debian machine (tests/support/fresh-fonts.conf). Stops only the
# burners it started, by their ids. docs/testing.md, "A newcomer's machine".
set -u
n="${1:-1}"
shift || true
[ $# -gt 0 ] || { echo "usage: scripts/under-load.sh N command [args...]" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
pids=()
for _ in $(seq 1 "$n"); do ( while :; do :; done ) & pids+=($!); done
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done' EXIT
if [ "${FRESH_FONTS:-0}" = 1 ]; then export FONTCONFIG_FILE="$root/tests/support/fresh-fonts.conf"; fi
echo "under-load: $n CPU burner(s) beside: $*${FONTCONFIG_FILE:+ (fonts: $(fc-list 2>/dev/null | wc -l) faces)}" >&2
"$@"
