import Testing

@testable import RefreshSessions

@Suite("RateLimiter")
struct RateLimiterTests {
    static let second: Int64 = 1_000_000

    @Test func aBurstUpToTheBucketIsAccepted() {
        var limiter = RateLimiter(ratePerSecond: 300, burst: 600, closeAfterSeconds: 3)
        for _ in 0..<600 { #expect(limiter.admit(at: 0) == .accept) }
        #expect(limiter.admit(at: 0) == .refuse(notify: true))
        #expect(limiter.refused == 1)
    }

    @Test func theSustainedRateIsAccepted() {
        var limiter = RateLimiter(ratePerSecond: 300, burst: 600, closeAfterSeconds: 3)
        // 300 messages a second for a minute, evenly spaced: never refused.
        for index in 0..<(300 * 60) {
            #expect(limiter.admit(at: Int64(index) * Self.second / 300) == .accept)
        }
    }

    @Test func refusalsAreNotifiedOncePerSecond() {
        var limiter = RateLimiter(ratePerSecond: 10, burst: 10, closeAfterSeconds: 60)
        for _ in 0..<10 { _ = limiter.admit(at: 0) }
        var notices = 0
        // 1000 messages/s for 2.5 s: a notice at 0, 1 s, 2 s.
        for index in 0..<2500 {
            if case .refuse(notify: true) = limiter.admit(at: Int64(index) * 1000) { notices += 1 }
        }
        #expect(notices == 3)
    }

    @Test func aFloodThatGoesOnIsClosed() {
        var limiter = RateLimiter(ratePerSecond: 10, burst: 20, closeAfterSeconds: 3)
        var closedAt: Int64?
        for index in 0..<10_000 {
            let now = Int64(index) * 1000  // 1000 messages/s
            if limiter.admit(at: now) == .close {
                closedAt = now
                break
            }
        }
        let closed = try! #require(closedAt)
        // The first refusal comes after the burst (≈ 20 ms); closing 3 s later.
        #expect(closed >= 3 * Self.second && closed < 3 * Self.second + 100_000)
    }

    @Test func aPauseEndsTheEpisode() {
        var limiter = RateLimiter(ratePerSecond: 10, burst: 10, closeAfterSeconds: 3)
        var now: Int64 = 0
        // Bursts of 2 s at 100/s, separated by 1.5 s of silence: never closed, because each pause ends
        // the flood episode (and refills the bucket).
        for _ in 0..<5 {
            for _ in 0..<200 {
                #expect(limiter.admit(at: now) != .close)
                now += 10_000
            }
            now += 1_500_000
        }
        #expect(limiter.refused > 0)
    }

    @Test func timeGoingBackwardsDoesNotMintTokens() {
        var limiter = RateLimiter(ratePerSecond: 1, burst: 1, closeAfterSeconds: 3)
        #expect(limiter.admit(at: 10 * Self.second) == .accept)
        // The clock stepping back (0, then 5 s: still before 10 s) refills nothing.
        #expect(limiter.admit(at: 0) != .accept)
        #expect(limiter.admit(at: 5 * Self.second) != .accept)
        #expect(limiter.admit(at: 11 * Self.second) == .accept)
    }

    @Test func aRefusedReleasePassesOnceANoticeInterval() {
        var limiter = RateLimiter(ratePerSecond: 1, burst: 1, closeAfterSeconds: 3)
        #expect(limiter.admit(at: 0) == .accept)
        #expect(limiter.admit(at: 0) == .refuse(notify: true))
        let first = limiter.passRelease(at: 0)
        #expect(first)
        #expect(limiter.refused == 0, "a release let through is not counted as refused")
        #expect(limiter.admit(at: 1) == .refuse(notify: false))
        let second = limiter.passRelease(at: 1)
        #expect(!second, "one a notice interval")
        let third = limiter.passRelease(at: 1_000_000)
        #expect(third)
    }
}
