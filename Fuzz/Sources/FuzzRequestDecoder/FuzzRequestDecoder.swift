import CFuzzDriver
import CourtsideProtocol
import Foundation

@main
enum FuzzRequestDecoder {
    /// libFuzzer's driver over the function below; every libFuzzer flag works (see scripts/fuzz.sh).
    static func main() {
        exit(courtside_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzRequestDecoder))
    }
}

/// One fuzz input: a request body as a client could send it on the command endpoint.
///
/// A typed `ProtocolError` is the right answer to a bad body. A finding is anything else: a
/// crash, a Swift runtime trap, an AddressSanitizer report, a timeout or a blown memory limit.
/// One extra check: a request that decodes must decode to the same request again from its own
/// encoding (what the reference client sends), or the encoder and decoder disagree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    let request: Request
    do {
        request = try Request.decode(body)
    } catch {
        // Typed: a ProtocolError with a documented code. Touch the message so that building it is fuzzed too.
        _ = error.description
        return 0
    }
    let encoded = request.encoded()
    // Escaping can make the encoding longer than the body; past the limit a re-decode is refused by design.
    guard encoded.count <= ProtocolLimits.maxRequestBytes else { return 0 }
    let again: Request
    do {
        again = try Request.decode(encoded)
    } catch {
        fatalError("round trip: \(String(decoding: encoded, as: UTF8.self)) does not decode: \(error)")
    }
    precondition(
        again.operation == request.operation, "round trip changed the operation: \(request.operation) -> \(again.operation)")
    precondition(again.origin == request.origin, "round trip changed the origin: \(request.origin) -> \(again.origin)")
    return 0
}
