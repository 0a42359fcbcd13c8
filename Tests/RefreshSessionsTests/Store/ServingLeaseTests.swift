import Foundation
import Testing

@testable import RefreshSessions

/// Frames only under a lease (docs/SCALING.md, "Fencing"; ``ServingLease``): a process sends a session's frames
/// only while its last answered batch is younger than the lease, and a take-over waits until the previous
/// holder's lease is over. The hosts share a ``MemoryStore`` that stamps renewals and answers claims as the
/// Redis scripts do (RedisWriterTests pins the scripts).
struct ServingLeaseTests {
    @Test func aRenewalCountsFromWhenItsBatchLeft() {
        var lease = ServingLease()
        #expect(!lease.allows("s", at: 0), "never renewed")
        lease.sent(batch: 1, writing: ["s"], at: 1_000)
        #expect(lease.answered(batch: 2, written: true, at: 1_500) == .ignored, "not the batch in flight")
        #expect(lease.answered(batch: 1, written: true, at: 90_000) == .renewed(wasLapsed: true))
        #expect(lease.allows("s", at: 1_000 + ServingLease.duration - 1))
        #expect(!lease.allows("s", at: 1_000 + ServingLease.duration), "from the batch's leaving, not its answer")
        lease.sent(batch: 2, writing: [], at: 200_000)
        #expect(lease.answered(batch: 2, written: false, at: 250_000) == .failed)
        #expect(!lease.allows("s", at: 1_000 + ServingLease.duration), "a failed batch renews nothing")
        lease.sent(batch: 3, writing: [], at: 300_000)
        #expect(lease.answered(batch: 3, written: true, at: 310_000) == .renewed(wasLapsed: false))
        lease.end()
        #expect(!lease.allows("s", at: 310_001), "ended: nothing more is served")
        lease.sent(batch: 4, writing: [], at: 320_000)
        #expect(lease.answered(batch: 4, written: true, at: 330_000) == .failed, "and no answer renews it")
        #expect(!lease.allows("s", at: 330_001))
    }

    @Test func aTakeOverWaitsForItsClaimAndThePreviousHoldersLease() {
        var lease = ServingLease()
        lease.sent(batch: 1, writing: [], at: 0)
        _ = lease.answered(batch: 1, written: true, at: 10)
        lease.tookOver("s")
        #expect(!lease.allows("s", at: 20) && lease.allows("other", at: 20))
        lease.sent(batch: 2, writing: ["s"], at: 30)
        #expect(lease.answered(batch: 2, written: false, at: 40) == .failed)
        #expect(lease.waits["s"] == .claim, "the claim goes again with the next batch")
        lease.sent(batch: 3, writing: ["s"], at: 50)
        #expect(!lease.allows("s", at: 55))
        _ = lease.answered(batch: 3, written: true, claims: ["s": 200_000], at: 60)
        let ready = 60 + 200_000 + ServingLease.margin
        #expect(!lease.allows("s", at: ready - 1) && lease.allows("s", at: ready))
        #expect(lease.waitsOver(at: ready - 1).isEmpty && lease.waitsOver(at: ready) == ["s"])
        // a claim the store answered with no wait: the previous holder's lease had lapsed or was ended
        lease.tookOver("t")
        lease.sent(batch: 4, writing: ["t"], at: 100)
        _ = lease.answered(batch: 4, written: true, at: 110)
        #expect(lease.allows("t", at: 110))
    }

    @Test func noticesAreClearedOnlyByTheBatchAfterTheAnswerThatBroughtThem() {
        var lease = ServingLease()
        let notice = StoreFence(session: "s", epoch: 3, node: "b")
        lease.sent(batch: 1, writing: [], at: 0)
        _ = lease.answered(batch: 1, written: true, notices: [notice], at: 10)
        #expect(lease.noticesSeen == [notice])
        lease.sent(batch: 2, writing: [], at: 20)
        _ = lease.answered(batch: 2, written: false, notices: [], at: 30)
        #expect(lease.noticesSeen == [notice], "a failed batch may not have cleared them: again with the next")
        lease.sent(batch: 3, writing: [], at: 40)
        _ = lease.answered(batch: 3, written: true, notices: [], at: 50)
        #expect(lease.noticesSeen.isEmpty)
    }

    /// Node `a` holds a session and is frozen (SIGSTOP) just after a renewal. While it is frozen, the balancer
    /// sends the session's other device to `b`, which takes it over: `b`'s claim is answered with what is left
    /// of `a`'s lease, and `b` sends no frame before it is over. `a` is thawed past its lease, its page drags:
    /// `a` applies the input but sends no frame, and its next batch brings the notice, so it lets the session
    /// go without having drawn anything. At no moment do both send frames.
    @Test func aProcessFrozenPastItsLeaseSendsNoFrameWhenThawed() throws {
        let store = MemoryStore()
        var clock: Int64 = 1_000_000
        store.time = { clock }
        let a = TestTransport.node("a", store)
        a.now = clock
        let (first, made) = try a.welcomed(TestTransport.hello())
        let id = try #require(made["session"] as? String)
        let (second, joined) = try a.welcomed(a.join(id))
        clock += StoreLedger.period
        a.now = clock
        a.sweep()  // a renewal, at `renewedAt`
        let renewedAt = clock
        let aLeaseEnds = a.host.servingLease.validUntil
        #expect(aLeaseEnds == renewedAt + ServingLease.duration, "renewed with that batch")
        #expect(!a.frames(first).isEmpty && a.host.servingLease.allows(id, at: renewedAt))
        a.close(second)  // the second device's link drops (a still serves, under its lease)
        let framesBefore = a.frames(first).count
        // `a` is frozen now; 100 ms later the second device reconnects through `a`'s backend to `b`
        clock += 100_000
        let b = TestTransport.node("b", store)
        b.now = clock
        b.sweep()  // b's own lease, renewed
        b.balancerBackend = "a"
        let (moved, resumed) = try b.welcomed(TestTransport.hello(session: id, token: joined["token"] as? String))
        #expect(resumed["session"] as? String == id && store.sessions[id]?.epoch == 2)
        #expect(b.frames(moved).isEmpty, "b waits out a's lease")
        let ready = aLeaseEnds + ServingLease.margin
        #expect(b.host.servingLease.waits[id] == .until(ready))
        b.now = ready - 1
        b.sweep()
        #expect(b.frames(moved).isEmpty)
        // `a` thaws 3 s later, long past its lease, and its page drags before any batch of a's is answered
        clock = renewedAt + 3_000_000
        a.now = clock
        a.send(a.touch("start", dy: 0, seq: 1), on: first)
        a.send(a.touch("move", dy: 40, seq: 2), on: first)
        a.flush()
        #expect(a.frames(first).count == framesBefore, "a thawed past its lease sends no frame")
        a.sweep()  // its batch is refused for its epoch, and brings the notice: it lets the session go
        #expect(a.host.sessions[id] == nil)
        #expect(a.frames(first).count == framesBefore, "not even the frame it held")
        #expect(a.messages(first, type: "error").last?["node"] as? String == "b")
        // `b` draws once a's lease is over
        b.now = clock
        b.sweep()
        #expect(!b.frames(moved).isEmpty)
    }

    /// A holder that ends its lease (SIGTERM) leaves nothing to wait for: the take-over's claim is answered
    /// without a wait, and the new holder draws at once.
    @Test func aTakeOverFromAnEndedLeaseDrawsAtOnce() throws {
        let store = MemoryStore()
        var clock: Int64 = 1_000_000
        store.time = { clock }
        let a = TestTransport.node("a", store)
        a.now = clock
        let (_, made) = try a.welcomed(TestTransport.hello())
        let id = try #require(made["session"] as? String)
        clock += StoreLedger.period
        a.now = clock
        a.sweep()
        a.beginShutdown()
        let b = TestTransport.node("b", store)
        b.now = clock + 1_000
        b.sweep()
        let (page, resumed) = try b.welcomed(TestTransport.hello(session: id, token: made["token"] as? String))
        #expect(resumed["resumed"] as? Bool == true)
        #expect(!b.frames(page).isEmpty, "no previous lease to wait for")
    }

    /// A process whose lease lapsed (its batches unanswered: the store away) holds its frames; the first
    /// answered batch renews the lease and the frame held goes out.
    @Test func framesHeldWhileTheLeaseLapsedGoOnceItIsRenewed() throws {
        let store = MemoryStore()
        let a = TestTransport.node("a", store)
        let (page, _) = try a.welcomed(TestTransport.hello())
        a.now += StoreLedger.period
        a.sweep()
        store.reachable = false
        a.now += ServingLease.duration + StoreLedger.period
        a.sweep()
        let before = a.frames(page).count
        a.send(a.touch("start", dy: 0, seq: 1), on: page)
        a.send(a.touch("move", dy: 30, seq: 2), on: page)
        a.flush()
        #expect(a.frames(page).count == before, "lapsed: held")
        store.reachable = true
        a.now += StoreLedger.period
        a.sweep()
        #expect(a.frames(page).count == before + 1, "renewed: the latest frame goes")
    }
}
