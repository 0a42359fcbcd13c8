import Foundation

/// Runs the load generator against a fresh server (or echo server) per measurement.
struct ServerBench {
    let options: BenchOptions
    /// Both targets serve wss:// with this certificate and the generator trusts its CA (``TLSBench``); nil: ws://.
    var tls: CertificateFolder?

    /// `refreshkit serve` or `lws-echo` on an ephemeral loopback port.
    struct Target {
        let process: ChildProcess
        let port: Int
    }

    enum Kind: String {
        case refreshkit
        case echo
    }

    /// The target's executable: `refreshkit` (``BenchOptions/serverBinary`` when given) or `lws-echo`.
    static func executable(_ kind: Kind, _ options: BenchOptions) -> String {
        options.binary(kind == .refreshkit ? "refreshkit" : "lws-echo")
    }

    /// The target's arguments: loopback, an ephemeral port, the bench's log level and `--server-arg`s.
    static func arguments(_ kind: Kind, _ options: BenchOptions, tls: CertificateFolder? = nil) -> [String] {
        let tlsArguments = tls.map { ["--tls-cert", $0.certificate, "--tls-key", $0.key] } ?? []
        return plainArguments(kind, options) + tlsArguments
    }

    private static func plainArguments(_ kind: Kind, _ options: BenchOptions) -> [String] {
        switch kind {
        case .refreshkit:
            [
                "serve", "--host", "127.0.0.1", "--port", "0", "--web-root", options.webRoot,
                "--log-level", options.serverLogLevel,
            ] + options.serverArguments
        case .echo:
            ["--host", "127.0.0.1", "--port", "0", "--protocol", "refreshkit.v1", "--max-seconds", "600"]
        }
    }

    func startTarget(_ kind: Kind, label: String) async throws -> Target {
        let log = options.logDirectory + "/\(label)-\(kind.rawValue).log"
        let process = try await ChildProcess(
            name: kind == .refreshkit ? "refreshkit" : "lws-echo", executable: Self.executable(kind, options),
            arguments: Self.arguments(kind, options, tls: tls), workingDirectory: options.root, log: log)
        guard let portText = await process.waitForLine(matching: #"listening on https?://[^\s]*:(\d+)"#, timeout: 20),
            let port = Int(portText)
        else {
            await process.stop()
            throw BenchError("\(kind.rawValue) did not print 'listening on …' within 20 s (log: \(log))")
        }
        try await Task.sleep(for: .milliseconds(200))  // let it settle before the baseline sample
        return Target(process: process, port: port)
    }

    /// One load run; returns the generator's JSON plus the server's RSS before the load.
    func load(_ kind: Kind, sessions: Int, idle: Bool = false) async throws -> [String: Any] {
        let label = idle ? "idle-\(sessions)" : "load-\(sessions)"
        let target = try await startTarget(kind, label: label)
        do {
            var result = try await measure(target, kind, sessions: sessions, idle: idle, label: label)
            result["server_alive_after"] = target.process.isRunning
            await target.process.stop()
            return result
        } catch {
            await target.process.stop()
            throw error
        }
    }

    /// The server and the echo under the same load turn by turn (``BenchOptions/slice``): both started, each driven
    /// by its own generator in every other slice of one window, so that both meet the same seconds of the host.
    /// `serverFirst`: the server is started first, and its generator too, and takes the even slices (rounds
    /// alternate it, so neither always goes first: of two lws-echo floors, the one started first had the higher p99
    /// in 19 of 27 rounds in slices of 1 s, docs/PERFORMANCE.md, "How long a slice the p99 needs").
    func loadTurnByTurn(sessions: Int, serverFirst: Bool) async throws -> (server: [String: Any], echo: [String: Any]) {
        let label = "load-\(sessions)"
        let (firstKind, secondKind): (Kind, Kind) = serverFirst ? (.refreshkit, .echo) : (.echo, .refreshkit)
        let first = try await startTarget(firstKind, label: label)
        let second: Target
        do { second = try await startTarget(secondKind, label: label) } catch {
            await first.process.stop()
            throw error
        }
        let (server, echo) = serverFirst ? (first, second) : (second, first)
        do {
            async let firstRun = measure(first, firstKind, sessions: sessions, idle: false, label: label, slicePhase: 0)
            async let secondRun = measure(
                second, secondKind, sessions: sessions, idle: false, label: label, slicePhase: 1)
            let (firstResult, secondResult) = try await (firstRun, secondRun)
            var results =
                serverFirst
                ? (server: firstResult, echo: secondResult) : (server: secondResult, echo: firstResult)
            results.server["server_alive_after"] = server.process.isRunning
            results.echo["server_alive_after"] = echo.process.isRunning
            await server.process.stop()
            await echo.process.stop()
            return results
        } catch {
            await server.process.stop()
            await echo.process.stop()
            throw error
        }
    }

    /// The start of each slice not measured, a tenth of it: a target's first pass over the sockets and sessions that
    /// the other target's slice left cold raised both p99s 2–5× over runs one after the other, with slices of 0.5 s
    /// and no lead (docs/PERFORMANCE.md, "Two targets measured turn by turn").
    static func sliceLead(_ slice: Double) -> Double { slice / 10 }

    /// How long each generator keeps its sessions open after its window, turn by turn, s: the two windows open at
    /// the first slice of each one's own after its warm-up, so one may end up to a pair of slices, and the
    /// difference of the two connection times, after the other; lingering that long and 1 s more, neither closes
    /// its sessions while the other measures. Closing first, one would put its thousand connections' teardown (work
    /// for its target, the kernel and itself) into the other's last slice (docs/PERFORMANCE.md, "Two targets measured
    /// turn by turn").
    static func linger(slice: Double) -> Double { 2 * slice + 1 }

    /// The load generator's run against a started target; with `slicePhase`, in that half of a window shared with
    /// another target (``loadTurnByTurn(sessions:serverFirst:)``): 0 the even slices, 1 the odd ones.
    private func measure(
        _ target: Target, _ kind: Kind, sessions: Int, idle: Bool, label: String, slicePhase: Int? = nil
    ) async throws -> [String: Any] {
        let baseline = ProcessInfoSample.rss(pid: target.process.pid)
        // Turn by turn the window is longer, so that each target has `duration` seconds of input measured: half the
        // window, less each slice's lead.
        let share = options.slice > 0 ? 2 * options.slice / (options.slice - Self.sliceLead(options.slice)) : 1
        let measured = options.duration(at: sessions)
        let duration = idle ? options.idleDuration : slicePhase == nil ? measured : share * measured
        var arguments = [
            "--url", "\(tls == nil ? "ws" : "wss")://127.0.0.1:\(target.port)/", "--protocol", "refreshkit.v1",
            "--sessions", "\(sessions)", "--rate", "\(options.rate)",
            "--warmup", "\(idle ? 1.0 : options.warmup)", "--duration", "\(duration)",
            "--mode", kind == .echo ? "echo" : "frames", "--server-pid", "\(target.process.pid)",
        ]
        if idle { arguments.append("--idle") }
        if let tls { arguments += ["--tls-ca", tls.authority] }
        if kind == .refreshkit { arguments += ["--frames", options.frames] }
        if let slicePhase {
            arguments += [
                "--slice", "\(options.slice)", "--slice-phase", "\(slicePhase)", "--slice-lead",
                "\(Self.sliceLead(options.slice))",
                "--linger", "\(Self.linger(slice: options.slice))",
            ]
        }
        let log = options.logDirectory + "/\(label)-\(kind.rawValue)-load.log"
        let generator = try await ChildProcess(
            name: "refreshkit-load", executable: options.binary("refreshkit-load"), arguments: arguments,
            workingDirectory: options.root, log: log)
        let limit =
            options.warmup + duration + 4 * options.slice + Self.linger(slice: options.slice)
            + options.idleDuration + 120
        if !(await generator.wait(timeout: limit)) {
            throw BenchError("refreshkit-load did not finish within \(Int(limit)) s (log: \(log))")
        }
        let text = generator.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let data = text.split(separator: "\n").last.map({ Data($0.utf8) }),
            var result = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else {
            throw BenchError("refreshkit-load printed no result (\(generator.status); log: \(log))")
        }
        result["server_baseline_rss_bytes"] = baseline
        return result
    }
}

enum ProcessInfoSample {
    /// VmRSS of `pid`, bytes (0 if unreadable).
    static func rss(pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0)
                * 1024
        }
        return 0
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
