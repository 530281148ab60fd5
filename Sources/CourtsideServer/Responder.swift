import CourtsideModel
import CourtsideProtocol
import CourtsideTransport
import Logging
import Metrics
import Synchronization

/// Sends each request's one reply, and counts it: by operation (`invalid` before one is known)
/// and result (`ok` or the error code), with its time inside the daemon.
struct Responder: Sendable {
    let transport: ZMQTransport
    let epoch: String
    let metrics: CommandMetrics
    /// Among several daemons, whether this one still holds the lease; nil alone.
    var isActive: (@Sendable () -> Bool)? = nil
    let logger: Logger

    /// Sends `reply`, with `members` (arrays of JSON already encoded) appended to it; only
    /// `not_active` once the lease ran out, whatever was decided: a standby may have taken over,
    /// and the client's retry with the same ids gets the log's answer there.
    func send(
        _ incoming: IncomingRequest, _ reply: Reply, op: String = "invalid",
        appending members: [(key: String, elements: [[UInt8]])] = []
    ) {
        if let isActive, !isActive() {
            let error = CourtsideError(
                .notActive, "this courtsided stepped down (its lease ran out); send the request again to the active one")
            return deliver(incoming, .failure(error, commandID: reply.commandID, epoch: epoch), op: op, appending: [])
        }
        // The reply as it came, not a copy made in case it is replaced: a copy retains each of
        // its fields, for every reply the log writer sends.
        deliver(incoming, reply, op: op, appending: members)
    }

    private func deliver(
        _ incoming: IncomingRequest, _ reply: Reply, op: String,
        appending members: [(key: String, elements: [[UInt8]])]
    ) {
        let result = reply.error?.code.rawValue ?? "ok"
        metrics.record(op: op, result: result, nanoseconds: (ContinuousClock.now - incoming.received).nanoseconds)
        guard !members.isEmpty else {
            // Lent, not made an array: the log writer's answers to a commit go out in one buffer.
            return WireCoding.withEncoded(reply) { transport.reply(to: incoming, bytes: $0) }
        }
        do {
            transport.reply(to: incoming, body: try WireCoding.encode(reply, appending: members))
        } catch {
            // Still exactly one reply, but one that says what it is.
            logger.error("a reply could not be encoded", metadata: ["error": "\(error)"])
            let failure = Reply.failure(
                CourtsideError(.internalError, "courtsided could not encode its answer; its log has the detail"),
                commandID: reply.commandID, epoch: epoch)
            transport.reply(to: incoming, body: WireCoding.encode(failure))
        }
    }

    /// Sends a failure.
    func fail(_ incoming: IncomingRequest, _ error: CourtsideError, commandID: String?, op: String = "invalid") {
        send(incoming, .failure(error, commandID: commandID, epoch: epoch), op: op)
    }
}

/// The command service's metric handles, made on first use of each operation and result: a
/// handle per reply would look the metric up in the registry on every request.
final class CommandMetrics: Sendable {
    private struct Handles {
        /// Counters by operation, then result; timers by operation. Keyed by the two strings as
        /// they are, so that a reply builds no key of its own.
        var counters: [String: [String: Counter]] = [:]
        var timers: [String: Timer] = [:]
        /// The last reply's pair and its handles: under load nearly every reply is the one
        /// before's (`move`, `ok`), and comparing two short strings costs less than hashing
        /// them for two look-ups (1.3% of the log writer's samples, where the replies are sent).
        var last: (op: String, result: String, counter: Counter, timer: Timer)?
    }

    private let handles = Mutex(Handles())

    func record(op: String, result: String, nanoseconds: Int64) {
        let (counter, timer) = handles.withLock { handles in
            if let last = handles.last, last.op == op, last.result == result { return (last.counter, last.timer) }
            // Stored only when made: every reply comes here, and almost all find both.
            let counter: Counter
            if let known = handles.counters[op]?[result] {
                counter = known
            } else {
                counter = Counter(label: "courtside_commands_total", dimensions: [("op", op), ("result", result)])
                handles.counters[op, default: [:]][result] = counter
            }
            let timer: Timer
            if let known = handles.timers[op] {
                timer = known
            } else {
                timer = Timer(label: "courtside_command_duration_seconds", dimensions: [("op", op)])
                handles.timers[op] = timer
            }
            handles.last = (op, result, counter, timer)
            return (counter, timer)
        }
        counter.increment()
        timer.recordNanoseconds(nanoseconds)
    }
}
