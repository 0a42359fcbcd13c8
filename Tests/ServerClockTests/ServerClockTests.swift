import Testing

@testable import ServerClock

/// The server's clock is the wall clock's time (µs since the Unix epoch) at its origin, advanced by the
/// monotonic clock: it reads what the wall clock reads, and it only moves forward.
@Suite struct ServerClockTests {
    @Test func itReadsTheWallClock() {
        let before = ServerClock.wallClock()
        let clock = ServerClock()
        let read = clock.now()
        let after = ServerClock.wallClock()
        // Within the origin's uncertainty, and a microsecond of rounding for each clock read.
        let slack = clock.originUncertainty + 2
        #expect(read >= before - slack && read <= after + slack, "\(before) ≤ \(read) ≤ \(after) ± \(slack)")
        #expect(clock.wallOrigin >= before && clock.wallOrigin <= after)
        // Since 1970, in microseconds: this century's times, not a boot's uptime.
        #expect(read > 1_700_000_000_000_000)
    }

    @Test func twoClocksMadeAtDifferentTimesAgree() {
        // Two processes on one machine (or two synchronised machines) make their clocks at different times.
        let first = ServerClock()
        let readings = (0..<1000).map { _ in ServerClock.wallClock() }  // time passes between the two origins
        let second = ServerClock()
        let (a, b) = (first.now(), second.now())
        #expect(readings.last! >= readings.first!)
        let slack = first.originUncertainty + second.originUncertainty + 2
        #expect(abs(b - a) <= slack, "made apart, they read the same time: \(a) and \(b) (± \(slack))")
    }

    @Test func theOriginIsReadWithinAFewMicroseconds() {
        // The narrowest of several brackets: on an idle or a busy machine, microseconds, not a time slice.
        #expect(ServerClock().originUncertainty <= 100)
    }

    @Test func theTimeIsTheOriginPlusTheMonotonicTimeSinceIt() {
        let clock = ServerClock(wallOrigin: 1_764_000_000_000_000, monotonicOrigin: 5_000_000)
        #expect(clock.time(atMonotonic: 5_000_000) == 1_764_000_000_000_000)
        #expect(clock.time(atMonotonic: 5_250_000) == 1_764_000_000_250_000)
    }

    @Test func itNeverGoesBack() {
        let clock = ServerClock()
        var last = clock.now()
        for _ in 0..<10_000 {
            let next = clock.now()
            #expect(next >= last)
            last = next
        }
    }
}
