import Foundation

/// Runs the load generator against a fresh server (or echo server) per measurement.
struct ServerBench {
    let options: BenchOptions

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
    static func arguments(_ kind: Kind, _ options: BenchOptions) -> [String] {
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
            arguments: Self.arguments(kind, options), workingDirectory: options.root, log: log)
        guard let portText = await process.waitForLine(matching: #"listening on http://[^\s]*:(\d+)"#, timeout: 20),
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

    /// The load generator's run against a started target.
    private func measure(_ target: Target, _ kind: Kind, sessions: Int, idle: Bool, label: String) async throws
        -> [String: Any]
    {
        let baseline = ProcessInfoSample.rss(pid: target.process.pid)
        var arguments = [
            "--url", "ws://127.0.0.1:\(target.port)/", "--protocol", "refreshkit.v1",
            "--sessions", "\(sessions)", "--rate", "\(options.rate)",
            "--warmup", "\(idle ? 1.0 : options.warmup)", "--duration",
            "\(idle ? options.idleDuration : options.duration)",
            "--mode", kind == .echo ? "echo" : "frames", "--server-pid", "\(target.process.pid)",
        ]
        if idle { arguments.append("--idle") }
        if kind == .refreshkit { arguments += ["--frames", options.frames] }
        let log = options.logDirectory + "/\(label)-\(kind.rawValue)-load.log"
        let generator = try await ChildProcess(
            name: "refreshkit-load", executable: options.binary("refreshkit-load"), arguments: arguments,
            workingDirectory: options.root, log: log)
        let limit = options.warmup + options.duration + options.idleDuration + 120
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
