/// Which language a page speaks, from what the request says, most specific first:
/// `?lang=` (a TV or an overlay set up once), then the device's own choice (the `lang` cookie the
/// page's picker sets), then the browser's `Accept-Language`, then the venue's default
/// (courtside-web's `--language`), then English. A value naming no shipped catalog is passed
/// over, never an error: the next one decides.
public struct LanguageChoice: Sendable {
    /// The languages that have a catalog.
    public var available: Set<Language>
    /// The venue's default, asked of courtside-web at its start.
    public var venue: Language

    /// The cookie that keeps a device's choice across reloads and joins.
    public static let cookie = "lang"
    /// The query parameter a TV's or an overlay's address carries.
    public static let parameter = "lang"

    public init(available: Set<Language> = Set(Catalogs.shipped.keys), venue: Language = .english) {
        (self.available, self.venue) = (available, venue)
    }

    /// The language for a request with this query value, cookie and `Accept-Language` header.
    public func choose(query: String?, cookie: String?, acceptLanguage: String?) -> Language {
        for explicit in [query, cookie] {
            if let language = explicit.flatMap({ Language(tag: $0) }), available.contains(language) { return language }
        }
        if let header = acceptLanguage, let asked = AcceptLanguage(header).best(of: available) { return asked }
        return available.contains(venue) ? venue : .english
    }
}
