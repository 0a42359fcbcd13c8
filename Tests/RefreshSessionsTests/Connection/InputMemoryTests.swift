import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// Where a connection's next input reads and writes (``InputMemory``), which the transport fetches ahead of it
/// (RefreshServer's `SessionPrefetch`): nothing before the connection has joined a session, then its session's
/// object and the live buffers that session points to. A wrong address fails no end-to-end test (a prefetch of
/// the wrong memory changes nothing the code reads), so the addresses are checked here.
@Suite struct InputMemoryTests {
    /// A connection that joined a session and put a finger down (the transport keeps the host alive).
    private static func dragStarted() -> (TestTransport, Connection) {
        let transport = TestTransport()
        let connection = transport.open()
        transport.send(TestTransport.hello(), on: connection)
        transport.now += 16_667
        transport.send(transport.touch("start", dy: 0, seq: 1), on: connection)
        return (transport, connection)
    }

    @Test func isNothingBeforeASession() {
        let connection = Connection(id: 1, peer: "127.0.0.1", now: 0, limits: .init())
        let memory = connection.inputMemory
        #expect(memory.session == nil && memory.traceNext == nil && memory.controls == nil && memory.edges == nil)
    }

    @Test func namesTheSessionAndTheBuffersItsInputsUse() throws {
        let (transport, connection) = Self.dragStarted()
        transport.now += 16_667
        transport.send(transport.touch("move", dy: -5, seq: 2), on: connection)
        let session = try #require(connection.session)
        let memory = connection.inputMemory
        #expect(memory.session == UnsafeRawPointer(Unmanaged.passUnretained(session).toOpaque()))
        #expect(memory.connections == session.connections.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) })
        // The trace's next record goes where the log's tail ends: after the bytes recorded so far in its chunk.
        let (chunk, next) = (try #require(memory.traceChunk), try #require(memory.traceNext))
        #expect(chunk != next)
        // The controls switched on are the ones a move reads; the preset's top and bottom controls.
        let model = session.model
        let live = model.controls.indices.filter { memory.liveControls & 1 << $0 != 0 }.map { model.controls[$0].edge }
        #expect(live.contains(.top) && live.contains(.bottom))
        #expect(memory.controls == model.controls.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) })
        // The latest frame's edges, and the array the next frame is written into.
        let latest = try #require(session.traced.latest)
        #expect(memory.edges == latest.frame.edges.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) })
        #expect(memory.spareEdges != nil && memory.spareEdges != memory.edges)
    }

    @Test func followsTheTraceAsItGrows() throws {
        let (transport, connection) = Self.dragStarted()
        let before = try #require(connection.inputMemory.traceNext)
        transport.now += 16_667
        transport.send(transport.touch("move", dy: -5, seq: 2), on: connection)
        let after = try #require(connection.inputMemory.traceNext)
        #expect(before != after, "a recorded input moves where the next record goes")
    }
}
