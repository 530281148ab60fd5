import Logging

/// A log handler that passes everything to `base` but one line of hummingbird-websocket's:
/// "Error handling upgrade result", which it logs at error level when a connection closes
/// before its upgrade's negotiation ended. Any guest can do that at will, and it is no fault
/// of the gateway's, so it goes at debug level: a guest cannot fill the log with errors.
struct UpgradeEndLogHandler: LogHandler {
    /// The library's message for a connection that ended mid-upgrade.
    static let upgradeEnded = "Error handling upgrade result"

    var base: any LogHandler

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard event.message.description == Self.upgradeEnded, event.level > .debug else {
            return base.log(event: event)
        }
        // Logger checked the error level against `logLevel`: the debug level must pass it too.
        guard base.logLevel <= .debug else { return }
        var demoted = event
        demoted.level = .debug
        base.log(event: demoted)
    }
}

extension Logger {
    /// This logger with hummingbird-websocket's "upgrade ended" line at debug level.
    var quietingUpgradeEnds: Logger {
        var logger = self
        logger.handler = UpgradeEndLogHandler(base: handler)
        return logger
    }
}
