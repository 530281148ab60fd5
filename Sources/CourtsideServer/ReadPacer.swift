import CourtsideModel
import CourtsideProtocol

/// Paces the replies to whole-tournament reads of displays that ask again and again, so that
/// they cannot take the machine from the keepers.
///
/// Serving a snapshot of 10,000 games costs the daemon's side tens of milliseconds of CPU, and
/// about as much again in libzmq's I/O threads and the kernel, which carry the keepers' replies
/// too and run at their priority: the reader thread's lower priority does not reach them, and on
/// two cores displays asking for such snapshots back to back multiply a keeper's p99 several
/// times (docs/FIGURES.md, "Reads and displays").
///
/// A token bucket: every reply spends its bytes, and the bucket refills at `bytesPerSecond` up to
/// a quarter of a second's worth. A whole-tournament read waits while the bucket is in debt, but
/// only if its client had one within ``loopWindow``: a big screen resyncing once (as all of them
/// do after a restart) is answered at once, one resyncing in a loop is paced. Reads of one game
/// never wait, though their bytes count too. The bucket holds a quarter of a second's worth
/// rather than a second's, which would let five snapshots go at once and hold a keeper's reply
/// behind all of them.
struct ReadPacer {
    /// A client's whole-tournament read this soon after its last one is paced.
    static let loopWindow: Duration = .seconds(5)
    /// Clients remembered before those quiet for ``loopWindow`` are first forgotten.
    static let rememberedClients = 4096

    /// The pace in bytes per second; 0 paces nothing.
    let bytesPerSecond: Double
    /// Bytes that may be sent now; negative while in debt.
    private var balance: Double
    private var updated: ContinuousClock.Instant
    /// The most the bucket holds: a quarter of a second's worth.
    private let capacity: Double
    /// When each client last asked for the whole tournament.
    private var lastAsked: [String: ContinuousClock.Instant] = [:]
    /// The number of clients remembered at which quiet ones are next forgotten: twice those
    /// still active after the last time, so that many active clients do not cost every read a
    /// walk of them all.
    private var forgetAt = ReadPacer.rememberedClients

    /// How many clients it remembers asking for the whole tournament.
    var rememberedCount: Int { lastAsked.count }

    init(bytesPerSecond: Double, now: ContinuousClock.Instant) {
        self.bytesPerSecond = max(0, bytesPerSecond)
        capacity = self.bytesPerSecond / 4
        balance = capacity
        updated = now
    }

    /// Whether `operation`, asked by `client` at `now`, waits for the budget: its reply grows
    /// with the number of games, and the client asked for one within ``loopWindow``.
    mutating func paces(_ operation: Request.Operation, client: String, now: ContinuousClock.Instant) -> Bool {
        guard bytesPerSecond > 0 else { return false }
        switch operation {
        case .snapshot(nil), .listGames, .schedule: break
        default: return false
        }
        if lastAsked.count >= forgetAt {
            lastAsked = lastAsked.filter { now - $0.value < Self.loopWindow }
            forgetAt = max(Self.rememberedClients, 2 * lastAsked.count)
        }
        guard let last = lastAsked.updateValue(now, forKey: client) else { return false }
        return now - last < Self.loopWindow
    }

    /// Counts a reply of `bytes` sent at `now`, whether it waited or not.
    mutating func spent(_ bytes: Int, now: ContinuousClock.Instant) {
        refill(now)
        balance -= Double(bytes)
    }

    /// How long a paced read must still wait at `now`: zero once the bucket is out of debt.
    mutating func delay(now: ContinuousClock.Instant) -> Duration {
        guard bytesPerSecond > 0 else { return .zero }
        refill(now)
        return balance >= 0 ? .zero : .nanoseconds(Int64((-balance / bytesPerSecond * 1e9).rounded(.up)))
    }

    private mutating func refill(_ now: ContinuousClock.Instant) {
        guard now > updated else { return }
        balance = min(capacity, balance + (now - updated).inSeconds * bytesPerSecond)
        updated = now
    }
}
