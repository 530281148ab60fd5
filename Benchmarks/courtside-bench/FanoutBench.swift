import ArgumentParser
import CZeroMQ
import CourtsideModel
import CourtsideProtocol
import CourtsideSimulator
import Foundation
import Synchronization
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// Events per second that reach many displays, beside what bare libzmq PUB/SUB delivers on this
/// machine in the same run.
struct FanoutBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fanout",
        abstract: "Events per second delivered to N subscribers of courtsided, beside raw libzmq PUB/SUB in the same run.",
        discussion: """
            For each subscriber count N, in this order:

            1. Daemon. One courtsided serves the whole run, on free loopback ports and a \
            temporary data directory. It gets N SUB sockets on its event endpoint, subscribed \
            to everything. The sockets are spread over --threads threads; each thread has its \
            own ZeroMQ context and one poller, so 1000 subscribers need only a few threads. \
            Each socket is read with libzmq's C API in place, without copying. The sockets \
            connect 50 at a time, 20 ms apart. Meanwhile --keepers keepers, each with --window \
            requests in flight, drive rebounds over --games games as fast as the daemon answers. \
            The warm-up lasts until every subscriber has received an event, or 15 s at most. \
            Then the subscribers count for --seconds. The keepers stop, the subscribers read \
            what is still on its way for 0.3 s, and close.

            2. Raw libzmq, flat out. A bare PUB socket in this process sends two-frame messages \
            in a loop as fast as it can. It has its own context and thread, and the daemon's \
            default send high-water mark of 10000. The messages have the mean sizes of the \
            daemon's events in step 1: a topic `gK/event`, then a JSON body that holds \
            `"sequence"`. N SUB sockets are served exactly as in step 1, with the same warm-up \
            and the same --seconds.

            3. Raw libzmq, paced. The same PUB sends at the daemon's published/s from step 1: \
            the same offered load.

            What is counted, per subscriber and only during the --seconds window: a message \
            counts if it has two frames and its topic ends in `/event` (heartbeats, standings \
            and bracket are not counted). `delivered` is the number of such messages received. \
            A gap is a missing sequence number between two consecutive events a subscriber \
            received (the next sequence minus the last, minus one, summed): what the sync \
            contract of docs/PROTOCOL.md would resync on.

            Every per-second figure is a sum over all subscribers divided by the window's \
            length. `delivered/s` counts events (or messages) received, with or without gaps. \
            `gapless` is the number of subscribers that received events and saw no gap. \
            `silent` is the number that received nothing in the window. `published/s` is the \
            daemon's sequence advance per second: the highest sequence any subscriber saw in \
            the window, minus the lowest, plus one, over the window. `share` is delivered / \
            (published x N). Below 1 with no gap means the subscribers lag behind, queued; \
            with gaps, events were dropped. For raw libzmq, `sent/s` is the PUB's send calls \
            per second. libzmq drops a message for a subscriber whose queue is full, and those \
            drops are its gaps. `ratio` is the daemon's delivered/s over raw delivered/s, flat \
            out and paced. Issue 10 goal 7 asks for at least 0.8, with no gap.

            Read flat out as the machine's ceiling. At a few subscribers the daemon can deliver \
            only what its keepers get acknowledged, so there the ratio measures the command \
            path rather than the fan-out. The paced ratio compares the fan-out at equal load. \
            Everything shares this machine's two cores: the daemon, the keepers, the raw \
            publisher and the subscribers. Read the figures of one run as ratios to each other.

            Example: courtside-bench fanout --subscribers 1,10,100,1000 --seconds 2
            """)

    @Option(help: "Subscriber counts to measure, comma-separated.") var subscribers = "1,10,100,1000"
    @Option(help: "Seconds each measurement counts (after the warm-up).") var seconds: Double = 2
    @Option(help: "Keepers driving moves, each on its own thread.") var keepers = 16
    @Option(help: "Requests each keeper keeps in flight.") var window = 8
    @Option(help: "Games the moves are spread over.") var games = 100
    @Option(help: "Threads serving the subscribers (each with its own ZeroMQ context and poller).") var threads = 2
    @Option(help: "The courtsided binary (default: next to this one).") var courtsided: String?
    @OptionGroup var smoke: SmokeOption

    var counts: [Int] { subscribers.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    mutating func validate() throws {
        if smoke.smoke { (seconds, games) = (min(seconds, 0.2), min(games, 4)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("--subscribers takes positive counts, comma-separated")
        }
        guard seconds > 0, keepers > 0, window > 0, games > 0, threads > 0 else {
            throw ValidationError("--seconds, --keepers, --window, --games and --threads must be positive")
        }
    }

    func run() throws {
        let daemon = try RunningDaemon(games: games, courtsided: courtsided)
        defer { daemon.stop() }
        let context = try ZMQContext()
        defer { context.terminate() }
        try waitUntilServing(context, daemon.command, curve: nil)
        print(
            "fanout: keepers=\(keepers) window=\(window) games=\(games) seconds=\(seconds) subscriber threads=\(threads); counted: events received per second summed over subscribers (see --help)"
        )
        var rows: [String] = []
        for (round, count) in counts.enumerated() {
            // The daemon.
            let stop = StopFlag()
            let load = KeeperLoad(keepers: keepers, games: games, window: window, run: "fanout\(round)")
            let pool = SubscriberPool(count: count, threads: threads, endpoint: daemon.events)
            let command = daemon.command
            let driver = BlockingThread { () throws -> Int in
                try load.drive(context, command, moves: Int.max, stop: stop).latencies.count
            }
            let window = pool.measure(seconds: seconds)
            stop.set()
            let acknowledged = try driver.wait().get()
            let served = try pool.finish(window)
            // Raw libzmq with messages of the same sizes.
            let topicSize = served.messages > 0 ? Int(served.topicBytes / served.messages) : 8
            let bodySize = served.messages > 0 ? Int(served.bodyBytes / served.messages) : 400
            let raw = try RawPublisher.measure(
                subscribers: count, threads: threads, seconds: seconds, topicSize: topicSize, bodySize: bodySize, games: games,
                rate: nil)
            let paced = try RawPublisher.measure(
                subscribers: count, threads: threads, seconds: seconds, topicSize: topicSize, bodySize: bodySize, games: games,
                rate: max(1, served.publishedPerSecond))
            print("subscribers \(count):")
            print(
                "  daemon: delivered events/s \(format(served.perSecond)) (published/s \(format(served.publishedPerSecond)), \(served.summary(count)), \(acknowledged) moves acknowledged)"
            )
            print(
                "  raw libzmq PUB/SUB flat out: delivered msgs/s \(format(raw.served.perSecond)) (sent/s \(format(raw.sentPerSecond)), \(raw.served.summary(count)); \(topicSize)+\(bodySize)-byte messages)"
            )
            print(
                "  raw libzmq PUB/SUB paced at the daemon's published/s: delivered msgs/s \(format(paced.served.perSecond)) (sent/s \(format(paced.sentPerSecond)), \(paced.served.summary(count)))"
            )
            let ratios = (served.perSecond / raw.served.perSecond, served.perSecond / paced.served.perSecond)
            print(String(format: "  ratio of the daemon's delivered/s to raw: flat out %.2f, paced %.2f", ratios.0, ratios.1))
            rows.append(
                String(
                    format: "%11d  %9.0f  %6d  %7d/%-5d  %10.0f  %10.0f  %10.2f  %6.2f", count, served.perSecond, served.gaps,
                    served.gapless, count, raw.served.perSecond, paced.served.perSecond, ratios.0, ratios.1))
        }
        print("summary (delivered per second, summed over subscribers):")
        print("subscribers   daemon/s    gaps  gapless      raw_flat/s  raw_paced/s  ratio_flat  ratio_paced")
        for row in rows { print(row) }
    }
}
