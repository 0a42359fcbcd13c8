import RefreshSessions

// A ``LatencyHistogram`` in Prometheus' text exposition format (version 0.0.4), as swift-prometheus writes its
// own duration histograms: seconds, cumulative `le` buckets, then `+Inf`, `_sum` and `_count`.
extension LatencyHistogram {
    /// The histogram's lines under `name`, its `# TYPE` line first.
    func prometheusText(name: String) -> String {
        var text = "# TYPE \(name) histogram\n"
        for (bound, count) in zip(bounds, cumulativeCounts) {
            text += "\(name)_bucket{le=\"\(Self.seconds(bound))\"} \(count)\n"
        }
        text += "\(name)_bucket{le=\"+Inf\"} \(count)\n"
        text += "\(name)_sum \(Self.seconds(sumMicroseconds))\n"
        text += "\(name)_count \(count)\n"
        return text
    }

    /// `microseconds` as decimal seconds, without trailing zeros (`250` → `0.00025`, `1_000_000` → `1.0`).
    static func seconds(_ microseconds: Int64) -> String {
        let (whole, fraction) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        guard fraction != 0 else { return "\(whole).0" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.last == "0" { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}
