import Foundation
import Testing

/// The unit file as systemd itself reads it.
@Suite("the systemd units in systemd/")
struct SystemdUnitTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("systemd")
    static let unit = folder.appendingPathComponent("courtsided.service")
    /// Every unit shipped, with the executable it starts.
    static let units = [("courtsided.service", "courtsided"), ("courtside-web.service", "courtside-web")]

    /// Runs systemd-analyze and returns its exit status and combined output.
    func analyze(_ arguments: [String]) throws -> (Int32, String) {
        try ChildProcess.run("/usr/bin/systemd-analyze", arguments, mergeError: true)
    }

    @Test("systemd-analyze verify accepts it (with ExecStart pointing at the built binary)", arguments: units)
    func verify(unit: String, executable: String) throws {
        // verify wants the ExecStart binary to exist: check a copy that runs the one just built.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let built = DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent(executable).path
        let text = try String(contentsOf: Self.folder.appendingPathComponent(unit), encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/\(executable) ", with: "\(built) ")
        let copy = directory.appendingPathComponent(unit)
        try text.write(to: copy, atomically: true, encoding: .utf8)
        let (status, output) = try analyze(["verify", copy.path])
        #expect(status == 0, "\(output)")
        #expect(output.isEmpty, "systemd-analyze verify complained:\n\(output)")
    }

    @Test("the PostgreSQL drop-in, laid over courtsided.service, passes verify: its credential and Restart=always")
    func postgresDropIn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let built = DaemonProcess.executable.path
        let dropIn = try String(
            contentsOf: Self.folder.appendingPathComponent("courtsided.service.d/postgresql.conf"), encoding: .utf8)
        #expect(dropIn.contains("LoadCredential=postgresql.password:") && dropIn.contains("Restart=always"))
        // A drop-in's sections add to the unit's: verify reads them the same way appended.
        let text =
            try String(contentsOf: Self.unit, encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/courtsided ", with: "\(built) ") + "\n" + dropIn
        let copy = directory.appendingPathComponent("courtsided.service")
        try text.write(to: copy, atomically: true, encoding: .utf8)
        let (status, output) = try analyze(["verify", copy.path])
        #expect(status == 0 && output.isEmpty, "\(output)")
    }

    @Test("its hardening brings the exposure to 2.0 or less", arguments: units.map(\.0))
    func exposure(unit: String) throws {
        let (status, output) = try analyze(["security", "--offline=true", Self.folder.appendingPathComponent(unit).path])
        #expect(status == 0, "\(output)")
        let line = try #require(output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        // "Overall exposure level for courtsided.service: 1.4 OK :-)", where the smiley depends on TERM.
        let score = try #/service: (?<score>[0-9.]+)/#.firstMatch(in: line).flatMap { Double($0.output.score) }
        let exposure = try #require(score, "cannot read \(line)")
        #expect(exposure <= 2.0)
    }

    @Test("it has the settings the operators rely on")
    func settings() throws {
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
        for setting in [
            "Type=notify", "WatchdogSec=", "Restart=on-failure", "DynamicUser=yes", "StateDirectory=courtside",
            "ExecReload=/bin/kill -HUP $MAINPID", "TimeoutStopSec=", "--config /etc/courtside/",
            "LoadCredential=server.key_secret:", "--server-certificate %d/server.key_secret",
        ] {
            #expect(text.contains(setting), "missing \(setting)")
        }
    }

    @Test("the gateway's unit keeps its state in its StateDirectory and raises the descriptor limit")
    func gatewaySettings() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("courtside-web.service"), encoding: .utf8)
        for setting in ["StateDirectory=courtside-web", "--state-dir %S/courtside-web", "LimitNOFILE=65536", "DynamicUser=yes"] {
            #expect(text.contains(setting), "missing \(setting)")
        }
        #expect(!text.contains("keeps no state"), "the gateway keeps join codes, devices and sessions")
    }
}
