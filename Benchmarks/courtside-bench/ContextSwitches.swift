import Foundation

/// A process's context switches and CPU time, per thread role, as `/proc/PID/task/*` counts
/// them: each voluntary switch is a thread that blocked (a futex wait, a poll, a read), which
/// is what a hand-over of a move between threads costs; involuntary ones are the scheduler
/// taking a core back. Threads that end during a run take their counts with them.
struct ContextSwitches: Sendable {
    /// One role's counts: the threads of one name (Swift's cooperative pool, the log writer, ...).
    struct Role: Sendable {
        var voluntary = 0
        var involuntary = 0
        /// User and system CPU time, in clock ticks (`sysconf(_SC_CLK_TCK)`, usually 10 ms).
        var ticks = 0
    }

    var roles: [String: Role] = [:]

    var voluntary: Int { roles.values.reduce(0) { $0 + $1.voluntary } }
    var involuntary: Int { roles.values.reduce(0) { $0 + $1.involuntary } }

    /// The counts of process `pid` now; empty where /proc cannot be read.
    static func of(_ pid: Int32) -> ContextSwitches {
        var total = ContextSwitches()
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            let directory = "/proc/\(pid)/task/\(task)"
            guard let status = try? String(contentsOfFile: directory + "/status", encoding: .utf8),
                let stat = try? String(contentsOfFile: directory + "/stat", encoding: .utf8)
            else { continue }
            var role = Role()
            var name = "?"
            for line in status.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                switch parts[0] {
                case "Name": name = roleName(value)
                case "voluntary_ctxt_switches": role.voluntary = Int(value) ?? 0
                case "nonvoluntary_ctxt_switches": role.involuntary = Int(value) ?? 0
                default: break
                }
            }
            // After the name in parentheses (which may hold spaces): state is field 3, utime 14, stime 15.
            if let close = stat.lastIndex(of: ")") {
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                if fields.count > 12 { role.ticks = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) }
            }
            total.roles[name, default: Role()].add(role)
        }
        return total
    }

    /// The threads grouped by what they do: Swift's cooperative pool runs the game actors, the
    /// command service and the publisher under dispatch's truncated queue names.
    private static func roleName(_ name: String) -> String {
        if name.contains("qos") { return "pool" }
        if name.hasPrefix("ZMQbg") { return "libzmq" }
        if name.hasPrefix("courtside.") { return String(name.dropFirst("courtside.".count)) }
        return name
    }

    static func - (after: ContextSwitches, before: ContextSwitches) -> ContextSwitches {
        var difference = after
        for (name, role) in before.roles { difference.roles[name, default: Role()].subtract(role) }
        return difference
    }

    /// "1.84 voluntary + 0.12 involuntary" a move, over `moves`.
    func perMove(_ moves: Int) -> String {
        let count = Double(max(moves, 1))
        return String(format: "%.2f voluntary + %.2f involuntary", Double(voluntary) / count, Double(involuntary) / count)
    }

    /// Each role's CPU µs and voluntary switches a move, the busiest first: "pool 11.2 us
    /// 0.10 sw, log 4.8 us 0.05 sw, ...". Clock ticks of 10 ms: read it over thousands of moves.
    func byRole(_ moves: Int) -> String {
        let count = Double(max(moves, 1))
        let microsecondsPerTick = 1e6 / Double(sysconf(Int32(_SC_CLK_TCK)))
        return roles.filter { $0.value.ticks > 0 || $0.value.voluntary > 0 }
            .sorted { ($0.value.ticks, $0.key) > ($1.value.ticks, $1.key) }
            .map { name, role in
                "\(name) "
                    + String(
                        format: "%.1f us %.2f sw", Double(role.ticks) * microsecondsPerTick / count,
                        Double(role.voluntary) / count)
            }
            .joined(separator: ", ")
    }
}

extension ContextSwitches.Role {
    mutating func add(_ other: Self) {
        voluntary += other.voluntary
        involuntary += other.involuntary
        ticks += other.ticks
    }

    mutating func subtract(_ other: Self) {
        voluntary -= other.voluntary
        involuntary -= other.involuntary
        ticks -= other.ticks
    }
}
