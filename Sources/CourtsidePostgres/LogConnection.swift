import Logging
import PostgresNIO
import Synchronization

/// A connection of the event log whose queries fail once it closes.
///
/// postgres-nio 1.33.2 never answers a query written to a connection that has closed (the
/// server gone, say, after a primary was killed): a log that waited for the answer would wait
/// for ever, its writer stuck with nothing acknowledged and nothing refused. Here every query
/// still pending when the connection closes fails, and one made after fails at once. (One
/// callback on the connection's close for all of them: one per query would pile up there.)
final class LogConnection: Sendable {
    let connection: PostgresConnection
    private struct Pending {
        var next = 0
        var promises: [Int: EventLoopPromise<PostgresQueryResult>] = [:]
        var closed = false
    }
    private let pending = Mutex(Pending())

    init(_ connection: PostgresConnection) {
        self.connection = connection
        connection.closeFuture.whenComplete { [self] _ in
            let abandoned = pending.withLock { pending in
                pending.closed = true
                defer { pending.promises = [:] }
                return Array(pending.promises.values)
            }
            for promise in abandoned { promise.fail(Self.closed) }
        }
    }

    static let closed = PostgresEventLogError(.server, "the connection to the event log's server closed before it answered")

    /// The query's rows; fails if the connection closes first.
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
        connection.query(query, logger: logger).whenComplete { [self] result in
            _ = pending.withLock { $0.promises.removeValue(forKey: key) }
            promise.completeWith(result)
        }
        return promise.futureResult
    }

    func close() -> EventLoopFuture<Void> { connection.close() }
}
