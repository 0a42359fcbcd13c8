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
        // Both clocks are read to the microsecond; the origin's arithmetic may round each by one.
        #expect(read >= before - 2 && read <= after + 2, "\(before) ≤ \(read) ≤ \(after)")
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
        #expect(abs(b - a) <= 50, "made apart, they read the same time: \(a) and \(b)")
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
