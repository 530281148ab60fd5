extension GatewayStore {
    /// What bounds the store: devices per court, and how long a device is kept unused, unseen or
    /// revoked. A flood of joins with a court's PIN then costs that court its unused devices (each
    /// in the expiry log), never the disk.
    public struct Limits: Sendable, Equatable {
        /// The most devices a court keeps: a join beyond it expires the court's revoked devices
        /// first, then those that never sent a command, then the least recently seen.
        public var devicesPerCourt: Int
        /// A device that never sent a command goes once unseen this long (its page, open, is
        /// seen at each session check).
        public var unusedDevice: Duration
        /// Any device goes once unseen this long.
        public var unseenDevice: Duration
        /// A revoked device goes once unseen this long (it stays listed as revoked until then).
        public var revokedDevice: Duration
        /// The expiries the log keeps per court, newest first.
        public var expiriesPerCourt: Int

        /// 40 devices a court (a court needs a handful: its keepers, a spare, a replaced phone),
        /// unused ones for 2 hours, any for a week, revoked ones for a day, 100 expiries a court.
        public init(
            devicesPerCourt: Int = 40, unusedDevice: Duration = .seconds(2 * 3600), unseenDevice: Duration = .seconds(7 * 86400),
            revokedDevice: Duration = .seconds(86400), expiriesPerCourt: Int = 100
        ) {
            self.devicesPerCourt = max(1, devicesPerCourt)
            self.unusedDevice = unusedDevice
            self.unseenDevice = unseenDevice
            self.revokedDevice = revokedDevice
            self.expiriesPerCourt = max(1, expiriesPerCourt)
        }
    }
}

extension Duration {
    /// Seconds, as the store's times are kept (`timeIntervalSince1970`).
    var storeSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
