import CourtsideLocalization
import Foundation
import HTTPTypes
import Hummingbird

/// The language picker a page shows: a form per page that posts the device's choice to
/// `/lang`, which keeps it in the `lang` cookie (a year, every path) and sends the browser back
/// to the page it came from. Works without script.
enum LanguagePicker {
    /// One language the picker offers, named in its own words ("日本語").
    struct Choice {
        var code: String
        var name: String
        var current: Bool
    }

    /// What a page's picker binds: its label in the page's language and every language offered.
    struct Picker {
        var label: String
        var back: String
        var choices: [Choice]
    }

    /// The picker of a page at `back` in `words`' language.
    static func picker(_ words: Words, back: String) -> Picker {
        Picker(
            label: words(.languageLabel), back: back,
            choices: Catalogs.languages.map {
                Choice(code: $0.code, name: Words.of($0)(.languageName), current: $0 == words.language)
            })
    }

    /// Adds `POST /lang`, which the picker's form sends (`lang`, `back`).
    static func addRoute(to router: Router<GatewayRequestContext>) {
        router.post("/lang") { request, _ -> Response in
            let body = try await BodyReading.collect(request, upTo: 1024)
            let fields = FormFields.parse(Array(buffer: body)) ?? [:]
            guard let language = fields["lang"].flatMap({ Language(tag: $0) }), Catalogs.catalog(language) != nil else {
                return WebGateway.text("lang must name one of \(Catalogs.languages.map(\.code))\n", status: .badRequest)
            }
            var response = Response(status: .seeOther)
            response.headers[.location] = localPath(fields["back"])
            response.headers[values: .setCookie].append(
                Cookie(
                    name: LanguageChoice.cookie, value: language.code, maxAge: 365 * 24 * 3600, path: "/", sameSite: .lax
                ).description)
            return response
        }
    }

    /// `back` when it is a path on this gateway, else `/`: the form must not send a browser elsewhere.
    static func localPath(_ back: String?) -> String {
        guard let back, back.hasPrefix("/"), !back.hasPrefix("//"), !back.contains("\\"),
            !back.contains(where: { $0.isNewline })
        else { return "/" }
        return back
    }
}
