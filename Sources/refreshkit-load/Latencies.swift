import Histogram

/// Input-to-frame latencies in whole microseconds: an HdrHistogram (Gil Tene's HdrHistogram, as the
/// hdrhistogram-swift package implements it) with three significant digits, so every percentile is within
/// 0.1 % of the value recorded, in a few tens of kilobytes, recording in O(1) without allocating.
struct Latencies {
    /// Up to 10 minutes; a slower sample counts as 10 minutes (no run lasts that long: the alarm ends it).
    static let limit: UInt64 = 600_000_000

    private var histogram = Histogram<UInt64>(
        highestTrackableValue: Latencies.limit, numberOfSignificantValueDigits: .three)

    var count: UInt64 { histogram.totalCount }

    mutating func record(_ microseconds: Int64) {
        _ = histogram.record(Swift.min(UInt64(Swift.max(0, microseconds)), Latencies.limit))
    }

    /// The value at `percentile` (0…100), µs; nil before any sample.
    func value(atPercentile percentile: Double) -> Int64? {
        count > 0 ? Int64(histogram.valueAtPercentile(percentile)) : nil
    }

    var maximum: Int64? { count > 0 ? Int64(histogram.max) : nil }
    var mean: Double? { count > 0 ? histogram.mean : nil }
}
