#!/usr/bin/env bash
# Builds and runs every test, in two steps: first the tests that run in this process (rules, view
# models, storage, routes, catalogs), then those that start real processes (courtsided,
# courtside-web, PostgreSQL, Chromium, HAProxy). A broken rule is reported in about a minute,
# before the long step starts, and each step prints its time. (Run side by side, the two steps
# took as long as one after the other: both are bound by the machine's cores.)
#
#   scripts/test.sh                 both steps
#   scripts/test.sh --unit          the in-process step only
#   scripts/test.sh --processes     the child-process step only
#   scripts/test.sh --filter NAME   any other arguments go to `swift test` as they are
set -euo pipefail
cd "$(dirname "$0")/.."

# The test targets whose suites start child processes: everything else runs in-process.
processes='^(CourtsideDaemonTests|CourtsidePostgresTests)\.'

step() {
  local name=$1
  shift
  local start=$SECONDS
  echo "== $name"
  if swift test --skip-build "$@"; then
    echo "== $name: passed in $((SECONDS - start)) s"
  else
    echo "== $name: FAILED after $((SECONDS - start)) s"
    return 1
  fi
}

case "${1:-}" in
  -h | --help)
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac

start=$SECONDS
echo "== building the tests"
swift build --build-tests
case "${1:-}" in
  "")
    step "in-process tests" --skip "$processes"
    step "child-process tests" --filter "$processes"
    ;;
  --unit) step "in-process tests" --skip "$processes" ;;
  --processes) step "child-process tests" --filter "$processes" ;;
  *) swift test --skip-build "$@" ;;
esac
echo "== all passed in $((SECONDS - start)) s"
