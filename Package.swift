// swift-tools-version: 6.1
import PackageDescription

/// One set of settings for every target: Swift 6 mode with strict concurrency everywhere.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Courtside",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CourtsideModel", targets: ["CourtsideModel"]),
        .library(name: "CourtsideLibrary", targets: ["CourtsideLibrary"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // The rules: plain values and pure functions, no I/O.
        .target(name: "CourtsideModel", swiftSettings: swiftSettings),
        // The durable, append-only event log (SQLite through GRDB).
        .target(
            name: "CourtsideStorage",
            dependencies: ["CourtsideModel", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        // The actor-based game library: many games, group commit, subscriptions.
        .target(
            name: "CourtsideLibrary",
            dependencies: [
                "CourtsideModel", "CourtsideStorage",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "CourtsideModelTests", dependencies: ["CourtsideModel"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CourtsideStorageTests",
            dependencies: ["CourtsideStorage", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourtsideLibraryTests",
            dependencies: ["CourtsideLibrary", "CourtsideStorage"],
            swiftSettings: swiftSettings
        ),
    ]
)
