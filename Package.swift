// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Tapedeck",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Tapedeck", targets: ["Tapedeck"]),
        .library(name: "TapedeckTesting", targets: ["TapedeckTesting"]),
        .executable(name: "tapedeck", targets: ["tapedeck"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
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
        .target(name: "Tapedeck", dependencies: ["CCurl", .product(name: "Yams", package: "Yams")]),
        .target(name: "TapedeckTesting", dependencies: ["Tapedeck"]),
        .target(name: "TapedeckShell", dependencies: ["Tapedeck", "CLibEdit"]),
        .executableTarget(
            name: "tapedeck",
            dependencies: [
                "Tapedeck", "TapedeckShell",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "TapedeckBench",
            dependencies: ["Tapedeck", "TapedeckTesting", "TapedeckShell"],
            path: "Benchmarks/Sources/TapedeckBench"
        ),
        .testTarget(name: "TapedeckTests", dependencies: ["Tapedeck"], resources: [.copy("Fixtures")]),
        .testTarget(name: "TapedeckTestingTests", dependencies: ["TapedeckTesting", "Tapedeck"], exclude: ["__Cassettes__"], resources: [.copy("Fixtures")]),
        .testTarget(name: "TapedeckShellTests", dependencies: ["TapedeckShell", "Tapedeck"]),
        .testTarget(name: "TapedeckCLITests", dependencies: ["Tapedeck"]),
    ],
    swiftLanguageModes: [.v6]
)
