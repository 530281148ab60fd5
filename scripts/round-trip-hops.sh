#!/usr/bin/env bash
# Times a lone scorekeeper's round trip inside courtsided, the way issue 10's goal 1 was worked
# on: runs `courtside-bench daemon --keepers 1`, records the scheduler for a second in the middle
# of it (`perf sched record`), and prints, from `perf sched timehist -w`, the median and 90th
# percentile of each trip inside the daemon:
#   inside: libzmq wakes the I/O thread (a request arrived) -> the I/O thread wakes libzmq (the reply leaves)
# and the hand-overs to the log writer's thread seen per trip (0 when the I/O thread commits a
# quiet command itself). When the writer commits, two segments of the trip as well:
#   request: libzmq wakes the I/O thread -> the log writer is woken (its commit starts)
#   reply:   the log writer wakes the I/O thread (an answer is posted) -> libzmq is woken
# The disk's part (the commit itself) lies inside and is the bench's fdatasync figure.
#
# Usage: scripts/round-trip-hops.sh [--courtsided PATH] [--moves N] [--no-build]
#   --courtsided  the daemon binary to time (default: the release build's); compare two builds
#                 in turn on this noisy machine, in one loop
#   --moves       moves the keeper makes (default 6000: the record falls in the middle)
#   --no-build    use the release binaries already built
# Installs Debian's linux-perf when perf is missing. Run from anywhere in the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

courtsided=""
moves=6000
build=1
while [ $# -gt 0 ]; do
    case "$1" in
    --courtsided) courtsided="$2"; shift 2 ;;
    --moves) moves="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
    esac
done

. scripts/perf-tools.sh
ensure_perf
if [ "$build" -eq 1 ]; then
    swift build -c release --product courtside-bench >&2
    swift build -c release --product courtsided >&2
fi
bin=$(swift build -c release --show-bin-path)
courtsided=${courtsided:-$bin/courtsided}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/courtside-bench" daemon --keepers 1 --moves "$moves" --security plaintext --courtsided "$courtsided" \
    >"$work/bench.txt" 2>&1 &
bench=$!
pid=""
for _ in $(seq 1 80); do
    pid=$(pgrep -n -f "^$courtsided --config" || true)
    [ -n "$pid" ] && break
    sleep 0.25
done
[ -n "$pid" ] || { echo "courtsided did not start" >&2; cat "$work/bench.txt" >&2; exit 1; }
sleep 2.5
perf sched record -o "$work/sched.data" -- sleep 1 >/dev/null 2>&1
wait "$bench"
grep -E "^machine|^round trip" "$work/bench.txt"
perf sched timehist -i "$work/sched.data" -w 2>/dev/null >"$work/timehist.txt"
python3 - "$work/timehist.txt" "$pid" <<'PY'
import re, statistics, sys
lines, pid = open(sys.argv[1]).read().splitlines(), sys.argv[2]
wake = re.compile(r'\s*([\d.]+)\s+\[\d+\]\s+(\S+)\[\d+/(\d+)\]\s+awakened: (\S+)\[\d+/(\d+)\]')
arrived = posted = inside_from = None
request, reply, inside = [], [], []
writer_wakes = 0
for line in lines:
    m = wake.match(line)
    if not m or m.group(3) != pid or m.group(5) != pid:
        continue
    t, waker, wakee = float(m.group(1)), m.group(2), m.group(4)
    if waker.startswith('ZMQbg/IO') and wakee == 'courtside.io':
        arrived = inside_from = t
    elif wakee == 'courtside.log':
        writer_wakes += 1
        if arrived is not None:
            request.append((t - arrived) * 1e6)
            arrived = None
    if waker == 'courtside.log' and wakee == 'courtside.io':
        posted = t
    elif waker == 'courtside.io' and wakee.startswith('ZMQbg/IO'):
        if posted is not None:
            reply.append((t - posted) * 1e6)
            posted = None
        if inside_from is not None:
            inside.append((t - inside_from) * 1e6)
            inside_from = None
def summary(name, values):
    if not values:
        return
    values.sort()
    print(f'{name} us: p50 {statistics.median(values):.0f}  p90 {values[int(len(values) * 0.9)]:.0f}  ({len(values)} trips)')
summary('inside: libzmq wakes the I/O thread -> the I/O thread wakes libzmq', inside)
if inside:
    print(f'log writer woken per trip: {writer_wakes / len(inside):.2f}')
summary('request: I/O thread woken -> log writer woken', request)
summary('reply: log writer posts -> libzmq woken', reply)
PY
