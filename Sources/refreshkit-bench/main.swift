import AnchorScenarios
import CLibWebSockets
import Foundation

// refreshkit-bench: the figures of `make bench`. It prints a table, writes bench/results.json (docs/PERFORMANCE.md
// explains each figure and how it is measured) and exits with 3 when one of the targets did not hold (the anchoring
// error during a fling over its target among them).

let options: BenchOptions
do {
    options = try BenchCommand.parseOrExit().options()
} catch {
    FileHandle.standardError.write(Data("refreshkit-bench: \(error)\n".utf8))
    exit(2)
}
signal(SIGPIPE, SIG_IGN)
raiseFileLimit()

/// A profiling mode: runs `body`, prints what it says, and exits (1 with the error on failure).
func profileAndExit(_ body: () throws -> String) -> Never {
    do {
        print(try body())
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("refreshkit-bench: \(error)\n".utf8))
        exit(1)
    }
}

if let steps = options.profileSteps {
    profileAndExit {
        let seconds = try EngineBench().profile(count: steps)
        return "\(steps) steps in \(seconds) s: \(Int(Double(steps) / seconds)) steps/s"
    }
}

if let sessions = options.profileHostSessions, options.profileSessionHost {
    profileAndExit {
        var bench = SessionHostBench()
        if let inputs = options.profileHostInputs { bench.inputs = inputs }
        if options.profileRealClock { bench.start = SessionHostBench.realClockStart }
        return "\(sessions) sessions: \(Int(try bench.profile(sessions: sessions))) ns per input (session host)"
    }
}

if let sessions = options.profileHostSessions {
    profileAndExit {
        var bench = HostPathBench()
        if let inputs = options.profileHostInputs { bench.inputs = inputs }
        bench.numbered = options.profileHostNumbered
        return "\(sessions) sessions: \(Int(try bench.profile(sessions: sessions))) ns per input"
    }
}

if options.takeOverOnly {
    profileAndExit {
        let figures = try TakeOverBench().run()
        let data = try JSONSerialization.data(withJSONObject: TakeOverBench.json(figures), options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}

if options.flingOnly {
    profileAndExit { FlingBench.table(FlingBench().run()) }
}

if let path = options.checkTargets {
    let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: options.root))
    guard let data = try? Data(contentsOf: url),
        let results = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
        let saved = results["targets"] as? [[String: Any]]
    else {
        FileHandle.standardError.write(Data("refreshkit-bench: no targets in \(path)\n".utf8))
        exit(2)
    }
    let checks = saved.compactMap(TargetCheck.init(json:))
    print(Targets.table(checks))
    exit(Targets.passed(checks) ? 0 : 3)
}

/// A progress line on stderr, with the seconds since the bench started (so each stage's time shows).
func say(_ text: String) {
    let elapsed = String(format: "%.0f", Date().timeIntervalSince(started))
    FileHandle.standardError.write(Data("[bench +\(elapsed) s] \(text)\n".utf8))
}

/// 5 000 idle connections need ~10 000 descriptors (server + generator); children inherit the limit.
func raiseFileLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    if limit.rlim_cur < limit.rlim_max {
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

let started = Date()
var results: [String: Any] = [:]
var notes: [String] = []
results["machine"] = await Machine.describe(root: options.root)
results["generated_at"] = ISO8601DateFormatter().string(from: started)
if let load = Double(((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").prefix { $0 != " " }),
    load > 0.5
{
    let warning = "the machine was busy when the bench started (1-minute load average \(load)): figures are pessimistic"
    say(warning)
    notes.append(warning)
}
results["workload"] = [
    "levels": options.levels, "input_rate_hz": options.rate, "warmup_s": options.warmup,
    "duration_s": options.duration, "tail_duration_s": options.tailDuration, "rounds": options.rounds,
    "slice_s": options.slice,
    "idle_sessions": options.idleSessions,
    "idle_duration_s": options.idleDuration,
    "server_log_level": options.serverLogLevel, "server_arguments": options.serverArguments,
    "frames": options.frames,
    "drag": "touch start, then touch move ±5 px at the input rate, direction flipped every 30 moves",
    "latency": "client send of an input → receipt of the first frame whose t ≥ that send (both read a ServerClock); "
        + "echo: send → receipt of its echo",
]

// MARK: - Engine

var engine: EngineBench.Result?
var hostPath: [HostPathBench.Figures] = []
if !options.skipEngine {
    say("engine: \(options.engineSteps) steps × 5 runs on one core…")
    do {
        let result = try EngineBench(steps: options.engineSteps).run()
        engine = result
        var figures: [String: Any] = [
            "steps_per_sec": result.stepsPerSecond.rounded(),
            "ns_per_step": round1(result.nanosecondsPerStep),
            "ns_per_apply": round1(result.nanosecondsPerApply),
            "ns_per_advance": round1(result.nanosecondsPerAdvance),
            "ns_per_frame_build": round1(result.nanosecondsPerFrame),
            "ns_per_frame_encode": round1(result.nanosecondsPerEncode),
            "ns_per_full_frame_encode": round1(result.nanosecondsPerFullEncode),
            "ns_per_full_frame_encode_and_text_digest": round1(result.nanosecondsPerFullEncodeAndDigest),
            "ns_per_frame_value_digest": round1(result.nanosecondsPerValueDigest),
            "ns_per_frame_delta_digest": round1(result.nanosecondsPerDeltaDigest),
            "ns_per_touch_decode": round1(result.nanosecondsPerDecode),
            "bytes_per_frame": round1(result.bytesPerFrame),
            "full_bytes_per_frame": round1(result.fullBytesPerFrame),
            "bytes_per_moving_frame": [
                "scrolling": split(result.frameBytes.scrolling), "pulling": split(result.frameBytes.pulling),
                "animating": split(result.frameBytes.animating), "all": split(result.frameBytes.all),
            ],
            "session_inline_bytes": result.sessionInlineBytes,
            "session_heap_bytes": result.heapBytesPerSession.rounded(),
            "bytes_per_session": (Double(result.sessionInlineBytes) + result.heapBytesPerSession).rounded(),
            "rss_bytes_per_session": result.rssBytesPerSession.rounded(),
            "steps_per_sec_runs": result.runs.map { $0.rounded() },
        ]
        if !options.skipInstructions {
            let runs = "\(InstructionCount.shortRun) and \(InstructionCount.longRun) steps"
            say("engine: instructions per step, counted by callgrind (\(runs))…")
            do {
                if let count = try await InstructionCount.perStep(
                    bench: options.binary("refreshkit-bench"), logDirectory: options.logDirectory)
                {
                    figures["instructions_per_step"] = count.rounded()
                    // What this host gave the timed runs: instructions retired per ns (IPC × GHz).
                    figures["instructions_per_ns"] = round1(count * result.stepsPerSecond / 1e9)
                } else {
                    notes.append("valgrind is not installed: engine.instructions_per_step was not counted")
                }
            } catch {
                say("instruction count failed: \(error)")
                notes.append("instruction count failed: \(error)")
            }
        }
        say("engine: the host path per input (decode, traced apply, delta), 1 and 1 000 sessions…")
        let host = try HostPathBench().run(sessionCounts: [1, 1000])
        figures["host_path"] = Dictionary(
            uniqueKeysWithValues: host.map {
                (
                    "\($0.sessions)",
                    [
                        "ns_per_input": round1($0.nanosecondsPerInput),
                        "ns_per_input_untraced": round1($0.nanosecondsPerInputUntraced),
                    ]
                )
            })
        hostPath = host
        results["engine"] = figures
    } catch {
        say("engine bench failed: \(error)")
        notes.append("engine bench failed: \(error)")
    }
}

// MARK: - Take-over (the cluster's: docs/SCALING.md, "Sessions of any length")

if !options.skipTakeOver {
    say("take-over: the catch-up of a session an hour old, from its snapshot and tail…")
    do {
        let figures = TakeOverBench.json(try TakeOverBench().run())
        results["take_over"] = figures
        say("take-over: catch-up \(figures["catch_up_ms"] ?? "?") ms (target ≤ 20 ms)")
    } catch {
        say("take-over bench failed: \(error)")
        notes.append("take-over bench failed: \(error)")
    }
}

// MARK: - Anchoring (docs/PERFORMANCE.md, "Rows: anchoring")

if !options.skipAnchor {
    say("anchor: the first visible row during a fling while rows above it change…")
    results["anchor"] = AnchorBench().run()
} else {
    results["anchor"] = ["note": "skipped (--skip-anchor)"]
}

// MARK: - Server

let serverBench = ServerBench(options: options)
/// Every round's run, per level: the figures are the median run's, the table adds the spread.
var frameRounds: [Int: [[String: Any]]] = [:]
/// Every round's pair (the server's run and the echo's beside it), per level: the targets are checked on each.
var roundPairs: [Int: [Targets.Round]] = [:]
var echoRounds: [Int: [[String: Any]]] = [:]
var idleRun: [String: Any]?
/// The median run (by p99) of each level's rounds.
var frameRuns: [Int: [String: Any]] { frameRounds.compactMapValues(Summary.medianRun) }
var echoRuns: [Int: [String: Any]] { echoRounds.compactMapValues(Summary.medianRun) }
if !options.skipServer {
    for level in options.levels {
        for round in 1...options.rounds {
            let of = options.rounds > 1 ? " (round \(round) of \(options.rounds))" : ""
            let window = "\(options.warmup) s warm-up + \(options.duration(at: level)) s"
            var pair = Targets.Round()
            if options.slice > 0 && !options.skipEcho {
                say(
                    "server and echo floor: \(level) sessions × \(Int(options.rate)) Hz, \(window) each, turn by turn in "
                        + "slices of \(options.slice) s\(of)…")
                do {
                    (pair.server, pair.echo) = try await serverBench.loadTurnByTurn(
                        sessions: level, serverFirst: round % 2 == 1)
                } catch {
                    say("refreshkit and echo at \(level): \(error)")
                    notes.append("refreshkit and echo at \(level) sessions: \(error)")
                }
            } else {
                say("server: \(level) sessions × \(Int(options.rate)) Hz, \(window)\(of)…")
                do { pair.server = try await serverBench.load(.refreshkit, sessions: level) } catch {
                    say("refreshkit at \(level): \(error)")
                    notes.append("refreshkit at \(level) sessions: \(error)")
                }
                if !options.skipEcho {
                    say("echo floor: \(level) sessions\(of)…")
                    do { pair.echo = try await serverBench.load(.echo, sessions: level) } catch {
                        say("echo at \(level): \(error)")
                        notes.append("echo at \(level) sessions: \(error)")
                    }
                }
            }
            if let run = pair.server { frameRounds[level, default: []].append(run) }
            if let run = pair.echo { echoRounds[level, default: []].append(run) }
            if !options.skipEcho { roundPairs[level, default: []].append(pair) }
        }
    }
    if !options.skipIdle {
        say("idle: \(options.idleSessions) connections that say hello and then nothing, \(options.idleDuration) s…")
        do { idleRun = try await serverBench.load(.refreshkit, sessions: options.idleSessions, idle: true) } catch {
            say("idle: \(error)")
            notes.append("idle run: \(error)")
        }
    }
    var server = Summary.server(frames: frameRuns, echo: echoRuns, idle: idleRun)
    server["rounds"] = options.rounds
    server["p99_rounds_ms"] = Summary.p99Rounds(frames: frameRounds, echo: echoRounds)
    server["rounds_figures"] = Targets.roundFigures(roundPairs)
    results["server"] = server
}

// MARK: - TLS (docs/HTTPS.md, "Measured")

/// The certificate of `refreshkit cert` that the TLS stages serve (the load's and the lag's).
var tlsFolder: CertificateFolder?
if !options.skipTLS {
    do { tlsFolder = try await CertificateFolder.make(in: options.logDirectory + "/tls", options: options) } catch {
        notes.append("TLS: \(error)")
    }
}
var tlsRounds: [Targets.Round] = []
if let tlsFolder, !options.skipServer && !options.skipEcho {
    let (rounds, tlsNotes) = await TLSBench(options: options, tls: tlsFolder).run()
    tlsRounds = rounds
    notes += tlsNotes
    results["tls"] = [
        "sessions": TLSBench.sessions, "rounds_figures": Targets.roundFigures([TLSBench.sessions: rounds]),
    ]
} else {
    results["tls"] = ["note": "skipped"]
}

// MARK: - The whole server's instructions (callgrind)

var instructionCounts: (server: ServerInstructions.Count?, echo: ServerInstructions.Count?)?
if !options.skipServer && !options.skipEcho && !options.skipInstructions {
    var counts: [String: Any] = [
        "sessions": ServerInstructions.sessions,
        "window_s": ServerInstructions.window,
    ]
    var perInput: [ServerBench.Kind: ServerInstructions.Count] = [:]
    for kind in [ServerBench.Kind.refreshkit, .echo] {
        say(
            "instructions: \(kind.rawValue) under callgrind, \(ServerInstructions.sessions) sessions, the window alone…"
        )
        do {
            if let count = try await ServerInstructions(options: options).count(kind) {
                counts[kind.rawValue] = count.json
                perInput[kind] = count
            } else {
                notes.append("valgrind is not installed: the whole server's instructions per input were not counted")
                break
            }
        } catch {
            say("instructions of \(kind.rawValue): \(error)")
            notes.append("instructions of \(kind.rawValue): \(error)")
        }
    }
    results["server_instructions"] = counts
    instructionCounts = (perInput[.refreshkit], perInput[.echo])
}

// MARK: - Page

if !options.skipPage {
    say("page: 10 000 rows, flinging in headless Chromium…")
    results["page"] = await PageBench(options: options, serverBench: serverBench).run()
    say("page: 10 000 rows of varied text from a SQLite feed, laid out and measured, flinging…")
    results["page_rows"] = await PageRowsBench(options: options).run()
} else {
    results["page"] = ["ms_per_frame": NSNull(), "fps": NSNull(), "note": "skipped (--skip-page)"]
    results["page_rows"] = ["ms_per_frame": NSNull(), "js_ms_p95": NSNull(), "note": "skipped (--skip-page)"]
}

// MARK: - Feed sources

if !options.skipFeed {
    say("feed: the SQLite and JSON Feed sources' answer times…")
    results["feed"] = await FeedBench(options: options, sqliteItems: options.feedItems).run()
    results["window"] = WindowBench().run()
    results["fling"] = FlingBench().run()
} else {
    results["feed"] = ["note": "skipped (--skip-feed)"]
}

// MARK: - Lag

if !options.skipLag {
    say("lag: a touch drag in headless Chromium, loopback and through refreshkit link (wifi, wifi-powersave)…")
    results["lag"] = await LagBench(options: options).run()
    if let tlsFolder {
        say("lag over https: the page and the bare page, each over https with the CA trusted…")
        results["lag_tls"] = await LagBench(options: options).runOverTLS(tlsFolder)
    }
} else {
    results["lag"] = ["targets": NSNull(), "note": "skipped (--skip-lag)"]
}

var checks = Targets.load(rounds: roundPairs)
if let counts = instructionCounts { checks.append(Targets.instructions(server: counts.server, echo: counts.echo)) }
checks += Targets.tls(rounds: tlsRounds)
checks += Targets.lag(results["lag"] as? [String: Any])
checks += Targets.lagOverTLS(results["lag_tls"] as? [String: Any])
results["targets"] = checks.map(\.json)
results["targets_passed"] = Targets.passed(checks)
results["notes"] = notes
results["elapsed_s"] = round1(Date().timeIntervalSince(started))

// MARK: - Output

do {
    let data = try JSONSerialization.data(withJSONObject: results, options: [.prettyPrinted, .sortedKeys])
    let url = URL(fileURLWithPath: options.output, relativeTo: URL(fileURLWithPath: options.root))
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try (data + Data("\n".utf8)).write(to: url)
    print(
        Summary.table(
            results: results, engine: engine, frames: frameRuns, echo: echoRuns, idle: idleRun,
            rounds: (frameRounds, echoRounds)))
    print(LagBench.table(results["lag"] as? [String: Any]))
    if let overTLS = results["lag_tls"] as? [String: Any] { print("over https:\n" + LagBench.table(overTLS)) }
    print(FeedBench.table(results["feed"] as? [String: Any]))
    print(Targets.table(checks))
    print(AnchorBench.table(results["anchor"] as? [String: Any]))
    print(WindowBench.table(results["window"] as? [String: Any]))
    print(FlingBench.table(results["fling"] as? [String: Any]))
    print("wrote \(options.output) (logs in \(options.logDirectory))")
} catch {
    say("could not write \(options.output): \(error)")
    exit(1)
}
// A target that did not hold fails the run (3; 1 and 2 are errors), after every figure is written.
let anchorHolds = AnchorBench.holds(results["anchor"] as? [String: Any])
if !anchorHolds {
    say("FAIL: the anchoring error during a fling is over \(AnchorFigures.targetPx) px (or a case could not run)")
}
exit(Targets.passed(checks) && anchorHolds ? 0 : 3)

func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }

func split(_ split: FrameBytes.Split) -> [String: Any] {
    ["frames": split.frames, "full": round1(split.full), "delta": round1(split.delta)]
}
