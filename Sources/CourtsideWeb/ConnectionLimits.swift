/// Counts the gateway's open connections, in all and per address, and decides whether a new one
/// is admitted. Pure: ``ConnectionGate`` keeps it under a lock and performs its decisions.
struct ConnectionLimits: Sendable {
    let maximum: Int
    let perAddress: Int
    /// Refused sockets left open for their 503 at most: a sixteenth of the cap (256 of 4,096),
    /// within the descriptors ``DescriptorLimit`` keeps back beside the cap.
    let maximumRefused: Int
    private(set) var total = 0
    /// Refused sockets still open for their 503.
    private(set) var refused = 0
    private var byAddress: [String: Int] = [:]
    /// Addresses held to ``maximum`` alone: trusted proxies, whose connections carry every guest's.
    let unbounded: Set<String>

    init(maximum: Int, perAddress: Int, unbounded: Set<String> = []) {
        self.maximum = max(1, maximum)
        self.perAddress = max(1, perAddress)
        self.unbounded = Set(unbounded.map(ClientAddress.normalized))
        maximumRefused = max(16, self.maximum / 16)
    }

    /// Whether a connection from an address is admitted, and if not, which bound it met.
    enum Decision: Sendable, Equatable {
        case admitted
        case full
        case addressFull
    }

    /// A connection from `address` opened: it is counted only when admitted.
    mutating func open(_ address: String) -> Decision {
        if total >= maximum { return .full }
        let count = byAddress[address, default: 0]
        if count >= perAddress && !unbounded.contains(address) { return .addressFull }
        total += 1
        byAddress[address] = count + 1
        return .admitted
    }

    /// An admitted connection from `address` closed.
    mutating func close(_ address: String) {
        guard let count = byAddress[address] else { return }
        total -= 1
        // Forgotten at zero, so a flood of addresses leaves nothing behind.
        byAddress[address] = count > 1 ? count - 1 : nil
    }

    /// Whether a refused socket may stay open to read its 503; past ``maximumRefused`` it is
    /// closed at once without one, so a flood of refusals cannot spend descriptors beyond the cap.
    mutating func holdRefused() -> Bool {
        guard refused < maximumRefused else { return false }
        refused += 1
        return true
    }

    /// A refused socket held for its 503 closed.
    mutating func releaseRefused() { refused = max(0, refused - 1) }

    /// Addresses with a connection open now.
    var addresses: Int { byAddress.count }
}
