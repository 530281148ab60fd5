import Synchronization

/// The catalogs Courtside ships (`Resources/catalogs/<language>.po`, embedded in the executable
/// so a venue's machine needs no file beside it), and the count of keys looked up in a language
/// whose catalog lacks them.
public enum Catalogs {
    /// Every shipped catalog by language. English holds every key; a catalog that does not load
    /// is a build defect, found by the first test that reads it.
    public static let shipped: [Language: Catalog] = {
        let files: [(String, [UInt8])] = [
            ("en", PackageResources.en_po), ("ja", PackageResources.ja_po), ("ko", PackageResources.ko_po),
        ]
        var catalogs: [Language: Catalog] = [:]
        for (code, bytes) in files {
            let language = Language(tag: code)!
            do {
                catalogs[language] = try Catalog(language, po: String(decoding: bytes, as: UTF8.self))
            } catch {
                preconditionFailure("a shipped catalog does not load: \(error)")
            }
        }
        return catalogs
    }()

    /// The languages a page may be asked in, English first, then by code.
    public static var languages: [Language] {
        [.english] + shipped.keys.filter { $0 != .english }.sorted()
    }

    /// The catalog of `language`, if Courtside ships one.
    public static func catalog(_ language: Language) -> Catalog? { shipped[language] }

    private static let missingCounts = Mutex<[String: Int]>([:])

    /// How often each key was missing in a language, as "ja:court.fouls": each miss was shown in
    /// English instead, never as its key.
    public static var missing: [String: Int] { missingCounts.withLock { $0 } }

    static func countMissing(_ key: MessageKey, in language: Language) {
        missingCounts.withLock { $0["\(language):\(key.rawValue)", default: 0] += 1 }
    }
}
