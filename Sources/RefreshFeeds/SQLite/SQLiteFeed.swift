import Foundation
import RefreshKit

/// `sqlite:PATH`: a feed kept in one SQLite file, the default source (docs/FEEDS.md).
///
/// The file holds one table, `items` (id, text, author, time in µs since 1970, an optional image and its
/// size, an optional title, link and section), with an index by (time, id); pages are read newest first along that
/// index, and a cursor names an item's time and id (`TIME:ID`). When the file does not exist it is created and filled
/// from ``FortuneCorpus``, with times spaced over the past in the order of the items, each in the section of its day
/// (UTC). A file whose permissions forbid writing is opened read-only: it still serves pages, and
/// ``post(_:timeMicros:)`` answers `FeedError/readOnly(path:)`. A file made before items had titles, links and
/// sections gains those columns when it is opened for writing (a read-only one serves its items without them). Another program holding the write lock for longer than the
/// time limit makes a call answer `FeedError/locked(path:)`. Calls from several threads (a worker
/// reading, a post from elsewhere) take turns, so a post's transaction is never interleaved.
public final class SQLiteFeed: PostableFeedSource {
    /// The file.
    public let path: String
    /// Whether the file was opened read-only.
    public let isReadOnly: Bool
    private let limits: FeedLimits
    private let connection: SQLiteConnection
    /// Held for the whole of each call, so one connection serves one call at a time.
    private let turn = NSLock()
    /// The columns a page reads after the image's: the title, the link and the section (`NULL` for those an older
    /// read-only file lacks).
    private let laterColumns: String

    /// Opens the feed at `path`, creating and filling it when it is missing.
    /// - Parameters:
    ///   - path: the file; its folder must exist.
    ///   - limits: how long a call waits for another program's write lock, and the longest text and fields an
    ///     item may have (posted, or from the corpus a new file is filled with).
    ///   - nowMicros: the time now, µs since 1970; a new file's newest item is a minute older.
    ///   - corpus: what a new file is filled with; `nil` reads Debian's fortunes (``FortuneCorpus/load(folder:)``).
    /// - Throws: `FeedError/missing(path:)` when the folder does not exist, `FeedError/locked(path:)`,
    ///   `FeedError/malformed(_:)` when the file is not a feed database.
    public init(
        path: String, limits: FeedLimits = FeedLimits(), nowMicros: Int64, corpus: [FortuneCorpus.Entry]? = nil
    ) throws(FeedError) {
        self.path = path
        self.limits = limits
        let folder = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        if !folder.isEmpty,
            !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder.boolValue
        {
            throw .missing(path: "the folder \(folder)")
        }
        let exists = FileManager.default.fileExists(atPath: path)
        // The corpus is read before the file is made, so a missing corpus leaves no empty file behind.
        var entries: [FortuneCorpus.Entry] = []
        if let corpus {
            entries = corpus
        } else if !exists {
            entries = try FortuneCorpus.load()
        }
        isReadOnly = exists && !Self.isWritable(path)
        connection = try SQLiteConnection(
            path: path, create: !exists, readOnly: isReadOnly, busyTimeoutMs: limits.timeoutMs)
        laterColumns =
            exists
            ? try Self.addLaterColumns(connection, readOnly: isReadOnly) : Self.laterColumns.joined(separator: ", ")
        if exists {
            try checkSchema()
        } else {
            do throws(FeedError) {
                try create(nowMicros: nowMicros, corpus: entries)
            } catch {
                try? FileManager.default.removeItem(atPath: path)
                throw error
            }
        }
    }

    /// `sqlite:PATH`.
    public var address: String { "sqlite:\(path)" }

    /// How many items the feed holds.
    public func count() throws(FeedError) -> Int {
        turn.lock()
        defer { turn.unlock() }
        var count = 0
        try connection.query("SELECT count(*) FROM items", []) { count = Int($0.integer(0)) }
        return count
    }

    /// The page at `request.position`, read along the (time, id) index.
    public func load(_ request: FeedRequest) throws(FeedError) -> FeedPage {
        turn.lock()
        defer { turn.unlock() }
        let columns = "SELECT id, text, author, time, image_url, image_width, image_height, \(laterColumns) FROM items"
        let limit = Int64(request.limit + 1)
        var items: [FeedItem] = []
        let collect: (SQLiteRow) -> Void = { items.append(Self.item($0)) }
        switch request.position {
        case .around(let id):
            return try page(around: id, columns: columns, limit: request.limit)
        case .newest:
            try connection.query("\(columns) ORDER BY time DESC, id DESC LIMIT ?", [.integer(limit)], row: collect)
        case .olderThan(let cursor):
            let (time, id) = try Self.parse(cursor)
            try connection.query(
                "\(columns) WHERE (time, id) < (?, ?) ORDER BY time DESC, id DESC LIMIT ?",
                [.integer(time), .integer(id), .integer(limit)], row: collect)
        case .newerThan(let cursor):
            let (time, id) = try Self.parse(cursor)
            try connection.query(
                "\(columns) WHERE (time, id) > (?, ?) ORDER BY time ASC, id ASC LIMIT ?",
                [.integer(time), .integer(id), .integer(limit)], row: collect)
        }
        let hasMore = items.count > request.limit
        items = Array(items.prefix(request.limit))
        if case .newerThan(let cursor) = request.position {
            items.reverse()
            return FeedPage(
                items: items, olderCursor: items.last.map(Self.cursor) ?? cursor,
                newerCursor: items.first.map(Self.cursor) ?? cursor, hasMore: hasMore)
        }
        var olderCursor = items.last.map(Self.cursor)
        if case .olderThan(let cursor) = request.position, items.isEmpty { olderCursor = cursor }
        var newerCursor = items.first.map(Self.cursor)
        if case .olderThan(let cursor) = request.position, newerCursor == nil { newerCursor = cursor }
        return FeedPage(items: items, olderCursor: olderCursor, newerCursor: newerCursor, hasMore: hasMore)
    }

    /// The page holding the item `id`, with a quarter of a page of newer items above it (the rows below it then fill a
    /// screen, so it lands at the top of the list at once: docs/FEEDS.md, "A page around an item"), read along the
    /// index both ways from its (time, id); `above` counts the items newer than the page's first (one index count).
    private func page(around id: String, columns: String, limit: Int) throws(FeedError) -> FeedPage {
        var key: (time: Int64, id: Int64)?
        if let rowID = Int64(id) {
            try connection.query("SELECT time, id FROM items WHERE id = ?", [.integer(rowID)]) {
                key = ($0.integer(0), $0.integer(1))
            }
        }
        guard let key else { throw .unknownItem(id) }
        var newer: [FeedItem] = []
        try connection.query(
            "\(columns) WHERE (time, id) > (?, ?) ORDER BY time ASC, id ASC LIMIT ?",
            [.integer(key.time), .integer(key.id), .integer(Int64((limit - 1) / 4))]
        ) { newer.append(Self.item($0)) }
        var rest: [FeedItem] = []
        try connection.query(
            "\(columns) WHERE (time, id) <= (?, ?) ORDER BY time DESC, id DESC LIMIT ?",
            [.integer(key.time), .integer(key.id), .integer(Int64(limit - newer.count + 1))]
        ) { rest.append(Self.item($0)) }
        let hasMore = rest.count > limit - newer.count
        let items = Array(newer.reversed() + rest.prefix(limit - newer.count))
        var above = 0
        if let first = items.first {
            let (time, firstID) = try Self.parse(Self.cursor(first))
            try connection.query(
                "SELECT count(*) FROM items WHERE (time, id) > (?, ?)", [.integer(time), .integer(firstID)]
            ) {
                above = Int($0.integer(0))
            }
        }
        return FeedPage(
            items: items, olderCursor: items.last.map(Self.cursor), newerCursor: items.first.map(Self.cursor),
            hasMore: hasMore, above: above)
    }

    /// Adds an item at the top: at `timeMicros`, or a microsecond after the newest item if that is later. Empty
    /// optional fields are left out.
    public func post(_ post: FeedPost, timeMicros: Int64) throws(FeedError) -> FeedItem {
        turn.lock()
        defer { turn.unlock() }
        let text = post.text.trimmingCharacters(in: .whitespacesAndNewlines)
        func field(_ value: String?) -> String? {
            value.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let (author, title, url, section) = (
            field(post.author), field(post.title), field(post.url), field(post.section)
        )
        guard !text.isEmpty else { throw .rejected("the text is empty") }
        guard text.utf8.count <= limits.maxTextBytes else { throw .oversized(what: "text", limit: limits.maxTextBytes) }
        for (what, value) in [("author", author), ("title", title), ("link", url), ("section", section)] {
            if let value, value.utf8.count > limits.maxFieldBytes {
                throw .oversized(what: what, limit: limits.maxFieldBytes)
            }
        }
        if isReadOnly { throw .readOnly(path: path) }
        try connection.execute("BEGIN IMMEDIATE")
        do throws(FeedError) {
            var newest: Int64 = .min
            try connection.query("SELECT max(time) FROM items", []) {
                newest = $0.text(0) == nil ? .min : $0.integer(0)
            }
            let time = newest == .min ? timeMicros : max(timeMicros, newest + 1)
            let value = { (field: String?) in field.map(SQLiteValue.text) ?? .null }
            try connection.query(
                "INSERT INTO items (text, author, time, title, url, section) VALUES (?, ?, ?, ?, ?, ?)",
                [.text(text), value(author), .integer(time), value(title), value(url), value(section)])
            let id = connection.lastInsertedRowID
            try connection.execute("COMMIT")
            return FeedItem(
                id: String(id), text: text, author: author, timeMicros: time, title: title, url: url, section: section)
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    // MARK: - The file

    private static let schema = """
        CREATE TABLE IF NOT EXISTS items (
            id INTEGER PRIMARY KEY,
            text TEXT NOT NULL,
            author TEXT,
            time INTEGER NOT NULL,
            image_url TEXT,
            image_width INTEGER,
            image_height INTEGER,
            title TEXT,
            url TEXT,
            section TEXT
        );
        CREATE INDEX IF NOT EXISTS items_by_time ON items (time, id);
        """

    private func checkSchema() throws(FeedError) {
        do throws(FeedError) {
            try connection.query(
                "SELECT id, text, author, time, image_url, image_width, image_height FROM items LIMIT 1", [])
        } catch .unavailable {
            throw .malformed("\(path) has no table of feed items (docs/FEEDS.md describes it)")
        }
    }

    /// The columns a file made before items had them lacks (titles and links, then sections), which a file opened
    /// for writing gains (`ALTER TABLE … ADD COLUMN` keeps every row, the new fields empty), and a read-only one is
    /// read without. - Returns: what a page selects for them. (A file without the table is left to
    /// ``checkSchema()`` to name.)
    private static func addLaterColumns(_ connection: SQLiteConnection, readOnly: Bool) throws(FeedError) -> String {
        var names: Set<String> = []
        try connection.query("PRAGMA table_info(items)", []) { if let name = $0.text(1) { names.insert(name) } }
        var selected: [String] = []
        for column in laterColumns {
            if names.isEmpty || names.contains(column) {
                selected.append(column)
            } else if readOnly {
                selected.append("NULL")
            } else {
                try connection.execute("ALTER TABLE items ADD COLUMN \(column) TEXT")
                selected.append(column)
            }
        }
        return selected.joined(separator: ", ")
    }

    /// The columns added after the first files were made, in the order a page selects them.
    private static let laterColumns = ["title", "url", "section"]

    /// Creates the table and fills it, oldest first, so ids and times grow together; each item's section is its day
    /// in UTC ("Sunday 29 November"), as a message list groups by day.
    private func create(nowMicros: Int64, corpus: [FortuneCorpus.Entry]) throws(FeedError) {
        try connection.execute("BEGIN IMMEDIATE")
        do throws(FeedError) {
            try connection.execute(Self.schema)
            var generator = SeededGenerator(seed: 0x5EED_FEED)
            var entries = corpus.filter { $0.text.utf8.count <= limits.maxTextBytes }
            entries.shuffle(using: &generator)
            // The newest a minute ago; each older one 1 to 180 minutes before the one above it.
            var times: [Int64] = []
            var time = nowMicros - 60_000_000
            for _ in entries {
                times.append(time)
                let draw: UInt64 = generator.next()
                let seconds = Int64(60 + draw % (180 * 60))
                time -= seconds * 1_000_000
            }
            let days = DateFormatter()
            days.locale = Locale(identifier: "en_US_POSIX")
            days.timeZone = TimeZone(identifier: "UTC")
            days.dateFormat = "EEEE d MMMM"
            for (entry, time) in zip(entries, times).reversed() {
                let day = days.string(from: Date(timeIntervalSince1970: Double(time) / 1_000_000))
                try connection.query(
                    "INSERT INTO items (text, author, time, section) VALUES (?, ?, ?, ?)",
                    [
                        .text(entry.text), entry.author.map { SQLiteValue.text($0) } ?? SQLiteValue.null,
                        .integer(time), .text(day),
                    ])
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    private static func isWritable(_ path: String) -> Bool {
        let permissions = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int ?? 0
        return access(path, W_OK) == 0 && permissions & 0o222 != 0
    }

    // MARK: - Rows and cursors

    private static func item(_ row: SQLiteRow) -> FeedItem {
        var image: FeedImage?
        if let url = row.text(4) {
            image = FeedImage(url: url, width: row.optionalInteger(5), height: row.optionalInteger(6))
        }
        return FeedItem(
            id: String(row.integer(0)), text: row.text(1) ?? "", author: row.text(2), timeMicros: row.integer(3),
            image: image, title: row.text(7), url: row.text(8), section: row.text(9))
    }

    private static func cursor(_ item: FeedItem) -> FeedCursor {
        FeedCursor("\(item.timeMicros ?? 0):\(item.id)")  // (a SQLite item always has its time)
    }

    private static func parse(_ cursor: FeedCursor) throws(FeedError) -> (time: Int64, id: Int64) {
        let parts = cursor.value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let time = Int64(parts[0]), let id = Int64(parts[1]) else {
            throw .badCursor(cursor.value)
        }
        return (time, id)
    }
}
