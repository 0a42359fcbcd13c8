import Foundation
import RefreshFeeds
import RefreshKit

/// The session's memory with the window of pages (docs/LAYOUT.md, "The window"; docs/PERFORMANCE.md): an engine
/// model on a SQLite feed of ``items`` fortunes (the feed bench's file, made once) scrolls from the top to the
/// end, a load-more at each end of the list, and back to the top, each request answered at once by the real
/// source; the model's encoded state (its snapshot: JSON of the whole `ListModel`, the held items included) is
/// measured after the first page, when the window first fills, at its largest on the way, and at the end.
struct WindowBench {
    var items = 100_000
    static let pageSize = 20
    static let viewport = Size(width: 390, height: 844)

    func run() -> [String: Any] {
        do {
            let source = try FeedBench.fortunes(items: items, for: "window")
            say("window: scrolling \(items) items top → end → back…")
            return try walk(source)
        } catch {
            return ["error": "\(error)"]
        }
    }

    private func walk(_ source: SQLiteFeed) throws -> [String: Any] {
        var configuration = Preset.ios.configuration
        configuration.feed.pageSize = Self.pageSize
        configuration.feed.timeoutMs = 60_000
        var time: Int64 = 1_000_000
        var model = try ListModel(
            viewport: Self.viewport, starting: Preset(name: "external", configuration: configuration),
            feed: .external, time: Timestamp(microseconds: time))
        let encoder = JSONEncoder()
        func size() throws -> Int { try encoder.encode(model).count }
        func serve() throws {
            var answered = 0
            while let request = model.sourceRequest, answered < 100 {
                let outcome: FeedOutcome
                do { outcome = .page(try source.load(request.request)) } catch {
                    outcome = .failure(FeedFailure(error))
                }
                try model.apply(
                    .feedAnswer(FeedAnswerInput(request: request.id, outcome: outcome, durationMs: 1)),
                    at: Timestamp(microseconds: time))
                answered += 1
            }
            _ = model.takeEvents()
            _ = model.takeRowsUpdates()
        }
        func scroll(by distance: Double) throws {
            try model.apply(
                .command(Command(.scrollBy, animated: false, amount: distance)), at: Timestamp(microseconds: time))
            try serve()
            let layout = model.rowLayout
            if model.sourceRequest == nil, model.pager.mayLoadMore,
                model.scroll.offset.y + 2 * Self.viewport.height >= layout.contentHeight
            {
                try model.apply(
                    .command(Command(.loadMore, edge: .bottom, animated: false)), at: Timestamp(microseconds: time))
                try serve()
            }
            time += 400_000
            model.advance(to: Timestamp(microseconds: time))
            try serve()
        }
        let started = ContinuousClock.now
        try serve()
        let firstPage = try size()
        var (windowFull, largest, mostHeld, steps): (Int?, Int, Int, Int) = (nil, firstPage, 0, 0)
        func sample() throws {
            let layout = model.rowLayout
            mostHeld = max(mostHeld, layout.heldRowCount)
            if steps % 20 == 0 {
                let bytes = try size()
                largest = max(largest, bytes)
                if windowFull == nil, layout.placeholdersAbove > 0 { windowFull = bytes }
            }
            steps += 1
        }
        while model.pager.hasMore || model.rowLayout.placeholdersBelow > 0
            || model.scroll.offset.y < model.scroll.bounds(.vertical).upper - 1, steps < 100_000
        {
            try scroll(by: 2_500)
            try sample()
        }
        let rows = model.rowLayout.rowCount
        while model.rowLayout.placeholdersAbove > 0 || model.scroll.offset.y > 0, steps < 200_000 {
            try scroll(by: -2_500)
            try sample()
        }
        let end = try size()
        largest = max(largest, end)
        let elapsed = ContinuousClock.now - started
        return [
            "items": items, "rows_walked": rows, "page_size": Self.pageSize,
            "max_held_rows": model.rowLayout.maxHeldRows, "most_held_rows": mostHeld,
            "state_bytes_first_page": firstPage, "state_bytes_window_full": windowFull ?? NSNull(),
            "state_bytes_largest": largest, "state_bytes_end": end,
            "ratio_largest_to_first_page": round2(Double(largest) / Double(firstPage)),
            "ratio_largest_to_window_full": windowFull.map { round2(Double(largest) / Double($0)) } ?? NSNull(),
            "steps": steps,
            "seconds": round2(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18),
        ]
    }

    static func table(_ window: [String: Any]?) -> String {
        guard let window else { return "window of pages: not measured" }
        if let note = window["note"] as? String { return "window of pages: \(note)" }
        if let error = window["error"] as? String { return "window of pages: failed: \(error)" }
        func value(_ key: String) -> String { (window[key] as? NSNumber).map { "\($0)" } ?? "–" }
        return """
            session memory, \(value("rows_walked")) items top → end → back (SQLite fortunes, pages of \
            \(value("page_size")), window \(value("max_held_rows")) rows, at most \(value("most_held_rows")) held):
              engine state after the first page \(value("state_bytes_first_page")) B · window first full \
            \(value("state_bytes_window_full")) B · largest \(value("state_bytes_largest")) B · at the end \
            \(value("state_bytes_end")) B
              largest / first page \(value("ratio_largest_to_first_page"))× · largest / window full \
            \(value("ratio_largest_to_window_full"))× (target: within 2× of the first page)
            """
    }
}

private func round2(_ value: Double) -> Double { (value * 100).rounded() / 100 }
