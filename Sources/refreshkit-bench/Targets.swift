import Foundation

/// One target of docs/PERFORMANCE.md ("Targets"), checked on one round of the load or once per run.
///
/// A target that could not be judged (the echo floor saturated in that round, or a figure missing) is
/// ``Verdict/notShown``: it did not hold, as far as this run can tell, so it fails the run like a miss.
struct TargetCheck {
    enum Verdict: String {
        case pass = "PASS"
        case fail = "FAIL"
        case notShown = "NOT SHOWN"
    }

    /// What is checked, e.g. "1000 sessions: server CPU per input ≤ 1.15× echo".
    var target: String
    /// The round of the load (1-based); nil for a target checked once per run.
    var round: Int?
    /// The measured ratio or difference, against `limit`.
    var value: Double?
    var limit: Double
    var verdict: Verdict
    /// The figures behind `value` ("server 10.8 µs, echo 7.4 µs"), or why it could not be judged.
    var detail: String

    var json: [String: Any] {
        [
            "target": target, "round": round ?? NSNull(), "value": value ?? NSNull(), "limit": limit,
            "verdict": verdict.rawValue, "detail": detail,
        ]
    }

    init(target: String, round: Int? = nil, value: Double?, limit: Double, detail: String, judgeable: Bool = true) {
        self.target = target
        self.round = round
        self.value = value.map { ($0 * 100).rounded() / 100 }
        self.limit = limit
        self.detail = detail
        if !judgeable {
            verdict = .notShown
        } else if let value {
            verdict = value <= limit ? .pass : .fail
        } else {
            verdict = .notShown
        }
    }

    init?(json: [String: Any]) {
        guard let target = json["target"] as? String, let limit = (json["limit"] as? NSNumber)?.doubleValue,
            let verdict = (json["verdict"] as? String).flatMap(Verdict.init(rawValue:))
        else { return nil }
        self.target = target
        round = (json["round"] as? NSNumber)?.intValue
        value = (json["value"] as? NSNumber)?.doubleValue
        self.limit = limit
        self.verdict = verdict
        detail = json["detail"] as? String ?? ""
    }
}

/// The targets `make bench` checks (docs/PERFORMANCE.md, "Targets"), each in every round of the load, not only
/// the median one: the server's CPU per input and p99 against the echo's in the same round, the whole server's
/// instructions per input against the echo's, and the finger-to-content lag against the bare page's.
enum Targets {
    /// A ratio of the server's figure to the echo's in one round, at one level.
    struct RatioToEcho {
        enum Figure: String {
            case cpu = "CPU µs per input"
            case p99 = "p99 input → frame"
        }

        var sessions: Int
        var figure: Figure
        var limit: Double
    }

    /// docs/PERFORMANCE.md, "Targets": the load's, per round.
    static let ratiosToEcho = [
        RatioToEcho(sessions: 100, figure: .cpu, limit: 1.3),
        RatioToEcho(sessions: 500, figure: .cpu, limit: 1.3),
        RatioToEcho(sessions: 1000, figure: .cpu, limit: 1.15),
        RatioToEcho(sessions: 1000, figure: .p99, limit: 1.5),
    ]
    /// Over TLS (``TLSBench``): the server's CPU per input ÷ the TLS echo's, per round (docs/HTTPS.md, "Measured").
    static let tlsCPU = RatioToEcho(sessions: TLSBench.sessions, figure: .cpu, limit: 1.3)
    /// The whole server's instructions per input ÷ the echo's.
    static let instructionsLimit = 1.6
    /// The real page's median lag (loopback, prediction on) minus the bare page's, ms.
    static let lagOverBareLimit = 2.0
    /// A link profile's median lag (prediction on) minus loopback's, ms: one display frame at 60 Hz.
    static let linkFrameLimit = 16.7

    /// One round of a level: the server's run and the echo's that ran beside it.
    struct Round {
        var server: [String: Any]?
        var echo: [String: Any]?
    }

    /// Every round's figures, per level, as the targets read them: `{"1000": [{"cpu_us_per_input": …}, …]}`.
    static func roundFigures(_ rounds: [Int: [Round]]) -> [String: Any] {
        var out: [String: Any] = [:]
        for (level, pairs) in rounds {
            out["\(level)"] = pairs.map { round -> [String: Any] in
                [
                    "cpu_us_per_input": round.server.flatMap(Summary.cpuMicrosecondsPerInput) ?? NSNull(),
                    "echo_cpu_us_per_input": round.echo.flatMap(Summary.cpuMicrosecondsPerInput) ?? NSNull(),
                    "sys_us_per_input": round.server.flatMap(Summary.systemMicrosecondsPerInput) ?? NSNull(),
                    "echo_sys_us_per_input": round.echo.flatMap(Summary.systemMicrosecondsPerInput) ?? NSNull(),
                    "p99_ms": round.server?["latency_p99_ms"] ?? NSNull(),
                    "echo_p99_ms": round.echo?["latency_p99_ms"] ?? NSNull(),
                    "echo_cpu_percent": round.echo?["server_cpu_percent"] ?? NSNull(),
                    "echo_run_generator_cpu_percent": round.echo?["client_cpu_percent"] ?? NSNull(),
                    "floor_saturation": round.echo.flatMap(Summary.floorSaturation) ?? NSNull(),
                    "host_steal_ms": round.server?["host_steal_ms"] ?? NSNull(),
                    "echo_host_steal_ms": round.echo?["host_steal_ms"] ?? NSNull(),
                ]
            }
        }
        return out
    }

    /// The load's targets, each for every round of its level; levels that did not run are left out.
    static func load(rounds: [Int: [Round]]) -> [TargetCheck] {
        var checks: [TargetCheck] = []
        for target in ratiosToEcho {
            for (index, round) in (rounds[target.sessions] ?? []).enumerated() {
                checks.append(check(target, round, number: index + 1))
            }
        }
        return checks
    }

    /// The TLS stage's target, for every round it ran.
    static func tls(rounds: [Round]) -> [TargetCheck] {
        rounds.enumerated().map { check(tlsCPU, $0.element, number: $0.offset + 1, over: "over TLS, ") }
    }

    private static func check(_ target: RatioToEcho, _ round: Round, number: Int, over: String = "") -> TargetCheck {
        let name = "\(over)\(target.sessions) sessions: \(target.figure.rawValue) ≤ \(format(target.limit))× echo's"
        let (ours, floor, unit): (Double?, Double?, String) =
            switch target.figure {
            case .cpu:
                (
                    round.server.flatMap(Summary.exactCPUMicrosecondsPerInput),
                    round.echo.flatMap(Summary.exactCPUMicrosecondsPerInput), "µs"
                )
            case .p99:
                (
                    Summary.double(round.server, "latency_p99_ms"),
                    Summary.double(round.echo, "latency_p99_ms"), "ms"
                )
            }
        let starved = round.server.flatMap(Summary.generatorBehind).map {
            "in the server's run \($0): the host was busy"
        }
        let value = ours.flatMap { ours in floor.flatMap { $0 > 0 ? ours / $0 : nil } }
        if let why = round.echo.flatMap(Summary.floorSaturation) ?? starved {
            return TargetCheck(
                target: name, round: number, value: value, limit: target.limit,
                detail: "the floor saturated (\(why)): the ratio compares two queues", judgeable: false)
        }
        if ours == nil, floor != nil, round.server != nil {
            return TargetCheck(
                target: name, round: number, value: .infinity, limit: target.limit,
                detail: "the server answered no input in its window (the echo did, on a host not saturated)")
        }
        guard let ours, let floor, let value else {
            return TargetCheck(
                target: name, round: number, value: nil, limit: target.limit,
                detail: "no figure (a run failed or answered nothing in its window: see the notes)")
        }
        return TargetCheck(
            target: name, round: number, value: value, limit: target.limit,
            detail: "server \(format(ours)) \(unit)\(kernelShare(target, round.server)), echo \(format(floor)) "
                + "\(unit)\(kernelShare(target, round.echo))\(steal(round))")
    }

    /// The machine's steal time in each window (`"; host steal 40 ms, echo's 0"`): CPU time the hypervisor gave to
    /// something else, which lengthens a round's tail whatever the process does. Said, not judged.
    private static func steal(_ round: Round) -> String {
        guard let ours = Summary.double(round.server, "host_steal_ms"),
            let floor = Summary.double(round.echo, "host_steal_ms")
        else { return "" }
        return "; host steal \(format(ours, 0)) ms, echo's \(format(floor, 0))"
    }

    /// For a CPU figure, the part of it in the kernel (`" (kernel 5.20)"`): the server and the echo make the same
    /// system calls, so their difference is mostly in user space, and this says where.
    private static func kernelShare(_ target: RatioToEcho, _ run: [String: Any]?) -> String {
        guard target.figure == .cpu, let kernel = run.flatMap(Summary.systemMicrosecondsPerInput) else { return "" }
        return " (kernel \(format(kernel)))"
    }

    /// The whole server's instructions per input against the echo's (``ServerInstructions``), once per run. The
    /// detail gives the messages (frames) it sent per input: a server that coalesced a backlog (under 1) did less
    /// work per input than a served one would, so its count is then low.
    static func instructions(server: ServerInstructions.Count?, echo: ServerInstructions.Count?) -> TargetCheck {
        let name = "whole server: instructions per input ≤ \(format(instructionsLimit))× echo's (callgrind)"
        guard let ours = server?.perInput, let floor = echo?.perInput, floor > 0 else {
            return TargetCheck(target: name, value: nil, limit: instructionsLimit, detail: "not counted")
        }
        let frames = server?.framesPerInput.map { ", \(format($0)) messages per input" } ?? ""
        for (who, count) in [("server", server), ("echo", echo)] {
            guard let count, count.answeredShare < ServerInstructions.Count.keptUpShare else { continue }
            return TargetCheck(
                target: name, value: ours / floor, limit: instructionsLimit,
                detail: "the \(who) fell behind under callgrind (answered \(format(count.answeredShare * 100, 0)) % of "
                    + "the inputs in a window: the host was busy), so its count says nothing: server "
                    + "\(format(ours, 0)), echo \(format(floor, 0))",
                judgeable: false)
        }
        return TargetCheck(
            target: name, value: ours / floor, limit: instructionsLimit,
            detail: "server \(format(ours, 0))\(frames), echo \(format(floor, 0))")
    }

    /// A lag stage that ran but measured nothing gives one ``TargetCheck/Verdict/notShown`` check with its note.
    static func lag(_ lag: [String: Any]?) -> [TargetCheck] {
        guard let lag, let targets = lag["targets"] as? [String: Any] else {
            let note = (lag?["note"] as? String) ?? "not measured"
            if note.hasPrefix("skipped") { return [] }
            return [
                TargetCheck(
                    target: "lag: the page's median within \(format(lagOverBareLimit)) ms of the bare page's",
                    value: nil, limit: lagOverBareLimit, detail: note)
            ]
        }
        let loopback = (targets["loopback"] as? [String: Any])?["predict_on"] as? [String: Any]
        let ours = Summary.double(loopback, "lag_ms_median")
        var checks: [TargetCheck] = []
        if let bare = lag["bare"] as? [String: Any] {
            let floor = Summary.double(bare, "lag_ms_median")
            checks.append(
                TargetCheck(
                    target: "lag: the page's median (loopback, prediction on) ≤ the bare page's + "
                        + "\(format(lagOverBareLimit)) ms",
                    value: ours.flatMap { ours in floor.map { ours - $0 } }, limit: lagOverBareLimit,
                    detail: "page \(ours.map { format($0) } ?? "–") ms, bare \(floor.map { format($0) } ?? "–") ms"
                        + ((bare["error"] as? String).map { " (bare: \($0))" } ?? "")))
        }
        for profile in (lag["profiles"] as? [String] ?? []) where profile != "loopback" {
            let run = (targets[profile] as? [String: Any])?["predict_on"] as? [String: Any]
            let median = Summary.double(run, "lag_ms_median")
            checks.append(
                TargetCheck(
                    target: "lag: \(profile) adds ≤ 1 frame (\(format(linkFrameLimit)) ms) to loopback's median, "
                        + "prediction on",
                    value: median.flatMap { median in ours.map { median - $0 } }, limit: linkFrameLimit,
                    detail:
                        "\(profile) \(median.map { format($0) } ?? "–") ms, loopback \(ours.map { format($0) } ?? "–") ms"
                ))
        }
        return checks
    }

    /// Over https (``LagBench/runOverTLS(_:)``): the page's median (prediction on) against the bare page's, both over
    /// https with the CA trusted (docs/HTTPS.md, "Measured"). Nothing when the stage did not run.
    static func lagOverTLS(_ lag: [String: Any]?) -> [TargetCheck] {
        guard let lag else { return [] }
        let name =
            "lag over https: the page's median (prediction on) ≤ the bare page's over https + "
            + "\(format(lagOverBareLimit)) ms"
        let page = ((lag["targets"] as? [String: Any])?["https"] as? [String: Any])?["predict_on"] as? [String: Any]
        let ours = Summary.double(page, "lag_ms_median")
        let floor = Summary.double(lag["bare"] as? [String: Any], "lag_ms_median")
        guard let ours, let floor else {
            let why = (lag["note"] as? String) ?? (page?["error"] as? String) ?? "no figure"
            return [TargetCheck(target: name, value: nil, limit: lagOverBareLimit, detail: why)]
        }
        return [
            TargetCheck(
                target: name, value: ours - floor, limit: lagOverBareLimit,
                detail: "page \(format(ours)) ms, bare \(format(floor)) ms")
        ]
    }

    static func passed(_ checks: [TargetCheck]) -> Bool { checks.allSatisfy { $0.verdict == .pass } }

    /// The table's lines: one per check, then the count.
    static func table(_ checks: [TargetCheck]) -> String {
        guard !checks.isEmpty else { return "targets: none checked (their stages were skipped)" }
        var lines = ["targets (docs/PERFORMANCE.md, \"Targets\"; the load's in every round):"]
        for check in checks {
            let round = check.round.map { " round \($0)" } ?? ""
            let value = check.value.map { format($0) } ?? "–"
            lines.append(
                "  \(check.verdict.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(check.target)\(round): "
                    + "\(value) (limit \(format(check.limit))) · \(check.detail)")
        }
        let failed = checks.filter { $0.verdict != .pass }.count
        lines.append(
            failed == 0
                ? "  all \(checks.count) checks passed"
                : "  \(failed) of \(checks.count) checks did not pass: refreshkit-bench exits with status 3")
        return lines.joined(separator: "\n")
    }

    private static func format(_ value: Double, _ decimals: Int = 2) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
