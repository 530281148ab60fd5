import CourtsideModel
import Logging
import PostgresNIO
import Synchronization

/// A connection of the event log whose queries fail once it closes, and which can be cut.
///
/// postgres-nio 1.33.2 never answers a query written to a connection that has closed (the
/// server gone, say, after a primary was killed): a log that waited for the answer would wait
/// for ever, its writer stuck with nothing acknowledged and nothing refused. Here every query
/// still pending when the connection closes fails, and one made after fails at once. (One
/// callback on the connection's close for all of them: one per query would pile up there.)
///
/// A server that stops answering without closing (a network that black-holes its packets)
/// would hold a query for as long as TCP retries: ``cut()`` closes the connection at once, and
/// a connection given a bound cuts itself when a query waits longer than that.
final class LogConnection: Sendable {
    let connection: PostgresConnection
    private struct Pending {
        var next = 0
        var promises: [Int: EventLoopPromise<PostgresQueryResult>] = [:]
        var closed = false
    }
    private let pending = Mutex(Pending())
    /// How long a query may wait for its answer before the connection is cut; nil for ever.
    private let bound: Mutex<Duration?>

    init(_ connection: PostgresConnection, answerWithin bound: Duration? = nil) {
        self.connection = connection
        self.bound = Mutex(bound)
        connection.closeFuture.whenComplete { [self] _ in failPending() }
    }

    static let closed = PostgresEventLogError(.server, "the connection to the event log's server closed before it answered")

    /// From now on, queries wait for their answers as long as the server takes (or `bound`).
    func answerWithin(_ bound: Duration?) { self.bound.withLock { $0 = bound } }

    /// The query's rows; fails if the connection closes first, or is cut for want of an answer.
    func query(_ query: PostgresQuery, logger: Logger) -> EventLoopFuture<PostgresQueryResult> {
        let promise = connection.eventLoop.makePromise(of: PostgresQueryResult.self)
        let key: Int? = pending.withLock { pending in
            guard !pending.closed else { return nil }
            pending.next += 1
            pending.promises[pending.next] = promise
            return pending.next
        }
        guard let key else {
            promise.fail(Self.closed)
            return promise.futureResult
        }
        if let bound = bound.withLock({ $0 }) {
            let timer = connection.eventLoop.scheduleTask(in: .nanoseconds(bound.nanoseconds)) { [self] in
                logger.warning("the event log's server did not answer in time; closing the connection")
                cut()
            }
            promise.futureResult.whenComplete { _ in timer.cancel() }
        }
        connection.query(query, logger: logger).whenComplete { [self] result in
            _ = pending.withLock { $0.promises.removeValue(forKey: key) }
            promise.completeWith(result)
        }
        return promise.futureResult
    }

    /// Closes the connection now, whatever is on its way: every query waiting fails at once.
    /// (postgres-nio's close fails its own tasks and closes the socket without waiting for the server.)
    func cut() {
        failPending()
        connection.close().whenComplete { _ in }
    }

    func close() -> EventLoopFuture<Void> { connection.close() }

    private func failPending() {
        let abandoned = pending.withLock { pending in
            pending.closed = true
            defer { pending.promises = [:] }
            return Array(pending.promises.values)
        }
        for promise in abandoned { promise.fail(Self.closed) }
    }
}
