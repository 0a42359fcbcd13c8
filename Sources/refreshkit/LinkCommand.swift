import ArgumentParser
import Foundation
import LinkSimulator
import RefreshServer

/// `refreshkit link`: a bad network on demand, between the page and the server (docs/LINK.md).
struct Link: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A TCP proxy that shapes both directions like a real link: delay, jitter, loss, stalls.",
        discussion: """
            Open the page through the link's address. Profiles (docs/LINK.md has their sources): \
            \(LinkProfile.all.map { "\($0.name) (\($0.summary))" }.joined(separator: "; ")). \
            Any flag below overrides the profile's value. The server must accept the link's origin: \
            start it with `--public-port` set to the link's port. SIGUSR1 stalls the whole link for \
            --on-demand-stall ms from then (`kill -USR1 PID`); SIGINT or SIGTERM stops it.
            """
    )

    @Option(help: ArgumentHelp("Where pages connect (port 0: pick a free one).", valueName: "host:port"))
    var listen = "0.0.0.0:8081"

    @Option(help: ArgumentHelp("The server the link leads to.", valueName: "host:port"))
    var upstream: String

    @Option(help: "A named profile: \(LinkProfile.all.map(\.name).joined(separator: ", ")).")
    var profile = "wifi"

    @Option(help: ArgumentHelp("Least one-way delay.", valueName: "ms"))
    var delay: Double?

    @Option(help: ArgumentHelp("Extra one-way delay per chunk, uniform in [0, ms]; never reorders.", valueName: "ms"))
    var jitter: Double?

    @Option(help: ArgumentHelp("Chance that a chunk starts a loss burst.", valueName: "percent"))
    var loss: Double?

    @Option(help: ArgumentHelp("Mean losses per burst (≥ 1); each costs a doubled RTO.", valueName: "count"))
    var lossBurst: Double?

    @Option(help: ArgumentHelp("What one loss holds its direction for (default: 2 × delay + 200).", valueName: "ms"))
    var rto: Double?

    @Option(help: ArgumentHelp("The link's rate (0: unlimited).", valueName: "kbit/s"))
    var bandwidth: Double?

    @Option(help: ArgumentHelp("A stall of the whole link every … (0: none).", valueName: "ms"))
    var stallEvery: Double?

    @Option(help: ArgumentHelp("How long each stall holds all traffic.", valueName: "ms"))
    var stallFor: Double?

    @Option(help: ArgumentHelp("How long SIGUSR1 holds all traffic, both ways, from the signal on.", valueName: "ms"))
    var onDemandStall: Double = 300

    @Option(help: "Seeds the jitter and the losses (the same seed, the same link).")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("A direction stops reading while this much waits in it.", valueName: "MiB"))
    var queueLimit = 4

    @Option(help: "Print a QR code of the link's address on the network: auto (on a terminal), always, never.")
    var qr: QRCodeOutput = .auto

    /// The named profile with the flags applied.
    func shaping() throws -> LinkProfile {
        guard var shaped = LinkProfile.named(profile) else {
            throw ValidationError(
                "unknown profile '\(profile)' (known: \(LinkProfile.all.map(\.name).joined(separator: ", ")))")
        }
        let overridden = [delay, jitter, loss, lossBurst, rto, bandwidth, stallEvery, stallFor].contains { $0 != nil }
        if let delay {
            shaped.delayMs = delay
            if rto == nil { shaped.retransmissionTimeoutMs = LinkProfile.linuxRetransmissionTimeout(delayMs: delay) }
        }
        if let jitter { shaped.jitterMs = jitter }
        if let loss { shaped.lossProbability = loss / 100 }
        if let lossBurst {
            guard lossBurst >= 1, lossBurst.isFinite else { throw ValidationError("--loss-burst must be ≥ 1") }
            shaped.lossBurstContinuation = 1 - 1 / lossBurst
        }
        if let rto { shaped.retransmissionTimeoutMs = rto }
        if let bandwidth { shaped.bitsPerSecond = bandwidth == 0 ? nil : bandwidth * 1000 }
        if let stallEvery { shaped.stalls.periodMs = stallEvery }
        if let stallFor { shaped.stalls.durationMs = stallFor }
        if overridden { shaped.name = "\(profile)+flags" }
        if let problem = shaped.problem { throw ValidationError(problem) }
        return shaped
    }

    func validate() throws {
        guard LinkAddress(listen) != nil else { throw ValidationError("--listen needs host:port, got '\(listen)'") }
        guard let target = LinkAddress(upstream), target.port > 0 else {
            throw ValidationError("--upstream needs host:port with a port, got '\(upstream)'")
        }
        guard queueLimit > 0 else { throw ValidationError("--queue-limit must be ≥ 1 MiB") }
        guard onDemandStall.isFinite, onDemandStall > 0 else {
            throw ValidationError("--on-demand-stall must be a finite number of ms > 0")
        }
        _ = try shaping()
    }

    func run() throws {
        SignalWatcher.blockStopSignals(also: [SIGUSR1])
        signal(SIGPIPE, SIG_IGN)
        let shaped = try shaping()
        guard let listenAddress = LinkAddress(listen), let upstreamAddress = LinkAddress(upstream) else {
            throw ValidationError("--listen and --upstream need host:port")
        }
        let proxy: LinkProxy
        do {
            proxy = try LinkProxy(
                listen: listenAddress, upstream: upstreamAddress, profile: shaped, seed: seed,
                queueLimitBytes: queueLimit << 20, onDemandStallMs: onDemandStall, log: { Self.log($0) })
        } catch {
            Self.log("\(error)")
            throw ExitCode.failure
        }
        SignalWatcher.start(also: [SIGUSR1]) { number in
            if number == SIGUSR1 {
                proxy.requestStall()  // the proxy logs the stall once it holds the traffic
            } else {
                Self.log("signal \(number): stopping")
                proxy.requestStop()
            }
        }
        let shown = LinkAddress(host: Server.displayHost(listenAddress.host), port: proxy.port)
        let network =
            Serve.isWildcard(listenAddress.host)
            ? NetworkInterfaces.lanIPv4Addresses().map { "http://\($0):\(proxy.port)" } : []
        var lines =
            [
                "link listening on http://\(Self.urlHost(shown)) → http://\(Self.urlHost(upstreamAddress)) "
                    + "(profile \(shaped.name): \(shaped.summary))"
            ] + network.map { "  on your network: \($0)" }
        let terminal = isatty(STDOUT_FILENO) == 1
        let local = "http://\(Self.urlHost(shown))"
        if let link = qr.link(network: network, local: local, terminal: terminal), let code = QRCode(link) {
            lines.append("  scan to open \(link):")
            lines += TerminalQRCode(code, colors: terminal).lines.map { "  " + $0 }
        }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        proxy.run()
    }

    /// `host:port` for a URL (``Server/displayHost(_:)`` already bracketed IPv6).
    static func urlHost(_ address: LinkAddress) -> String {
        address.host.hasPrefix("[") ? "\(address.host):\(address.port)" : address.description
    }

    static func log(_ line: String) {
        FileHandle.standardError.write(Data("link: \(line)\n".utf8))
    }
}
