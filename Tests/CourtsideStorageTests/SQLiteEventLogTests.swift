import CourtsideModel
import CourtsideStorage
import CourtsideStorageTesting
import Foundation
import GRDB
import Testing

@Suite("The SQLite event log")
struct SQLiteEventLogTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-log-\(UUID().uuidString)")

    // The round trip, refusals kept once, reasons and tournament changes, and the look-ups run
    // on SQLite and PostgreSQL alike: `EventLogEngineTests` in CourtsidePostgresTests. Here,
    // what is SQLite's own: its triggers through GRDB, and a torn write-ahead log.

    @Test("the log is append-only: updates and deletes are refused")
    func appendOnly() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try SQLiteEventLog(directory: directory)
        try log.append(LogFixtures.events(1...3), refusals: [LogFixtures.refusal])
        try log.close()
        let queue = try DatabaseQueue(path: directory.appendingPathComponent(SQLiteEventLog.fileName).path)
        #expect(throws: DatabaseError.self) { try queue.write { try $0.execute(sql: "DELETE FROM events") } }
        #expect(throws: DatabaseError.self) { try queue.write { try $0.execute(sql: "UPDATE events SET version = 9") } }
        #expect(try await queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM events") } == 3)
        #expect(throws: DatabaseError.self) { try queue.write { try $0.execute(sql: "DELETE FROM refusals") } }
        #expect(throws: DatabaseError.self) { try queue.write { try $0.execute(sql: "UPDATE refusals SET code = 'x'") } }
        // A duplicate sequence is refused too, and the batch leaves nothing behind.
        try queue.close()
        let reopened = try SQLiteEventLog(directory: directory)
        #expect(throws: DatabaseError.self) { try reopened.append(LogFixtures.events(3...4), refusals: []) }
        // Refused halfway through a batch: the rows before the duplicate are gone with it.
        #expect(throws: DatabaseError.self) {
            try reopened.append(LogFixtures.events(4...5) + LogFixtures.events(2...2), refusals: [])
        }
        #expect(try reopened.readAll() == LogFixtures.events(1...3))
        // The same prepared insert serves the next batch, and what it writes reads back whole
        // and is found by its command, ids beyond ASCII included.
        var next = LogFixtures.events(4...6)
        next[1].origin = CommandOrigin(clientID: "Zürich ⛹️", commandID: "ß-\u{7f}")
        try reopened.append(next, refusals: [])
        #expect(try reopened.readAll() == LogFixtures.events(1...3) + next)
        #expect(try await reopened.contains(next[1].origin))
        try reopened.close()
    }

    @Test("a batch goes in several statements of many rows: each row reads back as written, in order, and is found")
    func batchOfManyRows() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try SQLiteEventLog(directory: directory)
        // Two full statements and a part of one, each row's texts of its own lengths, so that a
        // value bound from the wrong place in the rows' shared buffer would show.
        var batch = LogFixtures.events(1...37)
        for index in batch.indices {
            batch[index].origin = CommandOrigin(
                clientID: "keeper-\(String(repeating: "é", count: index % 5))", commandID: "c\(index * 7919)")
        }
        try log.append(batch, refusals: [])
        #expect(try log.readAll() == batch)
        for event in [batch[0], batch[15], batch[16], batch[31], batch[32], batch[36]] {
            #expect(try await log.contains(event.origin))
        }
        // A duplicate in a later statement refuses the whole batch, the statements before it included.
        #expect(throws: DatabaseError.self) {
            try log.append(LogFixtures.events(38...60) + LogFixtures.events(5...5), refusals: [])
        }
        #expect(try log.readAll() == batch)
        try log.close()
    }

    @Test(
        "a write torn in the middle never corrupts what was committed before it",
        arguments: [0.3, 0.5, 0.9])
    func tornWrite(keepFraction: Double) throws {
        let crashed = directory.appendingPathComponent("crashed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let live = directory.appendingPathComponent("live")
        var log = try SQLiteEventLog(directory: live)
        try log.append(LogFixtures.events(1...50), refusals: [])
        try log.close()

        // Reopen and commit one more batch; while the log is still open, take its files as a
        // crash would leave them, with the write-ahead log cut part-way through that batch.
        log = try SQLiteEventLog(directory: live)
        try log.append(LogFixtures.events(51...400), refusals: [])
        try FileManager.default.createDirectory(at: crashed, withIntermediateDirectories: true)
        let database = SQLiteEventLog.fileName
        try FileManager.default.copyItem(at: live.appendingPathComponent(database), to: crashed.appendingPathComponent(database))
        let wal = try Data(contentsOf: live.appendingPathComponent(database + "-wal"))
        #expect(wal.count > 4096, "the batch should still be in the write-ahead log")
        try wal.prefix(Int(Double(wal.count) * keepFraction)).write(to: crashed.appendingPathComponent(database + "-wal"))
        try log.close()

        let recovered = try SQLiteEventLog(directory: crashed)
        let events = try recovered.readAll()
        // Everything committed before the torn batch is there; the torn batch is all or nothing.
        #expect(events == LogFixtures.events(1...50) || events == LogFixtures.events(1...400))
        #expect(events.count == 50)
        try recovered.close()
        let check = try DatabaseQueue(path: crashed.appendingPathComponent(database).path)
        #expect(try check.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        try check.close()
    }
}

@Suite("directories that survive a power loss")
struct DurableDirectoryTests {
    @Test("nested data directories are created and synced into their parents; an impossible one throws")
    func create() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-dir-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let nested = root.appendingPathComponent("a/b/data")
        try DurableDirectory.create(nested)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: nested.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        try DurableDirectory.create(nested)  // already there: fine
        let file = root.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        #expect(throws: (any Error).self) { try DurableDirectory.create(file.appendingPathComponent("data")) }
        #expect(throws: (any Error).self) { try DurableDirectory.sync(root.appendingPathComponent("missing")) }
    }
}
