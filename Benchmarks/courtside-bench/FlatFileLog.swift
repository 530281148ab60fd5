import CourtsideModel
import CourtsideStorage
import Foundation
import Synchronization

/// The cheapest durable log there is: each append is one `write` of the batch (a JSON array of
/// its events and refusals) and one `fdatasync`, to a file of its own. `courtside-bench library
/// --log flat` runs the library over it to show what the library's own work allows (its actors,
/// rules, retry memory and commits) once SQLite's row an event is taken out.
///
/// A benchmark's instrument, not a log to keep: write-only. It starts empty. What the library
/// reads as it opens is answered as of that moment: nothing (the retry memory's reading of the
/// answers may run after the first commit, as a read of SQLite's snapshot would). Any other read
/// after an append throws, so that a run that needed one (a retry from beyond the window, a
/// display's log) fails rather than be told a falsehood.
final class FlatFileLog: EventLog {
    /// Nil once closed.
    private let file: Mutex<SyncedFile?>
    private let appended = Atomic<Bool>(false)

    init(directory: URL) throws {
        file = Mutex(try SyncedFile(in: directory, name: "events.json"))
    }

    func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws {
        guard !events.isEmpty || !refusals.isEmpty else { return }
        var writer = JSONWriter(capacity: 160 * (events.count + refusals.count))
        writer.beginArray()
        for event in events {
            writer.beginObject()
            Self.field("sequence", Int(event.sequence), &writer)
            Self.field("game", event.gameID.rawValue, &writer)
            Self.field("version", event.version, &writer)
            Self.field("at", Int(event.at.rawValue), &writer)
            Self.origin(event.origin, &writer)
            writer.key("kind")
            event.kind.writeJSON(to: &writer)
            writer.endObject()
        }
        for refusal in refusals {
            writer.beginObject()
            Self.field("refused", refusal.gameID.rawValue, &writer)
            Self.origin(refusal.origin, &writer)
            Self.field("code", refusal.error.code.rawValue, &writer)
            writer.endObject()
        }
        writer.endArray()
        try file.withLock { file in
            guard let file else { throw BenchError("the flat log is closed") }
            try writer.withBytes { try file.append($0) }
        }
        appended.store(true, ordering: .relaxed)
    }

    private static func field(_ key: StaticString, _ value: String, _ writer: inout JSONWriter) {
        writer.key(key)
        writer.value(value)
    }

    private static func field(_ key: StaticString, _ value: Int, _ writer: inout JSONWriter) {
        writer.key(key)
        writer.value(value)
    }

    private static func origin(_ origin: CommandOrigin, _ writer: inout JSONWriter) {
        field("client_id", origin.clientID, &writer)
        field("command_id", origin.commandID, &writer)
    }

    /// The answers as of the opening: none. The retry memory adds those given since.
    func forEachAnswer(_ body: (LoggedAnswer) throws -> Void) throws {}

    func readAll() throws -> [GameEvent] {
        try checkNothingAppended()
        return []
    }

    func readRefusals() throws -> [CommandRefusal] {
        try checkNothingAppended()
        return []
    }

    func events(ofGame game: GameID) async throws -> [GameEvent] {
        try checkNothingAppended()
        return []
    }

    func contains(_ origin: CommandOrigin) async throws -> Bool {
        try checkNothingAppended()
        return false
    }

    /// A new log holds nothing; after an append, this one cannot say what it holds.
    private func checkNothingAppended() throws {
        guard !appended.load(ordering: .relaxed) else {
            throw BenchError("the flat log is write-only: a benchmark over it read what it wrote")
        }
    }

    /// Closes and removes the file.
    func close() throws {
        file.withLock { $0 = nil }
    }
}
