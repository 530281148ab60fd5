public import CourtsideClient
public import CourtsideModel
public import CourtsideProtocol
import Dispatch
import Synchronization
public import ZeroMQ

/// Sends keepers' commands to the daemon under the key of the court each device joined.
///
/// One client per court, each on a serial queue of its own: the reference client blocks on
/// ZeroMQ, which must not hold a thread of Swift's cooperative pool, and one court's queue
/// never waits behind another's. The gateway holds no more power than these keys: the daemon
/// judges each command by the key it came under.
public final class CommandRelay: Sendable {
    /// One court's way to the daemon.
    private final class Lane: @unchecked Sendable {
        // Touched only on `queue`.
        let client: CommandClient
        let queue: DispatchQueue

        init(client: CommandClient, queue: DispatchQueue) { (self.client, self.queue) = (client, queue) }
    }

    private let endpoint: String
    private let courtKeys: [String: CurveClientKeys]?
    private let lanes = Mutex<[String: Lane]>([:])
    private let timeoutMilliseconds: Int32
    private let attempts: Int

    /// `courtKeys` are the courts' keeper keys (each with the daemon's public key), by court;
    /// nil on a plaintext daemon, where every court's commands go as they are. A try waits
    /// `timeoutMilliseconds`; after `attempts` tries the page retries the same command later.
    public init(
        endpoint: String, courtKeys: [String: CurveClientKeys]?, timeoutMilliseconds: Int32 = 1500, attempts: Int = 2
    ) {
        self.endpoint = endpoint
        self.courtKeys = courtKeys
        self.timeoutMilliseconds = timeoutMilliseconds
        self.attempts = attempts
    }

    /// Whether commands go under the courts' keys (a secured daemon), or plaintext.
    public var isKeyed: Bool { courtKeys != nil }

    /// Sends one command with its device's ids and returns the daemon's reply, an `ok` or a
    /// refusal. Throws `unreachable` when the daemon did not answer (the page retries with the
    /// same ids), and `forbidden` for a court the gateway has no key for on a secured daemon.
    public func send(_ operation: Request.Operation, origin: CommandOrigin, court: String) async throws(CourtsideError) -> Reply {
        let lane = try lane(for: court)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Reply, CourtsideError>, Never>) in
            lane.queue.async {
                do throws(CourtsideError) {
                    continuation.resume(returning: .success(try lane.client.send(operation, origin: origin)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    private func lane(for court: String) throws(CourtsideError) -> Lane {
        var curve: CurveClientKeys?
        if let courtKeys {
            guard let keys = courtKeys[court] else {
                throw CourtsideError(.forbidden, "this gateway was given no key for \(court)")
            }
            curve = keys
        }
        return lanes.withLock { lanes in
            if let lane = lanes[court] { return lane }
            let client = CommandClient(
                endpoint: endpoint, clientID: "courtside-web", timeoutMilliseconds: timeoutMilliseconds, attempts: attempts,
                curve: curve)
            let lane = Lane(client: client, queue: DispatchQueue(label: "courtside.relay.\(court)"))
            lanes[court] = lane
            return lane
        }
    }
}
