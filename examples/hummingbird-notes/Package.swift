// swift-tools-version: 6.1
import PackageDescription

// RefreshKit served by a Hummingbird 2 app (docs/EMBEDDING.md, "In a Hummingbird app"): the adapter
// (`RefreshHummingbird`) and an example app with a route of its own beside the list (`refreshkit-hummingbird`).
// A package of its own, so that the main package's build never waits for SwiftNIO and Hummingbird.
//
// It depends on the repository's package by path. A path dependency's identity is its folder's name, which a
// clone chooses, so it is read here rather than written.
let repository = Context.packageDirectory + "/../.."
let repositoryIdentity = String(
    Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "refreshkit"
).lowercased()

let package = Package(
    name: "RefreshKitHummingbird",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RefreshHummingbird", targets: ["RefreshHummingbird"]),
        .executable(name: "refreshkit-hummingbird", targets: ["refreshkit-hummingbird"]),
    ],
    dependencies: [
        .package(path: repository),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    ],
    targets: [
        .target(
            name: "RefreshHummingbird",
            dependencies: [
                .product(name: "RefreshSessions", package: repositoryIdentity),
                .product(name: "RefreshWire", package: repositoryIdentity),
                .product(name: "RefreshFeeds", package: repositoryIdentity),
                .product(name: "RefreshStore", package: repositoryIdentity),
                // The front door the libwebsockets server's gate asks too (docs/HARDENING.md, "Who reaches what").
                .product(name: "RefreshAccess", package: repositoryIdentity),
                .product(name: "ServerClock", package: repositoryIdentity),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "RefreshKit", package: repositoryIdentity),
            ]),
        .executableTarget(
            name: "refreshkit-hummingbird",
            dependencies: [
                "RefreshHummingbird",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "RefreshAccess", package: repositoryIdentity),
                .product(name: "RefreshSessions", package: repositoryIdentity),
                .product(name: "RefreshStore", package: repositoryIdentity),
                .product(name: "RefreshFeeds", package: repositoryIdentity),
                .product(name: "RefreshKit", package: repositoryIdentity),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
