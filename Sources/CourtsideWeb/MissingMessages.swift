import CourtsideLocalization
import Prometheus

/// The keys a page asked of a language whose catalog lacks them (each shown in English
/// instead), in `/metrics`, so a venue sees a catalog to finish: one gauge per language and key,
/// `courtside_web_missing_messages{language="ja",key="court.fouls"}`.
enum MissingMessages {
    static let name = "courtside_web_missing_messages"
    static let help = "Look-ups of a key the request's language's catalog lacks, shown in English instead"

    /// Sets each gauge to the count so far; called before each scrape.
    static func record(into registry: PrometheusCollectorRegistry) {
        for (entry, count) in Catalogs.missing {
            guard let colon = entry.firstIndex(of: ":") else { continue }
            let labels = [("language", String(entry[..<colon])), ("key", String(entry[entry.index(after: colon)...]))]
            registry.makeGauge(name: name, labels: labels, help: help).set(Int64(count))
        }
    }
}
