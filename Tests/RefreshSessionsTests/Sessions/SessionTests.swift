import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// A session's frames as its members receive them: a member that missed frames (its socket was busy while the
/// others were written) gets the delta from the frame it holds, not the one the others needed.
@Suite struct SessionTests {
    private func deltaMember(of session: Session, id: UInt64) throws -> Connection {
        let connection = Connection(id: id, peer: "127.0.0.1", now: 0, limits: .init())
        connection.frameFormat = .delta
        let member = try #require(session.addMember(limit: 4, role: .owner))
        _ = session.attach(connection, member: member.number)
        connection.member = member.number
        return connection
    }

    /// The message `connection` is written now, as text.
    private func message(_ session: Session, for connection: Connection) -> String {
        session.withFrameMessage(for: connection) { bytes in
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[...]), as: UTF8.self)
        }
    }

    /// A session with two members taking deltas, each written its first (whole) frame.
    private func twoMembersWritten() throws -> (session: Session, a: Connection, b: Connection) {
        let header = TraceHeader(
            preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: 1,
            start: Timestamp(microseconds: 1_000_000))
        let session = Session(id: "room", traced: try TracedListModel(header: header))
        let a = try deltaMember(of: session, id: 1)
        let b = try deltaMember(of: session, id: 2)
        _ = message(session, for: a)
        _ = message(session, for: b)
        return (session, a, b)
    }

    /// Member `member`'s finger: `phase`, moving by `dy`, at `time` µs (the page's clock in ms, the same
    /// moment), numbered `seq` when given.
    private func touch(
        _ session: Session, _ phase: TouchPhase, dy: Double, at time: Int64, member: Int = 0, seq: UInt64? = nil
    ) throws {
        let pageTime = Double(time) / 1000
        let numbered = seq.map { #","seq":\#($0)"# } ?? ""
        let text = Array(
            #"{"type":"touch","phase":"\#(phase.rawValue)","dx":0,"dy":\#(dy),"t":\#(pageTime)\#(numbered)}"#.utf8)
        let input = Input.touch(TouchInput(phase: phase, delta: Point(x: 0, y: dy), pageTime: pageTime, pointer: 0))
        try text.withUnsafeBytes {
            try session.apply(
                ReceivedInput(input, seq: seq, text: $0), member: member, at: Timestamp(microseconds: time))
        }
    }

    @Test func aMemberThatMissedFramesGetsTheDeltaFromTheFrameItHolds() throws {
        let start = Timestamp(microseconds: 1_000_000)
        let header = TraceHeader(
            preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: 1, start: start)
        let session = Session(id: "room", traced: try TracedListModel(header: header))
        let a = try deltaMember(of: session, id: 1)
        let b = try deltaMember(of: session, id: 2)
        #expect(message(session, for: a).hasPrefix(#"{"type":"frame""#))
        #expect(message(session, for: b).hasPrefix(#"{"type":"frame""#))
        let held = try #require(session.traced.latest)  // what both pages hold now

        try touch(session, .start, dy: 0, at: 1_001_000)
        try touch(session, .move, dy: -20, at: 1_017_000)
        _ = message(session, for: a)  // only A is written this frame
        let aHolds = try #require(session.traced.latest)
        try touch(session, .move, dy: -20, at: 1_034_000)
        let toA = message(session, for: a)
        let toB = message(session, for: b)
        let latest = try #require(session.traced.latest)

        var expectedA: [UInt8] = []
        MessageEncoder().encodeDelta(latest.frame, from: aHolds.frame, into: &expectedA)
        var expectedB: [UInt8] = []
        MessageEncoder().encodeDelta(latest.frame, from: held.frame, into: &expectedB)
        #expect(toA == String(decoding: expectedA, as: UTF8.self))
        #expect(toB == String(decoding: expectedB, as: UTF8.self))
        #expect(toA != toB, "B missed a frame: its delta spans two moves")
        #expect(b.frameBase == latest.sequence && a.frameBase == latest.sequence)
        #expect(a.heldFrameBase == nil && b.heldFrameBase == nil, "nobody holds an older frame now")
    }

    /// A member several frames behind keeps the frame it holds (the session keeps only its latest two), and a
    /// member written again before the next frame gets the delta from the frame it already holds.
    @Test func aMemberSeveralFramesBehindGetsTheDeltaFromTheFrameItHolds() throws {
        let (session, a, b) = try twoMembersWritten()
        let held = try #require(session.traced.latest)  // what B holds from now on
        try touch(session, .start, dy: 0, at: 1_001_000)
        var time: Int64 = 1_001_000
        for _ in 0..<4 {  // four frames, only A written
            time += 16_000
            try touch(session, .move, dy: -10, at: time)
            _ = message(session, for: a)
        }
        #expect(b.heldFrameBase?.sequence == held.sequence, "B keeps a copy of the frame it holds")
        let latest = try #require(session.traced.latest)
        var expected: [UInt8] = []
        MessageEncoder().encodeDelta(
            latest.frame, acknowledgements: latest.acknowledgements, from: held.frame,
            baseAcknowledgements: held.acknowledgements, into: &expected)
        #expect(message(session, for: b) == String(decoding: expected, as: UTF8.self))
        #expect(b.frameBase == latest.sequence && b.heldFrameBase == nil)
        // Written again with no new frame: the delta from the frame it holds, which changes nothing but its time.
        var again: [UInt8] = []
        MessageEncoder().encodeDelta(
            latest.frame, acknowledgements: latest.acknowledgements, from: latest.frame,
            baseAcknowledgements: latest.acknowledgements, into: &again)
        #expect(message(session, for: b) == String(decoding: again, as: UTF8.self))
    }

    /// The acks a member gets are those that changed since the frame it holds, whole frames and deltas alike.
    @Test func aMemberThatMissedFramesGetsTheAcksThatChangedSinceItsFrame() throws {
        let (session, a, b) = try twoMembersWritten()
        try touch(session, .start, dy: 0, at: 1_001_000, member: 0, seq: 1)
        #expect(message(session, for: a).hasSuffix(#","ack":{"0":1}}"#))
        try touch(session, .move, dy: -20, at: 1_017_000, member: 0, seq: 2)
        try touch(session, .start, dy: 0, at: 1_020_000, member: 1, seq: 40)  // ignored (0 drags), yet applied
        #expect(message(session, for: a).hasSuffix(#","ack":{"0":2,"1":40}}"#))
        try touch(session, .move, dy: -20, at: 1_034_000, member: 0, seq: 3)
        #expect(message(session, for: a).hasSuffix(#","ack":{"0":3}}"#))
        // B holds the frame before any seq: its delta carries both entries at their latest.
        #expect(message(session, for: b).hasSuffix(#","ack":{"0":3,"1":40}}"#))
        // A page that joins now gets the whole frame with the whole map.
        let c = try deltaMember(of: session, id: 3)
        #expect(message(session, for: c).hasSuffix(#","ack":{"0":3,"1":40}}"#))
        #expect(session.acknowledged(member: 1) == 40 && session.acknowledged(member: c.member) == nil)
    }
}
