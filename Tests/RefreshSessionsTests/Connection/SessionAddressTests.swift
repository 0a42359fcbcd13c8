import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// What the transport fetches ahead of an input (RefreshServer's `SessionPrefetch`): the connection's session's
/// object, by its address, and nothing before the connection has joined a session.
@Suite struct SessionAddressTests {
    @Test func isTheJoinedSessionsObjectAndNilBefore() throws {
        let connection = Connection(id: 1, peer: "127.0.0.1", now: 0, limits: .init())
        #expect(connection.sessionAddress == nil)
        let header = TraceHeader(
            preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: 1,
            start: Timestamp(microseconds: 1_000_000))
        let session = Session(id: "room", traced: try TracedListModel(header: header))
        connection.session = session
        #expect(connection.sessionAddress == UnsafeRawPointer(Unmanaged.passUnretained(session).toOpaque()))
    }
}
