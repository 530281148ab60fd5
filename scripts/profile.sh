#!/usr/bin/env bash
# Profiles a release courtsided under load, the way issue 10 measured it: starts the daemon on the
# sample tournament (free loopback ports, a temporary data directory), drives it with
# `courtside simulate --games 100 --keepers 16 --rate 0`, records it with perf on the software
# clock (`perf record -g -e cpu-clock -p PID`) and prints the top of the report, demangled.
#
# Usage: scripts/profile.sh [--seconds N] [--games N] [--keepers N] [--dwarf] [--output DIR] [--no-build] [--bin DIR]
#                          [--smoke]
#   --seconds  how long perf records (default 15); the load runs 4 s longer (warm-up + tail)
#   --games    games played at once by the simulator (default 100)
#   --keepers  concurrent keepers (default 16)
#   --dwarf    also record call stacks with DWARF unwinding (Swift's libraries keep no frame
#              pointers, so -g alone shows leaves only) and print the inclusive (--children) top,
#              which names the callers (EventPublisher.publish, JSONEncoder.encode, ...)
#   --bin      the built binaries' directory (default: swift build --show-bin-path's), which
#              --no-build and --smoke use
#   --output   keep perf.data, the full report, the simulator's summary and the daemon's log there
#   --no-build use the release binaries already built
#   --smoke    1 s of 4 games and 2 keepers on the debug binaries already built: checks that the
#              script runs (scripts/goals.sh --smoke), its figures mean nothing
# Installs Debian's linux-perf when perf is missing. Run from anywhere in the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=15
games=100
keepers=16
output=""
build=1
dwarf=0
smoke=0
bin=""
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --games) games="$2"; shift 2 ;;
    --keepers) keepers="$2"; shift 2 ;;
    --output) output="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    --dwarf) dwarf=1; shift ;;
    --smoke) smoke=1; shift ;;
    --bin) bin="$2"; shift 2 ;;
    -h | --help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
    esac
done

. scripts/perf-tools.sh
ensure_perf

configuration=release
warm_up=2 # seconds: games created, keepers connected
tail=2    # seconds the load outlasts the recording
report=()  # options of every perf report
if [ "$smoke" = 1 ]; then
    configuration=debug
    build=0
    seconds=1
    games=4
    keepers=2
    warm_up=1
    tail=1
    # Inlined frames come from addr2line, which takes seconds over a debug build's DWARF.
    report=(--no-inline)
fi
if [ "$build" = 1 ]; then
    swift build -c release --product courtsided >&2
    swift build -c release --product courtside >&2
fi
[ -n "$bin" ] || bin="$(swift build -c "$configuration" --show-bin-path)"

work="$(mktemp -d /tmp/courtside-profile.XXXXXX)"
[ -n "$output" ] && mkdir -p "$output" && work_keep="$output" || work_keep=""
daemon_pid=""
sim_pid=""
cleanup() {
    [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null || true
    if [ -n "$daemon_pid" ]; then
        kill -TERM "$daemon_pid" 2>/dev/null || true
        wait "$daemon_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# Two free loopback ports: bound to port 0 by the kernel, then released.
read -r command_port event_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
command="tcp://127.0.0.1:$command_port"
events="tcp://127.0.0.1:$event_port"

"$bin/courtsided" --config config/tournament.yaml --data-dir "$work/data" \
    --command-endpoint "$command" --event-endpoint "$events" --log-level warning >"$work/daemon.log" 2>&1 &
daemon_pid=$!
client=(--command-endpoint "$command" --event-endpoint "$events")
for _ in $(seq 100); do
    "$bin/courtside" games "${client[@]}" --timeout-ms 200 --tries 1 >/dev/null 2>&1 && break
    kill -0 "$daemon_pid" 2>/dev/null || { cat "$work/daemon.log" >&2; exit 1; }
    sleep 0.1
done

duration=$((seconds + warm_up + tail))
echo "courtsided pid $daemon_pid; load: courtside simulate --games $games --keepers $keepers --rate 0 --duration $duration"
"$bin/courtside" simulate "${client[@]}" --games "$games" --keepers "$keepers" --rate 0 \
    --duration "$duration" >"$work/simulate.txt" 2>&1 &
sim_pid=$!
sleep "$warm_up"
if [ "$dwarf" = 1 ]; then
    # Both at once over the same seconds: frame-pointer stacks for the flat top, DWARF for callers.
    perf record -e cpu-clock --call-graph dwarf,16384 -F 250 -p "$daemon_pid" -o "$work/perf-dwarf.data" \
        -- sleep "$seconds" 2>"$work/perf-record-dwarf.log" &
    dwarf_pid=$!
fi
perf record -g -e cpu-clock -p "$daemon_pid" -o "$work/perf.data" -- sleep "$seconds" 2>"$work/perf-record.log"
[ "$dwarf" = 1 ] && wait "$dwarf_pid"
wait "$sim_pid" || true
sim_pid=""
echo "--- simulate"
cat "$work/simulate.txt"
echo "--- perf report --no-children --percent-limit 1 (courtsided, ${seconds} s, cpu-clock)"
perf report "${report[@]}" -i "$work/perf.data" --no-children --percent-limit 1 --stdio 2>/dev/null >"$work/report.txt" || true
demangle() { if command -v swift-demangle >/dev/null; then swift-demangle --simplified; else swift demangle --simplified; fi; }
demangle <"$work/report.txt" >"$work/report-demangled.txt"
head -80 "$work/report-demangled.txt"
echo "--- by shared object (self time)"
perf report "${report[@]}" -i "$work/perf.data" --no-children --sort dso --percent-limit 1 --stdio -g none 2>/dev/null |
    grep -v '^#' | grep -v '^$' | head -20 || true
if [ "$dwarf" = 1 ]; then
    echo "--- inclusive (--children, DWARF call stacks, 250 Hz): functions of courtsided's own code and Foundation's JSON"
    perf report "${report[@]}" -i "$work/perf-dwarf.data" --children --sort symbol --percent-limit 2 --stdio -g none 2>/dev/null |
        demangle >"$work/report-children.txt" || true
    grep -v '^#' "$work/report-children.txt" | grep -v '^$' | head -60 || true
    echo "--- inclusive, the daemon's own stages and the JSON coders only"
    grep -E 'EventPublisher\.|CommandService\.|GameActor\.|GameLibrary\.|GroupCommitter\.|SQLiteEventLog\.|ZMQTransport|WireCoding\.|JSONEncoder\.encode<|JSONDecoder\.decode<|Heartbeat|Snapshot|ZMQSocket\.' \
        "$work/report-children.txt" | head -40 || true
fi
if [ -n "$work_keep" ]; then
    cp "$work/perf.data" "$work/report-demangled.txt" "$work/simulate.txt" "$work/daemon.log" "$work_keep/"
    [ "$dwarf" = 1 ] && cp "$work/perf-dwarf.data" "$work/report-children.txt" "$work_keep/"
    echo "--- kept perf.data, report-demangled.txt, simulate.txt and daemon.log in $work_keep"
fi
