import CSQLite
import Foundation
import RefreshFeeds
import RefreshKit

/// The feed sources' answer times (docs/PERFORMANCE.md, "Feed sources"): refresh (the newest page) and load-more
/// (the page older than a cursor) for pages of 20, each request submitted to a ``FeedWorker`` and timed from
/// submission to answer, as the server's sessions will ask; and the CPU the bench process spent per request.
///
/// Two sources: a SQLite file of ``sqliteItems`` items (made once into the temporary folder, in one transaction,
/// reused while it holds that many), and the local JSON Feed server of the tests (`e2e/jsonfeed/feed_server.py`,
/// started here) with ``jsonFeedItems`` items in documents of one page each, so every request fetches.
struct FeedBench {
    let options: BenchOptions
    var sqliteItems = 1_000_000
    var jsonFeedItems = 10_000
    static let pageSize = 20
    /// One frame at 60 Hz: a page that answers within it can be shown on the next frame.
    static let targetP99Ms = 16.7

    /// One kind of request's figures.
    struct Timings {
        var samplesMs: [Double] = []
        var cpuSeconds = 0.0
        var failures: [String] = []

        func percentile(_ p: Double) -> Double? {
            guard !samplesMs.isEmpty else { return nil }
            let sorted = samplesMs.sorted()
            return sorted[min(sorted.count - 1, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1)]
        }

        var json: [String: Any] {
            [
                "requests": samplesMs.count, "p50_ms": percentile(50).map(round3) ?? NSNull(),
                "p99_ms": percentile(99).map(round3) ?? NSNull(), "max_ms": samplesMs.max().map(round3) ?? NSNull(),
                "cpu_us_per_request": samplesMs.isEmpty ? NSNull() : round1(cpuSeconds / Double(samplesMs.count) * 1e6),
                "failures": failures.count, "first_failure": failures.first ?? NSNull(),
            ]
        }
    }

    func run() async -> [String: Any] {
        var out: [String: Any] = ["page_size": Self.pageSize, "target_p99_ms": Self.targetP99Ms]
        out["sqlite"] = sqlite()
        out["jsonfeed"] = await jsonFeed()
        return out
    }

    // MARK: - SQLite

    private func sqlite() -> [String: Any] {
        let path = NSTemporaryDirectory() + "refreshkit-bench-feed-\(sqliteItems).sqlite"
        do {
            var made: Double?
            if (try? Self.count(path)) != sqliteItems {
                say("feed: making a SQLite feed of \(sqliteItems) items in \(path) (one transaction)…")
                made = try Self.make(path: path, items: sqliteItems)
            }
            let source = try SQLiteFeed(path: path, nowMicros: Self.nowMicros())
            say("feed: SQLite, 1 000 refreshes and 2 000 load-mores (20 chains of 100 pages at random depths)…")
            var result = measure(source, refreshes: 1000, chains: 20, pagesPerChain: 100) { chain in
                // A chain starts below an item spread over the whole file; its cursor is read from the file, as a
                // list scrolled that deep would hold it.
                Self.cursor(path: path, depth: (chain * 48_271) % max(1, sqliteItems - 2_000))
            }
            result["items"] = sqliteItems
            result["file"] = path
            result["file_bytes"] = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) ?? NSNull()
            result["made_in_s"] = made.map(round1) ?? NSNull()
            return result
        } catch {
            say("feed: SQLite failed: \(error)")
            return ["error": "\(error)"]
        }
    }

    /// Creates the file with SQLiteFeed's table (docs/FEEDS.md) and `items` rows, oldest first, in one
    /// transaction: texts from Debian's fortunes in a seeded order, the newest a minute ago, each older one 1 to
    /// 60 s before the one above it (a million items span about a year). Returns the seconds it took.
    static func make(path: String, items: Int) throws -> Double {
        let started = ContinuousClock.now
        try? FileManager.default.removeItem(atPath: path)
        let corpus = try FortuneCorpus.load()
        var generator = SeededGenerator(seed: 0xFEED_BE7C)
        var times = [Int64](repeating: 0, count: items)
        var time = nowMicros() - 60_000_000
        for index in 0..<items {
            times[index] = time
            time -= Int64(1 + generator.next() % 60) * 1_000_000
        }
        let database = try Database(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        try database.execute(
            """
            PRAGMA journal_mode = WAL;
            CREATE TABLE items (id INTEGER PRIMARY KEY, text TEXT NOT NULL, author TEXT, time INTEGER NOT NULL,
                                image_url TEXT, image_width INTEGER, image_height INTEGER);
            BEGIN;
            """)
        let insert = try database.prepare("INSERT INTO items (text, author, time) VALUES (?, ?, ?)")
        for index in (0..<items).reversed() {
            let entry = corpus[Int(generator.next() % UInt64(corpus.count))]
            sqlite3_reset(insert)
            sqlite3_bind_text(insert, 1, entry.text, -1, refreshkit_sqlite_transient())
            if let author = entry.author {
                sqlite3_bind_text(insert, 2, author, -1, refreshkit_sqlite_transient())
            } else {
                sqlite3_bind_null(insert, 2)
            }
            sqlite3_bind_int64(insert, 3, times[index])
            guard sqlite3_step(insert) == SQLITE_DONE else { throw database.error("insert") }
        }
        sqlite3_finalize(insert)
        // The index after the rows: one sort instead of a million index inserts.
        try database.execute("COMMIT; CREATE INDEX items_by_time ON items (time, id);")
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// The SQLite feed of `items` fortunes in the temporary folder (made once, for `stage`'s first run), opened.
    static func fortunes(items: Int, for stage: String) throws -> SQLiteFeed {
        let path = NSTemporaryDirectory() + "refreshkit-bench-feed-\(items).sqlite"
        if (try? count(path)) != items {
            say("\(stage): making a SQLite feed of \(items) items in \(path)…")
            _ = try make(path: path, items: items)
        }
        return try SQLiteFeed(path: path, nowMicros: nowMicros())
    }

    static func count(_ path: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        let database = try Database(path: path, flags: SQLITE_OPEN_READONLY)
        let statement = try database.prepare("SELECT count(*) FROM items")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw database.error("count") }
        return Int(sqlite3_column_int64(statement, 0))
    }

    /// The cursor below the item `depth` places from the top (SQLiteFeed's `TIME:ID`).
    static func cursor(path: String, depth: Int) -> FeedCursor? {
        guard let database = try? Database(path: path, flags: SQLITE_OPEN_READONLY),
            let statement = try? database.prepare(
                "SELECT time, id FROM items ORDER BY time DESC, id DESC LIMIT 1 OFFSET ?")
        else { return nil }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, Int64(depth))
        guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
        return FeedCursor("\(sqlite3_column_int64(statement, 0)):\(sqlite3_column_int64(statement, 1))")
    }

    // MARK: - JSON Feed

    private func jsonFeed() async -> [String: Any] {
        let python = options.python.hasPrefix("/") ? options.python : options.root + "/" + options.python
        let script = options.root + "/e2e/jsonfeed/feed_server.py"
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script)
        else { return ["error": "no \(options.python) (run `make test-deps`) or no e2e/jsonfeed/feed_server.py"] }
        let log = options.logDirectory + "/jsonfeed.log"
        do {
            let server = try await ChildProcess(
                name: "jsonfeed", executable: python,
                arguments: [script, "--items", "\(jsonFeedItems)", "--page-size", "\(Self.pageSize)"],
                workingDirectory: options.root, log: log)
            guard let url = await server.waitForLine(matching: #"jsonfeed listening on (\S+)"#, timeout: 30) else {
                await server.stop()
                return ["error": "the JSON Feed server did not start within 30 s (log: \(log))"]
            }
            say("feed: JSON Feed at \(url), 300 refreshes and 300 load-mores (3 chains of 100 pages)…")
            let serverCPU = Self.cpuSeconds(pid: server.pid)
            var result = measure(
                WebFeedSource(url: url, scheme: "jsonfeed"), refreshes: 300, chains: 3, pagesPerChain: 100
            ) { _ in nil }
            if let before = serverCPU, let after = Self.cpuSeconds(pid: server.pid) {
                result["feed_server_cpu_us_per_request"] = round1((after - before) / 600 * 1e6)
            }
            await server.stop()
            result["items"] = jsonFeedItems
            result["server"] = "e2e/jsonfeed/feed_server.py (Python http.server, one document a page of 20)"
            return result
        } catch {
            return ["error": "\(error)"]
        }
    }

    // MARK: - Timing

    /// `refreshes` newest pages, then `chains` load-more chains of `pagesPerChain` pages each, one request at a
    /// time through a ``FeedWorker``; a chain starts at `start(chain)` or, when nil, below the newest page.
    private func measure(
        _ source: any FeedSource, refreshes: Int, chains: Int, pagesPerChain: Int,
        start: (Int) -> FeedCursor?
    ) -> [String: Any] {
        let answers = AnswerBox()
        let worker = FeedWorker(source: source, name: "refreshkit-bench-feed") { answers.put($0) }
        defer { worker.stop() }
        func ask(_ position: FeedPosition, into timings: inout Timings) -> FeedPage? {
            worker.submit(FeedRequest(position, limit: Self.pageSize))
            let answer = answers.take()
            timings.samplesMs.append(Double(answer.durationMicros) / 1000)
            switch answer.outcome {
            case .success(let page): return page
            case .failure(let error):
                timings.failures.append("\(error)")
                return nil
            }
        }
        var refresh = Timings()
        var loadMore = Timings()
        let starts = (0..<chains).map(start)  // before the CPU is counted: finding a deep cursor scans the file
        var cpu = Self.processCPUSeconds()
        var newest: FeedPage?
        for _ in 0..<refreshes { newest = ask(.newest, into: &refresh) ?? newest }
        refresh.cpuSeconds = Self.processCPUSeconds() - cpu
        cpu = Self.processCPUSeconds()
        for chain in 0..<chains {
            var cursor = starts[chain] ?? newest?.olderCursor
            for _ in 0..<pagesPerChain {
                guard let from = cursor, let page = ask(.olderThan(from), into: &loadMore) else { break }
                cursor = page.hasMore ? page.olderCursor : nil
            }
        }
        loadMore.cpuSeconds = Self.processCPUSeconds() - cpu
        return ["refresh": refresh.json, "load_more": loadMore.json]
    }

    /// The worker's answers, handed to the bench's thread one at a time.
    private final class AnswerBox: @unchecked Sendable {
        private let condition = NSCondition()
        private var answers: [FeedAnswer] = []

        func put(_ answer: FeedAnswer) {
            condition.lock()
            answers.append(answer)
            condition.signal()
            condition.unlock()
        }

        func take() -> FeedAnswer {
            condition.lock()
            defer { condition.unlock() }
            while answers.isEmpty { condition.wait() }
            return answers.removeFirst()
        }
    }

    static func nowMicros() -> Int64 { Int64(Date().timeIntervalSince1970 * 1e6) }

    /// User + system CPU of this process so far, s.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// User + system CPU of another process so far (/proc/PID/stat's utime and stime), s.
    static func cpuSeconds(pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    // MARK: - The table

    static func table(_ feed: [String: Any]?) -> String {
        guard let feed else { return "feed sources: not measured" }
        if let note = feed["note"] as? String { return "feed sources: \(note)" }
        var lines = ["feed sources (pages of \(pageSize), submitted to a FeedWorker, submission → answer):"]
        for (key, label) in [("sqlite", "SQLite"), ("jsonfeed", "JSON Feed")] {
            guard let source = feed[key] as? [String: Any] else { continue }
            if let error = source["error"] as? String {
                lines.append("  \(label): failed: \(error)")
                continue
            }
            let items = (source["items"] as? Int).map { "\($0) items" } ?? ""
            for (kind, name) in [("refresh", "refresh  "), ("load_more", "load-more")] {
                guard let figures = source[kind] as? [String: Any] else { continue }
                func number(_ key: String) -> String { (figures[key] as? NSNumber).map { "\($0)" } ?? "–" }
                var line = "  \(label) (\(items)) \(name) p50 \(number("p50_ms")) ms · p99 \(number("p99_ms")) ms"
                if key == "sqlite", let p99 = (figures["p99_ms"] as? NSNumber)?.doubleValue {
                    line += " (target < \(targetP99Ms) ms: \(p99 < targetP99Ms ? "met" : "NOT met"))"
                }
                line += " · CPU \(number("cpu_us_per_request")) µs/request · \(number("requests")) requests"
                if let failures = figures["failures"] as? Int, failures > 0 {
                    line += " · \(failures) FAILED (\(figures["first_failure"] ?? ""))"
                }
                lines.append(line)
            }
            if let server = source["feed_server_cpu_us_per_request"] as? NSNumber {
                lines.append("  JSON Feed server (Python) CPU \(server) µs/request")
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// A SQLite connection for making and reading the bench's file (Debian's libsqlite3, as SQLiteFeed uses it).
private final class Database {
    let handle: OpaquePointer

    init(path: String, flags: Int32) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw BenchError("sqlite open \(path): \(message)")
        }
        self.handle = handle
    }

    /// `close_v2`: a statement not finalized yet keeps the connection until it is.
    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw error("exec") }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw error("prepare")
        }
        return statement
    }

    func error(_ what: String) -> BenchError {
        BenchError("sqlite \(what): \(String(cString: sqlite3_errmsg(handle)))")
    }
}

private func round3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
