/// Durations counted into fixed buckets, in plain integers: what a Prometheus histogram holds (a count per
/// upper bound, the sum and the count), kept by the one thread that records into it, without a lock.
///
/// Recording finds the bucket and adds to plain integers: no lock, no `Duration`. The server's `/metrics` page writes it in Prometheus'
/// text format when it is asked for (RefreshServer's `ServerMetrics`); recording through swift-prometheus'
/// `Histogram` instead took its lock and compared `Duration`s on every frame (docs/PERFORMANCE.md, "Counters,
/// not metrics").
public struct LatencyHistogram: Sendable, Equatable {
    /// The buckets' upper bounds, µs, ascending (an observation counts in the first bucket whose bound is at
    /// or above it; the `+Inf` bucket is ``count``).
    public let bounds: [Int64]
    /// Observations per bucket, not cumulative: `counts[i]` were above `bounds[i - 1]` and at most `bounds[i]`;
    /// the last entry counts those above every bound.
    public private(set) var counts: [UInt64]
    /// Observations in all.
    public private(set) var count: UInt64 = 0
    /// The observations' sum, µs.
    public private(set) var sumMicroseconds: Int64 = 0

    /// An empty histogram with these upper bounds (µs, ascending).
    public init(bounds: [Int64]) {
        precondition(zip(bounds, bounds.dropFirst()).allSatisfy { $0 < $1 }, "bounds ascend")
        self.bounds = bounds
        counts = Array(repeating: 0, count: bounds.count + 1)
    }

    /// Counts one observation of `microseconds` (a negative one, from a clock that stepped, counts as 0).
    /// (Inlined: a host records one for a frame after an input; docs/PERFORMANCE.md, "Inlining on an input's
    /// path".)
    @inline(__always)
    public mutating func record(microseconds: Int64) {
        let value = max(0, microseconds)
        var index = 0
        while index < bounds.count && bounds[index] < value { index += 1 }
        counts[index] &+= 1
        count &+= 1
        sumMicroseconds &+= value
    }

    /// Observations at or below each bound, in order (Prometheus' cumulative `le` buckets, `+Inf` left out).
    public var cumulativeCounts: [UInt64] {
        var running: UInt64 = 0
        return bounds.indices.map { index in
            running &+= counts[index]
            return running
        }
    }

    /// The input-to-frame buckets: a frame is answered within a millisecond on a quiet server, so they are finer
    /// at the low end than swift-prometheus' defaults (5 ms … 10 s): 0.25 ms … 1 s.
    public static let inputToFrameBounds: [Int64] = [
        250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 33_000, 66_000, 125_000, 250_000, 500_000, 1_000_000,
    ]
}
