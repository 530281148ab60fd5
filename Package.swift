// swift-tools-version: 6.1
import PackageDescription

/// One set of settings for every target: Swift 6 mode with strict concurrency everywhere.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The link of the two long-running services, the daemon and the gateway: LLVM's lld (shipped
/// with Swift) packing their relative relocations (RELR; glibc 2.36 and later load it). Each
/// start reads every relocation and keeps the pages resident: packed, the daemon's 1.6 MB of
/// them are 0.4 MB, and its RSS is about 2.5 MB less (docs/FIGURES.md, "Memory and restart").
let serviceLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])
]

let package = Package(
    name: "Courtside",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "courtsided", targets: ["courtsided"]),
        .executable(name: "courtside", targets: ["courtside"]),
        .executable(name: "courtside-web", targets: ["courtside-web"]),
        .executable(name: "courtside-admin", targets: ["courtside-admin"]),
        .library(name: "CourtsideClient", targets: ["CourtsideClient"]),
        .library(name: "CourtsideModel", targets: ["CourtsideModel"]),
        .library(name: "CourtsideLibrary", targets: ["CourtsideLibrary"]),
        .library(name: "CourtsideProtocol", targets: ["CourtsideProtocol"]),
        .library(name: "CourtsideServer", targets: ["CourtsideServer"]),
        .library(name: "ZeroMQ", targets: ["ZeroMQ"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // The rules: plain values and pure functions, no I/O.
        .target(name: "CourtsideModel", swiftSettings: swiftSettings),
        // Tournament formats as pure functions of the model: round robin, pools, knockouts, double
        // elimination, Swiss; the draw and its qualifiers.
        .target(name: "CourtsideFormats", dependencies: ["CourtsideModel"], swiftSettings: swiftSettings),
        // Fitting a tournament's games to the venue's courts and hours: pure, no I/O.
        .target(name: "CourtsidePlanning", dependencies: ["CourtsideModel"], swiftSettings: swiftSettings),
        // An event described in a few lines (divisions, teams, formats, courts, hours) drawn and
        // planned into the tournament's schedule; teams read from registration CSVs. Pure.
        .target(
            name: "CourtsideEvent",
            dependencies: [
                "CourtsideModel", "CourtsideFormats", "CourtsidePlanning", .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings),
        // Message catalogs (gettext .po, one per language), plural rules and language negotiation. Pure.
        .target(
            name: "CourtsideLocalization",
            // Embedded at build time, as the pages are: the executable alone serves every language.
            resources: [.embedInCode("Resources/catalogs")],
            swiftSettings: swiftSettings),
        // Threads of our own, named as top and perf show them.
        .target(name: "CourtsideThreads", swiftSettings: swiftSettings),
        // The durable, append-only event log (SQLite through GRDB).
        .target(
            name: "CourtsideStorage",
            dependencies: [
                "CourtsideModel", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // The same event log in PostgreSQL (postgres-nio), beside the SQLite one.
        .target(
            name: "CourtsidePostgres",
            dependencies: [
                "CourtsideStorage", "CourtsideModel",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Events, refusals and games for the event log's tests on either engine.
        .target(name: "CourtsideStorageTesting", dependencies: ["CourtsideModel"], swiftSettings: swiftSettings),
        // Throwaway PostgreSQL servers and pairs for tests, and the failover trial that the tests and a script run.
        .target(
            name: "CourtsidePostgresTesting",
            dependencies: [
                "CourtsidePostgres", "CourtsideStorageTesting", "CourtsideModel", "CourtsideThreads",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The actor-based game library: many games, group commit, subscriptions.
        .target(
            name: "CourtsideLibrary",
            dependencies: [
                "CourtsideModel", "CourtsideFormats", "CourtsideStorage", "CourtsideThreads",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HashTreeCollections", package: "swift-collections"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        // The wire format of docs/PROTOCOL.md: requests, replies, events, topics. No I/O.
        .target(name: "CourtsideProtocol", dependencies: ["CourtsideModel"], swiftSettings: swiftSettings),
        // libzmq from Debian's libzmq3-dev, and our thin Swift wrapper over it.
        .systemLibrary(
            name: "CZeroMQ",
            pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]
        ),
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ"], swiftSettings: swiftSettings),
        // The daemon's sockets: one I/O thread that owns every ZeroMQ socket.
        .target(
            name: "CourtsideTransport",
            dependencies: ["ZeroMQ", "CourtsideThreads", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // courtsided as a library: configuration, services, systemd integration.
        .target(
            name: "CourtsideServer",
            dependencies: [
                "CourtsideLibrary", "CourtsideProtocol", "CourtsideTransport", "CourtsideStorage", "CourtsideThreads",
                "CourtsidePostgres", "CourtsideLocalization",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "courtsided",
            dependencies: [
                "CourtsideServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings,
            linkerSettings: serviceLinkerSettings
        ),
        // An operator's tools for a stopped tournament's log: copy it between SQLite and PostgreSQL, compare two.
        .executableTarget(
            name: "courtside-admin",
            dependencies: [
                "CourtsideServer", "CourtsideStorage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The reference client of docs/PROTOCOL.md: keepers (Lazy Pirate) and displays (sync contract).
        .target(
            name: "CourtsideClient",
            dependencies: ["CourtsideModel", "CourtsideProtocol", "ZeroMQ"],
            swiftSettings: swiftSettings
        ),
        // Presentation: what a board shows, as plain strings and flags.
        .target(
            name: "CourtsideViewModels", dependencies: ["CourtsideClient", "CourtsideModel", "CourtsideLocalization"],
            swiftSettings: swiftSettings),
        // Views for a terminal: screens drawn from view models, the board and the keeper's loops.
        .target(
            name: "CourtsideTerminal",
            dependencies: ["CourtsideClient", "CourtsideViewModels", "CourtsideProtocol", "ZeroMQ"],
            swiftSettings: swiftSettings
        ),
        // Presentation for browsers: the gateway's live copy of the daemon, its pages and its HTTP API.
        .target(
            name: "CourtsideWeb",
            dependencies: [
                "CourtsideClient", "CourtsideModel", "CourtsideProtocol", "CourtsideThreads", "CourtsideViewModels",
                "CourtsideWebStore", "QREncode", "CourtsideEvent", "CourtsidePlanning", "CourtsideLocalization",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            // Pages, style and script as files, embedded at build time: served from the
            // executable alone (PackageResources.<file_name>).
            resources: [.embedInCode("Resources/templates"), .embedInCode("Resources/static")],
            swiftSettings: swiftSettings
        ),
        // libqrencode from Debian's libqrencode-dev, and our thin Swift wrapper that draws its codes.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .target(name: "QREncode", dependencies: ["CQRencode"], swiftSettings: swiftSettings),
        // The web gateway's own state on disk: courts' join codes, devices, sessions (GRDB).
        .target(
            name: "CourtsideWebStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "courtside-web",
            dependencies: [
                "CourtsideWeb", "CourtsideWebStore", "CourtsideClient", "CourtsideModel", "ZeroMQ", "CourtsideLocalization",
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings,
            linkerSettings: serviceLinkerSettings
        ),
        // Results, standings, box scores and play-by-play as CSV or JSON, derived from the log.
        .target(name: "CourtsideExport", dependencies: ["CourtsideModel"], swiftSettings: swiftSettings),
        // A tournament played through the protocol, for demos and load.
        .target(
            name: "CourtsideSimulator",
            dependencies: ["CourtsideClient", "CourtsideModel", "CourtsideProtocol"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "courtside",
            dependencies: [
                "CourtsideClient", "CourtsideViewModels", "CourtsideTerminal", "CourtsideSimulator", "CourtsideExport",
                "CourtsideEvent", "CourtsidePlanning",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        // Benchmarks that print figures (never timed tests): swift run -c release courtside-bench --help
        .executableTarget(
            name: "courtside-bench",
            dependencies: [
                "CourtsideLibrary", "CourtsideStorage", "CourtsideProtocol", "CourtsideSimulator", "CourtsideClient", "ZeroMQ",
                "CZeroMQ", "CourtsidePostgres", "CourtsidePostgresTesting", "CourtsidePlanning",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Benchmarks/courtside-bench",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "CourtsideModelTests", dependencies: ["CourtsideModel"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CourtsideFormatsTests", dependencies: ["CourtsideFormats", "CourtsideModel"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CourtsideEventTests",
            dependencies: ["CourtsideEvent", "CourtsideModel", "CourtsidePlanning", "CourtsideFormats"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "CourtsidePlanningTests", dependencies: ["CourtsidePlanning", "CourtsideModel"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CourtsideStorageTests",
            dependencies: ["CourtsideStorage", "CourtsideStorageTesting", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        // The event log's suite on both engines; starts throwaway PostgreSQL servers of its own.
        .testTarget(
            name: "CourtsidePostgresTests",
            dependencies: [
                "CourtsidePostgres", "CourtsidePostgresTesting", "CourtsideStorage", "CourtsideStorageTesting",
                "CourtsideLibrary",
                "CourtsideModel",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourtsideLibraryTests",
            dependencies: [
                "CourtsideLibrary", "CourtsideStorage", "CourtsideExport", "CourtsideThreads", "CourtsideFormats",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourtsideProtocolTests",
            dependencies: ["CourtsideProtocol", "CourtsideServer", "ZeroMQ"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CourtsideWebTests",
            dependencies: [
                "CourtsideWeb", "CourtsideViewModels", "CourtsideEvent", "CourtsideModel", "CourtsideLocalization",
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "CourtsideLocalizationTests", dependencies: ["CourtsideLocalization"], swiftSettings: swiftSettings),
        .testTarget(name: "QREncodeTests", dependencies: ["QREncode"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CourtsideWebStoreTests",
            dependencies: [
                "CourtsideWebStore", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourtsideServerTests",
            dependencies: [
                "CourtsideServer", "CourtsideLibrary", "CourtsideStorage", "CourtsideTransport", "CourtsideModel",
                "CourtsideProtocol", .product(name: "Logging", package: "swift-log"), .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourtsideViewModelsTests",
            dependencies: [
                "CourtsideViewModels", "CourtsideClient", "CourtsideModel", "CourtsideProtocol", "CourtsideTerminal",
                "CourtsideFormats",
            ],
            swiftSettings: swiftSettings
        ),
        // Starts the real courtsided and talks to it over TCP, from Swift and from Python; runs
        // every benchmark at tiny sizes (BenchSmokeTests).
        .testTarget(
            name: "CourtsideDaemonTests",
            dependencies: [
                "courtsided", "courtside", "courtside-web", "courtside-admin", "courtside-bench", "ZeroMQ", "CourtsideProtocol",
                "CourtsideModel",
                "CourtsideClient", "CourtsideSimulator", "CourtsideWebStore", "CourtsidePostgresTesting", "CourtsideStorage",
                "CourtsideStorageTesting", "CourtsidePostgres", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
