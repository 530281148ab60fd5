import Foundation
import Testing

/// ARCHITECTURE's map of the files ("Where each file is") names every source file, and no file
/// that is gone: a newcomer finds a file there, and a file added without its line fails here.
@Suite("ARCHITECTURE's file map")
struct FileMapTests {
    @Test("every Swift file under Sources and Benchmarks has its line, and every line its file")
    func everyFile() throws {
        let repository = PlannedEventTests.repository
        let text = try String(
            contentsOf: repository.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let mapped = Set(
            text.split(separator: "\n").compactMap { line -> String? in
                let name = line.prefix { !$0.isWhitespace }
                return name.hasSuffix(".swift") ? String(name) : nil
            })
        var files = Set<String>()
        for folder in ["Sources", "Benchmarks"] {
            let root = repository.appendingPathComponent(folder)
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                if url.pathExtension == "swift" { files.insert(url.lastPathComponent) }
            }
        }
        #expect(!files.isEmpty)
        #expect(files.subtracting(mapped).sorted() == [], "files without a line in ARCHITECTURE's map")
        #expect(mapped.subtracting(files).sorted() == [], "lines in ARCHITECTURE's map whose file is gone")
    }
}
