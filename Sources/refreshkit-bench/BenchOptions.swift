import Foundation

/// What one bench run does: the plain values the benches read, made by ``BenchCommand`` from the command line
/// (the defaults and `--help` are there).
struct BenchOptions {
    var root = FileManager.default.currentDirectoryPath
    var output: String
    var binDirectory: String
    /// The `refreshkit` to measure, when not the one in ``binDirectory`` (`--refreshkit`: a base revision's
    /// build for a before/after comparison, with this build's generator and echo).
    var serverBinary: String?
    var webRoot: String
    var python: String
    var levels: [Int]
    var rate: Double
    /// Load runs per level and target, server and echo in each (``slice``): one run's p99 at a saturated level
    /// varies 2–3× on this machine, so the median run of each is reported and their ratio.
    var rounds: Int
    /// Server and echo measured turn by turn in slices of this many seconds over one window (each for
    /// ``duration`` seconds of input); 0: one after the other.
    var slice: Double
    var warmup: Double
    var duration: Double
    /// ``duration`` at a level whose p99 is a target (``Targets/ratiosToEcho``): longer, so that the few stalls of
    /// the host that set a tail fall about evenly on both targets.
    var tailDuration: Double
    var idleSessions: Int
    /// Longer than the server's 10 s ping interval, so the window holds a whole ping/pong cycle.
    var idleDuration: Double
    /// What the load generator's sessions ask for in `hello`: `delta` (as the page does) or `full` frames.
    var frames: String
    /// Extra arguments for `refreshkit serve` (e.g. connection limits added by hardening work).
    var serverArguments: [String]
    var serverLogLevel: String
    var engineSteps: Int
    /// Seconds of each measured drag in the lag bench.
    var lagSeconds: Double
    /// Run only the engine's step loop this many times (for a profiler), print the time, and exit.
    var profileSteps: Int?
    /// Run only the host path (``HostPathBench``) over this many sessions (for a profiler), and exit.
    var profileHostSessions: Int?
    /// Inputs for `--profile-host` (``HostPathBench/inputs`` unless given).
    var profileHostInputs: Int?
    /// `--profile-host` with the page's touches numbered (`seq`, acknowledged in every frame).
    var profileHostNumbered: Bool
    /// `--profile-host` through the whole ``SessionHost`` (``SessionHostBench``), not the host path alone.
    var profileSessionHost: Bool
    /// `--profile-session-host` with the clock at a real time (µs since 1970), as the server's, not at 1 s.
    var profileRealClock: Bool
    var skipEngine: Bool
    /// Skip the callgrind counts: the engine step's (about 10 s) and the whole server's and echo's per input
    /// (``ServerInstructions``, about 2 minutes).
    var skipInstructions: Bool
    var skipServer: Bool
    var skipEcho: Bool
    var skipIdle: Bool
    var skipPage: Bool
    /// Skip the finger-to-content lag and its bare page (``LagBench``, about 60 s).
    var skipLag: Bool
    /// Skip the feed sources' answer times (``FeedBench``).
    var skipFeed: Bool
    /// Items of the SQLite feed ``FeedBench`` reads.
    var feedItems: Int
    /// Skip the take-over catch-up of a session an hour old (``TakeOverBench``).
    var skipTakeOver: Bool
    /// Run only ``TakeOverBench``, print its figures, and exit.
    var takeOverOnly: Bool
    /// Run only ``FlingBench``, print its table, and exit.
    var flingOnly: Bool
    /// Print the ``Targets`` verdicts of this results file and exit (3 when one did not pass).
    var checkTargets: String?
    /// Skip the anchoring error during a fling (``AnchorBench``).
    var skipAnchor: Bool
    /// Skip the server and the echo over TLS (``TLSBench``).
    var skipTLS: Bool
    /// Where each child's stderr goes (one file per child), made fresh per run.
    var logDirectory: String

    /// Seconds measured per load run at `sessions`: ``tailDuration`` where a p99 is a target, else ``duration``.
    func duration(at sessions: Int) -> Double {
        Targets.ratiosToEcho.contains { $0.sessions == sessions && $0.figure == .p99 } ? tailDuration : duration
    }

    func binary(_ name: String) -> String {
        if name == "refreshkit", let serverBinary { return serverBinary }
        return binDirectory + "/" + name
    }
}
