import ArgumentParser
import Foundation
import Logging
import RefreshKit
import RefreshServer
import RefreshWire

@main
struct RefreshKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refreshkit",
        abstract: "An authoritative scroll and pull-to-refresh engine, driven from a browser page.",
        subcommands: [
            Serve.self, Replay.self, Link.self, PresetCommand.self, PostCommand.self, FeedCommand.self,
            CertCommand.self,
        ],
        defaultSubcommand: Serve.self
    )
}

/// `refreshkit serve`: the page and its WebSocket on one port, until SIGINT or SIGTERM.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the page (web root) and the refreshkit.v1 WebSocket on one port.",
        discussion: """
            Prints 'listening on http://HOST:PORT' once the port is bound, then the URLs a phone on the \
            same network can open. SIGINT or SIGTERM closes every WebSocket with 1001 and exits 0.
            """
    )

    /// Every option's default: the server's (whose host limits and timings are the session host's own).
    static let defaults = ServerConfiguration()

    @Option(help: "The address to bind (0.0.0.0: every IPv4 interface; :: every interface).")
    var host = Self.defaults.host

    @Option(help: "The TCP port (0: pick a free one).")
    var port = Self.defaults.port

    @Option(help: "The folder served at /.")
    var webRoot = Self.defaults.webRoot

    @Option(
        help:
            "The preset a session gets unless its hello names one (\(Preset.names.joined(separator: ", ")), or a --preset-file's)."
    )
    var preset = Self.defaults.sessions.defaultPreset

    @Option(
        name: .customLong("preset-file"),
        help: ArgumentHelp(
            "A preset file to offer (docs/PRESETS.md); repeat for more. A bad file stops the server at start.",
            valueName: "path"))
    var presetFiles: [String] = []

    @Option(
        help: ArgumentHelp(
            "A folder of your own control modules, served at /controls/NAME.js and listed at /controls/index.json (docs/CONTROLS.md).",
            valueName: "dir"))
    var controls: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: LogLevel = .info

    @Option(help: "The largest WebSocket message accepted, in bytes; larger ones close the connection with 1009.")
    var maxMessageBytes = Self.defaults.sessions.maxMessageBytes

    @Option(help: "The animation tick in Hz (it runs only while something moves).")
    var tickRate = Self.defaults.sessions.tickRate

    @Option(help: "Seeds each session's simulated feed (unless its hello brings a seed).")
    var seed = Self.defaults.sessions.seed

    @Option(
        help: ArgumentHelp(
            "Seconds a session outlives its last connection; a page that comes back within it resumes.",
            valueName: "seconds"))
    var sessionGrace = Self.defaults.sessions.sessionGraceSeconds

    @Option(help: "Operations a session's trace holds after its latest snapshot (one every 5000; 0: record nothing).")
    var traceLimit = Self.defaults.sessions.traceLimits.maxOperations

    @Option(help: "libuv (epoll; the default) or poll (lws's own loop, which scans every socket on each wake-up).")
    var eventLoop = Self.defaults.eventLoop

    @Option(
        help: """
            Print a QR code of the address a phone opens: auto (when the output is a terminal and the server \
            listens on the network), always, or never.
            """)
    var qr: QRCodeOutput = .auto

    @Option(
        help: "This process's name in a cluster: the welcome's node and its session ids' prefix (default: the pid).")
    var node: String?

    @Option(
        help: """
            The shared session store, redis://[USER@]HOST[:PORT][/DB], so other processes can take sessions over \
            (docs/SCALING.md). Its password is never given here (every user sees a command line): \
            REFRESHKIT_STORE_PASSWORD in the environment or --store-password-file (REFRESHKIT_STORE_USER: an ACL user).
            """)
    var store: String?

    @Option(
        help: ArgumentHelp(
            """
            A file whose first line is the store's password, readable by its owner (and group) only: chmod 600 \
            (the same as REFRESHKIT_STORE_PASSWORD_FILE=PATH in the environment).
            """, valueName: "path"))
    var storePasswordFile: String?

    @Option(
        help: """
            The feed behind the list: simulated (the engine's own, ids only), sqlite:PATH (a SQLite file, created \
            and filled on first start), feed:URL (RSS, Atom or JSON Feed on the web) or jsonfeed:URL (its older \
            name), docs/FEEDS.md.
            """)
    var feed = Self.defaults.feed

    @Option(
        help: "How often an external feed's newest page is polled for \"N new\", milliseconds (0: only after a post).")
    var feedPollMs = Self.defaults.feedPollMilliseconds

    @Option(
        help: ArgumentHelp(
            "An address or network that may POST /feed/items besides loopback (repeatable).", valueName: "address"))
    var feedPostAllow: [String] = []

    @Flag(
        help: """
            Let the feed's fetches (its pages, redirects and images) reach any address: loopback, private, \
            link-local. Without it only addresses on the internet and the feed's own host and port as written \
            (docs/FEEDS.md, "What is fetched, and what is refused").
            """)
    var feedAllowPrivate = false

    @Option(help: "The server's cache of the feed's images (GET /feed/image), MiB (docs/FEEDS.md, \"Images\").")
    var imageCacheMb = Self.defaults.images.cacheBytes / (1024 * 1024)

    @Option(help: "How long an image's source may take to send it, milliseconds (then 504).")
    var imageTimeoutMs = Self.defaults.images.timeoutMilliseconds

    @Option(help: "How long an image whose fetch failed gets the same answer without a fetch, seconds (0: none).")
    var imageRetrySeconds = Self.defaults.images.failureSeconds

    @OptionGroup(title: "Hardening")
    var hardening: HardeningOptions

    @OptionGroup(title: "TLS (docs/HTTPS.md)")
    var tls: TLSOptions

    var serverConfiguration: ServerConfiguration {
        var configuration = ServerConfiguration(host: host, port: port, webRoot: webRoot, eventLoop: eventLoop)
        configuration.sessions.defaultPreset = preset
        configuration.sessions.maxMessageBytes = maxMessageBytes
        configuration.sessions.tickRate = tickRate
        configuration.sessions.seed = seed
        configuration.sessions.sessionGraceSeconds = sessionGrace
        configuration.sessions.traceLimits = TraceLimits(maxOperations: traceLimit)
        hardening.apply(to: &configuration)
        configuration.node = node
        configuration.storeURL = store
        configuration.controlsRoot = controls
        configuration.feed = feed
        configuration.feedPollMilliseconds = feedPollMs
        configuration.feedPostAllow = feedPostAllow
        configuration.feedAllowPrivate = feedAllowPrivate
        configuration.images = ImageLimits(cacheMegabytes: imageCacheMb, timeoutMilliseconds: imageTimeoutMs)
        configuration.images.failureSeconds = imageRetrySeconds
        configuration.tls = tls.files
        return configuration
    }

    /// The seeds and the presets of `--preset-file`, every problem of a bad file listed.
    func presets() throws -> PresetCatalogue {
        do {
            return try PresetFiles.catalogue(presetFiles)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// `--store-password-file`: the store's credentials are read where `StoreAddress` reads them, from this
    /// process's environment (`StoreCredentials.fromEnvironment`), so the file is named there; given on the
    /// command line it wins over a password in the environment, which is dropped.
    func nameStorePasswordFile() throws {
        guard let storePasswordFile else { return }
        guard store != nil else { throw ValidationError("--store-password-file needs --store") }
        unsetenv("REFRESHKIT_STORE_PASSWORD")
        setenv("REFRESHKIT_STORE_PASSWORD_FILE", storePasswordFile, 1)
    }

    func validate() throws {
        try nameStorePasswordFile()
        var configuration = serverConfiguration
        configuration.sessions.presets = try presets()
        do {
            try configuration.validate()
        } catch {
            throw ValidationError(error.description)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: webRoot, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw ValidationError("web root '\(webRoot)' does not exist or is not a directory")
        }
        if let controls {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: controls, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("controls folder '\(controls)' does not exist or is not a directory")
            }
        }
    }

    func run() throws {
        let level = logLevel.level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "refreshkit")
        logger.logLevel = level

        try nameStorePasswordFile()
        var configuration = serverConfiguration
        configuration.sessions.presets = try presets()
        let server = Server(configuration: configuration, logger: logger)
        let scheme = configuration.tls == nil ? "http" : "https"
        do {
            try server.run { local in
                let network =
                    Self.isWildcard(host)
                    ? NetworkInterfaces.lanIPv4Addresses().map { "\(scheme)://\($0):\(server.port)" } : []
                var lines = ["listening on \(local)"] + network.map { "  on your network: \($0)" }
                let terminal = isatty(STDOUT_FILENO) == 1
                if let link = qr.link(network: network, local: local, terminal: terminal), let code = QRCode(link) {
                    lines.append("  scan to open \(link):")
                    lines += TerminalQRCode(code, colors: terminal).lines.map { "  " + $0 }
                }
                FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            }
        } catch .serviceFailed {
            throw ExitCode.failure
        } catch {
            logger.critical("\(error.description)")
            throw ExitCode.failure
        }
    }

    static func isWildcard(_ host: String) -> Bool { ["0.0.0.0", "::", "[::]"].contains(host) }
}

/// `--qr`: whether `serve` prints a QR code of the address a phone opens, so that it joins with one scan.
enum QRCodeOutput: String, CaseIterable, ExpressibleByArgument {
    case auto, always, never

    /// The link to draw: the first network address; with `always` and none, the local one (a test, a demo on
    /// one machine). `auto` draws only on a terminal, where a person can point a camera at it.
    func link(network: [String], local: String, terminal: Bool) -> String? {
        switch self {
        case .never: nil
        case .auto: terminal ? network.first : nil
        case .always: network.first ?? local
        }
    }
}

/// `--log-level`: swift-log's levels by name.
enum LogLevel: String, CaseIterable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
}

extension ServerConfiguration.EventLoop: ExpressibleByArgument {}
