// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for Courtside, kept out of the root package because libFuzzer supplies `main`:
// the root's `swift build` and `swift test` never see them. Build and run with scripts/fuzz.sh.
//
//   swift build -c debug -Xswiftc -sanitize=fuzzer,address --package-path Fuzz
//
// Each target is one `LLVMFuzzerTestOneInput` function and a `@main` that hands it to libFuzzer's
// driver through CFuzzDriver (SwiftPM renames an executable's `main`, so libFuzzer's own `main`
// cannot be used).
let swiftSettings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "CourtsideFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Courtside", path: "..")],
    targets: [
        // Calls LLVMFuzzerRunDriver, which is C.
        .target(name: "CFuzzDriver"),
        // Request.decode: every byte string a client can send on the command endpoint.
        .executableTarget(
            name: "FuzzRequestDecoder",
            dependencies: ["CFuzzDriver", .product(name: "CourtsideProtocol", package: "Courtside")],
            swiftSettings: swiftSettings
        ),
        // DaemonConfiguration.parse: every config file courtsided can be started or reloaded with.
        .executableTarget(
            name: "FuzzConfigLoader",
            dependencies: ["CFuzzDriver", .product(name: "CourtsideServer", package: "Courtside")],
            swiftSettings: swiftSettings
        ),
    ]
)
