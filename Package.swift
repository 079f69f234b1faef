// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "GGTracker",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "ggtracker", targets: ["ggtracker"]),
        .executable(name: "ggtracker-fuzz", targets: ["GGTrackerFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib"),
        .target(name: "GGTrackerCore"),
        .target(
            name: "GGTrackerStorage",
            dependencies: [
                "GGTrackerCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "GGTrackerCatalog",
            dependencies: [
                "GGTrackerCore",
                "GGTrackerStorage",
                "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            resources: [.copy("Resources/catalog.jsonl.gz")]
        ),
        .target(
            name: "GGTrackerServer",
            dependencies: [
                "GGTrackerCore",
                "GGTrackerStorage",
                "GGTrackerCatalog",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "ggtracker",
            dependencies: [
                "GGTrackerServer",
                "GGTrackerBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Measurements (`ggtracker bench`), kept out of the code that serves.
        .target(
            name: "GGTrackerBench",
            dependencies: [
                "GGTrackerCore",
                "GGTrackerStorage",
                "GGTrackerCatalog",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The decoders under untrusted input, for the property tests and the libFuzzer entry point.
        .target(
            name: "GGTrackerFuzzing",
            dependencies: [
                "GGTrackerCore", "GGTrackerStorage", "GGTrackerCatalog", "GGTrackerServer",
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(name: "GGTrackerFuzz", dependencies: ["GGTrackerFuzzing"]),
        .testTarget(
            name: "GGTrackerCoreTests", dependencies: ["GGTrackerCore"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "GGTrackerStorageTests",
            dependencies: ["GGTrackerStorage", "GGTrackerCatalog", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "GGTrackerServerTests",
            dependencies: [
                "GGTrackerServer",
                "GGTrackerFuzzing",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// An async function of no particular isolation runs on its caller's executor (the event loop serving the request),
// rather than switching to the generic executor as it is called and back as it returns: each such switch is a job
// queued on the event loop.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
}
