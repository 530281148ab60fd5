#!/usr/bin/env bash
# Failover trials of the PostgreSQL event log, many of them: each starts a new primary and
# synchronous streaming standby on loopback, appends through PostgresEventLog from a few writers,
# kills the primary with -9 at a random moment, promotes the standby and looks up every
# acknowledged event there; then the same with asynchronous replication, the control that shows
# the check can see a loss. Prints each trial and the counts (trials, acknowledged, lost).
#
# Usage: scripts/replication-trials.sh [N [--writers W] [--kill-by SECONDS]]   (N trials of each kind, default 10)
# Needs Debian's postgresql (scripts/setup.sh); run as root or as a user that may run its programs.
# `swift test --filter ReplicationScenarioTests` runs a short one of each.
set -euo pipefail
cd "$(dirname "$0")/.."
trials="${1:-10}"
shift || true
# Quiet unless it fails (the package's own warnings are not this script's news).
build_log="$(mktemp)"
swift build --product courtside-bench >"$build_log" 2>&1 || { cat "$build_log"; rm -f "$build_log"; exit 1; }
rm -f "$build_log"
exec "$(swift build --show-bin-path)/courtside-bench" replication-trials "$trials" "$@"
