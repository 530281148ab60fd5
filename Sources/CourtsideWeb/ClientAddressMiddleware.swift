import HTTPTypes
public import Hummingbird

/// Puts the request's client address in the context (``ClientAddress``): the peer's, or behind a
/// trusted proxy the client its `X-Forwarded-For` names, for the limits that count per guest.
public struct ClientAddressMiddleware: RouterMiddleware {
    public let addresses: ClientAddress

    public init(_ addresses: ClientAddress) { self.addresses = addresses }

    public func handle(
        _ request: Request, context: GatewayRequestContext,
        next: (Request, GatewayRequestContext) async throws -> Response
    ) async throws -> Response {
        guard !addresses.trustedProxies.isEmpty else { return try await next(request, context) }
        var context = context
        context.clientAddress = addresses.client(
            peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: Self.forwardedFor])
        return try await next(request, context)
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
}
