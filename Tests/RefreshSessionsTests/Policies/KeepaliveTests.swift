import Testing

@testable import RefreshSessions

@Suite struct KeepaliveTests {
    let keepalive = Keepalive(pingIntervalSeconds: 10, hangupSeconds: 20)

    @Test func aConnectionHeardFromRecentlyIsLeftAlone() {
        #expect(keepalive.verdict(lastHeard: 0, pingedAt: nil, now: 9_999_999) == .fine)
    }

    @Test func aQuietConnectionIsPingedOnce() {
        #expect(keepalive.verdict(lastHeard: 0, pingedAt: nil, now: 10_000_000) == .ping)
        #expect(keepalive.verdict(lastHeard: 0, pingedAt: 10_000_000, now: 15_000_000) == .fine)
    }

    @Test func anUnansweredPingEndsTheConnectionAtTheHangUpTime() {
        #expect(keepalive.verdict(lastHeard: 0, pingedAt: 10_000_000, now: 19_999_999) == .fine)
        #expect(keepalive.verdict(lastHeard: 0, pingedAt: 10_000_000, now: 20_000_000) == .hangUp)
    }

    @Test func silenceWithoutAPingNeverHangsUp() {
        // A sweep that came late (seen in CI: 1 s ping, 2 s hang-up, sweeps at 0.99 s and 2.0 s of quiet) finds
        // the connection past the hang-up time: it pings, and the peer gets its whole window to answer.
        #expect(keepalive.verdict(lastHeard: 0, pingedAt: nil, now: 25_000_000) == .ping)
        #expect(keepalive.verdict(lastHeard: 0, pingedAt: 25_000_000, now: 34_999_999) == .fine)
        #expect(keepalive.verdict(lastHeard: 0, pingedAt: 25_000_000, now: 35_000_000) == .hangUp)
    }

    @Test func hearingAgainStartsTheCountOver() {
        #expect(keepalive.verdict(lastHeard: 18_000_000, pingedAt: nil, now: 20_000_000) == .fine)
    }
}
