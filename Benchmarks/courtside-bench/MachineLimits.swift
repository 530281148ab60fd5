import CourtsideModel
import CourtsideSimulator
import Foundation
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// What this machine can do at best, measured in the same run as a benchmark so that its figures
/// can be read as ratios (the machine is shared and noisy; ratios of one run compare well).
struct MachineLimits {
    /// Raw libzmq REQ/REP round trips over TCP loopback, in microseconds, sorted.
    var zmqRoundTrip: [Double]
    /// One small append plus `fdatasync` on the data directory's file system, in microseconds, sorted.
    var fdatasync: [Double]
    /// Where the fdatasync probe ran.
    var directory: String

    var zmqP50: Double { percentile(zmqRoundTrip, 0.5) }
    var zmqP99: Double { percentile(zmqRoundTrip, 0.99) }
    var syncP50: Double { percentile(fdatasync, 0.5) }
    var syncP99: Double { percentile(fdatasync, 0.99) }

    /// Measures both limits: `roundTrips` REQ/REP round trips and `syncs` appends with fdatasync
    /// in `directory` (a probe file that is removed afterwards).
    static func measure(directory: URL, roundTrips: Int = 2_000, syncs: Int = 300) throws -> MachineLimits {
        MachineLimits(
            zmqRoundTrip: try rawRoundTrips(roundTrips), fdatasync: try fdatasyncs(syncs, in: directory),
            directory: directory.path)
    }

    /// Prints the limits, one line each.
    func report() {
        print(
            "machine: raw libzmq REQ/REP round trip us (tcp loopback, \(Self.requestSize)-byte request, \(Self.replySize)-byte reply, \(zmqRoundTrip.count) trips): p50 \(format(zmqP50))  p99 \(format(zmqP99))"
        )
        print(
            "machine: append \(Self.recordSize) bytes + fdatasync us (\(directory), \(fdatasync.count) times): p50 \(format(syncP50))  p99 \(format(syncP99))"
        )
    }

    /// An append + fdatasync here: the least a commit of the SQLite log can cost.
    var fdatasyncCommit: CommitLimit { CommitLimit(name: "fdatasync", p50: syncP50, p99: syncP99) }

    /// The round trip's ratio to one raw libzmq round trip plus one commit of the log under test
    /// (an fdatasync unless another is given): the least a durable acknowledged command can cost
    /// (goal 1 of issue 10, and of issue 32 on PostgreSQL: p50 at most 2).
    func roundTripRatios(p50: Double, p99: Double, commit: CommitLimit? = nil) -> String {
        let commit = commit ?? fdatasyncCommit
        return "round trip ratio to (raw zmq + \(commit.name)): "
            + String(
                format: "p50 %.2f  p99 %.2f (p50 / (%.0f + %.0f) us, p99 / (%.0f + %.0f) us)", p50 / (zmqP50 + commit.p50),
                p99 / (zmqP99 + commit.p99), zmqP50, commit.p50, zmqP99, commit.p99)
    }

    /// Moves acknowledged per fdatasync time: how many moves one commit (one fsync) must carry on
    /// average to reach `movesPerSecond` with commits back to back.
    func movesPerSync(_ movesPerSecond: Double) -> Double { movesPerSecond / (1e6 / syncP50) }

    static let requestSize = 200
    static let replySize = 120
    static let recordSize = 100

    static func rawRoundTrips(_ count: Int) throws -> [Double] {
        try roundTrips(warmUp: min(200, count)) { $0 < count }
    }

    /// Round trips as ``rawRoundTrips(_:)``'s, the replier making an append + fdatasync in
    /// `directory` before each reply: the least a durable acknowledged command can take, the
    /// daemon aside. After 10 unmeasured ones (the connection, the probe's first appends), they
    /// go on while `more` says so, given the trips measured.
    static func durableRoundTrips(in directory: URL, while more: (Int) -> Bool) throws -> [Double] {
        try roundTrips(warmUp: 10, syncingIn: directory, while: more)
    }

    private static func roundTrips(warmUp: Int, syncingIn directory: URL? = nil, while more: (Int) -> Bool) throws
        -> [Double]
    {
        let context = try ZMQContext()
        defer { context.terminate() }
        let rep = try context.socket(.rep)
        try rep.set(.linger(milliseconds: 0))
        try rep.set(.receiveTimeout(milliseconds: 5_000))
        try rep.bind("tcp://127.0.0.1:*")
        let endpoint = rep.lastEndpoint
        let probe = try directory.map { try SyncProbe(in: $0) }
        let replySize = Self.replySize
        let server = SocketThread(rep) { rep throws -> Void in
            defer { rep.close() }
            let reply = [UInt8](repeating: UInt8(ascii: "r"), count: replySize)
            // An empty request is the last.
            while try rep.receive().first?.isEmpty == false {
                if let probe { _ = try probe.sync() }
                try rep.send([reply])
            }
            try rep.send([[]])
        }
        let req = try context.socket(.req)
        defer { req.close() }
        try req.set(.linger(milliseconds: 0))
        try req.set(.receiveTimeout(milliseconds: 5_000))
        try req.connect(endpoint)
        let request = [UInt8](repeating: UInt8(ascii: "q"), count: requestSize)
        var latencies: [Double] = []
        for _ in 0..<warmUp {
            try req.send([request])
            _ = try req.receive()
        }
        while more(latencies.count) {
            let sent = ContinuousClock.now
            try req.send([request])
            _ = try req.receive()
            latencies.append((ContinuousClock.now - sent).inSeconds * 1e6)
        }
        try req.send([[]])
        _ = try req.receive()
        try server.wait().get()
        return latencies.sorted()
    }

    static func fdatasyncs(_ count: Int, in directory: URL) throws -> [Double] {
        let probe = try SyncProbe(in: directory)
        for _ in 0..<10 { _ = try probe.sync() }
        return try (0..<count).map { _ in try probe.sync() }.sorted()
    }
}

/// The least one durable commit of a log costs on this machine, measured in the same run, in
/// microseconds: an append + fdatasync for SQLite, PostgreSQL's own one-row commit for it.
struct CommitLimit {
    var name: String
    var p50: Double
    var p99: Double
}

/// A file in the directory under test that takes `recordSize`-byte appends, each followed by
/// fdatasync: the least a durable commit can cost there. Removed when released.
final class SyncProbe {
    private let file: SyncedFile
    private let record = [UInt8](repeating: UInt8(ascii: "x"), count: MachineLimits.recordSize - 1) + [UInt8(ascii: "\n")]

    init(in directory: URL) throws {
        file = try SyncedFile(in: directory, name: ".courtside-bench-fdatasync-probe")
    }

    /// One append + fdatasync, in microseconds.
    func sync() throws -> Double {
        let start = ContinuousClock.now
        try record.withUnsafeBytes { try file.append($0) }
        return (ContinuousClock.now - start).inSeconds * 1e6
    }
}

/// A new file that takes appends, each made durable with fdatasync before it returns: what
/// ``SyncProbe`` times and what ``FlatFileLog`` writes its batches to. Removed when released.
final class SyncedFile: Sendable {
    private let fd: Int32
    let path: String

    init(in directory: URL, name: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent(name).path
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0o600)
        guard fd >= 0 else { throw BenchError("open \(path): \(String(cString: strerror(errno)))") }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Appends all of `bytes`, then fdatasync.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        var rest = bytes
        while !rest.isEmpty {
            let written = write(fd, rest.baseAddress, rest.count)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw BenchError("append to \(path): \(String(cString: strerror(errno)))") }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
        }
        guard Glibc.fdatasync(fd) == 0 else { throw BenchError("fdatasync \(path): \(String(cString: strerror(errno)))") }
    }
}

/// A benchmark's own failure, with a message for the terminal.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A thread that owns one ZeroMQ socket (handed over once: sockets may move between threads
/// across a full memory barrier, which starting a thread is).
final class SocketThread<Value: Sendable>: @unchecked Sendable {
    private let thread: BlockingThread<Value, any Error>

    init(_ socket: ZMQSocket, _ body: @escaping (ZMQSocket) throws -> Value) {
        let socket = UncheckedBox(socket)
        let body = UncheckedBox(body)
        thread = BlockingThread { () throws -> Value in try body.value(socket.value) }
    }

    func wait() -> Result<Value, any Error> { thread.wait() }
}

/// Moves a value that is not Sendable to the one thread that uses it from then on.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
