import RefreshFeeds
import RefreshKit
import Synchronization

/// The app's own data: notes kept in memory, newest first. Note n's id is `n`, which is also its cursor.
final class NoteBoard: FeedSource {
    private let notes: Mutex<[FeedItem]>

    var address: String { "notes:memory" }

    /// A board with `count` notes already on it, a minute apart.
    init(count: Int, firstSecond: Int64 = 1_790_000_000) {
        notes = Mutex(
            (1...max(1, count)).map { n in
                FeedItem(
                    id: "\(n)", text: "Why note \(n) was left.", author: "Ada",
                    timeMicros: (firstSecond + Int64(n) * 60) * 1_000_000, title: "Note \(n)")
            })
    }

    /// Pins a note on top of the board. - Returns: its id.
    func add(_ text: String, timeMicros: Int64) -> String {
        notes.withLock { notes in
            let id = "\(notes.count + 1)"
            notes.append(FeedItem(id: id, text: text, author: "a visitor", timeMicros: timeMicros, title: "Note \(id)"))
            return id
        }
    }

    func load(_ request: FeedRequest) throws(FeedError) -> FeedPage {
        let all = notes.withLock { $0 }
        let limit = request.limit
        let chosen: ArraySlice<FeedItem>
        var hasMore: Bool
        switch request.position {
        case .around:
            throw .unsupported("load a page around a note")
        case .newest:
            chosen = all.suffix(limit)
            hasMore = all.count > limit
        case .olderThan(let cursor):
            let end = try number(cursor) - 1
            chosen = all[max(0, end - limit)..<min(end, all.count)]
            hasMore = end - limit > 0
        case .newerThan(let cursor):
            let start = min(try number(cursor), all.count)
            chosen = all[start..<min(start + limit, all.count)]
            hasMore = start + limit < all.count
        }
        let items = Array(chosen.reversed())
        return FeedPage(
            items: items, olderCursor: items.last.map { FeedCursor($0.id) },
            newerCursor: items.first.map { FeedCursor($0.id) }, hasMore: hasMore)
    }

    private func number(_ cursor: FeedCursor) throws(FeedError) -> Int {
        guard let n = Int(cursor.value), n >= 1 else { throw .badCursor(cursor.value) }
        return n
    }
}
