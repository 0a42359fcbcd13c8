import Testing

@testable import refreshkit_load

/// The load generator's turn-by-turn slices and its tail bins (docs/PERFORMANCE.md, "Two targets measured turn by
/// turn"): two generators that never talk must agree on whose slice it is from the clock alone.
@Suite struct LoadSlicesTests {
    @Test func twoPhasesTakeEverySliceInTurnAndMeasureItPastItsLead() {
        let even = Slices(length: 1_000, phase: 0, lead: 100)
        let odd = Slices(length: 1_000, phase: 1, lead: 100)
        for time in stride(from: Int64(0), to: 10_000, by: 50) {
            #expect(even.isActive(time) != odd.isActive(time), "one generator at a time, at \(time) µs")
        }
        #expect(even.isMeasured(1_100) == false && even.isMeasured(2_050) == false, "the other's slice; the lead")
        #expect(even.isMeasured(2_100) && odd.isMeasured(3_999))
        #expect(!Slices.none.isSliced && Slices.none.isActive(7) && Slices.none.isMeasured(7))
    }

    @Test func aGeneratorStartsAtItsOwnNextSliceAndMeasuresWholePairs() {
        let odd = Slices(length: 1_000, phase: 1, lead: 0)
        #expect(odd.start(atOrAfter: 0) == 1_000)
        #expect(odd.start(atOrAfter: 1_000) == 1_000)
        #expect(odd.start(atOrAfter: 1_001) == 3_000)
        #expect(Slices(length: 1_000, phase: 0, lead: 0).start(atOrAfter: 1_500) == 2_000)
        #expect(odd.sliceStart(at: 2_345) == 2_000)
        #expect(odd.window(about: 4_900) == 4_000, "rounded to whole pairs of slices")
        #expect(odd.window(about: 10) == 2_000, "at least one pair")
        #expect(Slices.none.window(about: 4_900) == 4_900)
    }

    @Test func tailBinsCountTheLateAnswersOfEachTenthOfASecond() {
        var bins = TailBins(origin: 1_000_000, duration: 300_000)
        bins.record(sent: 1_000_000, latency: 500)
        bins.record(sent: 1_050_000, latency: 2_500)
        bins.record(sent: 1_250_000, latency: 9_000)
        bins.record(sent: 999_999, latency: 50_000)  // before the window: not counted
        bins.record(sent: 2_000_000, latency: 50_000)  // after it
        let measured = bins.measured
        #expect(measured.map(\.start) == [0, 0.2])
        #expect(measured.map(\.inputs) == [2, 1])
        #expect(measured.map(\.late) == [1, 1], "later than \(TailBins.lateMicroseconds) µs")
        #expect(measured.map(\.slowestMilliseconds) == [2.5, 9])
    }

    @Test func latenciesKeepThreeSignificantDigits() throws {
        var latencies = Latencies()
        #expect(latencies.value(atPercentile: 99) == nil)
        for microseconds in 1...1_000 { latencies.record(Int64(microseconds) * 1_000) }
        latencies.record(-5)  // a clock step backwards counts as 0, not as a crash
        let p50 = try #require(latencies.value(atPercentile: 50))
        #expect(abs(Double(p50) - 500_000) <= 500_000 * 0.001 + 1_000)
        #expect(try #require(latencies.maximum) >= 1_000_000 * 999 / 1_000)
        #expect(latencies.count == 1_001)
    }
}
