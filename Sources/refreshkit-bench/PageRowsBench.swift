import Foundation

/// The page's cost on rows of measured heights (docs/PAGE.md, "Rows of measured heights"; docs/PERFORMANCE.md,
/// "Page"): bench/page_bench.py `--external` against a server whose feed is a SQLite file of ``items`` items of
/// varied text (e2e/rows_feed.py: a few words to more than a row shows), so every frame of the fling lays out,
/// measures and draws rows that differ in height, and the engine's `heights` and anchoring come back. Text only.
/// With `--thread-cpu`: the main thread's CPU time per frame beside the wall clock's (a busy machine keeps the
/// page waiting for a core; the CPU time is the page's own JS).
struct PageRowsBench {
    let options: BenchOptions
    /// Items in the feed: all of them are loaded (at the list's end, the window of pages following) before the
    /// flinging starts at the top.
    static let items = 10_000

    func run() async -> [String: Any] {
        let python = options.python.hasPrefix("/") ? options.python : options.root + "/" + options.python
        let writer = options.root + "/e2e/rows_feed.py"
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: writer)
        else {
            return unavailable("no \(options.python) (run `make test-deps`) or no e2e/rows_feed.py")
        }
        let feed = options.logDirectory + "/page-rows-feed.sqlite"
        do {
            let fill = try await ChildProcess(
                name: "rows_feed", executable: python, arguments: [writer, feed, "--items", "\(Self.items)"],
                workingDirectory: options.root, log: options.logDirectory + "/page-rows-feed.log")
            guard await fill.wait(timeout: 60), fill.stdout.contains("\(Self.items)") else {
                return unavailable("e2e/rows_feed.py did not write \(feed)")
            }
        } catch {
            return unavailable("could not run e2e/rows_feed.py: \(error)")
        }
        var served = options
        served.serverArguments += ["--feed", "sqlite:\(feed)", "--feed-poll-ms", "0"]
        var result = await PageBench(
            options: served, serverBench: ServerBench(options: served), label: "page-rows",
            scriptArguments: ["--external", "--thread-cpu"]
        ).run()
        result["feed"] = "e2e/rows_feed.py, \(Self.items) items of varied text (no images)"
        return result
    }

    private func unavailable(_ why: String) -> [String: Any] {
        ["ms_per_frame": NSNull(), "js_ms_p95": NSNull(), "note": why]
    }
}
