import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A program the tests start: posix_spawn to start it, waitpid alone to learn that it ended.
///
/// Foundation's `Process` on Linux learns of an exit when a socket that the child inherits
/// closes. A child that forks a daemon (`tmux new-session` starting the tmux server) hands that
/// socket on, and `waitUntilExit` never returns: it hung a CI run. Here a child inherits only its
/// standard streams, and every wait has a deadline.
final class ChildProcess: Sendable {
    /// Where a child's standard output or error goes.
    enum Sink {
        case null
        /// Into a pipe that `readOutput` drains; output and error may share it.
        case capture
        /// Appended to a file.
        case file(String)
    }

    let processIdentifier: pid_t
    private let exit: Reaper
    private let outputFD: Int32?
    /// What ``readLine(seconds:)`` read past its line, for the next read.
    private let pending = Mutex<[UInt8]>([])
    private let inputFD: Mutex<Int32?>

    /// Starts `executable`. `pipeInput` gives the child a stdin that `write(_:)` feeds.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, pipeInput: Bool = false,
        output: Sink = .null, error: Sink = .null
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var opened: [Int32] = []
        defer { for fd in opened { close(fd) } }

        func openPipe() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw DaemonError("pipe: \(String(cString: strerror(errno)))") }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return (fds[0], fds[1])
        }
        var input: Int32?
        if pipeInput {
            let pipe = try openPipe()
            opened.append(pipe.read)
            input = pipe.write
            posix_spawn_file_actions_adddup2(&actions, pipe.read, STDIN_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
        var captured: (read: Int32, write: Int32)?
        for (sink, target) in [(output, STDOUT_FILENO), (error, STDERR_FILENO)] {
            switch sink {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            case .capture:
                let pipe = try captured ?? openPipe()
                if captured == nil { opened.append(pipe.write) }
                captured = pipe
                posix_spawn_file_actions_adddup2(&actions, pipe.write, target)
            }
        }
        Self.closeTheRest(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so that a timeout can stop whatever it started too.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            if let input { close(input) }
            if let captured { close(captured.read) }
            throw DaemonError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        processIdentifier = pid
        outputFD = captured?.read
        inputFD = Mutex(input)
        exit = Reaper(pid)
    }

    /// Close every descriptor above stderr in the child. glibc has the action, but Swift's Glibc
    /// module does not export it.
    private static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, STDERR_FILENO + 1)
    }

    /// Whether it still runs.
    var isRunning: Bool { status == nil }

    /// Its exit status, or 128 + the signal that ended it; nil while it runs.
    var status: Int32? { exit.status }

    /// Waits for it to end; its status, or nil when `seconds` pass first. Blocks the calling
    /// thread: an async test awaits ``exited(within:)`` instead.
    @discardableResult
    func wait(seconds: Double) -> Int32? { exit.wait(until: Date().addingTimeInterval(seconds)) }

    /// Its status once it ends, or nil when `seconds` pass first, awaited without holding a
    /// thread of the cooperative pool: the reaper's signal resumes it.
    @discardableResult
    func exited(within seconds: Double) async -> Int32? {
        await Self.offPool { [exit] in exit.wait(until: Date().addingTimeInterval(seconds)) }
    }

    func signal(_ number: Int32) { kill(processIdentifier, number) }

    /// Feeds its standard input.
    func write(_ text: String) {
        inputFD.withLock { fd in
            guard let fd else { return }
            _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        }
    }

    /// Everything captured until the child closes its output, or until `seconds` pass. Blocks
    /// the calling thread: an async test awaits ``output(within:)`` instead.
    func readOutput(seconds: Double = 30) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var bytes = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        while let more = readSome(until: deadline) { bytes += more }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The next line it writes (without its newline), or nil when its output closes or `seconds`
    /// pass first; what follows the line stays for the next read. Blocks the calling thread.
    func readLine(seconds: Double = 30) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        var bytes = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        while true {
            if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                let rest = Array(bytes[(newline + 1)...])
                pending.withLock { $0 = rest + $0 }
                return String(decoding: bytes[..<newline], as: UTF8.self)
            }
            guard let more = readSome(until: deadline) else {
                pending.withLock { $0 = bytes + $0 }
                return nil
            }
            bytes += more
        }
    }

    /// Everything captured until the child closes its output or `seconds` pass, awaited on a
    /// thread of its own, not the cooperative pool's.
    func output(within seconds: Double = 30) async -> String {
        await Self.offPool { [self] in readOutput(seconds: seconds) }
    }

    /// The next line it writes, or nil when its output closes or `seconds` pass first, awaited on
    /// a thread of its own: a test waits for a reader's first line instead of sleeping.
    func line(within seconds: Double = 30) async -> String? {
        await Self.offPool { [self] in readLine(seconds: seconds) }
    }

    /// Bytes from the captured output, waiting until `deadline`; nil once it closes or the
    /// deadline passes.
    private func readSome(until deadline: Date) -> [UInt8]? {
        guard let fd = outputFD else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            guard remaining > 0 else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, remaining)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            return count > 0 ? Array(buffer.prefix(count)) : nil
        }
    }

    /// Runs a blocking `work` on a thread of its own and resumes the awaiting task with its
    /// result: the pool has two threads here, and a test that blocked one of them for minutes
    /// held up every other test.
    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }

    /// Runs a command to its end: its status and what it wrote to stdout (and to stderr when
    /// `mergeError`). A command still running after `seconds` is killed and reported as 124.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, mergeError: Bool = false,
        seconds: Double = 60
    ) throws -> (status: Int32, output: String) {
        let child = try ChildProcess(
            executable, arguments, environment: environment, output: .capture,
            error: mergeError ? .capture : .null)
        let output = child.readOutput(seconds: seconds)
        guard let status = child.wait(seconds: 5) else {
            kill(-child.processIdentifier, SIGKILL)
            child.wait(seconds: 5)
            return (124, output)
        }
        return (status, output)
    }

    /// ``run(_:_:environment:mergeError:seconds:)`` awaited on a thread of its own: a test that
    /// runs a long command (a benchmark, a script) leaves the pool's two threads to the others.
    static func outcome(
        of executable: String, _ arguments: [String], environment: [String: String]? = nil, mergeError: Bool = false,
        seconds: Double = 60
    ) async throws -> (status: Int32, output: String) {
        let result = await offPool {
            Result { try run(executable, arguments, environment: environment, mergeError: mergeError, seconds: seconds) }
        }
        return try result.get()
    }

    deinit {
        if isRunning {
            kill(-processIdentifier, SIGKILL)
            wait(seconds: 5)
        }
        if let outputFD { close(outputFD) }
        inputFD.withLock { fd in if let fd { close(fd) } }
    }
}

/// Learns that a child ended: a thread of its own blocks in `waitpid` and signals every waiter
/// at once, so nothing polls for an exit.
private final class Reaper: @unchecked Sendable {
    // Guards `ended`; NSCondition lets a waiter sleep until the reaper's broadcast.
    private let condition = NSCondition()
    private var ended: Int32?

    init(_ pid: pid_t) {
        Thread.detachNewThread { [self] in
            var raw: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &raw, 0) } while result < 0 && errno == EINTR
            let signal = raw & 0x7f
            condition.lock()
            ended = result == pid ? (signal == 0 ? (raw >> 8) & 0xff : 128 + signal) : -1
            condition.broadcast()
            condition.unlock()
        }
    }

    var status: Int32? {
        condition.lock()
        defer { condition.unlock() }
        return ended
    }

    /// Its status, or nil when `deadline` passes first.
    func wait(until deadline: Date) -> Int32? {
        condition.lock()
        defer { condition.unlock() }
        while ended == nil { if !condition.wait(until: deadline) { break } }
        return ended
    }
}
