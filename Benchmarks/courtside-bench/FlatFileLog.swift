import CourtsideModel
import CourtsideStorage
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The cheapest durable log there is: each append is one `write` of the batch (a JSON array of
/// its events and refusals) and one `fdatasync`, to a file of its own. `courtside-bench library
/// --log flat` runs the library over it to show what the library's own work allows (its actors,
/// rules, retry memory and commits) once SQLite's row an event is taken out.
///
/// A benchmark's instrument, not a log to keep: write-only. It starts empty, which is what the
/// library reads when it opens it; any read after an append throws, so a run that needed one
/// (a retry from beyond the window, a display's log) fails rather than being told a falsehood.
final class FlatFileLog: EventLog {
    private let fd: Int32
    private let path: String
    private let appended = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)

    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("events.json").path
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0o600)
        guard fd >= 0 else { throw BenchError("open \(path): \(String(cString: strerror(errno)))") }
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
        try writer.withBytes { bytes in
            var rest = bytes
            while !rest.isEmpty {
                let written = write(fd, rest.baseAddress, rest.count)
                guard written > 0 else { throw BenchError("write \(path): \(String(cString: strerror(errno)))") }
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            }
        }
        guard fdatasync(fd) == 0 else { throw BenchError("fdatasync \(path): \(String(cString: strerror(errno)))") }
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

    func close() throws {
        if !closed.exchange(true, ordering: .relaxed) { Glibc.close(fd) }
    }

    deinit {
        try? close()
        unlink(path)
    }
}
