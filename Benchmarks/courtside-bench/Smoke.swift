import ArgumentParser
import Foundation

/// `--smoke`, which every benchmark takes: its sizes shrunk to a run of seconds, so that
/// `swift test` (BenchSmokeTests) and `scripts/goals.sh --smoke` can run each one in a debug
/// build and fail when it breaks. What names a run's rows (keepers, windows, subscriber counts,
/// storages, security, logs) stays as given, so that goals.sh finds them; moves, games, events,
/// displays, trials, samples and rounds shrink. The figures of such a run mean nothing.
struct SmokeOption: ParsableArguments {
    @Flag(
        help:
            "Tiny sizes, a run of seconds in a debug build: checks that the benchmark runs to its end (swift test does); its figures mean nothing."
    )
    var smoke = false

    /// This machine's limits, from a few samples under `--smoke`.
    func machineLimits(directory: URL) throws -> MachineLimits {
        smoke
            ? try MachineLimits.measure(directory: directory, roundTrips: 50, syncs: 10)
            : try MachineLimits.measure(directory: directory)
    }
}
