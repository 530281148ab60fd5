import CourtsideModel
import CourtsideProtocol
import NIOCore

/// The JSON error body of every gateway answer (docs/PROTOCOL.md, "courtside-web's keeper API"):
/// the protocol's failed reply, written by its own writer, for the answers the door writes
/// itself before Hummingbird sees a request (503 over a cap, 400/413/417 on a bad framing).
enum DoorAnswer {
    static func errorBody(_ code: CourtsideError.Code, _ message: String) -> ByteBuffer {
        ByteBuffer(bytes: WireCoding.encode(Reply.failure(CourtsideError(code, message), commandID: nil, epoch: "")))
    }
}
