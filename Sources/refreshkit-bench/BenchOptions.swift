import Foundation

/// `refreshkit-bench` options: `--name value` pairs and `--skip-…` flags.
struct BenchOptions {
    var root = FileManager.default.currentDirectoryPath
    var output = "bench/results.json"
    var binDirectory = ""
    var webRoot = "web"
    var levels = [100, 500, 1000, 2000]
    var rate = 60.0
    var warmup = 2.0
    var duration = 5.0
    /// Load runs per level and target, server and echo alternating: one run's p99 at a saturated level
    /// varies 2–3× on this machine, so the median run of each is reported and their ratio.
    var rounds = 3
    var idleSessions = 5000
    /// Longer than the server's 10 s ping interval, so the window holds a whole ping/pong cycle.
    var idleDuration = 12.0
    var engineSteps = 400_000
    var serverLogLevel = "warning"
    /// What the load generator's sessions ask for in `hello`: `delta` (as the page does) or `full` frames.
    var frames = "delta"
    /// Extra arguments for `refreshkit serve` (e.g. connection limits added by hardening work).
    var serverArguments: [String] = []
    var python = ".venv/bin/python"
    /// Run only the engine's step loop this many times (for a profiler), print the time, and exit.
    var profileSteps: Int?
    /// Run only the host path (``HostPathBench``) over this many sessions (for a profiler), and exit.
    var profileHostSessions: Int?
    /// Inputs for `--profile-host` (``HostPathBench/inputs`` unless given).
    var profileHostInputs: Int?
    /// `--profile-host` with the page's touches numbered (`seq`, acknowledged in every frame).
    var profileHostNumbered = false
    var skipEngine = false
    /// Skip counting the engine step's instructions under callgrind (about 10 s).
    var skipInstructions = false
    var skipServer = false
    var skipEcho = false
    var skipIdle = false
    var skipPage = false
    /// Skip the finger-to-content lag (``LagBench``, about 45 s).
    var skipLag = false
    /// Seconds of each measured drag in the lag bench.
    var lagSeconds = 4.0
    var logDirectory = ""

    static let usage = """
        usage: refreshkit-bench [--out bench/results.json] [--levels 100,500,1000,2000] [--rate 60]
                                [--rounds 3] [--warmup 2] [--duration 5] [--idle-sessions 5000] [--idle-duration 12]
                                [--engine-steps 400000] [--server-arg ARG]... [--server-log-level warning]
                                [--bin-dir DIR] [--web-root web] [--python .venv/bin/python] [--frames delta|full]
                                [--skip-engine] [--skip-instructions] [--skip-server] [--skip-echo] [--skip-idle]
                                [--skip-page] [--skip-lag] [--lag-seconds 4]
                                [--profile-engine STEPS]   (only the engine's step loop, for callgrind/perf)
                                [--profile-host SESSIONS [--profile-inputs N] [--profile-seq]]  (only the host
                                 path, likewise; --profile-seq numbers the touches, as the page does)
        Engine micro-benchmarks (and, with valgrind installed, the step's instruction count), then refreshkit
        serve and lws-echo under refreshkit-load at each level, the idle cost, the page in headless Chromium, and
        the finger-to-content lag through `refreshkit link` (loopback, wifi, wifi-powersave; prediction on/off).
        Each level runs --rounds times, server and echo alternating; the median run (by p99) of each is
        reported. Prints a table; writes the figures as JSON.
        """

    static func parse(_ arguments: [String]) throws -> BenchOptions {
        var options = BenchOptions()
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let next = rest.popFirst() else { throw BenchError("\(name) needs a value") }
            return next
        }
        func number(_ name: String) throws -> Double {
            let text = try value(name)
            guard let parsed = Double(text), parsed.isFinite, parsed >= 0 else {
                throw BenchError("\(name): '\(text)' is not a non-negative number")
            }
            return parsed
        }
        while let name = rest.popFirst() {
            switch name {
            case "--out": options.output = try value(name)
            case "--bin-dir": options.binDirectory = try value(name)
            case "--web-root": options.webRoot = try value(name)
            case "--levels":
                options.levels = try value(name).split(separator: ",").map {
                    guard let level = Int($0), level > 0 else { throw BenchError("--levels: e.g. 100,500,1000") }
                    return level
                }
            case "--rate": options.rate = try number(name)
            case "--rounds":
                let text = try value(name)
                guard let rounds = Int(text), rounds >= 1 else {
                    throw BenchError("--rounds: '\(text)' is not a whole number of at least 1")
                }
                options.rounds = rounds
            case "--warmup": options.warmup = try number(name)
            case "--duration": options.duration = try number(name)
            case "--idle-sessions": options.idleSessions = Int(try number(name))
            case "--idle-duration": options.idleDuration = try number(name)
            case "--engine-steps": options.engineSteps = max(1000, Int(try number(name)))
            case "--server-arg": options.serverArguments.append(try value(name))
            case "--server-log-level": options.serverLogLevel = try value(name)
            case "--python": options.python = try value(name)
            case "--frames":
                options.frames = try value(name)
                guard ["delta", "full"].contains(options.frames) else { throw BenchError("--frames: delta or full") }
            case "--profile-engine": options.profileSteps = max(1, Int(try number(name)))
            case "--profile-host": options.profileHostSessions = max(1, Int(try number(name)))
            case "--profile-inputs": options.profileHostInputs = max(1, Int(try number(name)))
            case "--profile-seq": options.profileHostNumbered = true
            case "--skip-engine": options.skipEngine = true
            case "--skip-instructions": options.skipInstructions = true
            case "--skip-server": options.skipServer = true
            case "--skip-echo": options.skipEcho = true
            case "--skip-idle": options.skipIdle = true
            case "--skip-page": options.skipPage = true
            case "--skip-lag": options.skipLag = true
            case "--lag-seconds": options.lagSeconds = max(1, try number(name))
            case "-h", "--help": throw BenchError(usage)
            default: throw BenchError("unknown argument '\(name)'\n\(usage)")
            }
        }
        if options.binDirectory.isEmpty {
            // Beside this executable (the same build directory).
            let me =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
            options.binDirectory = URL(fileURLWithPath: me).deletingLastPathComponent().path
        }
        options.logDirectory = NSTemporaryDirectory() + "refreshkit-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: options.logDirectory, withIntermediateDirectories: true)
        return options
    }

    func binary(_ name: String) -> String { binDirectory + "/" + name }
}
