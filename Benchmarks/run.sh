#!/usr/bin/env bash
# make bench: builds the release binaries, runs every area's benchmark script in one run and
# writes Benchmarks/RESULTS.md. Each script prints one Markdown section; a failing script
# leaves a note in its section instead of stopping the rest.
set -uo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product tapedeck >/dev/null || exit 1
swift build -c release --static-swift-stdlib --product TapedeckBench >/dev/null || exit 1
export TAPEDECK_RELEASE_BIN="$PWD/.build/release/tapedeck"
export TAPEDECK_BENCH_BIN="$PWD/.build/release/TapedeckBench"
export TAPEDECK_VENV="$PWD/.venv"
out="Benchmarks/RESULTS.md"
tmp="$(mktemp)"
{
  echo "# Benchmark results"
  echo
  echo "Measured by \`make bench\` on $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -m), $(swift --version 2>&1 | head -1)."
  echo "Every ratio compares tools measured in this same run on loopback servers."
  echo
} >"$tmp"
for area in cli shell cassette lookup record interop limits truth server scale replay_peers tls streams openapi jobs pages; do
  script="Benchmarks/$area.sh"
  [ -f "$script" ] || continue
  echo "bench: $area" >&2
  if ! section="$(bash "$script")"; then
    section="## $area"$'\n\n'"The $area benchmark script failed in this run; see its stderr."
  fi
  printf '%s\n\n' "$section" >>"$tmp"
done
mv "$tmp" "$out"
echo "wrote $out" >&2
