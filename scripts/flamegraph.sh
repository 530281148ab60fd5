#!/usr/bin/env bash
# A flame graph of courtsided under the daemon bench's load (16 keepers x 32 moves in flight by
# default): runs `courtside-bench daemon` on a release build, records the daemon it starts with
# perf while its load runs (DWARF call stacks: Swift's libraries keep no frame pointers),
# and draws the samples with scripts/flamegraph.py, one tower per thread role (Swift's pool,
# the log writer, the checkpoint writer, the I/O thread, libzmq's own).
#
# Usage: scripts/flamegraph.sh [--output FILE.svg] [--keepers N] [--window N] [--moves N] [--no-build]
#   --output    the SVG to write (default docs/flamegraph-daemon.svg); the bench's own figures go
#               beside it as FILE.bench.txt
#   --moves     moves per keeper (default 4000)
#   --no-build  use the release binaries already built
# Installs Debian's linux-perf when perf is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

output=docs/flamegraph-daemon.svg
keepers=16
window=32
moves=4000
build=1
while [ $# -gt 0 ]; do
    case "$1" in
    --output) output="$2"; shift 2 ;;
    --keepers) keepers="$2"; shift 2 ;;
    --window) window="$2"; shift 2 ;;
    --moves) moves="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "flamegraph.sh: unknown argument $1 (see --help)" >&2; exit 64 ;;
    esac
done

command -v perf > /dev/null || { apt-get install -y --no-install-recommends linux-perf > /dev/null; }
# One product a build: given two --product flags, swift build builds the last alone.
if [ "$build" = 1 ]; then
    for product in courtsided courtside-bench; do swift build -c release --product "$product"; done
fi
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
mkdir -p "$(dirname "$output")"
trap 'kill "${bench:-0}" 2> /dev/null || true; rm -rf "$work"' EXIT

# Line-buffered, so that its lines reach the file as they are printed: they time the recording.
stdbuf -oL "$bin/courtside-bench" daemon --security plaintext --keepers "$keepers" --window "$window" --games 1000 \
    --moves "$moves" > "$work/bench.txt" 2>&1 &
bench=$!
daemon=""
for _ in $(seq 1 600); do
    daemon=$(pgrep -P "$bench" -x courtsided || true)
    [ -n "$daemon" ] && break
    sleep 0.1
done
[ -n "$daemon" ] || { cat "$work/bench.txt" >&2; echo "flamegraph.sh: the bench started no courtsided" >&2; exit 1; }
# The load runs after the bench's last "machine:" figure (its fdatasync) and ends when it
# prints "keepers=": perf records that span. System-wide, kept to the daemon's samples
# afterwards: a recording attached by `-p` misses the threads the daemon starts later (the pool's
# workers). -F 499: enough samples over a few seconds, and a perf.data of tens of MB.
until grep -q "^machine: append" "$work/bench.txt"; do
    kill -0 "$bench" 2> /dev/null || { cat "$work/bench.txt" >&2; exit 1; }
    sleep 0.05
done
perf record -q -a -F 499 -g --call-graph dwarf,16384 -o "$work/perf.data" 2> /dev/null &
perf=$!
until grep -q "^keepers=" "$work/bench.txt" || ! kill -0 "$bench" 2> /dev/null; do sleep 0.05; done
kill -TERM "$perf"  # SIGINT is ignored by a background job of a script
wait "$perf" || true
wait "$bench"
title="courtsided under courtside-bench daemon, $keepers keepers x $window in flight ($(git rev-parse --short HEAD))"
perf script -i "$work/perf.data" --pid "$daemon" 2> /dev/null |
    python3 scripts/flamegraph.py --title "$title" --folded "$work/folded.txt" > "$output"
cp "$work/bench.txt" "${output%.svg}.bench.txt"
grep -E "CPU per acknowledged move|by thread|context switches" "$work/bench.txt" || true
echo "flame graph: $output"
