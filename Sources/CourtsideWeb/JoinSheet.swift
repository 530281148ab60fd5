public import CourtsideWebStore
public import Foundation
import QREncode

/// The sheet an organiser prints: for each court a card with its join link as a QR code
/// (libqrencode) and its PIN in large type. One standalone HTML file (its style inlined), so it
/// prints from a laptop with no gateway running.
public enum JoinSheet {
    struct Card {
        var court: String
        var qr: String
        var keepURL: String
        var pin: String
        var generation: Int
        var printed: String
    }

    struct Sheet {
        var tournament: String
        var style: String
        var cards: [Card]
    }

    /// The sheet for `codes`, whose links start with `baseURL` (the address phones reach the
    /// gateway at, such as `http://192.168.1.20:8080`).
    public static func html(_ codes: [JoinCode], baseURL: String, tournament: String, now: Date = Date()) throws -> String {
        let base = trimmed(baseURL)
        let printed = ISO8601DateFormatter().string(from: now)
        let cards = try codes.map { code in
            Card(
                court: code.court, qr: try QRCode(link(code, baseURL: base)).svg(), keepURL: "\(base)/keep", pin: code.printedPIN,
                generation: code.generation, printed: printed)
        }
        return Pages.render(
            "join-sheet",
            Sheet(tournament: tournament, style: String(decoding: PackageResources.join_sheet_css, as: UTF8.self), cards: cards))
    }

    /// The link a court's QR code holds: opening it joins the court.
    public static func link(_ code: JoinCode, baseURL: String) -> String { "\(trimmed(baseURL))/keep/join/\(code.token)" }

    /// The base address without a trailing slash, so links never hold `//`.
    static func trimmed(_ baseURL: String) -> String { baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL }
}
