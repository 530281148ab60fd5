import ArgumentParser
import CourtsideStorage

/// `courtside-admin copy`: one log into an empty other, checked event by event.
struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy every event and refusal of one log into an empty one, then check the copy event by event.",
        discussion: """
            Stop the daemons first: no courtsided may use either log while it is
            copied.

            The target must be empty (a new data directory, a new database): a
            target that holds anything is refused, and nothing is written to it.
            Events go in transactions of --batch-size. The copy is then read back
            and compared with the source field by field; the first difference is
            named. Checkpoints are not copied: they are derived, and courtsided
            rebuilds the games by replaying the copy when it first starts on it
            (a long log makes that start slower). A copy that fails part way
            leaves what it wrote: empty the target before trying again.

            Examples:
              # SQLite into the PostgreSQL database of the config to run with
              courtside-admin copy --from sqlite:/var/lib/courtside \\
                  --to-config /etc/courtside/tournament.yaml
              # the same, the database written out
              courtside-admin copy --from sqlite:/var/lib/courtside \\
                  --to postgresql://courtside@db1:5432/courtside \\
                  --password-file /etc/courtside/pg.password
              # back from PostgreSQL into a new data directory
              courtside-admin copy --from-config /etc/courtside/tournament.yaml \\
                  --to sqlite:/var/lib/courtside-back
            """
    )

    @OptionGroup var logs: LogPair

    @Option(help: ArgumentHelp("Events per transaction.", valueName: "n"))
    var batchSize = EventLogCopy.defaultBatchSize

    func validate() throws {
        guard batchSize >= 1 else { throw ValidationError("--batch-size must be at least 1") }
    }

    func run() throws {
        try logs.withLogs(targetMustExist: false) { source, target, logger in
            var tenth = 0
            let report = try EventLogCopy.copy(from: source.log, to: target.log, batchSize: batchSize) { copied, total in
                // A tenth at a time: a long log's copy shows that it moves, without a line a batch.
                guard total > 0, copied * 10 >= total * (tenth + 1) else { return }
                tenth = copied * 10 / total
                logger.info("copying", metadata: ["copy.events": "\(copied)", "copy.of": "\(total)"])
            }
            print(
                """
                Copied \(report.counts) from \(source.location) to \(target.location) in \(report.batches) \
                transactions, \(report.seconds); the copy was read back and matches the source event by event.
                Checkpoints were not copied: courtsided replays the log when it first starts on it.
                """)
        }
    }
}
