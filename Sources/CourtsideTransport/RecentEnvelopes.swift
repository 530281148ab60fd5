/// The ROUTER envelopes of the peers that sent requests lately, so that a request from one of
/// them shares that peer's envelope instead of copying its routing id into two new arrays.
///
/// A keeper sends many requests over one connection, so nearly every request finds its
/// envelope here. A routing id names one peer of the socket, so an envelope found by its bytes
/// is that peer's; at most ``capacity`` are kept, the oldest replaced first.
struct RecentEnvelopes {
    /// Peers kept; a look-up compares the routing id with each.
    static let capacity = 64

    private struct Peer {
        /// The envelope without a delimiter: the routing id alone.
        var plain: [[UInt8]]
        /// The envelope with the empty delimiter frame, made when first needed.
        var delimited: [[UInt8]]?
    }

    private var peers: [Peer] = []
    private var oldest = 0

    /// Where `routingID`'s envelopes are kept, keeping them if they were not.
    mutating func index(of routingID: UnsafeRawBufferPointer) -> Int {
        for index in peers.indices where peers[index].plain[0].withUnsafeBytes({ $0.elementsEqual(routingID) }) {
            return index
        }
        let peer = Peer(plain: [Array(routingID)])
        guard peers.count == Self.capacity else {
            peers.append(peer)
            return peers.count - 1
        }
        defer { oldest = (oldest + 1) % Self.capacity }
        peers[oldest] = peer
        return oldest
    }

    /// The envelope kept at `index` (from ``index(of:)``), with the delimiter frame or without.
    mutating func envelope(at index: Int, delimited: Bool) -> [[UInt8]] {
        guard delimited else { return peers[index].plain }
        if let envelope = peers[index].delimited { return envelope }
        let envelope = peers[index].plain + [[]]
        peers[index].delimited = envelope
        return envelope
    }
}
