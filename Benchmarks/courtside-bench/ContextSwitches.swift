import Foundation

/// A process's context switches, summed over its threads as `/proc/PID/task/*/status` counts
/// them: each voluntary one is a thread that blocked (a futex wait, a poll, a read), which is
/// what a hand-over of a move between threads costs; involuntary ones are the scheduler taking
/// a core back. Threads that end during a run take their counts with them.
struct ContextSwitches: Sendable {
    var voluntary = 0
    var involuntary = 0

    /// The counts of process `pid` now; zero where /proc cannot be read.
    static func of(_ pid: Int32) -> ContextSwitches {
        var total = ContextSwitches()
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else {
                continue
            }
            for line in status.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, let count = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
                if parts[0] == "voluntary_ctxt_switches" { total.voluntary += count }
                if parts[0] == "nonvoluntary_ctxt_switches" { total.involuntary += count }
            }
        }
        return total
    }

    static func - (after: ContextSwitches, before: ContextSwitches) -> ContextSwitches {
        ContextSwitches(voluntary: after.voluntary - before.voluntary, involuntary: after.involuntary - before.involuntary)
    }

    /// "1.84 voluntary + 0.12 involuntary" a move, over `moves`.
    func perMove(_ moves: Int) -> String {
        let count = Double(max(moves, 1))
        return String(format: "%.2f voluntary + %.2f involuntary", Double(voluntary) / count, Double(involuntary) / count)
    }
}
