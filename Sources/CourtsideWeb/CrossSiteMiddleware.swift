import HTTPTypes
public import Hummingbird

/// Refuses, before any route reads it, a POST from another site (``CrossSiteCheck``): every
/// POST the gateway takes changes something (a move, a join, a desk decision), and a page
/// elsewhere must not make one with a volunteer's or the organiser's session, whose cookies are
/// SameSite=Strict as well. One check for every route, those added later included.
public struct CrossSiteMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method == .post, Self.isCrossSite(request) else { return try await next(request, context) }
        return KeeperGateway.error(.forbidden, "a request from another site is refused", status: .forbidden)
    }

    static func isCrossSite(_ request: Request) -> Bool {
        CrossSiteCheck.isCrossSite(
            origin: request.headers[.origin], fetchSite: request.headers[HTTPField.Name("Sec-Fetch-Site")!],
            host: request.head.authority)
    }
}
