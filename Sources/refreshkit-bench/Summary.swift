import CLibWebSockets
import Foundation
import Subprocess

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// The machine the figures come from.
enum Machine {
    static func describe(root: String) async -> [String: Any] {
        var name = utsname()
        uname(&name)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memory =
            meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0
        let swift =
            await run("/usr/bin/env", ["swift", "--version"], in: root)?.split(separator: "\n").first
            .map(String.init) ?? "unknown"
        let commit =
            await run("/usr/bin/env", ["git", "rev-parse", "--short", "HEAD"], in: root)?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
        let dirty =
            !(await run("/usr/bin/env", ["git", "status", "--porcelain", "--untracked-files=no"], in: root) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "")
            .split(separator: " ").prefix(3).joined(separator: " ")
        errno = 0
        let niceness = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let autogroup = ((try? String(contentsOfFile: "/proc/self/autogroup", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return [
            "load_average_at_start": load,
            "nice": niceness,
            "autogroup": autogroup,
            "cpu": model ?? "unknown",
            "cores": sysconf(Int32(_SC_NPROCESSORS_ONLN)),
            "memory_mb": memory / 1024,
            "kernel": "\(field(name.sysname)) \(field(name.release)) \(field(name.machine))",
            "swift": swift,
            "libwebsockets": String(cString: lws_get_library_version()),
            "build": "swift build -c release",
            "git_commit": commit + (dirty ? " (with uncommitted changes)" : ""),
            "topology": "server, load generator and echo server share the same cores over loopback",
        ]
    }

    /// What `executable` prints on stdout, when it exits with 0.
    private static func run(_ executable: String, _ arguments: [String], in directory: String) async -> String? {
        let result = try? await Subprocess.run(
            .path(FilePath(executable)), arguments: Arguments(arguments), workingDirectory: FilePath(directory),
            output: .string(limit: 1 << 20), error: .discarded)
        guard let result, result.terminationStatus.isSuccess else { return nil }
        return result.standardOutput
    }
}

/// From the raw generator outputs to the figures the issue names, and the table.
enum Summary {
    static func double(_ run: [String: Any]?, _ key: String) -> Double? {
        (run?[key] as? NSNumber)?.doubleValue
    }

    /// The run whose p99 is the median of `runs` (the lower middle one for an even count): a whole run, so
    /// its figures belong together.
    static func medianRun(_ runs: [[String: Any]]) -> [String: Any]? {
        let sorted = runs.sorted {
            (double($0, "latency_p99_ms") ?? .infinity) < (double($1, "latency_p99_ms") ?? .infinity)
        }
        return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
    }

    /// Every round's p99 per level, in the order they ran: `{"1000": {"refreshkit": […], "echo": […]}}`.
    static func p99Rounds(frames: [Int: [[String: Any]]], echo: [Int: [[String: Any]]]) -> [String: Any] {
        var out: [String: Any] = [:]
        for level in Set(frames.keys).union(echo.keys) {
            out["\(level)"] = [
                "refreshkit": (frames[level] ?? []).map { $0["latency_p99_ms"] ?? NSNull() },
                "echo": (echo[level] ?? []).map { $0["latency_p99_ms"] ?? NSNull() },
            ]
        }
        return out
    }

    /// A process at or above this share of one core is saturated: its queue, not its work, sets the latency.
    static let saturatedCPUPercent = 85.0

    /// Whether the echo run saturated: see ``floorSaturation(_:)``.
    static func floorSaturated(_ echoRun: [String: Any]) -> Bool { floorSaturation(echoRun) != nil }

    /// Why the echo run does not measure the transport's floor, or nil when it does. Then the floor's p99 measures
    /// the host's loopback TCP, the generator or other work on the host, not the transport, and a ratio to it
    /// says nothing about the server. Three signs, any one enough: the echo or the generator took ≥
    /// ``saturatedCPUPercent`` of a core; the echo's p99 was longer than one input period (each session's next
    /// input was sent before its last came back: a queue); or the generator sent under
    /// ``generatorKeptUpShare`` of its schedule (the host did not give it the time, whatever took it).
    static func floorSaturation(_ echoRun: [String: Any]) -> String? {
        let echo = double(echoRun, "server_cpu_percent") ?? 0
        let generator = double(echoRun, "client_cpu_percent") ?? 0
        if echo >= saturatedCPUPercent || generator >= saturatedCPUPercent {
            return "echo \(fmt(echo, 0)) %, generator \(fmt(generator, 0)) % of a core"
        }
        if let p99 = double(echoRun, "latency_p99_ms"), let rate = double(echoRun, "rate_hz"), rate > 0,
            p99 > 1000 / rate
        {
            return "the echo's p99 \(fmt(p99, 1)) ms is over one input period (\(fmt(1000 / rate, 1)) ms) at "
                + "echo \(fmt(echo, 0)) %, generator \(fmt(generator, 0)) % of a core: the host was busy"
        }
        return generatorBehind(echoRun).map { "in the echo run \($0)" }
    }

    /// The generator must send at least this share of its schedule (sessions × rate × window) for a run to count.
    static let generatorKeptUpShare = 0.9

    /// How far the generator fell behind its schedule in `run` ("the generator sent 71 % of its inputs"), or nil.
    static func generatorBehind(_ run: [String: Any]) -> String? {
        guard let sessions = double(run, "sessions"), let rate = double(run, "rate_hz"),
            let window = double(run, "window_s"), let sent = double(run, "inputs_sent"), sessions * rate * window > 0
        else { return nil }
        let share = sent / (sessions * rate * window)
        return share < generatorKeptUpShare ? "the generator sent \(fmt(share * 100, 0)) % of its inputs" : nil
    }

    /// The target process's CPU time per input sent in the window, µs, rounded to 0.1 µs (as reported).
    static func cpuMicrosecondsPerInput(_ run: [String: Any]) -> Double? {
        exactCPUMicrosecondsPerInput(run).map(round1)
    }

    /// The same, not rounded: what a ratio is taken of (a ratio of two figures rounded to 0.1 µs is off by up to
    /// ~2 %, and 6.9 / 6.0 is just over 1.15 in floating point).
    static func exactCPUMicrosecondsPerInput(_ run: [String: Any]) -> Double? {
        guard let cpu = double(run, "server_cpu_seconds"), let inputs = double(run, "inputs_sent"), inputs > 0
        else { return nil }
        return cpu / inputs * 1e6
    }

    /// The server's kernel (system) time per input in the window, µs: the part of
    /// ``cpuMicrosecondsPerInput(_:)`` spent in system calls and the network stack.
    static func systemMicrosecondsPerInput(_ run: [String: Any]) -> Double? {
        guard let percent = double(run, "server_sys_cpu_percent"), let window = double(run, "window_s"),
            let inputs = double(run, "inputs_sent"), inputs > 0
        else { return nil }
        return round1(percent / 100 * window / inputs * 1e6)
    }

    /// The load generator's CPU time per input it sent in the window, µs.
    static func generatorMicrosecondsPerInput(_ run: [String: Any]) -> Double? {
        guard let percent = double(run, "client_cpu_percent"), let window = double(run, "window_s"),
            let inputs = double(run, "inputs_sent"), inputs > 0
        else { return nil }
        return round1(percent / 100 * window / inputs * 1e6)
    }

    static func latency(_ run: [String: Any]) -> [String: Any] {
        var out: [String: Any] = [:]
        for (name, key) in [
            ("p50", "latency_p50_ms"), ("p90", "latency_p90_ms"), ("p99", "latency_p99_ms"),
            ("p999", "latency_p999_ms"), ("max", "latency_max_ms"), ("mean", "latency_mean_ms"),
        ] {
            out[name] = run[key] ?? NSNull()
        }
        out["samples"] = run["latency_samples"] ?? 0
        return out
    }

    static func server(frames: [Int: [String: Any]], echo: [Int: [String: Any]], idle: [String: Any]?) -> [String: Any]
    {
        var server: [String: Any] = [:]
        func byLevel(_ runs: [Int: [String: Any]], _ value: ([String: Any]) -> Any?) -> [String: Any] {
            var out: [String: Any] = [:]
            for (level, run) in runs { out["\(level)"] = value(run) ?? NSNull() }
            return out
        }
        server["latency_ms"] = byLevel(frames, latency)
        server["echo_latency_ms"] = byLevel(echo, latency)
        server["cpu_percent"] = byLevel(frames) { $0["server_cpu_percent"] }
        server["echo_cpu_percent"] = byLevel(echo) { $0["server_cpu_percent"] }
        server["load_generator_cpu_percent"] = byLevel(frames) { $0["client_cpu_percent"] }
        server["frames_per_sec"] = byLevel(frames) { $0["frames_per_sec"] }
        server["inputs_per_sec"] = byLevel(frames) { $0["inputs_per_sec"] }
        server["inputs_unanswered"] = byLevel(frames) { $0["inputs_unanswered"] }
        server["cpu_us_per_frame"] = byLevel(frames) { run -> Any? in
            guard let cpu = double(run, "server_cpu_seconds"), let fps = double(run, "frames_per_sec"),
                let window = double(run, "window_s"), fps > 0, window > 0
            else { return nil }
            return round1(cpu / (fps * window) * 1e6)
        }
        // What the floor costs on this host, per input, against what the server costs: both are CPU time ÷ the
        // inputs sent in the window, so they compare even when the server answers a backlog with one frame.
        server["cpu_us_per_input"] = byLevel(frames, cpuMicrosecondsPerInput)
        server["echo_cpu_us_per_input"] = byLevel(echo, cpuMicrosecondsPerInput)
        server["load_generator_cpu_us_per_input"] = byLevel(frames, generatorMicrosecondsPerInput)
        server["floor_saturated"] = byLevel(echo) { floorSaturated($0) }
        server["p99_ratio_to_echo"] = byLevel(frames) { run -> Any? in
            guard let level = double(run, "sessions").map(Int.init), let ours = double(run, "latency_p99_ms"),
                let floor = double(echo[level], "latency_p99_ms"), floor > 0
            else { return nil }
            return (ours / floor * 100).rounded() / 100
        }
        // Bytes per moving frame: the average over every level's frames.
        let moving = frames.values.reduce((0.0, 0.0, 0.0)) { sum, run in
            let count = double(run, "moving_frames") ?? 0
            return (
                sum.0 + count, sum.1 + count * (double(run, "bytes_per_moving_frame") ?? 0),
                sum.2 + count * (double(run, "wire_bytes_per_moving_frame") ?? 0)
            )
        }
        server["bytes_per_frame"] = moving.0 > 0 ? round1(moving.1 / moving.0) : NSNull()
        server["wire_bytes_per_frame"] = moving.0 > 0 ? round1(moving.2 / moving.0) : NSNull()
        if let largest = frames.keys.max(), let run = frames[largest], let rss = double(run, "server_rss_bytes"),
            let base = double(run, "server_baseline_rss_bytes")
        {
            server["rss_bytes_per_session"] = ((rss - base) / Double(largest)).rounded()
            server["rss_bytes_per_session_at"] = largest
        }
        if let idle {
            server["idle_cpu_percent"] = idle["server_cpu_percent"] ?? NSNull()
            server["idle_connections"] = idle["ready_sessions"] ?? NSNull()
            server["idle_bytes_received"] = idle["bytes"] ?? NSNull()
            server["idle_messages_received"] = idle["messages"] ?? NSNull()

            server["idle_window_s"] = idle["window_s"] ?? NSNull()
            if let rss = double(idle, "server_rss_bytes"), let base = double(idle, "server_baseline_rss_bytes"),
                let count = double(idle, "ready_sessions"), count > 0
            {
                server["idle_rss_bytes_per_session"] = ((rss - base) / count).rounded()
            }
        }
        var runs: [String: Any] = [:]
        runs["refreshkit"] = byLevel(frames) { $0 }
        runs["echo"] = byLevel(echo) { $0 }
        runs["idle"] = idle ?? NSNull()
        server["runs"] = runs
        return server
    }

    // MARK: - The table

    static func table(
        results: [String: Any], engine: EngineBench.Result?, frames: [Int: [String: Any]],
        echo: [Int: [String: Any]], idle: [String: Any]?, rounds: ([Int: [[String: Any]]], [Int: [[String: Any]]])
    ) -> String {
        var lines: [String] = []
        let machine = results["machine"] as? [String: Any] ?? [:]
        lines.append(
            "RefreshKit bench · \(machine["cpu"] ?? "?") × \(machine["cores"] ?? "?") · \(machine["kernel"] ?? "?") · "
                + "\(machine["swift"] ?? "?") · lws \(machine["libwebsockets"] ?? "?") · "
                + "git \(machine["git_commit"] ?? "?")"
        )
        lines.append("")
        if let e = engine {
            lines.append("engine (one core, one dragged session)")
            lines.append(
                "  steps/s \(fmt(e.stepsPerSecond / 1e6, 2)) M (median; runs \(fmt((e.runs.min() ?? 0) / 1e6, 2))–"
                    + "\(fmt((e.runs.max() ?? 0) / 1e6, 2)))  "
                    + "(target ≥ 2 M: \(e.stepsPerSecond >= 2e6 ? "met" : "NOT met"))"
                    + "   ns/step \(fmt(e.nanosecondsPerStep, 0))")
            let figures = results["engine"] as? [String: Any] ?? [:]
            if let count = figures["instructions_per_step"] as? Double,
                let rate = figures["instructions_per_ns"] as? Double
            {
                lines.append(
                    "  instructions/step \(fmt(count, 0)) (callgrind; the same on any host) · this host ran the timed "
                        + "steps at \(fmt(rate, 1)) instructions/ns")
            }
            lines.append(
                "  ns: apply \(fmt(e.nanosecondsPerApply, 0)) · advance \(fmt(e.nanosecondsPerAdvance, 0)) · frame() "
                    + "\(fmt(e.nanosecondsPerFrame, 0)) · encode delta \(fmt(e.nanosecondsPerEncode, 0)) · decode touch "
                    + "\(fmt(e.nanosecondsPerDecode, 0))")
            lines.append(
                "  per room frame: trace digest of its delta \(fmt(e.nanosecondsPerDeltaDigest, 0)) ns (was: of its "
                    + "values \(fmt(e.nanosecondsPerValueDigest, 0)), whole frame + digest of its text "
                    + "\(fmt(e.nanosecondsPerFullEncodeAndDigest, 0))); whole frame, for members that take them, "
                    + "\(fmt(e.nanosecondsPerFullEncode, 0)) ns")
            lines.append(
                "  delta \(fmt(e.bytesPerFrame, 0)) B (whole \(fmt(e.fullBytesPerFrame, 0)) B) · session "
                    + "\(e.sessionInlineBytes) B inline + \(fmt(e.heapBytesPerSession, 0)) B heap (RSS "
                    + "\(fmt(e.rssBytesPerSession, 0)) B)")
            if let host = figures["host_path"] as? [String: [String: Double]] {
                let parts = host.keys.sorted { Int($0) ?? 0 < Int($1) ?? 0 }.map { count in
                    let figure = host[count] ?? [:]
                    return "\(count) session\(count == "1" ? "" : "s") \(fmt(figure["ns_per_input"] ?? 0, 0)) ns "
                        + "(untraced \(fmt(figure["ns_per_input_untraced"] ?? 0, 0)))"
                }
                lines.append(
                    "  host path per input (decode + traced apply + delta, no sockets): "
                        + parts.joined(separator: " · "))
            }
            let b = e.frameBytes
            func part(_ name: String, _ s: FrameBytes.Split) -> String {
                "\(name) \(fmt(s.delta, 0)) B (whole \(fmt(s.full, 0)), \(s.frames) frames)"
            }
            lines.append(
                "  B per moving frame as deltas: " + part("scrolling", b.scrolling) + " · " + part("pulling", b.pulling)
                    + " · " + part("animating", b.animating) + " · " + part("all", b.all))
            lines.append("")
        }
        if !frames.isEmpty {
            let count = rounds.0.values.map(\.count).max() ?? 1
            lines.append(
                "server: input → frame latency, ms (echo = the same load against bare lws)"
                    + (count > 1
                        ? "; \(count) rounds per level, server and echo in each: the median run (by p99) of "
                            + "each, the ratio of the two, and every round's p99 min–max" : ""))
            lines.append(
                pad("sessions", 9) + pad("p50", 8) + pad("p99", 8) + pad("p99.9", 8) + pad("max", 8)
                    + pad("echo p99", 10)
                    + pad("ratio", 7) + pad("cpu%", 7) + pad("echo%", 7) + pad("gen%", 7) + pad("frames/s", 10)
                    + pad("B/frame", 8) + pad("p99 runs", 16) + "echo p99 runs")
            for level in frames.keys.sorted() {
                let run = frames[level]!
                let floor = echo[level]
                let ratio = double(run, "latency_p99_ms").flatMap { ours in
                    double(floor, "latency_p99_ms").map { ours / $0 }
                }
                let saturated = floor.map(floorSaturated) ?? false
                lines.append(
                    pad("\(level)", 9) + pad(ms(run, "latency_p50_ms"), 8) + pad(ms(run, "latency_p99_ms"), 8)
                        + pad(ms(run, "latency_p999_ms"), 8) + pad(ms(run, "latency_max_ms"), 8)
                        + pad(ms(floor, "latency_p99_ms"), 10)
                        + pad(ratio.map { fmt($0, 2) + (saturated ? "*" : "") } ?? "–", 7)
                        + pad(num(run, "server_cpu_percent", 1), 7) + pad(num(floor, "server_cpu_percent", 1), 7)
                        + pad(num(run, "client_cpu_percent", 1), 7) + pad(num(run, "frames_per_sec", 0), 10)
                        + pad(num(run, "bytes_per_moving_frame", 0), 8)
                        + pad(spread(rounds.0[level]), 16) + spread(rounds.1[level]))
            }
            lines.append(
                "  targets: p99 ≤ 2 ms at 1000 sessions; ≤ 120 B per moving frame; the ratios to the echo round by round "
                    + "under \"targets\" at the end. "
                    + "cpu% = server (100 = one core), gen% = load generator.")
            if frames.keys.contains(where: { echo[$0].map(floorSaturated) ?? false }) {
                lines.append(
                    "  * the floor itself was saturated in that round (why: below): there the ratio compares two "
                        + "saturated runs, not the server")
            }
            lines += saturatedRounds(rounds.1)
            lines += floorCost(frames: frames, echo: echo)
            lines.append("")
        }
        if let idle {
            lines.append(
                "idle: \(idle["ready_sessions"] ?? "?") connections, "
                    + "server cpu \(num(idle, "server_cpu_percent", 2)) % "
                    + "over \(num(idle, "window_s", 1)) s, \(idle["bytes"] ?? "?") bytes / \(idle["messages"] ?? "?") "
                    + "messages received by the clients in that window (lws keep-alive pings not counted)")
            lines.append("")
        }
        if let page = results["page"] as? [String: Any] {
            let msPerFrame = (page["ms_per_frame"] as? NSNumber).map { fmt($0.doubleValue, 2) } ?? "–"
            let fps = (page["fps"] as? NSNumber).map { fmt($0.doubleValue, 1) } ?? "–"
            lines.append(
                "page (10 000 rows, flinging): \(msPerFrame) ms of JS per frame, \(fps) fps (target ≤ 4 ms)"
                    + ((page["note"] as? String).map { " — \($0)" } ?? ""))
        }
        if let rows = results["page_rows"] as? [String: Any] {
            let ms = { (key: String, decimals: Int) in
                (rows[key] as? NSNumber).map { fmt($0.doubleValue, decimals) } ?? "–"
            }
            lines.append(
                "page (10 000 rows of varied text, measured, flinging): JS per frame p50 \(ms("js_ms_p50", 2)), "
                    + "p95 \(ms("js_ms_p95", 2)), max \(ms("js_ms_max", 2)) ms, mean \(ms("ms_per_frame", 2)) ms, "
                    + "\(ms("fps", 1)) fps; main-thread CPU per frame p50 \(ms("cpu_ms_p50", 2)), "
                    + "p95 \(ms("cpu_ms_p95", 2)) ms (target ≤ 4 ms)"
                    + ((rows["note"] as? String).map { " — \($0)" } ?? ""))
        }
        if let notes = results["notes"] as? [String], !notes.isEmpty {
            lines.append("")
            lines += notes.map { "note: \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// What one input costs the echo and the server in CPU time at each level, and what that makes of the
    /// floor's capacity: how many sessions at the bench's rate one core could echo at all.
    private static func floorCost(frames: [Int: [String: Any]], echo: [Int: [String: Any]]) -> [String] {
        let levels = frames.keys.sorted().filter { echo[$0] != nil }
        let costs = levels.compactMap { level -> String? in
            guard let floor = echo[level].flatMap(cpuMicrosecondsPerInput) else { return nil }
            let ours = frames[level].flatMap(cpuMicrosecondsPerInput).map { fmt($0, 1) } ?? "–"
            let generator = frames[level].flatMap(generatorMicrosecondsPerInput).map { fmt($0, 1) } ?? "–"
            return "\(level): echo \(fmt(floor, 1)), server \(ours), generator \(generator)"
        }
        guard !costs.isEmpty else { return [] }
        var lines = ["  CPU µs per input (the process's CPU time ÷ inputs sent): " + costs.joined(separator: " · ")]
        // The floor's cost per input falls as the load grows (one wake-up serves more messages) until it
        // saturates: the busiest level whose floor was not saturated says best how far one core goes.
        if let level = levels.last(where: { echo[$0].map(floorSaturated) == false }) ?? levels.first,
            let floor = echo[level].flatMap(cpuMicrosecondsPerInput), floor > 0,
            let rate = double(frames[level], "rate_hz"), rate > 0
        {
            let sessions = 1e6 / floor / rate
            lines.append(
                "  at \(fmt(floor, 1)) µs per input, one core echoes at most \(fmt(1e6 / floor / 1000, 0)) k inputs/s: "
                    + "\(fmt(sessions, 0)) sessions × \(fmt(rate, 0)) Hz, with nothing left for the server's own work")
        }
        return lines
    }

    /// Every echo round, of any level, in which the floor saturated (``floorSaturation(_:)``), and why: there no
    /// ratio to it says anything.
    private static func saturatedRounds(_ echo: [Int: [[String: Any]]]) -> [String] {
        var lines: [String] = []
        for level in echo.keys.sorted() {
            for (index, run) in (echo[level] ?? []).enumerated() {
                guard let why = floorSaturation(run) else { continue }
                lines.append("  the floor SATURATED at \(level) sessions in round \(index + 1): \(why)")
            }
        }
        return lines.isEmpty
            ? [
                "  the floor was not saturated in any round (echo and generator each < \(fmt(saturatedCPUPercent, 0)) % "
                    + "of a core, the echo's p99 within one input period, the generator on schedule)"
            ]
            : lines
    }

    /// `min–max` of the runs' p99, ms.
    private static func spread(_ runs: [[String: Any]]?) -> String {
        let values = (runs ?? []).compactMap { double($0, "latency_p99_ms") }
        guard let low = values.min(), let high = values.max() else { return "–" }
        return values.count == 1 ? fmt(low, 2) : "\(fmt(low, 2))–\(fmt(high, 2))"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private static func fmt(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }

    private static func ms(_ run: [String: Any]?, _ key: String) -> String {
        double(run, key).map { fmt($0, 2) } ?? "–"
    }

    private static func num(_ run: [String: Any]?, _ key: String, _ decimals: Int) -> String {
        double(run, key).map { fmt($0, decimals) } ?? "–"
    }
}
