import RefreshWire
import Testing

@testable import RefreshSessions

/// Who holds a session when several processes share a store (docs/SCALING.md, "Who holds a session"): leases,
/// and the rule that keeps a session on one process.
// The store's clock reads a transport weakly: the transport's host holds the store, so a strong capture would
// keep both alive after the test.
@Suite struct NodeLeaseTests {
    @Test func theRule() {
        func decide(_ holder: String, alive: Bool, me: String, foundDown: Bool) -> NodeLease.Decision {
            NodeLease.decide(storedBy: holder, storedNodeAlive: alive, me: me, balancerFoundDown: foundDown)
        }
        // its own earlier run, or a holder whose lease lapsed: take it over
        #expect(decide("a", alive: true, me: "a", foundDown: false) == .takeOver)
        #expect(decide("b", alive: false, me: "a", foundDown: false) == .takeOver)
        #expect(decide("b", alive: false, me: "a", foundDown: true) == .takeOver)
        // a live holder: the page goes there, whatever brought it here (its id, `n`, `/`, a direct connection)
        #expect(decide("b", alive: true, me: "a", foundDown: false) == .elsewhere(node: "b"))
        #expect(decide("b", alive: true, me: "c", foundDown: false) == .elsewhere(node: "b"))
        // a live holder the balancer found down (this node is its backup): it has just died; take it over
        #expect(decide("b", alive: true, me: "c", foundDown: true) == .takeOver)
    }

    /// A second device opens a WebSocket at `/` (no `s`, no `n`) and names the session only in its `hello`: the
    /// balancer sends it to any process. One that does not hold the session sends it to the holder, whether
    /// the session is in the store yet or not, instead of opening a new session or taking it over.
    @Test func aHelloOnlyJoinIsSentToTheHolder() throws {
        let store = MemoryStore()
        let (a, _, made, id) = try TestTransport.nodeWithSession("a", store)
        let stored = try #require(store.sessions[id], "a new session is written at once")
        #expect(store.leases["a"] != nil, "with the node's lease")
        store.sessions[id] = nil  // as if its first write had not landed yet: its id's node is alive
        let b = TestTransport.node("b", store)
        b.now = a.now
        for written in [false, true] {
            if written { store.sessions[id] = stored }
            let page = b.open()
            b.send(a.join(id), on: page)
            let refusal = try #require(b.messages(page, type: "error").first, "\(b.messages(page))")
            #expect(refusal["code"] as? String == "session_elsewhere" && refusal["node"] as? String == "a")
            #expect(b.welcome(page) == nil && b.host.sessions.isEmpty, "no new session, nothing taken over")
        }
        // through `a`'s backend, found down by the balancer (b is its backup): b takes it over at once
        b.balancerBackend = "a"
        let (_, taken) = try b.welcomed(TestTransport.hello(session: id, token: made["token"] as? String))
        #expect(taken["session"] as? String == id && taken["resumed"] as? Bool == true)
        #expect((taken["takeover"] as? [String: Any])?["from"] as? String == "a")
    }

    /// Not in the store yet, and the balancer found its node down: there is nothing to take over, and the page
    /// gets a new session (`session_expired`), as for a session the store does not have.
    @Test func anUnwrittenSessionWhoseNodeTheBalancerFoundDownIsANewSession() throws {
        let store = MemoryStore()
        let a = TestTransport.node("a", store)
        let (_, made) = try a.welcomed(TestTransport.hello())
        let id = try #require(made["session"] as? String)
        store.sessions[id] = nil  // its first write has not landed yet; `a`'s lease is current
        let b = TestTransport.node("b", store)
        b.balancerBackend = "a"
        let (_, welcome) = try b.welcomed(a.join(id))
        #expect(welcome["session"] as? String != id && welcome["notice"] as? String == "session_expired")
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
        let (a, _, made, id) = try TestTransport.nodeWithSession("a", store)
        a.sweep()
        #expect(store.leases["a"] != nil, "a node holding sessions has a lease")
        // `a` is killed; the balancer sends the page to `b`, a backup, while a's lease has not lapsed
        let b = TestTransport.backup("b", of: "a", at: a.now + 10_000, store)  // the balancer found `a` down
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
        again.send(a.join(id), on: page)
        let refusal = try #require(again.messages(page, type: "error").first)
        #expect(refusal["code"] as? String == "session_elsewhere" && refusal["node"] as? String == "b")
        #expect(refusal["ref"] as? String == "hello")
        #expect(again.welcome(page) == nil && again.host.registry.sessions[id] == nil, "nothing joined or taken")
        // it joins on `b`
        b.balancerBackend = "b"
        let (_, joined) = try b.welcomed(a.join(id))
        #expect(joined["session"] as? String == id && joined["member"] as? Int == 1)
        // `b` stops (SIGTERM): its lease ends with it, and `a` takes the session over
        b.beginShutdown()
        #expect(store.leases["b"] == nil)
        let (_, taken) = try again.welcomed(a.join(id))
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
        let (_, taken) = try a.welcomed(first.join(id))
        #expect(taken["session"] as? String == id && taken["node"] as? String == "a")
    }
}
