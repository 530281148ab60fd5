import ArgumentParser
import CourtsideStorage

/// `courtside-admin verify`: two logs compared, nothing written.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Compare two logs event by event and refusal by refusal, writing nothing.",
        discussion: """
            Stop the daemons first: a log that grows while it is read would
            differ for that alone.

            Says where the logs first differ (the event's sequence or the
            refusal's position, the field, and each log's value) and exits 1;
            exits 0 when they hold the same events and refusals in the same
            order. Checkpoints are not compared: they are derived from the events.

            Examples:
              courtside-admin verify --from sqlite:/var/lib/courtside \\
                  --to-config /etc/courtside/tournament.yaml
              courtside-admin verify --from sqlite:/var/lib/courtside \\
                  --to sqlite:/srv/backup/courtside
            """
    )

    @OptionGroup var logs: LogPair

    func run() throws {
        try logs.withLogs(targetMustExist: true) { source, target, _ in
            let report = try EventLogCopy.verify(source.log, against: target.log)
            print("\(source.location) and \(target.location) hold the same \(report.counts), \(report.seconds).")
        }
    }
}
