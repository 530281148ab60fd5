import ArgumentParser
import CourtsideLocalization
import Foundation

/// The venue's language, from `--language` or `COURTSIDE_LANGUAGE`: what a page speaks when
/// neither the address, the device nor the browser asks for another, and what the printed sheet
/// says. Refused at start unless a shipped catalog has it, so a typo never leaves a venue in English.
enum VenueLanguage {
    /// The option's default: the environment's, or none (the tournament config's `language:`,
    /// else English).
    static let fromEnvironment = ProcessInfo.processInfo.environment["COURTSIDE_LANGUAGE"]

    static let help = ArgumentHelp(
        "This gateway's language: en, ja or ko; by default the tournament config's `language:`, else English (each page may still be asked in another; see the README).",
        valueName: "language")

    /// The language `value` names, or a clear refusal naming those there are.
    static func language(_ value: String) throws -> Language {
        guard let language = Language(tag: value), Catalogs.catalog(language) != nil else {
            throw ValidationError(
                "--language \(value): no catalog has it; Courtside speaks \(Catalogs.languages.map(\.code).joined(separator: ", "))"
            )
        }
        return language
    }
}
