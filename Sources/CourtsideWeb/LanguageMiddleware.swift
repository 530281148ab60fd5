public import CourtsideLocalization
import HTTPTypes
public import Hummingbird

/// Decides each request's language once, before any route reads it (``LanguageChoice``:
/// `?lang=`, the `lang` cookie, `Accept-Language`, the venue's default, English), and puts its
/// words in the context. A page's answer says which language it is in and that it varies with
/// the headers that chose it, so no cache hands a Japanese page to a Korean phone.
public struct LanguageMiddleware: RouterMiddleware {
    public let choice: LanguageChoice

    public init(_ choice: LanguageChoice) { self.choice = choice }

    public func handle(
        _ request: Request, context: GatewayRequestContext,
        next: (Request, GatewayRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        let language = choice.choose(
            query: request.uri.queryParameters[Substring(LanguageChoice.parameter)].map(String.init),
            cookie: request.cookies[LanguageChoice.cookie]?.value, acceptLanguage: request.headers[.acceptLanguage])
        context.words = Words.of(language)
        var response = try await next(request, context)
        if response.headers[.contentType]?.hasPrefix("text/html") == true {
            response.headers[.contentLanguage] = language.code
            response.headers[values: .vary].append("Accept-Language, Cookie")
        }
        return response
    }
}
