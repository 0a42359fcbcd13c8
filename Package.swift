// swift-tools-version: 6.1
import PackageDescription

// Layout (see README.md, "Repository layout"):
//   RefreshKit       – the pure engine: physics, the scroll model, edge controls, feed, the list model. No I/O, no clock.
//   RefreshWire      – the JSON protocol `refreshkit.v1`: JSON/ (the reader and writer of every JSON the server
//                      takes or makes), Messages/ (decoding with validation, lean encoding), Frames/ (shared frames,
//                      deltas, acks), Traces/ (the trace format and its recorder).
//   RefreshSessions  – the session host: the server's rules as a pure value (events in, actions out), the sessions
//                      and their members, the screens, and (Traces/) the recorded model that a replay drives the
//                      same way. Traces are not a target of their own: the format is written and read with the
//                      wire's JSON writer and reader, which the recorder inlines on every input, and the wire's
//                      `ServerMessage.trace` carries a recorder, so a RefreshTraces target would both need and be
//                      needed by RefreshWire; and the recorded model is read by the host on every input in place,
//                      which a module boundary between them would turn into copies of it.
//   RefreshHosting   – the host driver both transports run: the session host, its clock, the feed's workers, the
//                      store's writer and reader, and every action of the host's that is not I/O; a transport
//                      (the libwebsockets loop, the Hummingbird adapter) wakes, closes, arms timers and hops.
//   RefreshAccess    – the front door (docs/HARDENING.md, "Who reaches what"): one public value both transports ask.
//   CLibWebSockets   – Debian's libwebsockets 4.1.6 through pkg-config, plus a tiny shim header.
//   ServerClock      – the server's clock: the wall clock read once, advanced by the monotonic clock (µs since 1970).
//   RefreshServer    – the libwebsockets adapter: LibWebSockets/ (one context, its event loop and callbacks, the
//                      service loop that carries out the session host's actions), Hardening/ (the front door's
//                      policies), HTTP/, Feed/, Images/, Metrics/, Share/.
//   RefreshStore     – the session store (Redis through hiredis), written and read off the serving thread; any
//                      transport's (the libwebsockets server's, RefreshHummingbird's).
//   LinkSimulator    – `refreshkit link`: a user-space TCP proxy that delays, jitters, loses and stalls (docs/LINK.md).
//   RefreshFeeds     – the feed source API (docs/FEEDS.md) and its sources: SQLite, JSON Feed (read with the wire's
//                      JSON reader), simulated.
//   RefreshThreads   – the threads of the parts that work off the serving thread (the feeds', the images', the
//                      store's): one that can be joined, and a value shared under a lock.
//   CSQLite, CCurl   – Debian's libsqlite3 and libcurl through pkg-config (the SQLite source; JSON Feed fetching).
//   CJemalloc        – Debian's jemalloc through pkg-config: the allocator of the processes that serve.
//   AnchorScenarios  – the anchoring scenarios of `make bench` and their tests: the engine flung on a scripted feed.
//   refreshkit       – the command line (`serve`, `replay`, `link`, `post`, `feed show`).
//   RefreshHummingbird – the Hummingbird 2 adapter (docs/EMBEDDING.md, "In a Hummingbird app"): the session host
//                      behind a Hummingbird app's routes. Only it and its example (`refreshkit-hummingbird`,
//                      examples/hummingbird-notes) use SwiftNIO and Hummingbird: a build of any other product never
//                      compiles them, and the example shares every other module's build with the tests.
// The sanitizer builds (`make asan`, `make tsan`) set REFRESHKIT_SYSTEM_ALLOCATOR: a sanitizer brings an allocator
// of its own, and jemalloc linked beside it hands the sanitizer blocks it never allocated (docs/HARDENING.md,
// "Sanitizers"). Every other build serves with jemalloc.
let servesWithJemalloc = Context.environment["REFRESHKIT_SYSTEM_ALLOCATOR"] == nil

let package = Package(
    name: "RefreshKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RefreshKit", targets: ["RefreshKit"]),
        .library(name: "RefreshFeeds", targets: ["RefreshFeeds"]),
        // The session host and the wire (a transport of one's own), and the libwebsockets server that serves
        // them with an app's own feed source (docs/EMBEDDING.md).
        .library(name: "RefreshSessions", targets: ["RefreshSessions"]),
        .library(name: "RefreshWire", targets: ["RefreshWire"]),
        .library(name: "RefreshServer", targets: ["RefreshServer"]),
        // The front door both transports ask (the Hummingbird adapter too): docs/HARDENING.md.
        .library(name: "RefreshAccess", targets: ["RefreshAccess"]),
        // The session store's client (docs/SCALING.md): Redis through hiredis, off the serving thread.
        .library(name: "RefreshStore", targets: ["RefreshStore"]),
        // The clock a transport tells the session host the time by (RefreshHummingbird's too).
        .library(name: "ServerClock", targets: ["ServerClock"]),
        // The session host as a transport runs it: the feed, the store and every action that is not I/O
        // (docs/EMBEDDING.md, "A transport of one's own").
        .library(name: "RefreshHosting", targets: ["RefreshHosting"]),
        // The session host served by a Hummingbird 2 app (docs/EMBEDDING.md, "In a Hummingbird app").
        .library(name: "RefreshHummingbird", targets: ["RefreshHummingbird"]),
        .executable(name: "refreshkit", targets: ["refreshkit"]),
        .executable(name: "refreshkit-hummingbird", targets: ["refreshkit-hummingbird"]),
    ],
    traits: [
        // The Hummingbird example's https and wss, with the ecosystem's TLS (NIOSSL, through HummingbirdTLS): off by
        // default, so that no other build compiles BoringSSL (`make run-hummingbird TLS=1` turns it on,
        // docs/HTTPS.md, "In a Hummingbird app").
        .trait(name: "TLS", description: "refreshkit-hummingbird serves https and wss with --tls-cert and --tls-key")
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // RefreshHummingbird's, and its example's only. Hummingbird without its default traits: the adapter reads no
        // swift-configuration, and every build of the example skips compiling that package.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        // The example's TLS only (the TLS trait): a build without it does not compile BoringSSL.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
    ],
    targets: [
        .target(name: "RefreshKit"),
        // The front door (docs/HARDENING.md, "Who reaches what"): origins, trusted proxies and the client's real
        // address, cross-site writes, who may read metrics, the security headers; one value both transports ask.
        .target(name: "RefreshAccess"),
        // The anchoring scenarios (docs/PERFORMANCE.md, "Rows: anchoring"): the real engine on a scripted feed,
        // flung while rows above the visible one change; `make bench` prints them, the tests hold them.
        .target(name: "AnchorScenarios", dependencies: ["RefreshKit"]),
        .target(name: "RefreshWire", dependencies: ["RefreshKit"]),
        // The feed source API and the sources that ship (docs/FEEDS.md); blocking I/O, run on a worker thread.
        // It reads JSON Feeds with the wire's reader (RefreshWire/JSON), as the server reads every JSON.
        .target(
            name: "RefreshFeeds",
            dependencies: ["RefreshKit", "RefreshWire", "RefreshAccess", "RefreshThreads", "CSQLite", "CCurl"]),
        // The threads of the parts that work off the serving thread (the feeds', the images', the store's): a thread
        // that can be joined, and a value shared under a lock ThreadSanitizer sees (docs/HARDENING.md, "Sanitizers").
        .target(name: "RefreshThreads"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The session host: the server's rules as a pure value (events in, actions out), no sockets, no clock.
        .target(
            name: "RefreshSessions",
            dependencies: [
                "RefreshKit", "RefreshWire", "CLibCrypto", "RefreshAccess",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // Debian's OpenSSL libcrypto: SHA-256 for the tokens a shared store keeps (RefreshSessions/Store).
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // The server's allocator (docs/PERFORMANCE.md, "The allocator"): linked by RefreshServer, so every process
        // that serves (and RefreshServerTests) allocates with it; the bench, the generator and lws-echo keep glibc's.
        .systemLibrary(name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
        // The session store's client (docs/SCALING.md).
        .systemLibrary(
            name: "CHiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        // The WebSocket echo that `refreshkit serve --echo-protocol` (Autobahn) and `lws-echo` (the bench's floor)
        // both serve.
        .target(
            name: "LWSEcho",
            dependencies: ["CLibWebSockets", .product(name: "DequeModule", package: "swift-collections")]),
        // The session store (docs/SCALING.md): Redis through hiredis, written and read off the serving thread; no lws.
        .target(
            name: "RefreshStore",
            dependencies: [
                "RefreshSessions", "RefreshThreads", "CHiredis", .product(name: "Logging", package: "swift-log"),
            ]),
        // The time of the engine, the traces and the wire, comparable across machines (docs/SCALING.md).
        .target(name: "ServerClock"),
        // The host driver (docs/EMBEDDING.md, "A transport of one's own"): what both transports did alike, once.
        .target(
            name: "RefreshHosting",
            dependencies: [
                "RefreshKit", "RefreshSessions", "RefreshWire", "RefreshFeeds", "RefreshStore", "ServerClock",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "RefreshServer",
            dependencies: [
                "RefreshKit", "RefreshWire", "RefreshSessions", "CLibWebSockets", "CQREncode", "CHiredis",
                "LWSEcho", "ServerClock", "RefreshFeeds", "RefreshStore", "RefreshAccess", "RefreshThreads",
                "RefreshHosting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ] + (servesWithJemalloc ? ["CJemalloc"] : [])
        ),
        .target(
            name: "LinkSimulator",
            dependencies: ["RefreshKit", .product(name: "DequeModule", package: "swift-collections")]),
        .executableTarget(
            name: "refreshkit",
            dependencies: [
                "RefreshKit", "RefreshWire", "RefreshSessions", "RefreshServer", "LinkSimulator", "RefreshFeeds",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // examples/gitlog: an app's own feed source served by the library (`make run-gitlog`), with public API
        // only. A target here rather than a package of its own: built with the rest, it costs a test run seconds.
        .executableTarget(
            name: "refreshkit-gitlog", dependencies: ["RefreshServer", "RefreshFeeds", "RefreshKit"],
            path: "examples/gitlog"),
        // Where the page's node-test fixtures lie, and how a golden test writes them anew (both test targets).
        .target(name: "PageFixtures", path: "Tests/PageFixtures"),
        .testTarget(name: "RefreshKitTests", dependencies: ["RefreshKit", "PageFixtures"]),
        .testTarget(name: "AnchorScenariosTests", dependencies: ["AnchorScenarios", "RefreshKit"]),
        // The wire's frame and trace tests drive a recorded model (RefreshSessions' TracedListModel) to make them.
        .testTarget(
            name: "RefreshWireTests", dependencies: ["RefreshWire", "RefreshKit", "RefreshSessions", "PageFixtures"]),
        .testTarget(name: "LinkSimulatorTests", dependencies: ["LinkSimulator"]),
        // Fixtures/feeds: the feeds the reader's tests and e2e/feeds (against feedparser) read from their paths.
        .testTarget(
            name: "RefreshFeedsTests", dependencies: ["RefreshFeeds", "RefreshKit", "CSQLite"], exclude: ["Fixtures"]),
        .testTarget(
            name: "RefreshSessionsTests",
            dependencies: [
                "RefreshSessions", "RefreshWire", "RefreshKit",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "LWSEchoTests", dependencies: ["LWSEcho"]),
        .testTarget(name: "RefreshAccessTests", dependencies: ["RefreshAccess"]),
        .testTarget(name: "ServerClockTests", dependencies: ["ServerClock"]),
        .testTarget(
            name: "RefreshHostingTests",
            dependencies: [
                "RefreshHosting", "RefreshSessions", "RefreshFeeds", "RefreshStore", "RefreshKit",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The command lines' own rules (refreshkit's flags, the load generator's slices). Being in the test build,
        // the two programs' modules, and the argument parser, compile beside the libraries rather than one after
        // the other once the test build is done (README.md, "The two commands").
        .testTarget(
            name: "CommandLineTests",
            dependencies: [
                "refreshkit", "refreshkit-load", "RefreshServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // `make bench` (docs/PERFORMANCE.md): engine micro-benchmarks and the orchestration, the load
        // generator (lws client API), and the transport's floor (a bare lws echo server).
        .executableTarget(
            name: "refreshkit-bench",
            dependencies: [
                "RefreshKit", "RefreshWire", "RefreshSessions", "RefreshFeeds", "CSQLite", "CLibWebSockets",
                "AnchorScenarios", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "refreshkit-load",
            dependencies: [
                "CLibWebSockets", "ServerClock",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]),
        .executableTarget(
            name: "lws-echo",
            dependencies: [
                "CLibWebSockets", "LWSEcho", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // docs/HARDENING.md: the server's policies (Origin, limits, rate, page clock, static paths), and a
        // libFuzzer target for the decoder and the session (`make fuzz`; it does nothing in an ordinary build).
        .testTarget(
            name: "RefreshServerTests",
            dependencies: [
                "RefreshServer", "RefreshWire", "RefreshKit", "CLibWebSockets", "RefreshFeeds", "RefreshStore",
            ]),
        .executableTarget(name: "refreshkit-fuzz", dependencies: ["RefreshKit", "RefreshWire"]),
        // The Hummingbird 2 adapter: the session host behind an app's routes, the front door (RefreshAccess) at its
        // WebSocket upgrade and its page files.
        .target(
            name: "RefreshHummingbird",
            dependencies: [
                "RefreshSessions", "RefreshWire", "RefreshFeeds", "RefreshStore", "RefreshAccess", "ServerClock",
                "RefreshKit", "RefreshHosting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // examples/hummingbird-notes: a Hummingbird app with a route of its own (`POST /notes`) beside the list
        // (`make run-hummingbird`); what e2e/transports and the browser's Hummingbird test serve.
        .executableTarget(
            name: "refreshkit-hummingbird",
            dependencies: [
                "RefreshHummingbird", "RefreshAccess", "RefreshSessions", "RefreshStore", "RefreshFeeds", "RefreshKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdTLS", package: "hummingbird", condition: .when(traits: ["TLS"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["TLS"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "examples/hummingbird-notes"),
    ],
    swiftLanguageModes: [.v6]
)
