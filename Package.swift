// swift-tools-version: 6.1
import PackageDescription

// Layout (see README.md, "Architecture"):
//   RefreshKit      – the pure engine: physics, scroll model, edge controls, feed, session. No I/O, no clock.
//   RefreshWire     – the JSON protocol `refreshkit.v1`: decoding with validation, lean encoding.
//   CLibWebSockets  – Debian's libwebsockets 4.1.6 through pkg-config, plus a tiny shim header.
//   RefreshServer   – one libwebsockets context: static files from web/, the WebSocket, sessions, the tick.
//   refreshkit      – the command line (`serve`).
let package = Package(
    name: "RefreshKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RefreshKit", targets: ["RefreshKit"]),
        .executable(name: "refreshkit", targets: ["refreshkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .target(name: "RefreshKit"),
        .target(name: "RefreshWire", dependencies: ["RefreshKit"]),
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        .target(
            name: "RefreshServer",
            dependencies: [
                "RefreshKit", "RefreshWire", "CLibWebSockets",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "refreshkit",
            dependencies: [
                "RefreshKit", "RefreshWire", "RefreshServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "RefreshKitTests", dependencies: ["RefreshKit"]),
        .testTarget(name: "RefreshWireTests", dependencies: ["RefreshWire", "RefreshKit"]),
    ],
    swiftLanguageModes: [.v6]
)
