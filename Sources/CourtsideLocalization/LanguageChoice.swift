/// Which language a page speaks, from what the request says, most specific first:
/// `?lang=` (a TV or an overlay set up once), then the device's own choice (the `lang` cookie the
/// page's picker sets), then the browser's `Accept-Language`, then this gateway's default
/// (courtside-web's `--language`), then the venue's (the tournament config's `language:`), then
/// English. A value naming no shipped catalog is passed over, never an error: the next one decides.
public struct LanguageChoice: Sendable {
    /// The languages that have a catalog.
    public var available: Set<Language>
    /// This gateway's default, asked of courtside-web at its start; nil when none was.
    public var venue: Language?
    /// The venue's default from the tournament's config, as the daemon last said; read at each
    /// request, since the organiser may set it while the gateway runs.
    public var configured: @Sendable () -> Language?

    /// The cookie that keeps a device's choice across reloads and joins.
    public static let cookie = "lang"
    /// The query parameter a TV's or an overlay's address carries.
    public static let parameter = "lang"

    public init(
        available: Set<Language> = Set(Catalogs.shipped.keys), venue: Language? = nil,
        configured: @escaping @Sendable () -> Language? = { nil }
    ) {
        (self.available, self.venue, self.configured) = (available, venue, configured)
    }

    /// The language for a request with this query value, cookie and `Accept-Language` header.
    public func choose(query: String?, cookie: String?, acceptLanguage: String?) -> Language {
        for explicit in [query, cookie] {
            if let language = explicit.flatMap({ Language(tag: $0) }), available.contains(language) { return language }
        }
        if let header = acceptLanguage, let asked = AcceptLanguage(header).best(of: available) { return asked }
        for fallback in [venue, configured()] {
            if let fallback, available.contains(fallback) { return fallback }
        }
        return .english
    }
}
