import Testing

@testable import RefreshSessions

@Suite("TimestampGuard")
struct TimestampGuardTests {
    @Test func theFirstSampleIsAcceptedWhateverItSays() {
        for t in [0.0, -5, 1e12, 123.456] {
            var clock = TimestampGuard()
            #expect(clock.check(pageTime: t, serverTime: 0) == .accept)
        }
    }

    @Test func monotonicSamplesAreAccepted() {
        var clock = TimestampGuard()
        for index in 0..<1000 {
            #expect(clock.check(pageTime: 1000 + Double(index) * 16.7, serverTime: Int64(index) * 16_700) == .accept)
        }
    }

    @Test func smallReorderingsAreTolerated() {
        var clock = TimestampGuard()
        #expect(clock.check(pageTime: 5000, serverTime: 0) == .accept)
        #expect(clock.check(pageTime: 4990, serverTime: 1000) == .accept)
        #expect(clock.check(pageTime: 4001, serverTime: 2000) == .accept)
        // The reference stays at the newest sample: 4001 did not lower it.
        #expect(clock.check(pageTime: 3999, serverTime: 3000) == .backwards(milliseconds: 1001))
    }

    @Test func goingBackFurtherIsRefusedWithTheAmount() {
        var clock = TimestampGuard()
        _ = clock.check(pageTime: 10_000, serverTime: 0)
        let verdict = clock.check(pageTime: 5000, serverTime: 10)
        #expect(verdict == .backwards(milliseconds: 5000))
        #expect(
            clock.message(for: verdict, field: "touch.t")
                == "touch.t went backwards by 5000 ms (at most 1000 ms is tolerated)")
        // A refused sample does not move the reference.
        #expect(clock.check(pageTime: 10_016, serverTime: 16_000) == .accept)
    }

    @Test func jumpsAheadAreJudgedAgainstRealTime() {
        var clock = TimestampGuard()
        _ = clock.check(pageTime: 1000, serverTime: 0)
        // Two hours later by the server's clock, two hours later by the page's: a backgrounded tab.
        let twoHours: Double = 2 * 3_600_000
        #expect(clock.check(pageTime: 1000 + twoHours, serverTime: Int64(twoHours) * 1000) == .accept)
        // Two hours ahead of the page's own pace a second later: refused.
        let verdict = clock.check(pageTime: 1000 + 2 * twoHours + 1000, serverTime: Int64(twoHours) * 1000 + 1_000_000)
        guard case .ahead(let lead) = verdict else {
            Issue.record("expected .ahead, got \(verdict)")
            return
        }
        #expect(abs(lead - twoHours) < 1)
        #expect(clock.message(for: verdict, field: "wheel.t")!.hasPrefix("wheel.t jumped ahead by 7200000 ms"))
    }

    @Test func anHourOfLeadIsStillAccepted() {
        var clock = TimestampGuard()
        _ = clock.check(pageTime: 0, serverTime: 0)
        #expect(clock.check(pageTime: 3_600_000, serverTime: 0) == .accept)
    }

    @Test func resetStartsOver() {
        var clock = TimestampGuard()
        _ = clock.check(pageTime: 1e9, serverTime: 0)
        clock.reset()
        #expect(clock.check(pageTime: 1, serverTime: 1) == .accept)
    }

    @Test func nonFiniteTimesAreNeverAccepted() {
        var clock = TimestampGuard()
        for t in [Double.nan, .infinity, -.infinity] {
            #expect(clock.check(pageTime: t, serverTime: 0) != .accept)
        }
    }
}
