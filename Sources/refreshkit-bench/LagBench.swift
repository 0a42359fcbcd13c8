import Foundation

/// Finger-to-content lag (docs/PERFORMANCE.md, "Finger-to-content lag"): bench/lag_bench.py drives the real page in
/// headless Chromium straight to the server (loopback) and through a `refreshkit link` per profile, prediction on and off,
/// and first the bare page (bench/lag_bare.html, which draws in its own pointermove handler) as the floor.
struct LagBench {
    let options: BenchOptions
    /// The links measured besides loopback (docs/LINK.md).
    static let profiles = ["wifi", "wifi-powersave"]

    func run() async -> [String: Any] {
        let script = options.root + "/bench/lag_bench.py"
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script)
        else {
            return unavailable("no \(options.python) (run `make test-deps`) or no bench/lag_bench.py")
        }
        var processes: [ChildProcess] = []
        let result = await measure(python: python, script: script, started: &processes)
        for process in processes.reversed() { await process.stop() }
        return result
    }

    /// The links, the server and lag_bench.py; every child started is added to `started`, for the caller to stop.
    private func measure(python: String, script: String, started processes: inout [ChildProcess]) async
        -> [String: Any]
    {
        do {
            // The links first (each prints its port), then the server on the port they lead to, told
            // their ports so that pages coming through them pass the Origin check.
            let serverPort = try Self.freePort()
            var targets = [(name: String, port: Int)]()
            for profile in Self.profiles {
                let link = try await start(
                    "link-\(profile)",
                    [
                        "link", "--listen", "127.0.0.1:0", "--upstream", "127.0.0.1:\(serverPort)", "--profile",
                        profile, "--seed", "1",
                    ],
                    ready: #"link listening on http://127\.0\.0\.1:(\d+) "#)
                processes.append(link.process)
                targets.append((profile, link.port))
            }
            let server = try await start(
                "server",
                [
                    "serve", "--host", "127.0.0.1", "--port", "\(serverPort)", "--web-root", options.webRoot,
                    "--log-level", options.serverLogLevel,
                ] + targets.flatMap { ["--public-port", "\($0.port)"] } + options.serverArguments,
                ready: #"listening on http://[^\s]*:(\d+)"#)
            processes.append(server.process)
            targets.insert(("loopback", server.port), at: 0)

            var result = try await runScript(
                python, script, targets.flatMap { ["--target", "\($0.name)=http://127.0.0.1:\($0.port)/"] },
                log: "lag")
            result["profiles"] = targets.map(\.name)
            return result
        } catch {
            return unavailable("\(error)")
        }
    }

    /// The page over https against the bare page over https (docs/HTTPS.md, "Measured"): the server with the
    /// certificate of `tls`, and lag_bench.py's Chromium trusting its CA; loopback only.
    func runOverTLS(_ tls: CertificateFolder) async -> [String: Any] {
        let server: (process: ChildProcess, port: Int)
        do {
            server = try await start(
                "server-tls",
                [
                    "serve", "--host", "127.0.0.1", "--port", "0", "--web-root", options.webRoot, "--log-level",
                    options.serverLogLevel, "--tls-cert", tls.certificate, "--tls-key", tls.key,
                ] + options.serverArguments,
                ready: #"listening on https://[^\s]*:(\d+)"#)
        } catch {
            return unavailable("\(error)")
        }
        let result: [String: Any]
        do {
            result = try await runScript(
                python, options.root + "/bench/lag_bench.py",
                ["--tls", tls.folder, "--target", "https=https://127.0.0.1:\(server.port)/"], log: "lag-tls")
        } catch {
            result = unavailable("\(error)")
        }
        await server.process.stop()
        return result
    }

    /// The Python that runs bench/lag_bench.py, as an absolute path.
    private var python: String {
        options.python.hasPrefix("/") ? options.python : options.root + "/" + options.python
    }

    /// lag_bench.py with the bare page and `arguments`: the JSON it prints.
    private func runScript(_ python: String, _ script: String, _ arguments: [String], log name: String) async throws
        -> [String: Any]
    {
        let log = options.logDirectory + "/\(name).log"
        let process = try await ChildProcess(
            name: "lag_bench", executable: python,
            arguments: [script, "--seconds", "\(options.lagSeconds)", "--bare", options.root + "/bench/lag_bare.html"]
                + arguments,
            workingDirectory: options.root, log: log)
        guard await process.wait(timeout: 170) else { throw BenchError("lag_bench.py timed out (log: \(log))") }
        let text = process.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let line = text.split(separator: "\n").last,
            var result = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        else {
            throw BenchError("lag_bench.py printed no result (\(process.status); log: \(log))")
        }
        result["seconds_per_drag"] = options.lagSeconds
        return result
    }

    /// The table's lines: one per link and prediction setting.
    static func table(_ lag: [String: Any]?) -> String {
        guard let lag, let targets = lag["targets"] as? [String: Any] else {
            return "finger-to-content lag: " + ((lag?["note"] as? String) ?? "not measured")
        }
        var lines = [
            "finger-to-content lag (touch drag, headless Chromium; ms: median / p90 / max; reconciliation p99 px):"
        ]
        let bare = lag["bare"] as? [String: Any]
        if let bare {
            lines.append(
                "  bare page (draws in its handler)  "
                    + ((bare["error"] as? String).map { "failed: \($0)" }
                        ?? "\(figure(bare, "lag_ms_median")) / \(figure(bare, "lag_ms_p90")) / \(figure(bare, "lag_ms_max"))")
            )
        }
        let names = (lag["profiles"] as? [String]) ?? targets.keys.sorted()
        for name in names {
            guard let runs = targets[name] as? [String: Any] else { continue }
            for key in ["predict_on", "predict_off"] {
                guard let run = runs[key] as? [String: Any] else { continue }
                let label = "  \(name) \(key == "predict_on" ? "prediction on " : "prediction off")"
                    .padding(toLength: 34, withPad: " ", startingAt: 0)
                if let error = run["error"] as? String {
                    lines.append(label + "failed: \(error)")
                    continue
                }
                lines.append(
                    label
                        + "\(figure(run, "lag_ms_median")) / \(figure(run, "lag_ms_p90")) / \(figure(run, "lag_ms_max"))"
                        + "   recon \(run["reconciliation_error_px_p99"] is NSNull ? "null" : figure(run, "reconciliation_error_px_p99"))"
                        + ((run["draws"] as? String).map { $0 == "drawLog" ? "" : "   (draws: \($0))" } ?? ""))
            }
        }
        if let bare, let page = (targets["loopback"] as? [String: Any])?["predict_on"] as? [String: Any] {
            // The page over the floor, in the same run: what RefreshKit adds to Chromium's own input-to-frame path.
            var parts: [String] = []
            for (name, key) in [("median", "lag_ms_median"), ("p95", "lag_ms_p95")] {
                guard let ours = Summary.double(page, key), let floor = Summary.double(bare, key) else { continue }
                parts.append(
                    "\(name) \(String(format: "%.1f", ours)) − \(String(format: "%.1f", floor)) = "
                        + String(format: "%+.1f", ours - floor) + " ms")
            }
            lines.append("  the page (loopback, prediction on) over the bare page: " + parts.joined(separator: " · "))
        }
        return lines.joined(separator: "\n")
    }

    private static func figure(_ run: [String: Any], _ key: String) -> String {
        (run[key] as? NSNumber).map { "\($0)" } ?? "–"
    }

    private func start(_ label: String, _ arguments: [String], ready: String) async throws -> (
        process: ChildProcess, port: Int
    ) {
        let log = options.logDirectory + "/lag-\(label).log"
        let process = try await ChildProcess(
            name: label, executable: options.binary("refreshkit"), arguments: arguments,
            workingDirectory: options.root, log: log)
        guard let text = await process.waitForLine(matching: ready, timeout: 20), let port = Int(text) else {
            await process.stop()
            throw BenchError("\(label) did not say where it listens within 20 s (log: \(log))")
        }
        return (process, port)
    }

    /// A loopback port that nobody listens on now (the server must start after the links that lead to it).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw BenchError("bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private func unavailable(_ why: String) -> [String: Any] { ["targets": NSNull(), "note": why] }
}
