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
    private let exit = Mutex<Int32?>(nil)
    private let outputFD: Int32?
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
    }

    /// Close every descriptor above stderr in the child. glibc has the action, but Swift's Glibc
    /// module does not export it.
    private static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, STDERR_FILENO + 1)
    }

    /// Whether it still runs; reaps it once it has ended.
    var isRunning: Bool { status == nil }

    /// Its exit status, or 128 + the signal that ended it; nil while it runs.
    var status: Int32? {
        exit.withLock { exit in
            if exit == nil {
                var raw: Int32 = 0
                if waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier {
                    let signal = raw & 0x7f
                    exit = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
                }
            }
            return exit
        }
    }

    /// Waits for it to end; its status, or nil when `seconds` pass first.
    @discardableResult
    func wait(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let status { return status }
            if Date() > deadline { return nil }
            usleep(5_000)
        }
    }

    func signal(_ number: Int32) { kill(processIdentifier, number) }

    /// Feeds its standard input.
    func write(_ text: String) {
        inputFD.withLock { fd in
            guard let fd else { return }
            _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        }
    }

    /// Everything captured until the child closes its output, or until `seconds` pass.
    func readOutput(seconds: Double = 30) -> String {
        guard let fd = outputFD else { return "" }
        let deadline = Date().addingTimeInterval(seconds)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard remaining > 0 else { break }
            let ready = poll(&poller, 1, remaining)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += buffer.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
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

    deinit {
        if isRunning {
            kill(-processIdentifier, SIGKILL)
            wait(seconds: 5)
        }
        if let outputFD { close(outputFD) }
        inputFD.withLock { fd in if let fd { close(fd) } }
    }
}
