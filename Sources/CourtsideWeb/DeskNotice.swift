import Hummingbird

/// What a desk page says at its top after a change: what came of it, or why it was not made
/// (the daemon's refusal with its code, or a form that could not be read). It travels in the
/// address the change redirects to (`?done=` or `?refused=`), so a reload shows it again and
/// posts nothing.
struct DeskNotice: Equatable {
    var text: String
    /// Whether the change was not made: shown as an alert.
    var refused: Bool

    /// The notice of a page's address, if it has one.
    init?(query: Parameters) {
        if let refused = query["refused"], !refused.isEmpty {
            (text, self.refused) = (String(refused), true)
        } else if let done = query["done"], !done.isEmpty {
            (text, refused) = (String(done), false)
        } else {
            return nil
        }
    }

    init(text: String, refused: Bool) { (self.text, self.refused) = (text, refused) }

    /// The address of `path` that shows this notice.
    func location(_ path: String) -> String {
        "\(path)?\(refused ? "refused" : "done")=\(DeskGateway.query(text))"
    }
}
