import RefreshKit

/// A scripted source for the window tests, answering as the SQLite source does: items `1…newest` (item `n`
/// published at `n` s), newest first; a cursor is an item's id; `newerThan` gives the items just newer than the
/// cursor (the oldest of them), newest first. Items in `deleted` are gone.
struct WindowSource {
    var newest: Int
    var deleted: Set<Int> = []

    static func item(_ n: Int) -> FeedItem {
        FeedItem(id: "\(n)", text: "Item \(n)", timeMicros: Int64(n) * 1_000_000)
    }

    func page(_ request: FeedRequest) -> FeedPage {
        var ids: [Int] = []
        var hasMore = false
        switch request.position {
        case .around(let text):
            // The item with about half a page above it (as the SQLite source answers), and how many are above.
            guard let id = Int(text), id >= 1, id <= newest, !deleted.contains(id) else {
                return FeedPage(items: [], olderCursor: nil, newerCursor: nil, hasMore: false)
            }
            let top = min(newest, id + (request.limit - 1) / 2)
            let around = (max(1, top - request.limit + 1)...top).reversed().filter { !deleted.contains($0) }
            let above = ((top + 1)...max(top + 1, newest)).filter { $0 <= newest && !deleted.contains($0) }.count
            return FeedPage(
                items: around.map(Self.item), olderCursor: around.last.map { FeedCursor("\($0)") },
                newerCursor: around.first.map { FeedCursor("\($0)") }, hasMore: (around.last ?? 1) > 1, above: above)
        case .newest, .olderThan:
            var n = newest
            if case .olderThan(let cursor) = request.position { n = (Int(cursor.value) ?? 1) - 1 }
            while n >= 1 {
                if !deleted.contains(n) {
                    if ids.count == request.limit {
                        hasMore = true
                        break
                    }
                    ids.append(n)
                }
                n -= 1
            }
        case .newerThan(let cursor):
            var n = (Int(cursor.value) ?? 0) + 1
            while n <= newest {
                if !deleted.contains(n) {
                    if ids.count == request.limit {
                        hasMore = true
                        break
                    }
                    ids.append(n)
                }
                n += 1
            }
            ids.reverse()
        }
        return FeedPage(
            items: ids.map(Self.item), olderCursor: ids.last.map { FeedCursor("\($0)") },
            newerCursor: ids.first.map { FeedCursor("\($0)") }, hasMore: hasMore)
    }

    /// The answer to the model's running request, if any.
    func answer(_ model: ListModel) -> FeedAnswerInput? {
        guard let request = model.sourceRequest else { return nil }
        return FeedAnswerInput(request: request.id, outcome: .page(page(request.request)), durationMs: 1)
    }
}
