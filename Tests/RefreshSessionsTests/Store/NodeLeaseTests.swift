import RefreshWire
import Testing

@testable import RefreshSessions

/// Who holds a session when several processes share a store (docs/SCALING.md, "Who holds a session"): leases,
/// and the rule that keeps a session on one process.
// The store's clock reads a transport weakly: the transport's host holds the store, so a strong capture would
// keep both alive after the test.
@Suite struct NodeLeaseTests {
    @Test func theRule() {
        func decide(_ holder: String, alive: Bool, me: String, home: Bool) -> NodeLease.Decision {
            NodeLease.decide(storedBy: holder, storedNodeAlive: alive, me: me, home: home)
        }
        // its own earlier run, or a holder whose lease lapsed: take it over
        #expect(decide("a", alive: true, me: "a", home: true) == .takeOver)
        #expect(decide("b", alive: false, me: "a", home: true) == .takeOver)
        #expect(decide("b", alive: false, me: "a", home: false) == .takeOver)
        // a live holder, and the id names this node: the page goes there
        #expect(decide("b", alive: true, me: "a", home: true) == .elsewhere(node: "b"))
        // a live holder, and this node is only a backup (the holder's node refused the balancer): take it over
        #expect(decide("b", alive: true, me: "c", home: false) == .takeOver)
    }

    @Test func theLeaseIsRenewedFourTimesPerDuration() {
        var lease = NodeLease()
        let first = lease.due(at: 0)
        lease.renewed(at: 0)
        let early = lease.due(at: NodeLease.renewal - 1)
        let next = lease.due(at: NodeLease.renewal)
        #expect(first && !early && next)
        #expect(NodeLease.duration == 4 * NodeLease.renewal)
    }

    /// Node `a` made the session and died; `b` took it over; `a` comes back under its name. A page that opens
    /// the session's link reaches `a` (the id names it): `a` sends it to `b` instead of taking the session a
    /// second time. Once `b`'s lease ends, `a` takes it over.
    @Test func theIdsOwnNodeComingBackSendsPagesToTheLiveHolder() throws {
        let store = MemoryStore()
        let a = TestTransport.node("a", store)
        store.time = { [weak a] in a?.now ?? 0 }
        let (_, made) = try a.welcomed(TestTransport.hello())
        let id = try #require(made["session"] as? String)
        a.sweep()
        #expect(store.leases["a"] != nil, "a node holding sessions has a lease")
        // `a` is killed; the balancer sends the page to `b`, a backup, while a's lease has not lapsed
        let b = TestTransport.node("b", store)
        b.now = a.now + 10_000
        store.time = { [weak b] in b?.now ?? 0 }
        let (_, resumed) = try b.welcomed(TestTransport.hello(session: id, token: made["token"] as? String))
        #expect(resumed["session"] as? String == id && resumed["node"] as? String == "b")
        #expect(store.sessions[id]?.node == "b", "the store names the new holder at once")
        #expect(store.leases["b"] != nil)
        // `a` runs again; a second device opens the link
        let again = TestTransport.node("a", store)
        again.now = b.now + 2 * NodeLease.duration
        store.time = { [weak again] in again?.now ?? 0 }
        b.now = again.now
        b.sweep()  // b is alive: its lease is current
        let page = again.open()
        again.send(TestTransport.hello(session: id), on: page)
        let refusal = try #require(again.messages(page, type: "error").first)
        #expect(refusal["code"] as? String == "session_elsewhere" && refusal["node"] as? String == "b")
        #expect(refusal["ref"] as? String == "hello")
        #expect(again.welcome(page) == nil && again.host.registry.sessions[id] == nil, "nothing joined or taken")
        // it joins on `b`
        let (_, joined) = try b.welcomed(TestTransport.hello(session: id))
        #expect(joined["session"] as? String == id && joined["member"] as? Int == 1)
        // `b` stops (SIGTERM): its lease ends with it, and `a` takes the session over
        b.beginShutdown()
        #expect(store.leases["b"] == nil)
        let (_, taken) = try again.welcomed(TestTransport.hello(session: id))
        #expect(taken["session"] as? String == id && taken["node"] as? String == "a")
        #expect((taken["takeover"] as? [String: Any])?["from"] as? String == "b")
    }

    @Test func aHolderWhoseLeaseLapsedIsTakenOverByTheIdsOwnNode() throws {
        let store = MemoryStore()
        let b = TestTransport.node("b", store)
        store.time = { [weak b] in b?.now ?? 0 }
        // a session of `a`'s, held by `b`
        let first = TestTransport.node("a", store)
        let (_, made) = try first.welcomed(TestTransport.hello())
        let id = try #require(made["session"] as? String)
        first.sweep()
        store.sessions[id]?.node = "b"
        store.renewLease(node: "b", milliseconds: 1000)
        let a = TestTransport.node("a", store)
        a.now = b.now + NodeLease.duration + 1
        store.time = { [weak a] in a?.now ?? 0 }
        let (_, taken) = try a.welcomed(TestTransport.hello(session: id))
        #expect(taken["session"] as? String == id && taken["node"] as? String == "a")
    }
}
