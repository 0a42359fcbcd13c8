import Foundation
import Testing

@testable import RefreshSessions

/// Exactly one holder per session (docs/SCALING.md, "Fencing"): the store refuses a write at an older epoch
/// (``SessionFence``), and a host told so lets the session go at once and sends its pages to the holder. The
/// hosts here share a ``MemoryStore`` that applies the rule as ``SessionFence`` states it (FenceRuleTests, in
/// RefreshServerTests, checks the Redis script against that statement case by case).
struct FencingTests {
    @Test func theRule() {
        #expect(SessionFence.claim(after: 0) == 1 && SessionFence.claim(after: 4) == 5)
        // newer always; the same epoch only from the process that claimed it; older never
        #expect(SessionFence.accepts(stored: 0, storedWriter: nil, epoch: 1, writer: "a"))
        #expect(SessionFence.accepts(stored: 2, storedWriter: "a", epoch: 3, writer: "b"))
        #expect(SessionFence.accepts(stored: 3, storedWriter: "b", epoch: 3, writer: "b"))
        #expect(!SessionFence.accepts(stored: 3, storedWriter: "b", epoch: 3, writer: "c"))
        #expect(!SessionFence.accepts(stored: 3, storedWriter: "b", epoch: 2, writer: "a"))
        let fence = StoreFence(session: "s", epoch: 3, node: "b")
        #expect(SessionFence.mustStepDown(held: 2, told: fence) && SessionFence.mustStepDown(held: 3, told: fence))
        #expect(!SessionFence.mustStepDown(held: 4, told: fence), "a notice about an earlier holding")
    }

    /// Node `a` holds a session with two devices. The balancer wrongly finds `a` down (it lives, and keeps its
    /// first device), and sends the second device's reconnection to `b` through `a`'s backend: `b` takes the
    /// session over at the next epoch. `a`'s next write of the session (its first device drags on) is refused
    /// for its epoch: `a` stops serving it at once, tells its page where it is (`session_elsewhere`, node `b`)
    /// and closes; the store keeps `b`'s copy, and the first device resumes on `b`.
    @Test func aLiveHolderWronglyFoundDownLetsGoAtItsNextWrite() throws {
        let store = MemoryStore()
        let (a, first, made, id) = try TestTransport.nodeWithSession("a", store)
        let token = try #require(made["token"] as? String)
        let (second, joined) = try a.welcomed(a.join(id))
        a.now += StoreLedger.period
        a.sweep()  // the second member rides on this batch
        #expect(store.sessions[id]?.epoch == SessionFence.first)
        a.close(second)  // the second device's link drops; it reconnects, and the balancer sends it to `b`
        let b = TestTransport.backup("b", of: "a", at: a.now + 10_000, store)
        let (moved, resumed) = try b.welcomed(
            TestTransport.hello(session: id, token: joined["token"] as? String))
        #expect(resumed["session"] as? String == id && resumed["node"] as? String == "b")
        #expect(store.sessions[id]?.epoch == 2 && store.sessions[id]?.node == "b", "b claimed the next epoch")
        // `a` still serves its first device, which drags: a's next batch is refused for its epoch
        a.now = b.now + 20_000
        a.send(a.touch("start", dy: 0, seq: 1), on: first)
        a.now += StoreLedger.period
        a.sweep()
        #expect(store.fencedWrites.map(\.session) == [id] && store.fencedWrites.first?.node == "b")
        #expect(a.host.sessions[id] == nil && a.host.fencedSessions == 1, "a let the session go")
        let told = try #require(a.messages(first, type: "error").last)
        #expect(told["code"] as? String == "session_elsewhere" && told["node"] as? String == "b")
        #expect(told["ref"] == nil, "it answers no message of the page's")
        #expect(a.closes[first.id] == .goingAway, "and the connection closes, so the page reconnects there")
        // nothing of a's reached the store, and a's end (a removal) leaves b's copy alone
        #expect(store.sessions[id]?.node == "b" && store.sessions[id]?.epoch == 2)
        a.beginShutdown()
        #expect(store.sessions[id] != nil)
        // the first device carries on at `b`
        b.balancerBackend = "b"
        let (_, back) = try b.welcomed(TestTransport.hello(session: id, token: token))
        #expect(back["session"] as? String == id && back["resumed"] as? Bool == true)
        #expect(b.host.sessions[id]?.connectedCount == 2)
        _ = moved
    }

    /// A holder whose session is idle writes nothing for it, so no write of it is refused: the take-over leaves
    /// it a notice in the store, which its next batch (the lease's renewal) collects, and it lets the session go.
    @Test func anIdleHolderLearnsFromTheNoticeWithItsNextBatch() throws {
        let store = MemoryStore()
        let (a, page, made, id) = try TestTransport.nodeWithSession("a", store)
        a.now += StoreLedger.period
        a.sweep()  // everything of it is in the store: nothing more to write until something moves
        let b = TestTransport.backup("b", of: "a", at: a.now + 10_000, store)
        _ = try b.welcomed(TestTransport.hello(session: id, token: made["token"] as? String))
        #expect(store.notices["a"]?[id]?.epoch == 2)
        a.now = b.now + NodeLease.renewal
        a.sweep()
        #expect(a.host.sessions[id] == nil)
        #expect(store.notices["a"]?[id] != nil, "read, and kept until a later batch clears it")
        a.now += NodeLease.renewal
        _ = try a.welcomed(TestTransport.hello())  // a new session: a writes again
        a.sweep()
        #expect(store.notices["a"]?[id] == nil, "cleared by the batch after the answer that brought it")
        #expect(a.messages(page, type: "error").last?["node"] as? String == "b")
        #expect(store.fencedWrites.isEmpty, "a wrote nothing of it")
    }

    /// Two processes read the session at the same epoch and both take it over (two devices sent to two
    /// backups): the store takes the first claim of the next epoch and refuses the second (the same epoch,
    /// another process), whose host lets the session go: one holder.
    @Test func ofTwoClaimsOfOneEpochOnlyTheFirstHolds() throws {
        let store = MemoryStore()
        let (a, _, _, id) = try TestTransport.nodeWithSession("a", store)
        a.sweep()
        let stale = store.load(id)  // what c read, before b's claim landed
        let b = TestTransport.backup("b", of: "a", at: a.now + 10_000, store)
        _ = try b.welcomed(a.join(id))
        let c = TestTransport.node("c", store)
        c.now = b.now
        c.balancerBackend = "a"
        c.holdsStoreReads = true
        let page = c.open()
        c.send(a.join(id), on: page)
        c.answerStoreRead(stale)
        #expect(store.sessions[id]?.node == "b" && store.sessions[id]?.epoch == 2)
        #expect(store.fencedWrites.map(\.node) == ["b"], "c's claim of epoch 2 was refused")
        #expect(c.host.sessions[id] == nil && b.host.sessions[id] != nil)
        #expect(c.messages(page, type: "error").last?["node"] as? String == "b")
    }
}
