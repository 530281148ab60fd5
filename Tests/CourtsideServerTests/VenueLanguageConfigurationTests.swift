import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

@testable import CourtsideServer

/// The venue's language in the config (`language: ja`): a language a catalog speaks, refused
/// otherwise, and said in the tournament's read so the gateways speak it.
@Suite("the config's language: key")
struct VenueLanguageConfigurationTests {
    static let teams = ConfigurationTests.teams

    @Test("a language some catalog speaks is kept by its code; none given is none")
    func known() throws {
        #expect(try DaemonConfiguration.parse("language: ja\n" + Self.teams, file: "t.yaml").tournament.language == "ja")
        #expect(try DaemonConfiguration.parse("language: ko-KR\n" + Self.teams, file: "t.yaml").tournament.language == "ko")
        #expect(try DaemonConfiguration.parse(Self.teams, file: "t.yaml").tournament.language == nil)
    }

    @Test("a language no catalog has is refused naming the key and the languages there are", arguments: ["fr", "", "日本語"])
    func unknown(language: String) {
        do {
            _ = try DaemonConfiguration.parse("language: \"\(language)\"\n" + Self.teams, file: "t.yaml")
            Issue.record("language \(language) was accepted")
        } catch {
            #expect(error.description.hasPrefix("t.yaml: language: no catalog has"), "\(error.description)")
            #expect(error.description.hasSuffix("Courtside speaks en, ja, ko"), "\(error.description)")
        }
    }

    @Test("the tournament's setup carries it, and a file written from the setup reads back the same")
    func setupCarriesIt() throws {
        var setup = TournamentSetup(
            tournament: "Open", tieBreakers: [], courts: [], teams: [], groups: [], rounds: [], games: [])
        setup.language = "ja"
        let json = try JSONEncoder().encode(setup)
        #expect(String(decoding: json, as: UTF8.self).contains(#""language":"ja""#))
        #expect(try JSONDecoder().decode(TournamentSetup.self, from: json).language == "ja")
        setup.language = nil
        #expect(!String(decoding: try JSONEncoder().encode(setup), as: UTF8.self).contains("language"))
    }

    @Test("SIGHUP's reload puts a new language: in force, and takes one away")
    func reloaded() throws {
        let loaded = LoadedTournament(try DaemonConfiguration.parse(Self.teams, file: "t.yaml").tournament)
        _ = loaded.merge(try DaemonConfiguration.parse("language: ko\n" + Self.teams, file: "t.yaml").tournament)
        #expect(loaded.configuration.language == "ko")
        _ = loaded.merge(try DaemonConfiguration.parse(Self.teams, file: "t.yaml").tournament)
        #expect(loaded.configuration.language == nil)
    }
}
