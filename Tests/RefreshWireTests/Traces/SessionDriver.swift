import RefreshKit
import RefreshSessions
import RefreshWire
import Testing

/// Drives a ``TracedListModel`` the way the server does: messages decoded and applied at their receive times,
/// a 60 Hz tick while something moves or waits, a frame after every change; and keeps each frame's update
/// message, its whole `frame` message and the events.
struct SessionDriver {
    var traced: TracedListModel
    /// Each frame's update message (what a delta-capable page is sent).
    var updates: [[UInt8]] = []
    /// Each frame's whole `frame` message.
    var frames: [[UInt8]] = []
    var events: [Event] = []
    var now: Int64
    let decoder = MessageDecoder()

    init(
        preset: String = "ios", seed: UInt64 = 7, start: Int64 = 5_000_000_000, limits: TraceLimits = .init(),
        digest: FrameDigest.Kind = .deltas
    ) throws {
        now = start
        traced = try TracedListModel(
            header: TraceHeader(
                preset: preset, viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: seed,
                start: Timestamp(microseconds: start)),
            limits: limits, digest: digest)
        frame()
    }

    mutating func frame() {
        // The schedule a host reads without copying the session must be the session's own.
        #expect(traced.isActive == traced.model.isActive)
        #expect(traced.nextDeadline == traced.model.nextDeadline)
        var update = MessageBuffer()
        let shared = traced.frame(appendingUpdateTo: &update)
        updates.append(update.withUnsafeBytes { Array($0) })
        var message: [UInt8] = []
        MessageEncoder().encode(shared, into: &message)
        frames.append(message)
        events += traced.takeEvents()
    }

    /// Receives `text` from `member` at the current time.
    mutating func receive(_ text: String, member: Int = 0) throws {
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBytes { raw in
            guard let received = try decoder.decodeInput(raw) else {
                Issue.record("not an input: \(text)")
                return
            }
            try traced.apply(received, member: member, at: Timestamp(microseconds: now))
        }
        frame()
    }

    /// Lets `milliseconds` pass with the server's tick (60 Hz while active, else at each deadline).
    mutating func wait(milliseconds: Int64) {
        let end = now + milliseconds * 1000
        while now < end {
            let tick = nextServerTick(of: traced.model, after: now, until: end)
            now = tick.time
            if tick.due {
                traced.advance(to: Timestamp(microseconds: now))
                frame()
            }
        }
    }

    var json: [UInt8] { traced.recorder.json() }
}
