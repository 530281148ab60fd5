import CourtsideModel
import Testing

@testable import CourtsideLibrary

/// The log writer's transitions, driven directly: no thread, lock or log. Entries are their
/// first sequence numbers; closers are names.
@Suite("the log writer's states")
struct WriterStateMachineTests {
    typealias Machine = WriterStateMachine<Int64, String>

    private static let t0 = ContinuousClock.now

    private static func at(_ milliseconds: Int) -> ContinuousClock.Instant { t0 + .milliseconds(milliseconds) }

    /// Queues a command of `events` events; what the machine did.
    @discardableResult
    private static func enqueue(
        _ machine: inout Machine, events: Int = 1, essential: Bool = false, wakesWriter: Bool = true, at time: Int = 0
    ) -> Machine.EnqueueAction {
        machine.enqueue(eventCount: events, essential: essential, wakesWriter: wakesWriter, at: at(time)) { $0 }
    }

    private static func wokeWriter(_ action: Machine.EnqueueAction) -> Bool? {
        if case .queued(let wake) = action { return wake }
        return nil
    }

    private static func refusal(_ action: Machine.EnqueueAction) -> CourtsideError? {
        if case .refused(let error) = action { return error }
        return nil
    }

    private static let diskFailed = CourtsideError(.storageFailure, "the disk failed")

    @Test("commands are numbered without gaps from where the log ends, in the order they are queued")
    func numbering() {
        var machine = Machine(nextSequence: 11, queueLimit: 10)
        Self.enqueue(&machine, events: 2)
        Self.enqueue(&machine, events: 0)  // a refusal with no events
        Self.enqueue(&machine, events: 3)
        let batch = machine.takeBatch()
        #expect(batch == [11, 13, 13])
        #expect(machine.nextSequence == 16)
    }

    @Test("the first command wakes the writer; the ones that join it before it takes them do not")
    func wakesOnce() {
        var machine = Machine(nextSequence: 1, queueLimit: 10)
        #expect(Self.wokeWriter(Self.enqueue(&machine)) == true)
        #expect(Self.wokeWriter(Self.enqueue(&machine)) == false)
        #expect(machine.queued?.committer == .writer)
        let batch = machine.takeBatch()
        #expect(batch.count == 2)
        #expect(Self.wokeWriter(Self.enqueue(&machine)) == true)
    }

    @Test("a batch is pending from when its oldest command was queued until it is written")
    func pending() {
        var machine = Machine(nextSequence: 1, queueLimit: 10)
        #expect(!machine.isCommitting && machine.oldestPending == nil)
        Self.enqueue(&machine, at: 5)
        Self.enqueue(&machine, at: 7)
        #expect(machine.isCommitting && machine.oldestPending == Self.at(5))
        _ = machine.takeBatch()
        #expect(machine.writingSince == Self.at(5) && machine.queued == nil)
        Self.enqueue(&machine, at: 9)
        #expect(machine.oldestPending == Self.at(5))
        machine.batchWritten()
        #expect(machine.oldestPending == Self.at(9))
        _ = machine.takeBatch()
        machine.batchWritten()
        #expect(!machine.isCommitting && machine.oldestPending == nil)
        let batch = machine.takeBatch()
        #expect(batch.isEmpty)
    }

    @Test("a full queue refuses commands with overloaded, except the daemon's own")
    func overloaded() {
        var machine = Machine(nextSequence: 1, queueLimit: 2)
        Self.enqueue(&machine)
        Self.enqueue(&machine)
        #expect(Self.refusal(Self.enqueue(&machine))?.code == .overloaded)
        #expect(machine.nextSequence == 3)  // a refused command takes no number
        #expect(Self.wokeWriter(Self.enqueue(&machine, essential: true)) == false)
        let batch = machine.takeBatch()
        #expect(batch == [1, 2, 3])
        #expect(Self.wokeWriter(Self.enqueue(&machine)) == true)
    }

    @Test("a caller's commands do not wake the writer until handed over, nor again once it is woken")
    func callersCommands() {
        var machine = Machine(nextSequence: 1, queueLimit: 10)
        let handedOver = machine.handOverToWriter()  // nothing queued: nothing to wake the writer for
        #expect(!handedOver)
        #expect(Self.wokeWriter(Self.enqueue(&machine, wakesWriter: false)) == false)
        #expect(machine.queued?.committer == .caller)
        let handedOver2 = machine.handOverToWriter()
        #expect(handedOver2)
        let handedOver3 = machine.handOverToWriter()
        #expect(!handedOver3)
        _ = machine.takeBatch()
        // Another command, for the writer, joins a caller's: the writer is woken for both.
        Self.enqueue(&machine, wakesWriter: false)
        #expect(Self.wokeWriter(Self.enqueue(&machine)) == true)
        let handedOver4 = machine.handOverToWriter()
        #expect(!handedOver4)
        _ = machine.takeBatch()
        // A caller's command joins those the writer was woken for: no second wake-up.
        Self.enqueue(&machine)
        #expect(Self.wokeWriter(Self.enqueue(&machine, wakesWriter: false)) == false)
        let handedOver5 = machine.handOverToWriter()
        #expect(!handedOver5)
    }

    @Test("a slow commit on a caller's thread sends callers' commits to the writer for a while")
    func callerCommitPause() {
        var machine = Machine(nextSequence: 1, queueLimit: 10)
        #expect(machine.callerMayCommit(at: Self.at(0)))
        let paused = machine.callerCommitTook(CommitPolicy.slowCallerCommit, endingAt: Self.at(100))
        #expect(!paused)
        #expect(machine.callerMayCommit(at: Self.at(100)))
        let paused2 = machine.callerCommitTook(CommitPolicy.slowCallerCommit + .milliseconds(1), endingAt: Self.at(200))
        #expect(paused2)
        #expect(!machine.callerMayCommit(at: Self.at(201)))
        #expect(!machine.callerMayCommit(at: Self.at(200) + CommitPolicy.callerCommitPause - .milliseconds(1)))
        #expect(machine.callerMayCommit(at: Self.at(200) + CommitPolicy.callerCommitPause))
    }

    @Test("a close refuses new commands, drains what was accepted, then stops and resumes every closer")
    func closing() {
        var machine = Machine(nextSequence: 1, queueLimit: 10)
        #expect(machine.afterRound() == .sleep)
        Self.enqueue(&machine)
        _ = machine.takeBatch()
        Self.enqueue(&machine)  // accepted while the first batch is written
        let closing = machine.close("first")
        #expect(closing == .wakeWriter)
        #expect(Self.refusal(Self.enqueue(&machine))?.code == .shuttingDown)
        #expect(Self.refusal(Self.enqueue(&machine, essential: true))?.code == .shuttingDown)
        machine.batchWritten()
        #expect(machine.afterRound() == .again)
        let closing2 = machine.close("second")
        #expect(closing2 == .wait)
        let batch = machine.takeBatch()
        #expect(batch == [2])
        machine.batchWritten()
        #expect(machine.afterRound() == .stop)
        let resumed = machine.writerStopped()
        #expect(resumed == ["first", "second"])
        guard case .closed(failure: nil) = machine.state else {
            Issue.record("not closed: \(machine.state)")
            return
        }
        let closing3 = machine.close("late")
        #expect(closing3 == .resume)
        #expect(Self.refusal(Self.enqueue(&machine))?.code == .shuttingDown)
        let resumed2 = machine.writerStopped()
        #expect(resumed2.isEmpty)
    }

    @Test("a failed commit refuses what was queued meanwhile and every command after it with the failure")
    func failure() {
        var machine = Machine(nextSequence: 1, queueLimit: 10)
        Self.enqueue(&machine)
        let batch = machine.takeBatch()
        #expect(batch == [1])
        Self.enqueue(&machine, wakesWriter: false)
        Self.enqueue(&machine)
        let stranded = machine.batchFailed(Self.diskFailed)
        #expect(stranded == [2, 3])
        #expect(machine.failure == Self.diskFailed)
        #expect(!machine.isCommitting && machine.oldestPending == nil)
        #expect(Self.refusal(Self.enqueue(&machine, essential: true)) == Self.diskFailed)
        let handedOver = machine.handOverToWriter()
        #expect(!handedOver)
        // The writer waits for the close, then stops at once: nothing is queued.
        #expect(machine.afterRound() == .sleep)
        let closing = machine.close("closer")
        #expect(closing == .wakeWriter)
        let closing2 = machine.close("another")
        #expect(closing2 == .wait)
        #expect(machine.afterRound() == .stop)
        let resumed = machine.writerStopped()
        #expect(resumed == ["closer", "another"])
        #expect(machine.failure == Self.diskFailed)
        #expect(Self.refusal(Self.enqueue(&machine)) == Self.diskFailed)
    }

    @Test("a commit that fails while closing keeps the closers, and the failure wins over the close")
    func failureWhileClosing() {
        var machine = Machine(nextSequence: 1, queueLimit: 10)
        Self.enqueue(&machine)
        let closing = machine.close("closer")
        #expect(closing == .wakeWriter)
        _ = machine.takeBatch()
        let stranded = machine.batchFailed(Self.diskFailed)
        #expect(stranded.isEmpty)
        #expect(Self.refusal(Self.enqueue(&machine)) == Self.diskFailed)
        #expect(machine.afterRound() == .stop)
        let resumed = machine.writerStopped()
        #expect(resumed == ["closer"])
        guard case .closed(failure: Self.diskFailed?) = machine.state else {
            Issue.record("not closed with the failure: \(machine.state)")
            return
        }
    }
}
