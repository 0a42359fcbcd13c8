import Foundation
import RefreshFeeds
import RefreshKit

/// Placeholders during a long fling (docs/LAYOUT.md, "Where a fling stops"; docs/PERFORMANCE.md): an engine model on
/// a SQLite feed of ``items`` fortunes jumps to the middle of it (placeholders for every newer item above), then
/// flings up at full speed, again ``pauseMs`` after it comes to rest, ``flings`` times; the source answers each request
/// a latency after it is made (each of ``latencies``), one at a time, as a server's feed service does. At every frame (60 Hz of the
/// model's clock) the rows in the viewport that are placeholders are counted, while flinging and at rest until the
/// rows come. Run with the window following the fling (`flingPrefetch`, the default) and without: the same inputs.
struct FlingBench {
    var items = 1_000_000
    var flings = 6
    var latencies: [Double] = [100, 300, 500]
    var pauseMs = 400.0
    static let viewport = Size(width: 390, height: 844)
    static let frameMicros: Int64 = 16_667

    func run() -> [String: Any] {
        do {
            let source = try FeedBench.fortunes(items: items, for: "fling")
            say("fling: \(flings) flings up from the middle of \(items) items, with and without the prefetch…")
            var runs: [[String: Any]] = []
            for latency in latencies {
                runs.append([
                    "latency_ms": latency, "prefetch": try walk(source, prefetch: true, latencyMs: latency),
                    "without": try walk(source, prefetch: false, latencyMs: latency),
                ])
            }
            return ["items": items, "flings": flings, "runs": runs]
        } catch {
            return ["error": "\(error)"]
        }
    }

    /// The counts for one run.
    private func walk(_ source: SQLiteFeed, prefetch: Bool, latencyMs: Double) throws -> [String: Any] {
        var configuration = Preset.ios.configuration
        configuration.feed.timeoutMs = 60_000
        configuration.flingPrefetch = prefetch
        var time: Int64 = 1_000_000
        var now: Timestamp { Timestamp(microseconds: time) }
        var model = try ListModel(
            viewport: Self.viewport, starting: Preset(name: "external", configuration: configuration), feed: .external,
            time: now)
        // The requests in flight and when their answers come (each `latencyMs` after it was made; a request the model
        // replaced is answered too, and found stale).
        var inFlight: [(id: Int, due: Int64, outcome: FeedOutcome)] = []
        var (requests, lastID) = (0, -1)
        var pending: Bool { !inFlight.isEmpty }
        func serve() throws {
            if let request = model.sourceRequest, request.id != lastID {
                lastID = request.id
                let outcome: FeedOutcome
                do { outcome = .page(try source.load(request.request)) } catch {
                    outcome = .failure(FeedFailure(error))
                }
                inFlight.append((request.id, time + Int64(latencyMs * 1000), outcome))
                requests += 1
            }
            if let answer = inFlight.first, answer.due <= time {
                inFlight.removeFirst()
                try model.apply(
                    .feedAnswer(FeedAnswerInput(request: answer.id, outcome: answer.outcome, durationMs: latencyMs)),
                    at: now)
                try serve()
            }
            _ = model.takeEvents()
            _ = model.takeRowsUpdates()
        }
        func frame() throws {
            time += Self.frameMicros
            model.advance(to: now)
            try serve()
        }
        /// Placeholder rows in the viewport now.
        func placeholders() -> Int {
            let layout = model.rowLayout
            let top = model.scroll.offset.y
            guard let first = layout.row(at: max(0, top)), let last = layout.row(at: top + Self.viewport.height - 1)
            else { return 0 }
            let held = layout.placeholdersAbove..<(layout.placeholdersAbove + layout.heldRowCount)
            return (first...last).filter { !held.contains($0) }.count
        }
        while model.sourceRequest != nil || pending { try frame() }
        // The jump: the item half way down the feed (ids count up from the oldest, the newest is `items`).
        try model.apply(.command(Command(.scrollToItem, animated: false, item: .id("\(items / 2)"))), at: now)
        while model.sourceRequest != nil || pending || model.isActive { try frame() }
        var (flingFrames, flingPlaceholders, restFrames, restPlaceholders, restWaits) = (0, 0, 0, 0, [Double]())
        var travelled = 0.0
        for _ in 0..<flings {
            let start = model.scroll.offset.y
            try model.apply(.touch(TouchInput(phase: .start, pageTime: Double(time) / 1000)), at: now)
            for _ in 0..<5 {
                time += 8_000
                try model.apply(
                    .touch(TouchInput(phase: .move, delta: Point(x: 0, y: 120), pageTime: Double(time) / 1000)),
                    at: now)
            }
            try model.apply(.touch(TouchInput(phase: .end, pageTime: Double(time) / 1000)), at: now)
            try serve()
            while model.isActive {
                try frame()
                let shown = placeholders()
                flingFrames += 1
                flingPlaceholders += shown
            }
            travelled += start - model.scroll.offset.y
            // at rest: the frames until every row in the viewport is loaded (at most 5 s)
            var waited = 0
            while placeholders() > 0, waited < 300 {
                restPlaceholders += placeholders()
                restFrames += 1
                waited += 1
                try frame()
            }
            restWaits.append(Double(waited) * Double(Self.frameMicros) / 1000)
            // the reader's pause before the next fling
            for _ in 0..<Int(pauseMs * 1000 / Double(Self.frameMicros)) { try frame() }
        }
        return [
            "fling_frames": flingFrames, "fling_placeholder_rows": flingPlaceholders,
            "fling_placeholder_rows_per_frame": round2(Double(flingPlaceholders) / Double(max(1, flingFrames))),
            "rest_frames_with_placeholders": restFrames, "rest_placeholder_rows": restPlaceholders,
            "rest_wait_ms_max": round2(restWaits.max() ?? 0),
            "rest_wait_ms_mean": round2(restWaits.reduce(0, +) / Double(max(1, restWaits.count))),
            "requests": requests, "px_travelled": round2(travelled),
        ]
    }

    static func table(_ fling: [String: Any]?) -> String {
        guard let fling else { return "fling through a feed: not measured" }
        if let error = fling["error"] as? String { return "fling through a feed: failed: \(error)" }
        func row(_ name: String, _ run: [String: Any]?) -> String {
            func value(_ key: String) -> String { (run?[key] as? NSNumber).map { "\($0)" } ?? "–" }
            return """
                    \(name): placeholder rows per frame while flinging \(value("fling_placeholder_rows_per_frame")) \
                (\(value("fling_placeholder_rows")) in \(value("fling_frames")) frames) · at rest \
                \(value("rest_placeholder_rows")) in \(value("rest_frames_with_placeholders")) frames, waits mean \
                \(value("rest_wait_ms_mean")) ms, max \(value("rest_wait_ms_max")) ms · \(value("requests")) requests
                """
        }
        let lines = (fling["runs"] as? [[String: Any]] ?? []).map { run in
            let latency = (run["latency_ms"] as? NSNumber).map { "\(Int($0.doubleValue)) ms" } ?? "?"
            return "  answers after \(latency):\n"
                + row("prefetch where it stops", run["prefetch"] as? [String: Any]) + "\n"
                + row("a page as rows near     ", run["without"] as? [String: Any])
        }
        return """
            fling through a feed (\(fling["flings"] ?? "?") full-speed flings up from the middle of \
            \(fling["items"] ?? "?") SQLite items, the source's answers after each latency):
            \(lines.joined(separator: "\n"))
            """
    }
}

private func round2(_ value: Double) -> Double { (value * 100).rounded() / 100 }
