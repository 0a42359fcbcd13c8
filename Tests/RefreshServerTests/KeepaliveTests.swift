import Testing

@testable import RefreshServer

@Suite struct KeepaliveTests {
    let keepalive = Keepalive(pingIntervalSeconds: 10, hangupSeconds: 20)

    @Test func aConnectionHeardFromRecentlyIsLeftAlone() {
        #expect(keepalive.verdict(lastHeard: 0, pinged: false, now: 9_999_999) == .fine)
    }

    @Test func aQuietConnectionIsPingedOnce() {
        #expect(keepalive.verdict(lastHeard: 0, pinged: false, now: 10_000_000) == .ping)
        #expect(keepalive.verdict(lastHeard: 0, pinged: true, now: 15_000_000) == .fine)
    }

    @Test func anUnansweredPingEndsTheConnectionAtTheHangUpTime() {
        #expect(keepalive.verdict(lastHeard: 0, pinged: true, now: 19_999_999) == .fine)
        #expect(keepalive.verdict(lastHeard: 0, pinged: true, now: 20_000_000) == .hangUp)
        // Even if the sweep never got to ping it (the loop was stalled), silence past the limit ends it.
        #expect(keepalive.verdict(lastHeard: 0, pinged: false, now: 25_000_000) == .hangUp)
    }

    @Test func hearingAgainStartsTheCountOver() {
        #expect(keepalive.verdict(lastHeard: 18_000_000, pinged: false, now: 20_000_000) == .fine)
    }
}
