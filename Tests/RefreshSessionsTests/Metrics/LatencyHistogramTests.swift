import Testing

@testable import RefreshSessions

@Suite struct LatencyHistogramTests {
    @Test func anObservationCountsInTheFirstBucketWhoseBoundIsAtOrAboveIt() {
        var histogram = LatencyHistogram(bounds: [250, 500, 1_000])
        for value: Int64 in [0, 250, 251, 500, 999, 1_000, 1_001, 5_000_000] {
            histogram.record(microseconds: value)
        }
        #expect(histogram.counts == [2, 2, 2, 2])
        #expect(histogram.cumulativeCounts == [2, 4, 6])
        #expect(histogram.count == 8)
        #expect(histogram.sumMicroseconds == 0 + 250 + 251 + 500 + 999 + 1_000 + 1_001 + 5_000_000)
    }

    @Test func aNegativeDurationCountsAsZero() {
        var histogram = LatencyHistogram(bounds: [250])
        histogram.record(microseconds: -40)
        #expect(histogram.counts == [1, 0])
        #expect(histogram.sumMicroseconds == 0)
    }

    @Test func theHostCountsMessagesInputsFramesAndTheirLatency() {
        var counters = HostCounters()
        counters.inputToFrame.record(microseconds: 700)
        #expect(counters.inputToFrame.bounds == LatencyHistogram.inputToFrameBounds)
        #expect(counters.inputToFrame.cumulativeCounts[1] == 0)  // 500 µs
        #expect(counters.inputToFrame.cumulativeCounts[2] == 1)  // 1 ms
    }
}
