import Foundation
import HTTPTypes

/// Whether a request comes from another site: a page elsewhere must not keep score with a
/// volunteer's session (its cookie is SameSite=Strict as well). A request's `Origin` must name
/// the host it was sent to; browsers send it with every POST made by a script or a form.
enum CrossSiteCheck {
    /// Whether the request must be refused.
    static func isCrossSite(origin: String?, fetchSite: String?, host: String?) -> Bool {
        if fetchSite == "cross-site" { return true }
        guard let origin else { return false }
        guard let components = URLComponents(string: origin), let name = components.host, let host else { return true }
        // Compared as browsers write them: the host in lower case, an IPv6 address in brackets,
        // and the scheme's default port left out.
        let bracketed = name.contains(":") && !name.hasPrefix("[") ? "[\(name)]" : name
        let defaultPort = components.scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : $0 }
        let normalizedOrigin = (bracketed + (port.map { ":\($0)" } ?? "")).lowercased()
        let normalizedHost = host.lowercased()
        return normalizedOrigin != normalizedHost && normalizedOrigin + ":\(defaultPort)" != normalizedHost
    }
}
