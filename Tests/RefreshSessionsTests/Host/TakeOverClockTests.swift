import Foundation
import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// A session taken over by a process on another machine, whose clock does not read exactly what the first
/// one's did (docs/SCALING.md, "Several machines"): a little behind, the session holds its time until the new
/// clock passes it; far ahead, it catches up with the time that clock says passed. Either way it goes on: the
/// refresh it was in finishes, a drag works, frames keep coming, no error, and its time never goes back.
@Suite struct TakeOverClockTests {
    /// Where one run ended up: the messages the page got from the process that went on with the session (from
    /// its welcome on), the time of the first process's last frame, and the session's trace after a take-over.
    struct Run {
        let after: [[String: Any]]
        let errors: [String]
        let lastTimeBefore: Double
        let welcomeTime: Double
        let trace: Trace?
    }

    /// A page pulls its list into a refresh on node `a`, which writes it to the store and dies; the page comes
    /// back at once to node `b`, whose clock reads `skew` µs off `a`'s (`nil`: no take-over, `a` goes on), waits
    /// for the refresh to finish, drags, lets go and waits for the list to come to rest.
    private func run(skew: Int64?) throws -> Run {
        let store = MemoryStore()
        let a = TestTransport.node("a", store)
        let page = a.open()
        a.send(TestTransport.hello(), on: page)
        let welcome = try #require(a.welcome(page))
        let id = try #require(welcome["session"] as? String)
        let token = try #require(welcome["token"] as? String)
        a.send(a.touch("start", dy: 0, seq: 1), on: page)
        for seq in 2...13 {
            a.now += 16_700
            a.send(a.touch("move", dy: 40, seq: UInt64(seq)), on: page)
        }
        a.now += 16_700
        a.send(a.touch("end", dy: 0, seq: 14), on: page)
        for _ in 0..<6 { a.runTick() }  // the content glides to the refreshing inset
        #expect(Self.topState(a.frames(page).last) == "refreshing", "the pull started a refresh")
        a.sweep()  // the session's first write, at once: at the time of its last frame, `a` dies
        let lastTimeBefore = try #require(a.frames(page).last?["t"] as? Double)

        let (b, again): (TestTransport, Connection)
        if let skew {
            store.renewed.removeAll()  // `a`'s serving lease is over (waiting it out: ServingLeaseTests)
            b = TestTransport.node("b", store)
            b.balancerBackend = "a"  // `a` is gone: the balancer sends its pages to `b`, its backup
            b.now = a.now + skew
            again = b.open()
            b.send(TestTransport.hello(session: id, token: token), on: again)
            let resumed = try #require(b.welcome(again))
            #expect(resumed["session"] as? String == id && resumed["resumed"] as? Bool == true)
            #expect(resumed["takeover"] != nil && resumed["notice"] == nil, "\(resumed)")
        } else {
            (b, again) = (a, page)
        }
        let welcomeTime = try #require(b.welcome(again)?["serverT"] as? Double)
        let seen = b.messages(again).count
        // The refresh finishes: the top edge goes back to idle, and the content to rest.
        try Self.tick(b) {
            let last = Self.lastFrame(b, again)
            return Self.topState(last) == "idle" && last?["phase"] as? String == "idle"
        }
        // A drag moves the content by the finger's travel, and the list comes to rest after it.
        let resting = try #require(Self.offset(b.frames(again).last))
        b.send(b.touch("start", dy: 0, seq: 15), on: again)
        for seq in 16...20 {
            b.now += 16_700
            b.send(b.touch("move", dy: -10, seq: UInt64(seq)), on: again)
        }
        let dragged = try #require(b.frames(again).last)
        #expect(dragged["phase"] as? String == "dragging" && Self.offset(dragged) == resting + 50, "\(dragged)")
        b.now += 16_700
        b.send(b.touch("end", dy: 0, seq: 21), on: again)
        try Self.tick(b) { Self.lastFrame(b, again)?["phase"] as? String == "idle" }
        let session = try #require(b.host.sessions[id])
        return Run(
            after: Array(b.messages(again).dropFirst(skew == nil ? seen : 0)), errors: b.errors(again),
            lastTimeBefore: lastTimeBefore, welcomeTime: welcomeTime,
            trace: skew == nil ? nil : try Trace(json: session.traced.recorder.json()))
    }

    /// Runs the host's timer until `done` (at most 20 000 times: 5 minutes of ticks at 60 Hz).
    private static func tick(_ transport: TestTransport, until done: () -> Bool) throws {
        var ticks = 0
        while !done() {
            // the loop's sweep every ~100 ms: its batches renew the serving lease (ServingLease)
            if ticks % 6 == 5 { transport.sweep() }
            try #require(ticks < 20_000 && transport.tickArmedAt != nil, "the timer stopped before it was done")
            transport.runTick()
            ticks += 1
        }
    }

    /// The last frame written to `connection` (only the messages after it are parsed: the loops above ask after
    /// every tick).
    private static func lastFrame(_ transport: TestTransport, _ connection: Connection) -> [String: Any]? {
        for text in (transport.written[connection.id] ?? []).reversed() {
            guard let message = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                continue
            }
            if ["frame", "delta"].contains(message["type"] as? String) { return message }
        }
        return nil
    }

    private static func topState(_ frame: [String: Any]?) -> String? {
        let edges = frame?["edges"] as? [[String: Any]]
        return edges?.first { $0["edge"] as? String == "top" }?["state"] as? String
    }

    private static func offset(_ frame: [String: Any]?) -> Double? {
        (frame?["offset"] as? [String: Any])?["y"] as? Double
    }

    private static func times(_ messages: [[String: Any]], type: String) -> [Double] {
        messages.filter { $0["type"] as? String == type }.compactMap { $0["t"] as? Double }
    }

    /// When the refresh ended: the top edge's transition out of `refreshing`.
    private static func refreshEnd(_ messages: [[String: Any]]) -> Double? {
        messages.first {
            $0["type"] as? String == "event" && $0["edge"] as? String == "top" && $0["from"] as? String == "refreshing"
        }?["t"] as? Double
    }

    @Test func aClockFiftyMillisecondsBehindHoldsTheSessionsTimeUntilItCatchesUp() throws {
        let behind = try run(skew: -50_000)
        #expect(behind.errors.isEmpty)
        #expect(behind.welcomeTime < behind.lastTimeBefore, "the new clock reads an earlier time")
        let frames = Self.times(behind.after, type: "frame")
        #expect(frames.count > 10, "frames keep coming")
        #expect(frames.first == behind.lastTimeBefore, "the session's time holds where it was")
        #expect(frames == frames.sorted(), "and never goes back")
        // The refresh ends when it would have on the first process: the session lost no time and gained none.
        let unbroken = try run(skew: nil)
        #expect(unbroken.errors.isEmpty)
        let end = try #require(Self.refreshEnd(behind.after))
        #expect(end == Self.refreshEnd(unbroken.after), "the same end as without the take-over")
        // The trace's times never go back either (a trace is played by its times, js/trace.js).
        let trace = try #require(behind.trace)
        let recorded = trace.operations.compactMap(\.time).map(\.microseconds)
        #expect(recorded == recorded.sorted() && !recorded.isEmpty)
    }

    @Test func aClockThreeHoursAheadCatchesTheSessionUpWithTheTimeItSaysPassed() throws {
        let threeHours: Int64 = 3 * 3600 * 1_000_000
        let ahead = try run(skew: threeHours)
        #expect(ahead.errors.isEmpty)
        let frames = Self.times(ahead.after, type: "frame")
        #expect(frames.count > 10, "frames keep coming")
        #expect(frames == frames.sorted())
        #expect(try #require(frames.first) >= ahead.lastTimeBefore + Double(threeHours) / 1000)
        // By the new clock, the refresh was over long ago: it ends as the session resumes.
        let end = try #require(Self.refreshEnd(ahead.after))
        #expect(end <= ahead.welcomeTime)
    }
}

extension TraceOperation {
    /// The engine time of an `apply` or `advance` (a `frame` has none).
    fileprivate var time: Timestamp? {
        switch self {
        case .apply(let time, _, _): time
        case .advance(let time): time
        case .frame: nil
        }
    }
}
