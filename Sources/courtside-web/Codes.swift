import ArgumentParser
import CourtsideClient
import CourtsideLocalization
import CourtsideWeb
import CourtsideWebStore
import Foundation

/// `courtside-web codes`: the courts' join codes, which the organiser prints and renews.
struct Codes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Shows, renews and revokes the courts' join codes and the devices that joined.",
        discussion: """
            A volunteer joins a court by scanning its link (a QR code on the sheet) or typing its PIN at \\
            /keep; the device then keeps score on that court only. A new code for a court revokes every \\
            device that joined with the old one, at its next request: no restart or reload needed.

            Examples:
              courtside-web codes show --base-url http://192.168.1.20:8080
              courtside-web codes sheet --base-url http://192.168.1.20:8080 --output join-codes.html
              courtside-web codes new --court "Court 1"
              courtside-web codes devices --court "Court 1"
              courtside-web codes revoke ann-s-phone-3f9a
            """,
        subcommands: [Show.self, Sheet.self, New.self, Devices.self, Revoke.self])

    /// Where the running gateway keeps its state: the same directory as its --state-dir.
    struct StateOptions: ParsableArguments {
        @Option(
            help: ArgumentHelp("The gateway's state directory (its --state-dir; or $COURTSIDE_WEB_STATE_DIR).", valueName: "dir"))
        var stateDir = ProcessInfo.processInfo.environment["COURTSIDE_WEB_STATE_DIR"] ?? "web-data"

        func open() throws -> GatewayStore {
            do {
                return try GatewayStore(directory: URL(fileURLWithPath: stateDir, isDirectory: true))
            } catch {
                throw ValidationError("cannot open the gateway's state in \(stateDir): \(error)")
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Prints each court's PIN and join link (making a code for a court named that has none).")

        @OptionGroup var state: StateOptions
        @Option(help: ArgumentHelp("A court to show; repeat for several. Default: every court with a code.", valueName: "court"))
        var court: [String] = []
        @Option(help: ArgumentHelp("The address phones reach the gateway at, for the links.", valueName: "url"))
        var baseURL = "http://127.0.0.1:8080"

        func run() async throws {
            let store = try state.open()
            var codes = try await store.codes()
            for name in court where !codes.contains(where: { $0.court == name }) { codes.append(try await store.code(for: name)) }
            if !court.isEmpty { codes = codes.filter { court.contains($0.court) } }
            guard !codes.isEmpty else {
                print("no court has a code yet: courtside-web codes show --court \"Court 1\" makes one")
                return
            }
            for code in codes.sorted(by: { $0.court < $1.court }) {
                print(
                    "\(code.court)  PIN \(code.printedPIN)  \(JoinSheet.link(code, baseURL: baseURL))  (code \(code.generation))")
            }
        }
    }

    struct Sheet: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Writes the sheet to print: each court's QR code and PIN, one HTML file.",
            discussion: """
                The courts are those named with --court, or else every court of the daemon's games and \
                schedule (asked at --command-endpoint). A court without a code gets one. Open the file in \
                a browser and print it: two courts to a page.
                """)

        @OptionGroup var state: StateOptions
        @Option(help: ArgumentHelp("A court to print; repeat for several. Default: the daemon's courts.", valueName: "court"))
        var court: [String] = []
        @Option(help: ArgumentHelp("The address phones reach the gateway at, for the links.", valueName: "url"))
        var baseURL = "http://127.0.0.1:8080"
        @Option(help: ArgumentHelp("Where to write the sheet.", valueName: "file"))
        var output = "join-codes.html"
        @Option(help: ArgumentHelp("The title of the sheet.", valueName: "name"))
        var tournament = "Courtside"
        @Option(help: VenueLanguage.help)
        var language = VenueLanguage.fromEnvironment
        @Option(help: ArgumentHelp("courtsided's command endpoint, to learn its courts.", valueName: "url"))
        var commandEndpoint = ProcessInfo.processInfo.environment["COURTSIDE_COMMAND_ENDPOINT"] ?? Endpoints().command

        func validate() throws {
            guard let url = URL(string: baseURL), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ValidationError(
                    "--base-url takes the address phones reach the gateway at, such as http://192.168.1.20:8080")
            }
            if let language { _ = try VenueLanguage.language(language) }
        }

        func run() async throws {
            let courts = court.isEmpty ? try daemonCourts() : court
            guard !courts.isEmpty else { throw ValidationError("the daemon's games name no court: name them with --court") }
            let store = try state.open()
            var codes: [JoinCode] = []
            for name in courts { codes.append(try await store.code(for: name)) }
            let html = try JoinSheet.html(
                codes, baseURL: baseURL, tournament: tournament,
                words: Words(try language.map(VenueLanguage.language) ?? daemonLanguage() ?? .english))
            do {
                try html.write(toFile: output, atomically: true, encoding: .utf8)
            } catch {
                throw ValidationError("cannot write \(output): \(error.localizedDescription)")
            }
            print("wrote \(output): \(codes.map { "\($0.court) \($0.printedPIN)" }.joined(separator: ", "))")
        }

        /// The venue's language as the tournament's config names it (`language:`), asked of the
        /// daemon; nil when it names none or the daemon does not answer (the sheet is then English).
        private func daemonLanguage() -> Language? {
            let client = CommandClient(endpoint: commandEndpoint, clientID: "courtside-web-codes", attempts: 1)
            return (try? client.command(.tournament).tournament?.language).flatMap { Language(tag: $0) }
        }

        /// Every court the daemon's games and schedule name, in order of first appearance.
        private func daemonCourts() throws -> [String] {
            let client = CommandClient(endpoint: commandEndpoint, clientID: "courtside-web-codes", attempts: 1)
            do {
                let games = try client.command(.listGames).games ?? []
                let bracket = try client.command(.schedule).bracket ?? []
                var seen: [String] = []
                for name in bracket.compactMap(\.court) + games.compactMap(\.court) where !seen.contains(name) {
                    seen.append(name)
                }
                return seen
            } catch {
                throw ValidationError("\(error.message)\nName the courts with --court instead.")
            }
        }
    }

    struct New: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Gives a court a new code: every device that joined with the old one is revoked.")

        @OptionGroup var state: StateOptions
        @Option(help: ArgumentHelp("The court, as the schedule names it.", valueName: "court"))
        var court: String

        func run() async throws {
            let code = try await state.open().renewCode(for: court)
            print(
                "\(code.court): new PIN \(code.printedPIN) (code \(code.generation)); devices that joined before must join again")
        }
    }

    struct Devices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lists the devices that joined, newest first.")

        @OptionGroup var state: StateOptions
        @Option(help: ArgumentHelp("Only this court's devices.", valueName: "court"))
        var court: String?

        @Option(help: ArgumentHelp("How many of the devices that expired lately to list after them.", valueName: "n"))
        var expired = 20

        func run() async throws {
            let store = try state.open()
            let devices = try await store.devices(court: court)
            let format = ISO8601DateFormatter()
            if devices.isEmpty { print("no device has joined\(court.map { " \($0)" } ?? "")") }
            for (device, revoked) in devices {
                print(
                    "\(device.name)  \(device.court)  joined \(format.string(from: device.joinedAt))  "
                        + "last seen \(format.string(from: device.lastSeen))\(revoked ? "  REVOKED" : "")")
            }
            // A flood of joins with a court's PIN pushes its unused devices out: the organiser sees them go.
            let expiries = try await store.recentExpiries(court: court, limit: max(0, expired))
            if !expiries.isEmpty { print("expired lately (newest first):") }
            for expiry in expiries {
                print("  \(expiry.name)  \(expiry.court)  expired \(format.string(from: expiry.expiredAt))  \(expiry.reason)")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revokes one device (a lost phone), by its name.")

        @OptionGroup var state: StateOptions
        @Argument(help: ArgumentHelp("The device's name, as `codes devices` lists it.", valueName: "device"))
        var device: String

        func run() async throws {
            let store = try state.open()
            guard let found = try await store.devices().first(where: { $0.device.name == device || $0.device.id == device })
            else { throw ValidationError("no device is named \(device): `courtside-web codes devices` lists them") }
            _ = try await store.revoke(device: found.device.id)
            print(
                "\(found.device.name) revoked: its next request is refused; it may join again with \(found.device.court)'s code")
        }
    }
}
