import ArgumentParser
import Foundation

/// `refreshkit-bench`'s command line (swift-argument-parser): it makes the plain ``BenchOptions`` that the
/// benches read. main.swift parses it with `parseOrExit()`, which prints `--help` and usage errors and exits.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refreshkit-bench",
        abstract: "The figures of `make bench` (docs/PERFORMANCE.md): prints a table and writes them as JSON.",
        discussion: """
            Engine micro-benchmarks (and, with valgrind installed, the step's instruction count), then refreshkit \
            serve and lws-echo under refreshkit-load at each level, the idle cost, the page in headless Chromium, \
            and the finger-to-content lag through `refreshkit link` (loopback, wifi, wifi-powersave; prediction \
            on and off). Each level runs --rounds times, server and echo turn by turn over the same seconds \
            (--slice); the median run (by p99) of each is reported; then the take-over catch-up of a session an \
            hour old, and the anchoring error during a fling (the run exits 1 when it is over its target). \
            --profile-engine, --profile-host, --take-over-only and --fling-only run one part alone, for callgrind or perf, and \
            exit.
            """)

    /// A comma-separated list of session counts (`--levels 100,500,1000`).
    struct Levels: ExpressibleByArgument {
        var counts: [Int]

        init?(argument: String) {
            let counts = argument.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) > 0 }) else { return nil }
            self.counts = counts.compactMap { $0 }
        }

        init(_ counts: [Int]) { self.counts = counts }

        var defaultValueDescription: String { counts.map(String.init).joined(separator: ",") }
    }

    // MARK: Output and locations

    @Option(name: .customLong("out"), help: ArgumentHelp("Where the JSON figures go.", valueName: "path"))
    var output = "bench/results.json"

    @Option(
        name: .customLong("bin-dir"),
        help: ArgumentHelp(
            "Where refreshkit, refreshkit-load and lws-echo are (default: beside this executable).",
            valueName: "dir"))
    var binDirectory: String?

    @Option(
        name: .customLong("refreshkit"),
        help: ArgumentHelp(
            "The refreshkit binary to measure (default: the one in --bin-dir); the generator and echo stay this "
                + "build's, so a base revision's server compares with today's (bench/compare.sh).",
            valueName: "path"))
    var serverBinary: String?

    @Option(help: ArgumentHelp("The page's files, for `refreshkit serve --web-root`.", valueName: "dir"))
    var webRoot = "web"

    @Option(help: ArgumentHelp("The Python that runs bench/page_bench.py and bench/lag_bench.py.", valueName: "path"))
    var python = ".venv/bin/python"

    // MARK: The server load

    @Option(help: ArgumentHelp("ListModel counts to load the server with, comma-separated.", valueName: "n,n,…"))
    var levels = Levels([100, 500, 1000, 2000])

    @Option(help: ArgumentHelp("Inputs per second per session.", valueName: "hz"))
    var rate = 60.0

    /// One run's p99 at a saturated level varies 2–3× on this machine, so the median run of each is reported.
    @Option(help: "Load runs per level, each of the server and the echo (the median run by p99 is reported).")
    var rounds = 3

    /// On a shared virtual machine two runs one after the other meet different hours of the host: measured turn by
    /// turn over the same window, the server's and the echo's CPU per input compare within a few per cent
    /// (docs/PERFORMANCE.md, "Two targets measured turn by turn"). Slices of 50 ms, shorter than the host's longer
    /// stalls, share those between the two targets: two lws-echo floors' p99s then differed by 0.90–1.26×, against
    /// 0.05–5.68× in slices of 1 s ("How long a slice the p99 needs").
    @Option(
        help: ArgumentHelp(
            "Server and echo measured turn by turn, in slices of this many seconds over the same window (the first "
                + "tenth of each not measured), each for --duration seconds of input (0: one after the other).",
            valueName: "seconds"))
    var slice = 0.05

    @Option(help: ArgumentHelp("Seconds of input before each measured window.", valueName: "seconds"))
    var warmup = 2.0

    @Option(help: ArgumentHelp("Seconds measured per load run.", valueName: "seconds"))
    var duration = 5.0

    /// A tail is set by the host's few stalls of 5–50 ms, so it needs more inputs than a CPU time: with 5 s per run
    /// two lws-echo floors' p99s differed by up to 1.26× (docs/PERFORMANCE.md, "How long a slice the p99 needs").
    @Option(
        help: ArgumentHelp(
            "Seconds measured per load run at a level whose p99 is a target (1 000 sessions).", valueName: "seconds"))
    var tailDuration = 10.0

    @Option(help: "Connections for the idle cost (hello, then nothing).")
    var idleSessions = 5000

    /// Longer than the server's 10 s ping interval, so the window holds a whole ping/pong cycle.
    @Option(
        help: ArgumentHelp("Seconds of the idle window (longer than the 10 s ping interval).", valueName: "seconds"))
    var idleDuration = 12.0

    @Option(help: "What the load's sessions ask for in hello: delta (as the page does) or full frames.")
    var frames: Frames = .delta

    @Option(
        name: .customLong("server-arg"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "An extra argument for `refreshkit serve` (repeatable): --server-arg --max-connections --server-arg 100.",
            valueName: "arg"))
    var serverArguments: [String] = []

    @Option(help: ArgumentHelp("`refreshkit serve --log-level` during the runs.", valueName: "level"))
    var serverLogLevel = "warning"

    // MARK: The engine

    @Option(help: "Engine steps per timed run (at least 1000).")
    var engineSteps = 400_000

    // MARK: The lag

    @Option(help: ArgumentHelp("Seconds of each measured drag in the lag bench (at least 1).", valueName: "seconds"))
    var lagSeconds = 4.0

    // MARK: The feed sources

    @Option(help: "Items of the SQLite feed the feed stage reads (made once into the temporary folder).")
    var feedItems = 1_000_000

    // MARK: What to skip

    @Flag(help: "Skip the engine micro-benchmarks (and the instruction count).")
    var skipEngine = false

    @Flag(
        help: "Skip the callgrind counts: the engine step's (about 10 s), the whole server's and echo's (about 2 min).")
    var skipInstructions = false

    @Flag(help: "Skip the server load (and the echo floor and the idle cost with it).")
    var skipServer = false

    @Flag(help: "Skip the lws-echo floor beside each server run.")
    var skipEcho = false

    @Flag(help: "Skip the idle cost.")
    var skipIdle = false

    @Flag(help: "Skip the page in headless Chromium.")
    var skipPage = false

    @Flag(help: "Skip the finger-to-content lag and its bare page (about 60 s).")
    var skipLag = false

    @Flag(help: "Skip the feed sources' answer times (SQLite and the local JSON Feed).")
    var skipFeed = false

    @Flag(help: "Skip the take-over catch-up of a session an hour old (about 2 s).")
    var skipTakeOver = false

    @Flag(help: "Skip the anchoring error during a fling (a few seconds; it fails the run when over its target).")
    var skipAnchor = false

    @Flag(help: "Skip the server and the echo over TLS (wss, 100 sessions, each round; about 20 s a round).")
    var skipTLS = false

    // MARK: Profiling modes

    @Option(
        name: .customLong("profile-engine"),
        help: ArgumentHelp("Run only the engine's step loop this many times, print the time, exit.", valueName: "steps")
    )
    var profileSteps: Int?

    @Option(
        name: .customLong("profile-host"),
        help: ArgumentHelp(
            "Run only the host path (decode, traced apply, delta) over this many sessions, exit.",
            valueName: "sessions"))
    var profileHostSessions: Int?

    @Option(
        name: .customLong("profile-inputs"),
        help: ArgumentHelp("Inputs for --profile-host (the host path bench's own count unless given).", valueName: "n"))
    var profileHostInputs: Int?

    @Flag(name: .customLong("profile-seq"), help: "--profile-host with the touches numbered (seq), as the page does.")
    var profileHostNumbered = false

    @Flag(
        name: .customLong("profile-session-host"),
        help: "--profile-host through the whole session host (screens, decode, apply, trace, frame write), numbered.")
    var profileSessionHost = false

    @Flag(
        name: .customLong("profile-real-clock"),
        help: "--profile-session-host with the server's clock counting from 1970, as `serve`'s does (13-digit times).")
    var profileRealClock = false

    @Option(
        name: .customLong("check-targets"),
        help: ArgumentHelp(
            "Print the targets' verdicts of a results file written before and exit: 0 when every one passed, 3 "
                + "when one did not (make bench ends with it).",
            valueName: "path"))
    var checkTargets: String?

    @Flag(
        name: .customLong("take-over-only"),
        help: "Run only the take-over catch-up of a session an hour old, print its figures as JSON, exit.")
    var takeOverOnly = false

    @Flag(
        name: .customLong("fling-only"),
        help: "Run only the flings through a SQLite feed of a million items, with and without the prefetch; print them."
    )
    var flingOnly = false

    enum Frames: String, CaseIterable, ExpressibleByArgument {
        case delta
        case full
    }

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
        guard slice.isFinite, (0...10).contains(slice) else { throw ValidationError("--slice must be 0…10 seconds") }
        guard slice == 0 || min(duration, tailDuration) >= slice - ServerBench.sliceLead(slice) else {
            throw ValidationError(
                "--duration and --tail-duration must each hold a measured slice (--slice less its lead, a tenth), "
                    + "or --slice 0")
        }
        for (name, value) in [
            ("--rate", rate), ("--warmup", warmup), ("--duration", duration), ("--tail-duration", tailDuration),
            ("--idle-duration", idleDuration),
            ("--lag-seconds", lagSeconds),
        ] {
            guard value.isFinite, value >= 0 else { throw ValidationError("\(name) must be a non-negative number") }
        }
        for (name, value) in [
            ("--idle-sessions", idleSessions), ("--engine-steps", engineSteps), ("--profile-engine", profileSteps ?? 0),
            ("--profile-host", profileHostSessions ?? 0), ("--profile-inputs", profileHostInputs ?? 0),
        ] {
            guard value >= 0 else { throw ValidationError("\(name) must not be negative") }
        }
    }

    /// The plain values the benches read; makes the directory for the children's logs.
    func options() throws -> BenchOptions {
        let logDirectory = NSTemporaryDirectory() + "refreshkit-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        return BenchOptions(
            output: output, binDirectory: binDirectory ?? Self.executableDirectory(), serverBinary: serverBinary,
            webRoot: webRoot, python: python,
            levels: levels.counts, rate: rate, rounds: rounds, slice: slice, warmup: warmup, duration: duration,
            tailDuration: tailDuration,
            idleSessions: idleSessions, idleDuration: idleDuration, frames: frames.rawValue,
            serverArguments: serverArguments, serverLogLevel: serverLogLevel, engineSteps: max(1000, engineSteps),
            lagSeconds: max(1, lagSeconds), profileSteps: profileSteps.map { max(1, $0) },
            profileHostSessions: profileHostSessions.map { max(1, $0) },
            profileHostInputs: profileHostInputs.map { max(1, $0) }, profileHostNumbered: profileHostNumbered,
            profileSessionHost: profileSessionHost, profileRealClock: profileRealClock,
            skipEngine: skipEngine, skipInstructions: skipInstructions, skipServer: skipServer, skipEcho: skipEcho,
            skipIdle: skipIdle, skipPage: skipPage, skipLag: skipLag, skipFeed: skipFeed,
            feedItems: max(100, feedItems), skipTakeOver: skipTakeOver, takeOverOnly: takeOverOnly,
            flingOnly: flingOnly,
            checkTargets: checkTargets, skipAnchor: skipAnchor, skipTLS: skipTLS,
            logDirectory: logDirectory)
    }

    /// The directory of this executable (the same build directory as the binaries the bench runs).
    private static func executableDirectory() -> String {
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().path
    }
}
