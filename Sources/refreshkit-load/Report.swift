/// The generator's result as one JSON object (hand-written: a flat set of numbers).
struct Report {
    let generator: LoadGenerator

    init(_ generator: LoadGenerator) {
        self.generator = generator
    }

    func json() -> String {
        let g = generator
        let o = g.options
        // The time this generator drove its target: the whole window, or its slices of it (``Slices``). Rates and
        // shares of a core are per second of that time.
        let window = g.windowEnd == Int64.max || g.windowStart == Int64.max ? 0 : g.spans.seconds
        var fields: [(String, String)] = [
            ("mode", quoted(o.idle ? "idle" : o.mode.rawValue)),
            ("frames", quoted(o.frames.rawValue)),
            ("sessions", "\(o.sessions)"),
            ("ready_sessions", "\(g.readySessions)"),
            ("rate_hz", number(o.rate)),
            ("window_s", number(window)),
            ("slice_s", number(Double(g.slices.length) / 1_000_000)),
            ("slices", "\(g.slices.isSliced ? g.spans.count : 0)"),
            ("inputs_sent", "\(g.inputsSent)"),
            ("inputs_per_sec", number(window > 0 ? Double(g.inputsSent) / window : 0)),
            ("inputs_unanswered", "\(g.inputsUnanswered)"),
            ("inputs_late", "\(g.inputsLate)"),
            ("inputs_skipped_not_ready", "\(g.inputsSkippedNotReady)"),
            ("latency_samples", "\(g.latency.count)"),
        ]
        for (name, percentile) in [("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p999", 99.9)] {
            fields.append(("latency_\(name)_ms", milliseconds(g.latency.value(atPercentile: percentile))))
        }
        fields.append(("latency_max_ms", milliseconds(g.latency.maximum)))
        fields.append(("latency_mean_ms", g.latency.mean.map { number($0 / 1000) } ?? "null"))
        // Tenth of a second by tenth of the window (``TailBins``): [s from its first slice, inputs, late, slowest ms].
        let bins = g.tails.measured.map { bin in
            "[\(number(bin.start)),\(bin.inputs),\(bin.late),\(number(bin.slowestMilliseconds))]"
        }
        fields.append(("tail_bins", "[" + bins.joined(separator: ",") + "]"))
        fields.append(("tail_bin_s", number(Double(TailBins.length) / 1_000_000)))
        fields.append(("tail_late_ms", number(Double(TailBins.lateMicroseconds) / 1000)))
        fields.append(("tail_origin_us", "\(g.tails.origin)"))
        fields += [
            ("messages", "\(g.messages)"),
            ("bytes", "\(g.bytes)"),
            ("frames", "\(g.frames)"),
            ("frames_per_sec", number(window > 0 ? Double(g.frames) / window : 0)),
            ("frames_answering_input", "\(g.framesAnswering)"),
            ("moving_frames", "\(g.movingFrames)"),
            (
                "bytes_per_moving_frame",
                g.movingFrames > 0 ? number(Double(g.movingFrameBytes) / Double(g.movingFrames)) : "null"
            ),
            (
                "wire_bytes_per_moving_frame",
                g.movingFrames > 0 ? number(Double(g.movingFrameWireBytes) / Double(g.movingFrames)) : "null"
            ),
            ("events", "\(g.events)"),
            ("errors", "\(g.errors)"),
            ("connect_failures", "\(g.connectFailures)"),
            ("closed_early", "\(g.closedEarly)"),
            ("clock_skew_ms", g.clockSkewMicroseconds.map { number(Double($0) / 1000) } ?? "null"),
            ("client_cpu_percent", number(window > 0 ? 100 * g.clientCPUSeconds / window : 0)),
            ("host_steal_ms", g.hostStealSeconds.map { number($0 * 1000) } ?? "null"),
        ]
        if let after = g.serverAfter {
            fields.append(("server_rss_bytes", "\(after.rssBytes)"))
            fields.append(("server_peak_rss_bytes", "\(after.peakRSSBytes)"))
            fields.append(("server_threads", "\(after.threads)"))
        }
        if let cpu = g.serverCPUSeconds, window > 0 {
            fields.append(("server_cpu_seconds", number(cpu)))
            fields.append(("server_cpu_percent", number(100 * cpu / window)))
            if let system = g.serverSystemSeconds {
                fields.append(("server_sys_cpu_percent", number(100 * system / window)))
            }
        }
        if !o.watchedPIDs.isEmpty {
            let watched = zip(o.watchedPIDs, g.watchedCPUSeconds).map { pid, sample in
                guard let sample else { return "{\"pid\":\(pid),\"cpu_seconds\":null}" }
                return
                    "{\"pid\":\(pid),\"cpu_seconds\":\(number(sample.cpu)),\"sys_cpu_seconds\":\(number(sample.system))}"
            }
            fields.append(("watched", "[" + watched.joined(separator: ",") + "]"))
        }
        fields.append(("failure", g.failure.map(quoted) ?? "null"))
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    private func milliseconds(_ microseconds: Int64?) -> String {
        microseconds.map { number(Double($0) / 1000) } ?? "null"
    }

    private func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let scaled = (value * 1000).rounded() / 1000
        return scaled == scaled.rounded() && abs(scaled) < 1e15 ? String(Int64(scaled)) : "\(scaled)"
    }

    private func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
