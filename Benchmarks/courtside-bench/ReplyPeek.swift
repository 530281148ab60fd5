/// What a benchmark needs of a reply, read from its first bytes: decoding every reply (or a
/// 10 MB snapshot) with Foundation would spend the client's share of the two cores the daemon
/// is measured on. The daemon writes keys sorted, so `command_id` comes first and `ok` before
/// `snapshot`; anything these do not recognise the caller decodes in full to report it.
enum ReplyPeek {
    /// Whether a reply says `"ok":true`, read from its first members.
    static func isOK(_ reply: [UInt8]) -> Bool {
        // Bytes, not String's contains, which goes through NSString: a fifth of the keepers' CPU.
        let head = reply.prefix(1024)
        guard head.count >= ok.count else { return false }
        return (head.startIndex...(head.endIndex - ok.count)).contains { start in
            head[start..<(start + ok.count)].elementsEqual(ok)
        }
    }

    private static let ok = Array(#""ok":true"#.utf8)

    /// The command id of an `ok` reply; nil for anything else.
    static func acceptedCommandID(_ reply: [UInt8]) -> String? {
        let prefix = Array(#"{"command_id":""#.utf8)
        guard reply.starts(with: prefix), isOK(reply),
            let end = reply[prefix.count...].firstIndex(of: UInt8(ascii: "\""))
        else { return nil }
        return String(decoding: reply[prefix.count..<end], as: UTF8.self)
    }
}
