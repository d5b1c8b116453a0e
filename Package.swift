// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Tapedeck",
    // Swift Testing and `Synchronization.Mutex` set the floor on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Tapedeck", targets: ["Tapedeck"]),
        .library(name: "TapedeckTesting", targets: ["TapedeckTesting"]),
        .library(name: "TapedeckCurl", targets: ["TapedeckCurl"]),
        .library(name: "TapedeckServer", targets: ["TapedeckServer"]),
        .executable(name: "tapedeck", targets: ["tapedeck"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
        // HTTPS for `serve` and `proxy` (a local CA, minted leaves, TLS on NIO): the server's target only.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // The core and the testing library build with Foundation and Yams alone, so an iOS or
        // macOS test target can depend on them; libcurl, libedit and NIO stay at the edges.
        .target(name: "Tapedeck", dependencies: [.product(name: "Yams", package: "Yams")]),
        // What the command line, the shell and the testing library print about cassettes (fixes
        // worded for where they are read, tables, lint, diffs, usage records): not app code's concern.
        .target(name: "TapedeckTooling", dependencies: ["Tapedeck"]),
        .target(name: "TapedeckTesting", dependencies: ["Tapedeck", "TapedeckTooling"]),
        .target(name: "TapedeckCurl", dependencies: ["Tapedeck", "CCurl"]),
        // Checking cassettes against an OpenAPI document: OpenAPIKit stays out of the core.
        .target(
            name: "TapedeckOpenAPI",
            dependencies: [
                "Tapedeck",
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(name: "TapedeckShell", dependencies: ["Tapedeck", "TapedeckTooling", "TapedeckOpenAPI", "CLibEdit"]),
        // `serve` and `proxy`: an HTTP front-end over any HTTPTransport, on swift-nio, with HTTPS
        // (a per-user CA, leaves minted per host, TLS interception) on swift-nio-ssl.
        .target(
            name: "TapedeckServer",
            dependencies: [
                "Tapedeck", "TapedeckTooling",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .executableTarget(
            name: "tapedeck",
            dependencies: [
                "Tapedeck", "TapedeckTooling", "TapedeckShell", "TapedeckCurl", "TapedeckServer", "TapedeckOpenAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "TapedeckBench",
            dependencies: ["Tapedeck", "TapedeckTooling", "TapedeckTesting", "TapedeckShell", "TapedeckCurl"],
            path: "Benchmarks/Sources/TapedeckBench"
        ),
        // Helpers the test targets share (loopback servers, server processes, the seeded
        // generator, the scratch folder): used by the test targets and the fuzzer, never a product.
        .target(name: "TapedeckTestSupport", path: "Tests/Support/Swift"),
        // Fuzzing: the targets and the seeded mutator (a short pass runs in the tests), and
        // the long pass `make fuzz` runs.
        .target(name: "TapedeckFuzzing", dependencies: ["Tapedeck", "TapedeckShell", "TapedeckTestSupport"], path: "Tests/Fuzz/Sources/TapedeckFuzzing"),
        .executableTarget(name: "tapedeck-fuzz", dependencies: ["TapedeckFuzzing"], path: "Tests/Fuzz/Sources/tapedeck-fuzz"),
        .testTarget(name: "TapedeckTests", dependencies: ["Tapedeck", "TapedeckTooling", "TapedeckCurl", "TapedeckTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "TapedeckTestingTests", dependencies: ["TapedeckTesting", "Tapedeck", "TapedeckTooling", "TapedeckTestSupport"], exclude: ["__Cassettes__"], resources: [.copy("Fixtures")]),
        .testTarget(name: "TapedeckShellTests", dependencies: ["TapedeckShell", "Tapedeck", "TapedeckTooling", "TapedeckFuzzing", "TapedeckTestSupport"]),
        .testTarget(name: "TapedeckCLITests", dependencies: ["Tapedeck", "TapedeckTestSupport"]),
        .testTarget(name: "TapedeckServerTests", dependencies: ["TapedeckServer", "Tapedeck", "TapedeckCurl", "TapedeckTesting", "TapedeckTestSupport"],
                    exclude: ["__Cassettes__"], resources: [.copy("Fixtures")]),
        // One cassette through every front-end (REPL line, run, withCassette, URLSession.replaying, serve).
        .testTarget(name: "TapedeckFrontEndTests",
                    dependencies: ["Tapedeck", "TapedeckTooling", "TapedeckShell", "TapedeckTesting", "TapedeckServer", "TapedeckTestSupport"]),
        .testTarget(name: "TapedeckOpenAPITests", dependencies: ["TapedeckOpenAPI", "Tapedeck"], resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
