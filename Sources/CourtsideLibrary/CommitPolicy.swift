/// Where the commits of submitted commands are written: on the log writer's thread, or on the
/// caller's own thread while the writer is idle.
///
/// The log writer's thread is the default: a caller never blocks on the disk, and Swift's
/// cooperative pool must never do so. A caller with a thread of its own that may block (the
/// daemon's I/O thread) can commit its lone command there instead, sparing the two hand-overs
/// between threads that the command would otherwise wait for: its receipt then settles on the
/// caller's thread, before ``GameLibrary/committing(_:_:)`` returns.
///
/// One value states it for a whole submission, in place of a thread check at the call, a task
/// local that told the queue not to wake the writer, and a second thread check after: the
/// library asks ``callersThread(when:)``'s condition before the commands are submitted and again
/// before it commits them, since the caller may have moved to another thread in between.
public struct CommitPolicy: Sendable {
    /// Whether the calling thread may block on the disk now; nil for the log writer's policy.
    private let mayBlockHere: (@Sendable () -> Bool)?

    private init(mayBlockHere: (@Sendable () -> Bool)?) { self.mayBlockHere = mayBlockHere }

    /// The log writer commits; the caller never blocks on the disk.
    public static let logWriter = CommitPolicy(mayBlockHere: nil)

    /// The caller's thread commits its own commands while the writer is idle, when `mayBlockHere`
    /// says that the thread it is asked on may block on the disk; otherwise the writer does.
    public static func callersThread(when mayBlockHere: @escaping @Sendable () -> Bool) -> CommitPolicy {
        CommitPolicy(mayBlockHere: mayBlockHere)
    }

    /// Whether commands submitted under this policy are left for their caller to commit: they
    /// then do not wake the writer when queued.
    var leavesCommitToCaller: Bool { mayBlockHere != nil }

    /// Whether a commit may run on the calling thread now.
    func allowsCommitHere() -> Bool { mayBlockHere?() ?? false }

    /// The longest a commit on the caller's thread may take before such commits pause: about
    /// what a display's lag may grow by unnoticed. (This machine's disk has single fsyncs of
    /// 10 to 30 ms now and then; a lower bound paused them for nothing.)
    ///
    /// The caller's thread has other work (the daemon's reads its sockets) that must not wait
    /// on a slow or failing disk again and again.
    static let slowCallerCommit: Duration = .milliseconds(100)

    /// How long callers' commits go through the writer after a slow one.
    static let callerCommitPause: Duration = .seconds(10)
}
