import CourtsideLocalization
import CourtsideWebStore
import Foundation

/// The desk's page of join codes: each court's PIN and link, the devices that joined it (when
/// last seen, revoked or not, and those that expired lately), and the address the printable sheet's links start with. Built
/// from the store's rows with the time passed in, so it is tested without a gateway.
struct DeskCodesPage {
    struct Device {
        var name: String
        /// "10:42 (3 min ago)": in the venue's time, and how long ago.
        var joined: String
        var lastSeen: String
        var revoked: Bool
    }

    struct Court {
        var name: String
        /// "ACD-EFH", nil while the court has no code.
        var pin: String?
        var link: String?
        /// The code's number (0: none yet), which a new code's form names.
        var generation: Int
        var devices: [Device]
        /// The court's devices that expired lately, newest first (a full court, unused, unseen).
        var expired: [Expired] = []
        /// Stored, not computed: the template reads stored properties only.
        var anyExpired = false
        /// "(code 2)", after the PIN.
        var generationText = ""
        /// "No device has joined Court 1."
        var noDevices = ""
    }

    /// A device the store let go, and why: the organiser sees a flood of joins push them out.
    struct Expired {
        var name: String
        var when: String
        var reason: String
        /// "device-1: 10:42 (3 min ago), full court".
        var line: String
    }

    /// A change shown for confirmation first, its fields sent again with it.
    struct Confirm {
        var summary: String
        var fields: [DeskGateway.ConfirmPage.Field]
    }

    var lang: String
    var title: String
    var message: String?
    /// The address phones reach the gateway at, which the links start with.
    var baseURL: String
    var courts: [Court]
    var confirm: Confirm?
    var t: [String: String]
    var picker: LanguagePicker.Picker

    /// The page for `courts` (the daemon's, in its order; courts of `codes` and `devices` that
    /// it does not name follow), at `now`; `calendar` is the venue's.
    init(
        courts names: [String], codes: [JoinCode], devices: [(device: KeeperDevice, revoked: Bool)],
        expiries: [DeviceExpiry] = [], baseURL: String, message: String?, now: Date, calendar: Calendar = .current,
        words: Words = .english
    ) {
        (self.baseURL, self.message) = (baseURL, message)
        (lang, title, t) = (words.language.code, words(.deskCodesTitle), DeskWords.table(words))
        picker = LanguagePicker.picker(words, back: "/desk/codes")
        let all = (names + codes.map(\.court).sorted() + devices.map(\.device.court).sorted()).reduce(into: [String]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        courts = all.map { name in
            let code = codes.first { $0.court == name }
            var court = Court(
                name: name, pin: code?.printedPIN, link: code.map { JoinSheet.link($0, baseURL: baseURL) },
                generation: code?.generation ?? 0,
                devices: devices.filter { $0.device.court == name }.map { device, revoked in
                    Device(
                        name: device.name, joined: Self.time(device.joinedAt, now: now, calendar: calendar, words: words),
                        lastSeen: Self.time(device.lastSeen, now: now, calendar: calendar, words: words), revoked: revoked)
                },
                expired: expiries.filter { $0.court == name }.map {
                    let when = Self.time($0.expiredAt, now: now, calendar: calendar, words: words)
                    let reason = Self.reason($0.reason, words: words)
                    return Expired(
                        name: $0.name, when: when, reason: reason,
                        line: words(.deskCodesExpiredLine, ["device": $0.name, "when": when, "reason": reason]))
                })
            court.anyExpired = !court.expired.isEmpty
            court.generationText = words(.deskCodesGeneration, ["generation": words.number(court.generation)])
            court.noDevices = words(.deskCodesNoDevices, ["court": name])
            return court
        }
    }

    /// Why a device went, in `words`' language.
    static func reason(_ reason: DeviceExpiry.Reason, words: Words) -> String {
        switch reason {
        case .courtFull: words(.deskCodesExpiryCourtFull)
        case .unused: words(.deskCodesExpiryUnused)
        case .unseen: words(.deskCodesExpiryUnseen)
        default: words(.deskCodesExpiryRevoked)
        }
    }

    /// "10:42 (3 min ago)": the time in `calendar`'s time zone, and how long before `now`.
    static func time(_ date: Date, now: Date, calendar: Calendar, words: Words = .english) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let clock = "\(parts.hour ?? 0):\(String(format: "%02d", parts.minute ?? 0))"
        let seconds = Int(now.timeIntervalSince(date))
        let ago =
            switch seconds {
            case ..<60: words(.deskCodesJustNow)
            case ..<3600: words.plural(.deskCodesMinutesAgo, count: seconds / 60)
            case ..<86_400: words.plural(.deskCodesHoursAgo, count: seconds / 3600)
            default: words.plural(.deskCodesDaysAgo, count: seconds / 86_400)
            }
        return words(.deskCodesTime, ["clock": clock, "ago": ago])
    }

    /// The address the links start with: `typed` (from the page's form) when it is an http or
    /// https address, else nil; or, when nothing was typed, the address the desk was reached at.
    static func baseURL(typed: String?, host: String?, secure: Bool) -> String? {
        guard let typed = typed?.trimmingCharacters(in: .whitespaces), !typed.isEmpty else {
            return "\(secure ? "https" : "http")://\(host ?? "127.0.0.1:8080")"
        }
        guard typed.count <= 200, let url = URL(string: typed), url.scheme == "http" || url.scheme == "https",
            url.host?.isEmpty == false, url.query == nil, url.fragment == nil
        else { return nil }
        return JoinSheet.trimmed(typed)
    }
}
