import Testing

@testable import RefreshSessions

/// An address holds at most its share of the sessions: past it, its own idle ones go first, never another's
/// (docs/HARDENING.md, "Budgets per address").
@Suite struct SessionsPerAddressTests {
    @Test func aFloodFreesItsOwnIdleSessionsNeverAnothers() throws {
        let transport = TestTransport { ($0.maxSessions, $0.maxSessionsPerAddress) = (4, 2) }
        let other = transport.open(peer: "10.0.0.2")
        transport.send(TestTransport.hello(), on: other)
        let kept = try #require(other.session)
        transport.close(other)  // idle, in its grace: the first an eviction would take
        let flooder = transport.open(peer: "10.0.0.9")
        for _ in 0..<10 { transport.send(TestTransport.hello(), on: flooder) }
        #expect(flooder.session != nil)
        #expect(transport.host.sessions[kept.id] != nil, "another address's idle session is kept")
        #expect(transport.host.registry.count(madeBy: "10.0.0.9") <= 2)
    }

    @Test func loopbackIsExemptUnlessAsked() throws {
        let transport = TestTransport { $0.maxSessionsPerAddress = 1 }
        let local = transport.open(peer: "127.0.0.1")
        for _ in 0..<3 { transport.send(TestTransport.hello(), on: local) }
        #expect(transport.host.sessions.count == 3)
    }
}
