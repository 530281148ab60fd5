#!/usr/bin/env bash
# Fuzzes the request decoder and the config loader with libFuzzer and AddressSanitizer (Linux).
#
#   scripts/fuzz.sh request|config|all [SECONDS] [libFuzzer flags...]
#
#   scripts/fuzz.sh request 600                 # Request.decode for ten minutes
#   scripts/fuzz.sh config 600                  # DaemonConfiguration.parse for ten minutes
#   scripts/fuzz.sh all 60                      # each for a minute, one after the other
#   scripts/fuzz.sh config 0 -runs=1000000      # any libFuzzer flag is passed on (0: no time limit)
#
# The targets live in their own package, Fuzz/, which the root's `swift build` and `swift test`
# never build (libFuzzer supplies `main`). The seed corpus is Fuzz/Corpus/TARGET (checked in, read
# only); what the fuzzer learns goes to .build-fuzz-runs/TARGET/corpus, and what it finds to
# .build-fuzz-runs/TARGET/artifacts (crash-*, timeout-*, oom-*, leak-*): both are git-ignored.
# A finding is a crash, a Swift runtime trap, an AddressSanitizer report, an input slower than
# FUZZ_TIMEOUT seconds (default 10) or one using more than FUZZ_RSS_MB (default 2048) MB; a
# thrown typed error is the right answer, not a finding. Keep every finding as a regression
# input in Fuzz/Regressions/TARGET/ (FuzzRegressionTests runs them in `swift test`).
#
# Runs one fuzzer at a time on one core (no -jobs/-fork). Exits 1 when something was found.
# Environment: FUZZ_SCRATCH (SwiftPM scratch path, default .build-fuzz), FUZZ_RUNS (corpus and
# artifacts, default .build-fuzz-runs), FUZZ_TIMEOUT, FUZZ_RSS_MB, FUZZ_SKIP_BUILD=1.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() {
    sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
[[ $# -ge 1 ]] || usage
which="$1"
seconds="${2:-600}"
shift $(($# >= 2 ? 2 : 1))
case "$which" in
request | config) targets=("$which") ;;
all) targets=(request config) ;;
*) usage ;;
esac
[[ "$seconds" =~ ^[0-9]+$ ]] || usage
[[ "$(uname -s)" == Linux ]] || { echo "fuzz.sh: libFuzzer via -sanitize=fuzzer needs Linux" >&2; exit 2; }

scratch="${FUZZ_SCRATCH:-$root/.build-fuzz}"
runs="${FUZZ_RUNS:-$root/.build-fuzz-runs}"

if [[ "${FUZZ_SKIP_BUILD:-0}" != 1 ]]; then
    echo "== building the fuzz targets (debug, -sanitize=fuzzer,address) in $scratch"
    # -Xcc instruments C dependencies (Yams' libyaml) too, so coverage guides the fuzzer through them.
    # The gold linker warns once per ASan helper symbol; those lines are noise.
    # SwiftPM keeps its build plan for the path dependency (the root package) even when files are
    # added to it, and then fails with "cannot find type"; planning again costs a few seconds.
    rm -f "$scratch/debug.yaml" "$scratch"/*/debug/description.json
    set +e
    swift build -c debug \
        -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address \
        --package-path "$root/Fuzz" --scratch-path "$scratch" 2>&1 |
        grep -v "Cannot export local symbol"
    built=${PIPESTATUS[0]}
    set -e
    [[ $built -eq 0 ]] || { echo "fuzz.sh: build failed" >&2; exit 2; }
fi
bin="$scratch/debug" # SwiftPM's link to <triple>/debug

status=0
for target in "${targets[@]}"; do
    case "$target" in
    request) executable=FuzzRequestDecoder max_len=16448 ;; # the 16 KiB limit, and a little over it
    config) executable=FuzzConfigLoader max_len=8192 ;;     # config files are a few KiB
    esac
    work="$runs/$target"
    mkdir -p "$work/corpus" "$work/artifacts"
    log="$work/fuzz.log"
    before="$(find "$work/artifacts" -type f | wc -l)"
    echo "== fuzzing $target ($executable) for ${seconds}s; log: $log"
    # The Swift runtime's own backtracer would race libFuzzer's and ASan's crash handlers.
    # Leak checks stay on: Request.decode and parse must not leak per input.
    set +e
    SWIFT_BACKTRACE=enable=no \
        ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0:allocator_may_return_null=1}" \
        "$bin/$executable" "$work/corpus" "$root/Fuzz/Corpus/$target" \
        -dict="$root/Fuzz/$target.dict" -max_len="$max_len" -max_total_time="$seconds" \
        -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
        -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$@" >"$log" 2>&1
    code=$?
    set -e
    # The last status line (#runs, cov: edges, ft: features, corp: units/size, exec/s, rss) and the totals.
    grep -E '^#[0-9]+' "$log" | tail -n 1 || true
    grep -E '^(stat::|Done [0-9]+ runs)' "$log" || true
    after="$(find "$work/artifacts" -type f | wc -l)"
    if [[ $code -ne 0 || $after -gt $before ]]; then
        status=1
        echo "!! $target: FINDING (exit $code). The report:"
        grep -E -A 30 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|Fatal error|runtime error|==ERROR' "$log" | head -n 60 || tail -n 40 "$log"
        echo "!! inputs kept in $work/artifacts:"
        ls -l "$work/artifacts"
        echo "!! reproduce: SWIFT_BACKTRACE=enable=no $bin/$executable $work/artifacts/<file>"
        echo "!! minimise:  SWIFT_BACKTRACE=enable=no $bin/$executable -minimize_crash=1 -runs=10000 $work/artifacts/<file>"
    else
        echo "== $target: no findings"
    fi
done
exit $status
