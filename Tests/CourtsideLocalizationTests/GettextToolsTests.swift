import Foundation
import Testing

/// The catalogs as GNU gettext's own tools read them, the tools translators' editors build on:
/// if `msgfmt` accepts a file, Poedit and Weblate do too.
@Suite(
    "The catalogs pass gettext's msgfmt --check, and msgcmp finds every English key in Japanese and Korean",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt")))
struct GettextToolsTests {
    static let catalogs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/CourtsideLocalization/Resources/catalogs")

    /// Runs `tool` with `arguments`: its exit status and what it wrote to either stream.
    static func run(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = arguments
        let pipe = Pipe()
        (process.standardOutput, process.standardError) = (pipe, pipe)
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test("msgfmt --check: syntax, header, plural forms; no warning", arguments: ["en", "ja", "ko"])
    func msgfmt(_ language: String) throws {
        let path = Self.catalogs.appendingPathComponent("\(language).po").path
        let (status, output) = try Self.run("msgfmt", ["--check", "-o", "/dev/null", path])
        #expect(status == 0 && output.isEmpty, "\(output)")
    }

    @Test("msgcmp: every key of English is in the catalog (what a translator runs to list the missing)", arguments: ["ja", "ko"])
    func msgcmp(_ language: String) throws {
        let (status, output) = try Self.run(
            "msgcmp",
            [
                Self.catalogs.appendingPathComponent("\(language).po").path,
                Self.catalogs.appendingPathComponent("en.po").path,
            ])
        #expect(status == 0, "\(output)")
    }
}
