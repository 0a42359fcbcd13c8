import RefreshKit
import RefreshSessions
import RefreshWire

/// The server's own work per input, without the network: decode the page's `touch` text, apply it through
/// the traced session (which records it), take the events, and make the frame's `delta` (recorded too).
///
/// The same path `refreshkit serve` runs between lws handing it a message and `lws_write`, minus the
/// connection bookkeeping. It runs for one session and for many taken in turn, as a loaded server takes
/// them: with 1 000 sessions each input finds its session cold in the cache, which the engine bench (one
/// session, always warm) cannot show. Each is also run without the trace (`--trace-limit 0`), to show what
/// recording costs. CPU time on one core, no sockets: far steadier than the load runs on a noisy host.
struct HostPathBench {
    struct Figures {
        var sessions: Int
        var nanosecondsPerInput: Double
        var nanosecondsPerInputUntraced: Double
    }

    /// Inputs per timed run, whatever the session count, and at most per session (a trace holds 25 000 inputs,
    /// 50 000 operations, before it fills and stops recording, which would flatter the figure); runs per
    /// figure (the fastest is kept: a busy host only adds time).
    var inputs = 120_000
    var inputsPerSession = 10_000
    /// Whether the page's touches carry `seq` (as the page's do since acknowledgements), so every frame
    /// carries an `ack`.
    var numbered = false
    var runs = 5

    func run(sessionCounts: [Int]) throws -> [Figures] {
        try sessionCounts.map { count in
            // Traced and untraced runs alternate, so that a busy spell of the host weighs on both alike.
            var (traced, untraced) = (Double.infinity, Double.infinity)
            for _ in 0..<runs {
                traced = min(traced, try timed(sessions: count, traced: true))
                untraced = min(untraced, try timed(sessions: count, traced: false))
            }
            return Figures(sessions: count, nanosecondsPerInput: traced, nanosecondsPerInputUntraced: untraced)
        }
    }

    /// For a profiler: `inputs` inputs spread over `sessions` sessions, traced.
    func profile(sessions: Int) throws -> Double {
        try timed(sessions: sessions, traced: true)
    }

    /// ns per input over about `inputs` inputs, sent to `sessions` fresh sessions in turn.
    private func timed(sessions count: Int, traced: Bool) throws -> Double {
        let start = Timestamp(microseconds: 1_000_000)
        let header = TraceHeader(
            preset: "ios", viewport: EngineBench.viewport, devicePixelRatio: 3, seed: 1, start: start)
        let limits = traced ? TraceLimits() : TraceLimits(maxOperations: 0, maxBytes: 0)
        var sessions = try (0..<count).map { _ in try TracedListModel(header: header, limits: limits) }
        let decoder = MessageDecoder()
        let rounds = max(1, min(inputs / count, inputsPerSession))
        // The page's texts, written before the clock starts: one per round, the same for every session.
        var texts: [UInt8] = []
        var ends: [Int] = []
        for round in 0..<rounds {
            Self.appendTouchText(
                round, pageTime: Self.time(round, from: start), seq: numbered ? round + 1 : nil, to: &texts)
            ends.append(texts.count)
        }
        var buffer = MessageBuffer(capacity: 8192)
        var checksum = 0
        let began = Clock.now()
        try texts.withUnsafeBytes { all in
            for round in 0..<rounds {
                let time = Timestamp(microseconds: Self.time(round, from: start))
                let text = UnsafeRawBufferPointer(rebasing: all[(round == 0 ? 0 : ends[round - 1])..<ends[round]])
                for index in 0..<count {
                    guard let received = try decoder.decodeInput(text) else { throw BenchError("not an input") }
                    try sessions[index].apply(received, member: 0, at: time)
                    checksum &+= sessions[index].takeEvents().count
                    buffer.removeAll()
                    checksum &+= Int(sessions[index].frame(appendingUpdateTo: &buffer).sequence)
                }
            }
        }
        let seconds = Clock.seconds(since: began)
        if checksum == 42 { print("") }  // keeps the work observable
        return seconds / Double(rounds * count) * 1e9
    }

    /// The server's clock at `round`'s input, µs (also the page's, in the text: the two need not agree).
    private static func time(_ round: Int, from start: Timestamp) -> Int64 {
        start.microseconds + Int64(round + 1) * EngineBench.period
    }

    /// The `round`-th input of the engine bench's drag (``EngineBench/input(_:at:)``), as the page writes it.
    private static func appendTouchText(_ round: Int, pageTime time: Int64, seq: Int?, to text: inout [UInt8]) {
        guard case .touch(let touch) = EngineBench.input(round, at: time) else {
            preconditionFailure("the drag is made of touches")
        }
        let fields =
            "\"phase\":\"\(touch.phase.rawValue)\",\"dx\":\(touch.delta.x),\"dy\":\(touch.delta.y),\"t\":\(touch.pageTime)"
        let numbered = seq.map { ",\"seq\":\($0)" } ?? ""
        text.append(contentsOf: "{\"type\":\"touch\",\(fields)\(numbered)}".utf8)
    }
}
