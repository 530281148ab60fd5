import CourtsideModel
import CourtsideProtocol

/// Paces the replies to whole-tournament reads, so that displays resyncing in a loop cannot take
/// the machine from the keepers.
///
/// Serving a snapshot of 10,000 games costs the daemon's side tens of milliseconds of CPU, and
/// about as much again in libzmq's I/O threads and the kernel, which carry the keepers' replies
/// too and run at their priority: the reader thread's lower priority does not reach them. On two
/// cores, displays asking for such snapshots back to back (30 a second, 300 MB/s) took a keeper's
/// p99 from about 2 ms to 8 ms; paced at 48 MB/s, to 4.5 ms.
///
/// A token bucket: every reply spends its bytes, and the bucket refills at `bytesPerSecond` up to
/// one second's worth, so an occasional snapshot goes out at once and only a sustained stream of
/// them waits. Only reads whose replies grow with the number of games wait; a court's display
/// asking for its one game never does, though its bytes count too.
struct ReadPacer {
    /// The pace in bytes per second; 0 paces nothing.
    let bytesPerSecond: Double
    /// Bytes that may be sent now; negative while in debt.
    private var balance: Double
    private var updated: ContinuousClock.Instant

    init(bytesPerSecond: Double, now: ContinuousClock.Instant) {
        self.bytesPerSecond = max(0, bytesPerSecond)
        balance = self.bytesPerSecond
        updated = now
    }

    /// Whether `operation` waits for the budget: its reply grows with the number of games.
    func paces(_ operation: Request.Operation) -> Bool {
        guard bytesPerSecond > 0 else { return false }
        switch operation {
        case .snapshot(nil), .listGames, .schedule: return true
        default: return false
        }
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
        balance = min(bytesPerSecond, balance + (now - updated).inSeconds * bytesPerSecond)
        updated = now
    }
}
