import CourtsideModel
import CourtsideWebStore
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 37, "Nobody on the venue's Wi-Fi can stop the scoring": the real daemon and gateway,
/// flooded over real sockets from loopback addresses of the tests' own (127.0.0.2 and on; the
/// gateway counts connections and joins per address), while a keeper at another address keeps
/// score. The figures measured are in each expectation's message.
@Suite("courtside-web's door holds under a flood", .serialized, .timeLimit(.minutes(4)))
struct GatewayDoorTests {
    init() {
        // Thousands of sockets in this process; the gateway raises its own limit.
        LoopbackHTTP.raiseDescriptorLimit()
    }

    /// The daemon, Court 1's PIN (read from the store before the gateway opens it, as the
    /// keeper tests do), and the gateway with `arguments`, in sync.
    static func gateway(_ arguments: [String] = [], deskPassphrase: Bool = false) async throws -> (
        DaemonProcess, WebProcess, pin: String
    ) {
        let daemon = try DaemonProcess()
        let pin = try await GatewayStore(directory: WebProcess.stateDirectory(daemon)).code(for: "Court 1").pin
        let desk = deskPassphrase ? ["--desk-passphrase-file", try DeskTests.passphraseFile(in: daemon.directory)] : []
        let web = try WebProcess(daemon, arguments: arguments + desk)
        #expect(await web.waitInSync(), "\(web.log())")
        return (daemon, web, pin)
    }

    /// The ends of both logs, and whether the daemon still runs, for a failure's message.
    static func logs(_ daemon: DaemonProcess, _ web: WebProcess) -> String {
        "courtsided running: \(daemon.isRunning); its log ends:\n\(daemon.log().suffix(3000))\ncourtside-web's log ends:\n\(web.log().suffix(3000))"
    }

    /// A keeper joined from `source`: its cookies (the gateway's log in the failure).
    static func keeper(_ web: WebProcess, from source: String, pin: String) async throws -> String {
        let port = web.port
        do {
            return try await onThread { try LoopbackKeeper.join(port: port, source: source, pin: pin) }
        } catch {
            Issue.record("\(error)\n\(web.log())")
            throw error
        }
    }

    @Test(
        "an address's connection cap: with a cap of 2, a third half-open connection is answered 503 overloaded at once, the two admitted are closed without a word at the head timeout, and another address is served meanwhile"
    )
    func connectionCapPerAddress() async throws {
        let headTimeout = 2.0
        let (daemon, web, _) = try await Self.gateway([
            "--max-connections-per-address", "2", "--head-timeout", "\(Int(headTimeout))",
        ])
        defer { withExtendedLifetime(daemon) {} }
        let port = web.port
        let partial = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: slow"
        let (flood, healthz) = try await onThread { () throws -> (HalfOpenFlood, Int) in
            let watch = ConnectionWatch()
            let start = ContinuousClock.now
            for _ in 0..<3 {
                let connection = try LoopbackConnection(port: port, from: "127.0.0.7")
                watch.add(connection)
                try? connection.send(partial)
            }
            let openedAll = ContinuousClock.now
            let other = try LoopbackConnection(port: port, from: "127.0.0.8")
            try other.send(LoopbackHTTP.request("GET", "/healthz", port: port))
            let healthz = try other.readResponse(seconds: 5).status
            let allEnded = watch.waitUntilAllEnded(seconds: headTimeout + 10)
            return (HalfOpenFlood(watch: watch, start: start, openedAll: openedAll, allEnded: allEnded), healthz)
        }
        #expect(healthz == 200, "\(Self.logs(daemon, web))")
        #expect(flood.allEnded, "\(flood.answers)")
        // The children are set up on several event loops, so which of the three is refused is
        // not fixed: one is, at once; the other two are closed at the head timeout.
        let refused = flood.answers.filter { $0.status == 503 && $0.errorCode == "overloaded" && $0.closes }
        let admitted = flood.answers.filter { $0.status == 0 }
        #expect(refused.count == 1 && admitted.count == 2, "\(flood.answers)")
        #expect(refused.allSatisfy { ($0.answeredAfter ?? .seconds(99)) < .seconds(headTimeout) }, "\(refused)")
        for connection in admitted {
            let ended = connection.endedAfter ?? .seconds(99)
            #expect(ended >= .seconds(headTimeout - 0.1) && ended <= .seconds(headTimeout + 5), "\(connection)")
        }
    }

    // Other suites' waitInSync and /metrics polls failed while this ran in three CI runs of six,
    // and once with it left out: their deadlines were judged after the cooperative pool (2
    // threads), blocked by other tests' synchronous waits, let them run again, with no request
    // sent since. They judge when a request was sent now. The default run opens 300
    // connections, past the address's cap of 64 as surely; COURTSIDE_FLOOD_TESTS=1 the 2,000.
    @Test(
        "half-open connections from one address (2,000 with COURTSIDE_FLOOD_TESTS, else 300): those over its cap answered 503 at once, every one closed by the head timeout, /healthz and a keeper at other addresses served meanwhile"
    )
    func halfOpenFlood() async throws {
        let headTimeout = 2.0
        let (daemon, web, pin) = try await Self.gateway(["--head-timeout", "\(Int(headTimeout))"])
        // The daemon's directory holds the gateway's state and log: kept to the end.
        defer { withExtendedLifetime(daemon) {} }
        let port = web.port
        let cookie = try await Self.keeper(web, from: "127.0.0.2", pin: pin)
        let stop = StopFlag()
        defer { stop.raise() }
        // A keeper taps about 20 times a second; a load balancer asks /healthz 10 times a second,
        // each time on a new connection, so every probe goes through the door during the flood.
        let keeping = ThreadRun {
            LoopbackKeeper.keep(port: port, source: "127.0.0.2", cookie: cookie, every: .milliseconds(50), until: stop)
        }
        let probing = ThreadRun {
            Probe.healthz(port: port, source: "127.0.0.3", every: .milliseconds(100), metrics: true, until: stop)
        }

        // The head is never finished: no empty line.
        let partial = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: slow"

        let connections = ProcessInfo.processInfo.environment["COURTSIDE_FLOOD_TESTS"] != nil ? 2_000 : 300
        let flood = try await onThread { () throws -> HalfOpenFlood in
            let watch = ConnectionWatch()
            let start = ContinuousClock.now
            for index in 0..<connections {
                let connection = try LoopbackConnection(port: port, from: "127.0.0.1")
                watch.add(connection)
                // A refused connection may be closing already: its 503 is what counts.
                try? connection.send(partial)
                // Note answers as they come, so "at once" is measured, not the time to open the rest.
                if index % 25 == 24 { watch.sweep() }
            }
            let openedAll = ContinuousClock.now
            let allEnded = watch.waitUntilAllEnded(seconds: headTimeout + 20)
            return HalfOpenFlood(watch: watch, start: start, openedAll: openedAll, allEnded: allEnded)
        }
        stop.raise()
        let (moves, probes) = (try await keeping.value, try await probing.value)

        let refused = flood.answers.filter { $0.status == 503 && $0.errorCode == "overloaded" && $0.closes }
        // Past the refused sockets the gateway holds open for their 503 (256 of a cap of 4,096),
        // a refused one is closed at once without a word: well before half the head timeout.
        let silent = flood.answers.filter { $0.status == 0 }
        let closedAtOnce = silent.filter { ($0.endedAfter ?? .seconds(99)) < .seconds(headTimeout / 2) }
        let admitted = silent.filter { ($0.endedAfter ?? .seconds(99)) >= .seconds(headTimeout / 2) }
        let other = flood.answers.filter { $0.status != 0 && !($0.status == 503 && $0.errorCode == "overloaded" && $0.closes) }
        let refusedIn = Latencies(refused.compactMap(\.answeredAfter))
        let admittedEnded = Latencies(admitted.compactMap(\.endedAfter))
        let endedIn = Latencies(flood.answers.compactMap(\.endedAfter))
        let opening = (flood.openedAll - flood.start).inSeconds
        #expect(flood.answers.count == connections)
        // Every connection is either refused (with the 503 while fewer than 256 refused ones are
        // open, else closed at once) or admitted (up to the address's cap of 64, less the idle
        // connection that waitInSync's URLSession may still keep from 127.0.0.1) and closed
        // without a word at the head timeout. Where opening them all takes longer than the head
        // timeout, the first admitted are closed meanwhile and others admitted in their place.
        #expect(
            other.isEmpty && admitted.count >= 62 && refused.count >= min(connections / 2, 200)
                && closedAtOnce.count <= max(0, connections - 64 - 256)
                && refused.count + closedAtOnce.count + admitted.count == connections,
            "refused with 503: \(refused.count), closed at once: \(closedAtOnce.count), admitted: \(admitted.count), other: \(other.prefix(3)); opening took \(opening) s"
        )
        // The 503 comes without waiting for a head: well before the head timeout. The figure
        // includes the wait in the listen queue, which a flood faster than the accepts fills.
        #expect(refusedIn.median < headTimeout * 1000, "503 answered after: \(refusedIn)")
        #expect(
            admittedEnded.percentile(0) >= headTimeout * 1000 - 100,
            "admitted connections closed after \(admittedEnded): not before the head timeout of \(headTimeout) s")
        #expect(
            flood.allEnded && endedIn.max <= (headTimeout + 5) * 1000,
            "every connection ended by the gateway: \(flood.allEnded) (\(flood.answers.count { $0.endedAfter == nil }) still open); ended after \(endedIn); head timeout \(headTimeout) s"
        )
        // The gateway's own count, read during the flood: the cap of 64 from the address, and a
        // few of the probe's and the keeper's connections (2 or 3 were seen).
        let held = probes.compactMap(\.connections)
        #expect(
            !held.isEmpty && (held.max() ?? 0) <= 64 + 8,
            "courtside_web_connections during the flood: max \(held.max() ?? -1) over \(held.count) reads")

        // During the flood (from the first connection to the last one's end).
        let during = { (sent: ContinuousClock.Instant) in sent >= flood.start && sent <= flood.lastEnded }
        let floodProbes = probes.filter { during($0.sent) }
        #expect(
            floodProbes.count >= 3 && floodProbes.allSatisfy { $0.status == 200 },
            "/healthz during the flood: \(Latencies(floodProbes.map(\.took))), \(floodProbes.filter { $0.status != 200 }.prefix(3))"
        )
        let floodMoves = moves.filter { during($0.sent) }
        let moveTimes = Latencies(floodMoves.map(\.took))
        #expect(
            floodMoves.count >= 5 && floodMoves.allSatisfy(\.ok) && moveTimes.median <= 250,
            "the keeper's moves during the flood: \(moveTimes), failed: \(floodMoves.filter { !$0.ok }.prefix(3))")
        #expect(
            !moves.isEmpty && moves.allSatisfy(\.ok),
            "\(moves.filter { !$0.ok }.prefix(3))\n\(Self.logs(daemon, web))")

        // The gateway counted what the sockets saw.
        let metrics = try await onThread { try Probe.metrics(port: port, source: "127.0.0.3") }
        #expect(
            metrics["courtside_web_connections_refused_total"] == Double(refused.count + closedAtOnce.count),
            "refused_total \(String(describing: metrics["courtside_web_connections_refused_total"])), 503s read \(refused.count), closed at once \(closedAtOnce.count)"
        )
        #expect((metrics["courtside_web_connections"] ?? 99) <= 3, "\(String(describing: metrics["courtside_web_connections"]))")
        // Then, with the listen queue empty: 64 event streams from 127.0.0.4 fill its cap (each
        // admitted: its answer's head read), and each of 20 more is answered 503 as it is accepted.
        let atOnce = try await onThread { () throws -> [Probe.Sample] in
            let streams = try (0..<64).map { _ in
                let stream = try LoopbackConnection(port: port, from: "127.0.0.4")
                try stream.send(LoopbackHTTP.request("GET", "/api/events", port: port))
                guard try stream.readHead() == 200 else { throw LoopbackError(kind: .system, description: "a stream refused") }
                return stream
            }
            return try withExtendedLifetime(streams) {
                try (0..<20).map { _ in
                    let connection = try LoopbackConnection(port: port, from: "127.0.0.4")
                    let opened = ContinuousClock.now
                    try? connection.send(partial)
                    do {
                        let answer = try connection.readResponse(seconds: headTimeout + 5)
                        return Probe.Sample(
                            sent: opened, took: .now - opened, status: answer.status, detail: answer.errorCode ?? "")
                    } catch {
                        return Probe.Sample(sent: opened, took: .now - opened, status: 0, detail: "\(error)")
                    }
                }
            }
        }
        let atOnceTimes = Latencies(atOnce.filter { $0.status == 503 && $0.detail == "overloaded" }.map(\.took))
        #expect(
            atOnceTimes.count == atOnce.count && atOnceTimes.median < 250,
            "answered 503 of \(atOnce.count) over the cap: \(atOnceTimes.count), after \(atOnceTimes); \(atOnce.filter { $0.status != 503 }.prefix(3))"
        )
        print(
            "half-open flood: over the cap, 503 after \(atOnceTimes); \(connections) opened in \(String(format: "%.2f", opening)) s; \(refused.count) refused (503 after \(refusedIn)), \(closedAtOnce.count) closed at once; \(admitted.count) admitted, closed after \(admittedEnded); all ended after \(endedIn); gateway's connections max \(held.max() ?? -1); /healthz \(Latencies(floodProbes.map(\.took))); keeper \(moveTimes)"
        )
    }

    @Test(
        "a passphrase flood from 16 addresses: only wrong, wait and busy answers, and a keeper at another address keeps its pace"
    )
    func passphraseFlood() async throws {
        let (daemon, web, pin) = try await Self.gateway(deskPassphrase: true)
        // The daemon's directory holds the gateway's state and log: kept to the end.
        defer { withExtendedLifetime(daemon) {} }
        let port = web.port
        let keeperAddress = "127.0.0.18"
        let cookie = try await Self.keeper(web, from: keeperAddress, pin: pin)
        // The keeper at rest first, at the same pace: the figure during the flood is held against
        // it, in this run, on this machine, however busy the rest of the suite keeps it.
        let atRest = try await onThread {
            LoopbackKeeper.keep(
                port: port, source: keeperAddress, cookie: cookie, every: .milliseconds(50), count: 60, until: StopFlag())
        }
        let restTimes = Latencies(atRest.map(\.took))
        let stop = StopFlag()
        defer { stop.raise() }
        // 16 addresses, 4 posters each, every poster sending its next guess as soon as the last
        // is answered, on a keep-alive connection as a browser would.
        let start = ContinuousClock.now
        let posters = (0..<64).map { index in
            ThreadRun { Probe.guessPassphrases(port: port, source: "127.0.0.\(2 + index % 16)", until: stop) }
        }
        // 160 moves at 20 a second: the flood's 8 seconds.
        let moves = try await onThread {
            LoopbackKeeper.keep(
                port: port, source: keeperAddress, cookie: cookie, every: .milliseconds(50), count: 160, until: stop)
        }
        stop.raise()
        var answers: [String: Int] = [:]
        for poster in posters { answers.merge(try await poster.value) { $0 + $1 } }
        let seconds = (ContinuousClock.now - start).inSeconds

        let total = answers.values.reduce(0, +)
        let unexpected = answers.filter { !["wrong", "wait", "busy"].contains($0.key) }
        #expect(unexpected.isEmpty, "answers other than wrong, wait or busy: \(unexpected); all: \(answers)")
        // The flood was refused. How many checks were made depends on the machine: on one busy
        // with other work, a guess that waits 3 s for its check is answered "busy" (a CI run made
        // none in 14 s with the checker at nice 19, its one check taking over 10 s).
        #expect((answers["wait"] ?? 0) + (answers["busy"] ?? 0) >= 1, "\(answers)")
        // Checks made (each answered "wrong"): a burst of 4, then one per half second, whatever
        // the number of addresses.
        let checks = answers["wrong"] ?? 0
        #expect(checks <= 4 + Int(seconds * 2) + 1, "\(checks) passphrases checked in \(seconds) s")
        let times = Latencies(moves.map(\.took))
        #expect(
            moves.count == 160 && moves.allSatisfy(\.ok),
            "\(moves.filter { !$0.ok }.prefix(3))\n\(Self.logs(daemon, web))")
        // The issue's figure, 100 ms, or 4 times the keeper's p99 at rest in this run where the
        // machine is so busy that rest alone is slower. Alone in a debug build on 2 cores, 3 runs
        // measured p99 13 to 21 ms (the gateway holding each refused answer back for up to a
        // second); before it held them back, the flood was some 5,000 guesses a second and p99
        // 42 to 180 ms; before this issue, 270 to 423 ms.
        // Here it is a stall check only: speed is the benchmark's to judge (scripts/web-floods.py,
        // a release build alone: p99 against rest, 1.8x in the last run). On a shared 2-core
        // machine other builds put p95 past 100 ms whatever the flood does (133 ms once), while
        // a gateway stalled by the flood holds every move for a second or more. The throttle
        // itself is judged above, by the checks made.
        let bound = max(500, 8 * restTimes.percentile(0.95))
        #expect(
            times.percentile(0.95) < bound,
            "the keeper's moves during \(total) guesses (\(answers)): \(times); at rest \(restTimes)")
        // The flood over, the organiser signs in with the right passphrase: what the flood was
        // refused never locks the desk (a "busy" or "wait" is asked again, as the page says).
        let signedIn = try await onThread {
            try Probe.signIn(port: port, source: "127.0.0.40", passphrase: DeskTests.passphrase, seconds: 60)
        }
        #expect(signedIn.location == "/desk" && signedIn.header("set-cookie") != nil, "\(signedIn)")
        print(
            "passphrase flood: \(total) guesses in \(String(format: "%.1f", seconds)) s \(answers); keeper \(times), at rest \(restTimes)"
        )
    }

    @Test(
        "10,000 joins with the court's right PIN from 50 addresses: never a 500, only 200, 303 or 429, and the store keeps --devices-per-court devices and their sessions"
    )
    func joinFlood() async throws {
        let devicesPerCourt = 25
        let (daemon, web, pin) = try await Self.gateway(["--devices-per-court", "\(devicesPerCourt)"])
        // The daemon's directory holds the gateway's state and log: kept to the end.
        defer { withExtendedLifetime(daemon) {} }
        let port = web.port
        let token = try await GatewayStore(directory: WebProcess.stateDirectory(daemon)).code(for: "Court 1").token
        let joins = 10_000
        let workers = 8
        let addresses = (0..<50).map { "127.0.1.\($0 + 1)" }
        let start = ContinuousClock.now
        let outcomes = try await withThrowingTaskGroup(of: [String: Int].self) { group in
            for worker in 0..<workers {
                // Each worker has its own addresses, one keep-alive connection for each.
                let mine = addresses.indices.filter { $0 % workers == worker }.map { addresses[$0] }
                group.addTask {
                    try await onThread {
                        try Probe.join(
                            port: port, sources: mine, count: joins / workers, first: worker, pin: pin, token: token)
                    }
                }
            }
            return try await group.reduce(into: [String: Int]()) { $0.merge($1) { $0 + $1 } }
        }
        let took = (ContinuousClock.now - start).inSeconds
        let expected = ["json 200", "json 429 slow_down", "form 303 /keep", "form 303 wait", "link 303 /keep", "link 303 wait"]
        let unexpected = outcomes.filter { !expected.contains($0.key) }
        #expect(outcomes.values.reduce(0, +) == joins, "\(outcomes)")
        #expect(unexpected.isEmpty, "answers other than 200, 303 or 429: \(unexpected); all: \(outcomes)")
        let joined = (outcomes["json 200"] ?? 0) + (outcomes["form 303 /keep"] ?? 0) + (outcomes["link 303 /keep"] ?? 0)
        #expect(joined > devicesPerCourt, "joins that made a device: \(joined); the bound was never reached")

        let stats = try await GatewayStore(directory: WebProcess.stateDirectory(daemon)).stats()
        let devices = stats.devicesByCourt["Court 1"] ?? 0
        #expect(devices <= devicesPerCourt && devices > 0, "Court 1's devices: \(devices); \(stats)")
        #expect(stats.sessions <= devicesPerCourt, "sessions: \(stats.sessions) after \(joined) joins")
        let expired = stats.expiredDevices.values.reduce(0, +)
        #expect(expired >= joined - devicesPerCourt, "expired \(stats.expiredDevices) after \(joined) joins")
        let metrics = try await onThread { try Probe.metrics(port: port, source: "127.0.0.2") }
        #expect(metrics["courtside_web_store_devices"] == Double(stats.devices), "\(metrics.filter { $0.key.contains("store") })")
        #expect(web.process.isRunning)
        print(
            "join flood: \(joins) joins in \(String(format: "%.1f", took)) s (\(Int(Double(joins) / took))/s): \(outcomes); store: \(devices) devices, \(stats.sessions) sessions, \(stats.fileBytes) bytes, expired \(stats.expiredDevices)"
        )
    }

    @Test(
        "what the gateway will not take: bodies over the bound (413 at once, even after Expect: 100-continue), a transfer coding it cannot frame (400), ids no game can have (404)"
    )
    func wrongRequests() async throws {
        let (daemon, web, _) = try await Self.gateway()
        // The daemon's directory holds the gateway's state and log: kept to the end.
        defer { withExtendedLifetime(daemon) {} }
        let port = web.port
        let impossible = [
            "/games/%zz", "/overlay/%25", "/games/a%00b/box", "/games/" + String(repeating: "a", count: 65),
            "/games/_tournament", "/games/a%2Fb",
        ]
        // Valid ids no game has yet: the page that waits for them.
        let possible = ["/games/g99", "/overlay/g99", "/games/g99/box", "/games/" + String(repeating: "a", count: 64)]
        let outcomes = try await onThread { () -> [String: Outcome] in
            var outcomes: [String: Outcome] = [:]
            /// Each on a connection of its own; a failure is recorded, not thrown, so every case is tried.
            func attempt(_ name: String, _ exchange: (LoopbackConnection) throws -> LoopbackResponse) {
                let start = ContinuousClock.now
                do {
                    let answer = try exchange(try LoopbackConnection(port: port))
                    outcomes[name] = Outcome(answer: answer, took: .now - start)
                } catch {
                    outcomes[name] = Outcome(failure: "\(error)", took: .now - start)
                }
            }
            let json = [("Content-Type", "application/json")]
            // 10 MB declared and sent: refused on its head, before the body is read.
            let tenMB = [UInt8](repeating: UInt8(ascii: "a"), count: 10 * 1024 * 1024)
            attempt("10 MB declared") {
                try $0.sendReadingMeanwhile(
                    LoopbackHTTP.request("POST", "/keep/join", port: port, headers: json, body: tenMB), seconds: 20
                ).0
            }
            // 10 MB chunked (no length to refuse on): the route's own bound, 4,096 bytes.
            var chunked = LoopbackHTTP.request(
                "POST", "/keep/join", port: port, headers: json + [("Transfer-Encoding", "chunked")])
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 65_536) + Array("\r\n".utf8)
            for _ in 0..<160 { chunked += chunk }
            chunked += Array("0\r\n\r\n".utf8)
            attempt("10 MB chunked") { try $0.sendReadingMeanwhile(chunked, seconds: 20).0 }
            // Over the join's bound and under the gateway's.
            attempt("5,000 bytes") {
                try $0.exchange(
                    "POST", "/keep/join", port: port, headers: json,
                    body: Array(#"{"pin": "\#(String(repeating: "A", count: 4_980))"}"#.utf8))
            }
            // A gigabyte announced, waiting for 100 Continue: answered at once instead.
            attempt("1 GB expecting 100-continue") {
                try $0.send(
                    LoopbackHTTP.request(
                        "POST", "/keep/join", port: port,
                        headers: json + [("Expect", "100-continue"), ("Content-Length", "1000000000")]))
                return try $0.readResponse(seconds: 10)
            }
            // A framing it cannot know the length of: served as if it had no body, its "body"
            // would be read as the next request (here one smuggled in). Refused, and nothing after.
            var smuggled = ""
            attempt("xchunked") {
                let answer = try $0.exchange(
                    "POST", "/keep/join", port: port, headers: json + [("Transfer-Encoding", "xchunked")],
                    body: LoopbackHTTP.request("GET", "/api/games", port: port))
                _ = $0.waitUntilEnded(seconds: 5)
                smuggled = $0.bufferedText
                return answer
            }
            for path in impossible + possible { attempt(path) { try $0.exchange("GET", path, port: port) } }
            outcomes["after xchunked"] = Outcome(failure: smuggled, took: .zero)
            return outcomes
        }
        for name in ["10 MB declared", "10 MB chunked", "5,000 bytes", "1 GB expecting 100-continue"] {
            let answer = outcomes[name]?.answer
            #expect(
                answer?.status == 413 && answer?.errorCode == "message_too_large",
                "\(name): \(String(describing: outcomes[name]))")
        }
        let gigabyte = outcomes["1 GB expecting 100-continue"]
        let took = (gigabyte?.took ?? .seconds(60)).inSeconds * 1000
        #expect(
            gigabyte?.answer?.continued == false && took < 1000,
            "100 Continue sent: \(String(describing: gigabyte?.answer?.continued)); answered after \(took) ms")
        let xchunked = outcomes["xchunked"]?.answer
        #expect(xchunked?.status == 400 && xchunked?.errorCode == "bad_request", "\(String(describing: outcomes["xchunked"]))")
        let smuggled = outcomes["after xchunked"]?.failure ?? ""
        #expect(xchunked?.closes == true && smuggled.isEmpty, "after the 400: \(smuggled.prefix(200))")
        for path in impossible {
            #expect(outcomes[path]?.answer?.status == 404, "\(path): \(String(describing: outcomes[path]))")
        }
        for path in possible {
            #expect(outcomes[path]?.answer?.status == 200, "\(path): \(String(describing: outcomes[path]))")
        }
        #expect(web.process.isRunning)
        print("wrong requests: 1 GB expecting 100-continue answered after \(String(format: "%.1f", took)) ms")
    }

    @Test(
        "800 event streams that never read while a keeper makes 600 events: /healthz and the keeper are served, a reading browser gets every event, and the stalled streams are let go"
    )
    func stalledEventStreams() async throws {
        let (daemon, web, pin) = try await Self.gateway()
        // The daemon's directory holds the gateway's state and log: kept to the end.
        defer { withExtendedLifetime(daemon) {} }
        let port = web.port
        let keeperAddress = "127.0.0.18"
        let cookie = try await Self.keeper(web, from: keeperAddress, pin: pin)
        // 800 streams from 16 addresses (50 from one, under the cap of 64), each with a receive
        // buffer of 4 KB, that are never read: under 1,024 descriptors in this process, which
        // other suites share (past 1,024, their URLSession requests failed); scripts/web-floods.py
        // runs the full 1,000 against a release build.
        let streams = 800
        let held = Held<[LoopbackConnection]>([])
        defer { held.value = [] }
        let request = LoopbackHTTP.request("GET", "/api/events", port: port, headers: [("Accept", "text/event-stream")])
        try await onThread {
            var connections: [LoopbackConnection] = []
            for index in 0..<streams {
                let connection = try LoopbackConnection(port: port, from: "127.0.0.\(2 + index % 16)", receiveBuffer: 4096)
                try connection.send(request)
                connections.append(connection)
            }
            held.value = connections
        }
        // Until the gateway has every stream's subscriber.
        let subscribed = try await poll(seconds: 30) {
            try await onThread { try Probe.metrics(port: port, source: "127.0.0.19")["courtside_web_browsers"] ?? 0 }
        } until: {
            $0 >= Double(streams)
        }
        #expect(subscribed >= Double(streams), "subscribers: \(subscribed)")

        let stop = StopFlag()
        defer { stop.raise() }
        let moves = 600
        // A browser that reads: it must get every event while the others do not read.
        // Its stream open (the first state read) before the first move: an event made before the
        // gateway had its subscriber would come in the state, not as an event, and be missed here.
        let following = StopFlag()
        let reading = ThreadRun {
            Probe.readEvents(port: port, source: "127.0.0.20", count: moves, seconds: 120, until: stop, following: following)
        }
        _ = try await poll(seconds: 30) {
            following.isRaised
        } until: {
            $0
        }
        let probing = ThreadRun { Probe.healthz(port: port, source: "127.0.0.19", every: .milliseconds(100), until: stop) }
        let kept = try await onThread {
            LoopbackKeeper.keep(port: port, source: keeperAddress, cookie: cookie, every: nil, count: moves, until: stop)
        }
        let madeEvents = ContinuousClock.now
        let events = try await reading.value
        stop.raise()
        let probes = try await probing.value

        let moveTimes = Latencies(kept.map(\.took))
        let probeTimes = Latencies(probes.map(\.took))
        #expect(
            kept.count == moves && kept.allSatisfy(\.ok),
            "\(kept.filter { !$0.ok }.prefix(3))\n\(Self.logs(daemon, web))")
        #expect(moveTimes.percentile(0.99) < 2000, "the keeper's \(moves) moves beside \(streams) stalled streams: \(moveTimes)")
        #expect(
            probes.count >= 3 && probes.allSatisfy { $0.status == 200 } && probeTimes.max < 5000,
            "/healthz: \(probeTimes), \(probes.filter { $0.status != 200 }.prefix(3))")
        #expect(events.events >= moves, "the reading browser's events: \(events.events) of \(moves), \(events.bytes) bytes")

        // A write that stalls 30 s closes its stream: every stalled one is let go, and only the
        // keeper's and the probe's connections stay (the reader's ended with its thread).
        let released = try await poll(seconds: 75) {
            try await onThread { try Probe.metrics(port: port, source: "127.0.0.19") }
        } until: {
            ($0["courtside_web_connections"] ?? .infinity) <= 3 && ($0["courtside_web_browsers"] ?? .infinity) == 0
        }
        let releasedAfter = (ContinuousClock.now - madeEvents).inSeconds
        #expect(
            (released["courtside_web_connections"] ?? .infinity) <= 3 && released["courtside_web_browsers"] == 0,
            "after \(releasedAfter) s: connections \(String(describing: released["courtside_web_connections"])), browsers \(String(describing: released["courtside_web_browsers"]))"
        )
        // Read at last, every stalled stream ends: its data, then the gateway's FIN (or a reset).
        let ended = try await onThread { () -> (Int, Int) in
            let watch = ConnectionWatch()
            for connection in held.value { watch.add(connection) }
            _ = watch.waitUntilAllEnded(seconds: 30)
            return (watch.connections.count - watch.open.count, watch.connections.count)
        }
        #expect(ended.0 == ended.1, "streams ended: \(ended.0) of \(ended.1)")
        #expect(web.process.isRunning)
        print(
            "stalled streams: \(streams) streams, \(moves) moves \(moveTimes); /healthz \(probeTimes); reader \(events.events) events, \(events.bytes) bytes; released \(String(format: "%.1f", releasedAfter)) s after the last move"
        )
    }
}

/// One request's answer, or why there was none, and how long it took.
struct Outcome: Sendable, CustomStringConvertible {
    var answer: LoopbackResponse?
    var failure: String?
    var took: Duration

    init(answer: LoopbackResponse, took: Duration) { (self.answer, self.took) = (answer, took) }
    init(failure: String, took: Duration) { (self.failure, self.took) = (failure, took) }

    var description: String { answer.map { "\($0)" } ?? "no answer: \(failure ?? "")" }
}

/// What a half-open flood saw, connection by connection.
struct HalfOpenFlood: Sendable {
    struct Answer: Sendable {
        /// 0: nothing came before the end.
        var status: Int
        var errorCode: String?
        var closes: Bool
        var answeredAfter: Duration?
        var endedAfter: Duration?
    }
    var answers: [Answer]
    var start: ContinuousClock.Instant
    var openedAll: ContinuousClock.Instant
    var lastEnded: ContinuousClock.Instant
    var allEnded: Bool

    init(watch: ConnectionWatch, start: ContinuousClock.Instant, openedAll: ContinuousClock.Instant, allEnded: Bool) {
        answers = watch.connections.indices.map { index in
            let response = watch.connections[index].bufferedResponse
            return Answer(
                status: response?.status ?? (watch.connections[index].buffered.isEmpty ? 0 : -1), errorCode: response?.errorCode,
                closes: response?.closes ?? false, answeredAfter: watch.firstByte[index].map { $0 - watch.opened[index] },
                endedAfter: watch.ended[index].map { $0 - watch.opened[index] })
        }
        (self.start, self.openedAll, self.allEnded) = (start, openedAll, allEnded)
        lastEnded = watch.ended.compactMap { $0 }.max() ?? .now
    }
}

/// A value handed from one thread to the next (never used by two at once).
final class Held<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A keeper's phone at an address of its own: joins Court 1 with its PIN, then sends moves on
/// a keep-alive connection (a new one when the gateway has closed the old).
final class LoopbackKeeper {
    let port: Int
    let source: String
    let cookie: String
    private var connection: LoopbackConnection?

    init(port: Int, source: String, cookie: String) {
        (self.port, self.source, self.cookie) = (port, source, cookie)
    }

    /// Joins with `pin` from `source`; the cookies to send after.
    static func join(port: Int, source: String, pin: String) throws -> String {
        let answer = try LoopbackConnection(port: port, from: source).exchange(
            "POST", "/keep/join", port: port, headers: [("Content-Type", "application/json")],
            body: LoopbackHTTP.json(["pin": pin, "name": "Keeper"]))
        guard answer.status == 200, answer.cookies["courtside_keeper"] != nil else {
            throw LoopbackError(kind: .system, description: "the keeper could not join: \(answer)")
        }
        return answer.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }

    /// A request on the keep-alive connection, sent again on a new one if the gateway had
    /// closed it (safe for a move: its command id makes a retry a no-op).
    func request(_ method: String, _ path: String, body: [UInt8]) throws -> LoopbackResponse {
        var attempt = 0
        while true {
            attempt += 1
            let connection = try self.connection ?? LoopbackConnection(port: port, from: source)
            self.connection = connection
            do {
                let answer = try connection.exchange(
                    method, path, port: port, headers: [("Content-Type", "application/json"), ("Cookie", cookie)], body: body)
                if answer.closes { self.connection = nil }
                return answer
            } catch let error as LoopbackError where attempt < 2 && error.kind != .timeout {
                self.connection = nil
            }
        }
    }

    /// Ann's rebound in g1 (a rebound scores nothing, so the game never ends).
    func move() throws -> LoopbackResponse {
        try request(
            "POST", "/api/keep/commands",
            body: LoopbackHTTP.json([
                "command_id": UUID().uuidString, "op": "move", "game": "g1", "player": "ann", "move": "rebound",
            ]))
    }

    struct Move: Sendable {
        var sent: ContinuousClock.Instant
        var took: Duration
        var ok: Bool
        var answer: String
    }

    /// Moves, one every `every` (back to back when nil) until `count` or `stop`; each with its
    /// round trip. The pace is a keeper's tapping, not a wait for anything.
    static func keep(
        port: Int, source: String, cookie: String, every: Duration?, count: Int = .max, until stop: StopFlag
    ) -> [Move] {
        let keeper = LoopbackKeeper(port: port, source: source, cookie: cookie)
        var moves: [Move] = []
        let start = ContinuousClock.now
        while moves.count < count, !stop.isRaised {
            if let every {
                let next = start + every * moves.count
                if next > .now { usleep(UInt32((next - .now).inSeconds * 1_000_000)) }
            }
            let sent = ContinuousClock.now
            do {
                let answer = try keeper.move()
                moves.append(
                    Move(
                        sent: sent, took: .now - sent, ok: answer.status == 200 && answer.json["ok"] as? Bool == true,
                        answer: "\(answer)"))
            } catch {
                moves.append(Move(sent: sent, took: .now - sent, ok: false, answer: "\(error)"))
            }
        }
        return moves
    }
}

/// The other guests of the floods: probes, guessers, joiners and readers, each blocking on
/// its own thread.
enum Probe {
    struct Sample: Sendable {
        var sent: ContinuousClock.Instant
        var took: Duration
        /// 0: no answer.
        var status: Int
        var detail: String
        /// `courtside_web_connections` just after, when asked.
        var connections: Double?
    }

    /// `/healthz` every `every` until `stop`, each time on a new connection as a load balancer
    /// asks; with `metrics`, `/metrics` after it on the same connection, for the connections the
    /// gateway holds at that moment (``Sample/connections``).
    static func healthz(port: Int, source: String, every: Duration, metrics: Bool = false, until stop: StopFlag) -> [Sample] {
        var samples: [Sample] = []
        let start = ContinuousClock.now
        while !stop.isRaised {
            let next = start + every * samples.count
            if next > .now { usleep(UInt32((next - .now).inSeconds * 1_000_000)) }
            let sent = ContinuousClock.now
            do {
                let connection = try LoopbackConnection(port: port, from: source)
                let answer = try connection.exchange("GET", "/healthz", port: port)
                var sample = Sample(sent: sent, took: .now - sent, status: answer.status, detail: answer.text)
                if metrics, !answer.closes {
                    let scrape = try connection.exchange("GET", "/metrics", port: port, headers: [("Connection", "close")])
                    sample.connections = prometheusSamples(scrape.text)?["courtside_web_connections"]
                }
                samples.append(sample)
            } catch {
                samples.append(Sample(sent: sent, took: .now - sent, status: 0, detail: "\(error)"))
            }
        }
        return samples
    }

    /// `/metrics`, parsed.
    static func metrics(port: Int, source: String) throws -> [String: Double] {
        let answer = try LoopbackConnection(port: port, from: source).exchange(
            "GET", "/metrics", port: port, headers: [("Connection", "close")])
        guard answer.status == 200, let samples = prometheusSamples(answer.text) else {
            throw LoopbackError(kind: .system, description: "/metrics: \(answer)")
        }
        return samples
    }

    /// Wrong passphrases posted to the desk from `source` until `stop`, each sent as soon as the
    /// last is answered; the answers by kind (`wrong`, `wait`, `busy`, or what else came).
    /// `POST /desk/login` with `passphrase` from `source`, asked again after each "busy" or
    /// "wait" for at most `seconds`; the last answer.
    static func signIn(port: Int, source: String, passphrase: String, seconds: Double) throws -> LoopbackResponse {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            let answer = try LoopbackConnection(port: port, from: source).exchange(
                "POST", "/desk/login", port: port,
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Origin", "http://127.0.0.1:\(port)")],
                body: Array(DeskTests.form([("passphrase", passphrase)])), seconds: 30)
            let again = ["/desk?login=busy", "/desk?login=wait"].contains { answer.location?.hasPrefix($0) == true }
            guard again, ContinuousClock.now < deadline else { return answer }
            Thread.sleep(forTimeInterval: 0.5)
        }
    }

    static func guessPassphrases(port: Int, source: String, until stop: StopFlag) -> [String: Int] {
        var answers: [String: Int] = [:]
        var connection: LoopbackConnection?
        var guess = 0
        while !stop.isRaised {
            guess += 1
            let fresh = connection == nil
            do {
                let open = try connection ?? LoopbackConnection(port: port, from: source)
                connection = open
                // A check being made is answered when done, which a machine busy with other work
                // may make take seconds.
                let answer = try open.exchange(
                    "POST", "/desk/login", port: port,
                    headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Origin", "http://127.0.0.1:\(port)")],
                    body: Array(DeskTests.form([("passphrase", "guess number \(guess) from \(source)")])), seconds: 30)
                if answer.closes { connection = nil }
                let location = answer.location ?? ""
                let kind =
                    answer.status != 303
                    ? "\(answer.status) \(answer.errorCode ?? answer.text.prefix(60).description)"
                    : location == "/desk?login=wrong"
                        ? "wrong"
                        : location.hasPrefix("/desk?login=wait")
                            ? "wait" : location.hasPrefix("/desk?login=busy") ? "busy" : location
                answers[kind, default: 0] += 1
            } catch {
                // The gateway closed a keep-alive connection between two guesses: not an answer.
                if fresh || (error as? LoopbackError)?.kind == .timeout {
                    answers["no answer: \(error)", default: 0] += 1
                }
                connection = nil
            }
        }
        return answers
    }

    /// `count` joins with Court 1's right PIN and no cookie, from `sources` in turn (one
    /// keep-alive connection each): JSON, a form, and the join link in turn. The answers by kind
    /// ("json 200", "form 303 wait", ...).
    static func join(port: Int, sources: [String], count: Int, first: Int, pin: String, token: String) throws -> [String: Int] {
        var answers: [String: Int] = [:]
        var connections: [String: LoopbackConnection] = [:]
        for index in 0..<count {
            let source = sources[index % sources.count]
            let kind = ["json", "form", "link"][(first + index) % 3]
            let (method, path, headers, body): (String, String, [(String, String)], [UInt8]?) =
                switch kind {
                case "json": ("POST", "/keep/join", [("Content-Type", "application/json")], LoopbackHTTP.json(["pin": pin]))
                case "form":
                    (
                        "POST", "/keep/join", [("Content-Type", "application/x-www-form-urlencoded")],
                        Array(DeskTests.form([("pin", pin), ("name", "Phone \(index)")]))
                    )
                default: ("GET", "/keep/join/\(token)", [], nil)
                }
            var answer: LoopbackResponse?
            var failure: (any Error)?
            for attempt in 1...2 where answer == nil {
                let connection = try connections[source] ?? LoopbackConnection(port: port, from: source)
                connections[source] = connection
                do {
                    answer = try connection.exchange(method, path, port: port, headers: headers, body: body)
                    if answer?.closes == true { connections[source] = nil }
                } catch {
                    // Closed between two requests (idle): once more on a new connection.
                    connections[source] = nil
                    failure = error
                    if (error as? LoopbackError)?.kind == .timeout { break }
                }
            }
            guard let answer else {
                answers["\(kind) no answer: \(failure.map { "\($0)" } ?? "")", default: 0] += 1
                continue
            }
            var label = "\(kind) \(answer.status)"
            if let code = answer.errorCode { label += " \(code)" }
            if let location = answer.location {
                label +=
                    location == "/keep"
                    ? " /keep"
                    : location.hasPrefix("/keep?pin=wait") || location.hasPrefix("/keep?pin=slow") ? " wait" : " \(location)"
            }
            answers[label, default: 0] += 1
        }
        return answers
    }

    /// Reads `/api/events` from `source` until `count` events (`event: event`) have come, or
    /// `seconds` pass, or `stop`.
    /// `following` is raised once the stream's first state has been read: the gateway has its
    /// subscriber from then on.
    static func readEvents(
        port: Int, source: String, count: Int, seconds: Double, until stop: StopFlag, following: StopFlag? = nil
    ) -> (events: Int, bytes: Int) {
        guard let connection = try? LoopbackConnection(port: port, from: source),
            (try? connection.send(LoopbackHTTP.request("GET", "/api/events", port: port))) != nil
        else { return (0, 0) }
        let deadline = ContinuousClock.now + .seconds(seconds)
        var events = 0
        var bytes = 0
        let marker = Array("\nevent: event\n".utf8)
        // The end of the last read, in case a marker straddles two reads.
        var tail: [UInt8] = []
        while events < count, ContinuousClock.now < deadline, !stop.isRaised {
            guard connection.waitUntilReadable(seconds: 1) else { continue }
            let open = connection.drain()
            let read = connection.take()
            bytes += read.count
            if following?.isRaised == false, String(decoding: read, as: UTF8.self).contains("event: state") {
                following?.raise()
            }
            let text = tail + read
            var index = 0
            while index + marker.count <= text.count {
                if text[index] == marker[0], text[index..<index + marker.count].elementsEqual(marker) { events += 1 }
                index += 1
            }
            // Short of a whole marker, so that no marker is counted twice.
            tail = Array(text.suffix(marker.count - 1))
            if !open { break }
        }
        return (events, bytes)
    }
}
