import CourtsideLibrary
import CourtsideModel
import CourtsideProtocol
import CourtsideTransport
import Logging

/// Answers reads (snapshots, lists, schedule, standings, log) off the command path.
///
/// A read never waits behind a command nor holds one up: the command loop only hands it over.
/// Reads wait in queues of their own, bounded so that a flood of them gets `overloaded` and
/// not the keepers: one for reads of the committed state in memory, and one for `log`, which
/// reads the event log from disk. Games go out as JSON cached until they change.
final class ReadService: Sendable {
    /// A read handed over by the command loop, decoded and allowed.
    struct Read: Sendable {
        let incoming: IncomingRequest
        let commandID: String
        let operation: Request.Operation
        let op: String
    }

    private let library: GameLibrary
    private let responder: Responder
    private let encoded = EncodedGames()
    private let memoryReads: AsyncStream<Read>
    private let memoryQueue: AsyncStream<Read>.Continuation
    private let logReads: AsyncStream<Read>
    private let logQueue: AsyncStream<Read>.Continuation

    /// `limit` reads may wait in each queue.
    init(library: GameLibrary, responder: Responder, limit: Int) {
        self.library = library
        self.responder = responder
        (memoryReads, memoryQueue) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(limit))
        (logReads, logQueue) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(limit))
    }

    /// Queues a read, or answers at once when its queue is full or closed.
    func submit(_ read: Read) {
        let queue = if case .log = read.operation { logQueue } else { memoryQueue }
        switch queue.yield(read) {
        case .enqueued: return
        case .dropped:
            responder.fail(
                read.incoming, CourtsideError(.overloaded, "courtsided has too many reads waiting; retry shortly"),
                commandID: read.commandID, op: read.op)
        case .terminated:
            responder.fail(
                read.incoming, CourtsideError(.shuttingDown, "courtsided is shutting down"), commandID: read.commandID,
                op: read.op)
        @unknown default:
            return
        }
    }

    /// Serves both queues until ``finish()``, answering what was queued before it.
    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await read in self.memoryReads { await self.serve(read) }
            }
            group.addTask {
                for await read in self.logReads { await self.serve(read) }
            }
        }
    }

    /// Takes no more reads; ``run()`` returns once the queued ones are answered.
    func finish() {
        memoryQueue.finish()
        logQueue.finish()
    }

    private func serve(_ read: Read) async {
        var answer = Reply(commandID: read.commandID, epoch: responder.epoch)
        var members: [(key: String, elements: [[UInt8]])] = []
        do {
            switch read.operation {
            case .listGames:
                let snapshot = library.snapshot()
                answer.sequence = snapshot.sequence
                members = [("games", try await encoded.summaries(snapshot.value))]
            case .snapshot(let game?):
                let snapshot = try library.snapshot(of: game)
                answer.sequence = snapshot.sequence
                members = [("snapshot", try await encoded.games([snapshot.value]))]
            case .snapshot(nil):
                let snapshot = library.tournamentSnapshot()
                (answer.sequence, answer.standings, answer.bracket) = (
                    snapshot.sequence, snapshot.value.standings, snapshot.value.bracket
                )
                members = [("snapshot", try await encoded.games(snapshot.value.games))]
            case .schedule:
                let bracket = library.bracket()
                (answer.sequence, answer.bracket) = (bracket.sequence, bracket.value)
            case .standings:
                let standings = library.standings()
                (answer.sequence, answer.standings) = (standings.sequence, standings.value)
            case .log(let game):
                answer.events = try await library.log(of: game)
            case .move, .retract, .clock, .timeout, .createGame:
                preconditionFailure("commands are not reads")
            }
        } catch let error as CourtsideError {
            answer = .failure(error, commandID: read.commandID, epoch: responder.epoch)
        } catch {
            responder.logger.error("a read could not be encoded", metadata: ["error": "\(error)"])
            answer = .failure(
                CourtsideError(.internalError, "courtsided could not encode its answer; its log has the detail"),
                commandID: read.commandID, epoch: responder.epoch)
            members = []
        }
        responder.send(read.incoming, answer, op: read.op, appending: members)
    }
}
