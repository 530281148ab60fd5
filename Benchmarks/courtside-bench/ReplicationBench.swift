import ArgumentParser
import CourtsidePostgresTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Many failover trials of the PostgreSQL log, synchronous and the asynchronous control, with
/// the counts: `scripts/replication-trials.sh N` runs it. Each trial starts a new primary and
/// standby on loopback (as the `postgres` user when root), so PostgreSQL 15 must be installed.
struct ReplicationBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replication-trials",
        abstract: "Kills the PostgreSQL primary under writers at random moments, promotes the standby, counts what was lost.",
        discussion: """
            Each trial: a new primary and streaming standby; writers append through PostgresEventLog and \
            record each append that returned; kill -9 of the primary at a random moment; promotion of the \
            standby; every acknowledged event looked up there. Synchronous (the standby named in \
            synchronous_standby_names) must lose nothing; the asynchronous control may.
            """)

    @Argument(help: "Trials of each kind.") var trials = 10
    @Option(help: "Writers appending at once, each to a game of its own.") var writers = 4
    @Option(help: "The latest moment to kill the primary, in seconds after the first acknowledgement.") var killBy = 1.0
    @OptionGroup var smoke: SmokeOption

    mutating func validate() throws {
        if smoke.smoke { (trials, writers, killBy) = (1, min(writers, 2), min(killBy, 0.2)) }
    }

    func run() async throws {
        guard TestPostgresServer.isInstalled else { throw ValidationError(TestPostgresServer.notInstalled) }
        for asynchronous in [false, true] {
            let kind = asynchronous ? "asynchronous" : "synchronous"
            var acknowledged = 0
            var lost = 0
            var lossy = 0
            var duplicated = 0
            for number in 1...trials {
                let trial = ReplicationTrial(asynchronous: asynchronous, writers: writers, killAfter: 0.01...max(0.01, killBy))
                let outcome = try await trial.run()
                let check = outcome.check
                print(
                    "\(kind) trial \(number): killed \(String(format: "%.2f", outcome.killedAfter)) s in; \(check.summary); "
                        + "writers stranded \(outcome.strandedWriters)")
                fflush(nil)  // a trial takes seconds: show each as it ends, through a pipe too
                acknowledged += check.acknowledged
                lost += check.missing.count
                duplicated += check.duplicated.count
                if !check.missing.isEmpty { lossy += 1 }
            }
            print(
                "\(kind): \(trials) trials, \(acknowledged) acknowledged, \(lost) lost (in \(lossy) trials), "
                    + "\(duplicated) duplicated")
        }
    }
}
