#!/usr/bin/env bash
# Runs the standby-daemon scenarios of StandbyDaemonTests many times, each at a random moment
# of a stream of moves, against throwaway PostgreSQL servers, and prints the counts: trials,
# acknowledged moves, lost, duplicated, terms out of order, and the takeover times (kill -9 of
# the active daemon to the first move acknowledged through the standby).
#
# Usage: scripts/failover-trials.sh [TRIALS]      (default 10 of each scenario)
# Needs Debian's postgresql (scripts/setup.sh); builds the tests first.
set -euo pipefail
trials="${1:-10}"
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null 2>&1 || { echo "failover-trials: the build failed (swift build --build-tests)" >&2; exit 1; }
output="$(mktemp)"
trap 'rm -f "$output"' EXIT
status=0
COURTSIDE_FAILOVER_TRIALS="$trials" swift test --skip-build --filter StandbyDaemonTests >"$output" 2>&1 || status=$?
grep '^failover-trial ' "$output" | awk '
    {
        for (i = 2; i <= NF; i++) { split($i, kv, "="); field[kv[1]] = kv[2] }
        s = field["scenario"]; trials[s]++
        acknowledged[s] += field["acknowledged"]; lost[s] += field["lost"]
        duplicated[s] += field["duplicated"]; order[s] += field["order_violations"]
        if (field["takeover_ms"] != "-") { times[s] = times[s] " " field["takeover_ms"] }
    }
    END {
        printf "%-14s %7s %12s %5s %11s %15s  %s\n", "scenario", "trials", "acknowledged", "lost", "duplicated", "terms_disorder", "takeover ms"
        for (s in trials)
            printf "%-14s %7d %12d %5d %11d %15d %s\n", s, trials[s], acknowledged[s], lost[s], duplicated[s], order[s], times[s]
    }'
if [ "$status" -ne 0 ]; then
    echo "failover-trials: some trials failed; their details:" >&2
    grep -E '✘|Expectation failed' "$output" | head -40 >&2
fi
exit "$status"
