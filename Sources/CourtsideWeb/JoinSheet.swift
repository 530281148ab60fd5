public import CourtsideLocalization
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
        var lead: String
        /// The steps' words before and after the address, in the language's own order.
        var stepsBefore: String
        var stepsAfter: String
        /// Which court, which code, when printed.
        var small: String
    }

    struct Sheet {
        var lang: String
        var title: String
        var style: String
        var cards: [Card]
    }

    /// The sheet for `codes`, whose links start with `baseURL` (the address phones reach the
    /// gateway at, such as `http://192.168.1.20:8080`), in `words`' language; `printed` on a
    /// 24-hour clock in this machine's time zone (the venue's).
    public static func html(
        _ codes: [JoinCode], baseURL: String, tournament: String, now: Date = Date(), words: Words = .english
    ) throws -> String {
        let base = trimmed(baseURL)
        let parts = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute], from: now)
        let printed = String(
            format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0)
        let (stepsBefore, stepsAfter) = words.around(.sheetSteps, placeholder: "url")
        let cards = try codes.map { code in
            Card(
                court: code.court, qr: try QRCode(link(code, baseURL: base)).svg(), keepURL: "\(base)/keep", pin: code.printedPIN,
                lead: words(.sheetLead), stepsBefore: stepsBefore, stepsAfter: stepsAfter,
                small: words(
                    .sheetSmall, ["court": code.court, "generation": words.number(code.generation), "printed": printed]))
        }
        return Pages.render(
            "join-sheet",
            Sheet(
                lang: words.language.code, title: words(.sheetTitle, ["tournament": tournament]),
                style: String(decoding: PackageResources.join_sheet_css, as: UTF8.self), cards: cards))
    }

    /// The link a court's QR code holds: opening it joins the court.
    public static func link(_ code: JoinCode, baseURL: String) -> String { "\(trimmed(baseURL))/keep/join/\(code.token)" }

    /// The base address without a trailing slash, so links never hold `//`.
    static func trimmed(_ baseURL: String) -> String { baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL }
}
