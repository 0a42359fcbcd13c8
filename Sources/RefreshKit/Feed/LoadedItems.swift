/// The items an external feed has loaded, newest first, with the cursors to go on from them, and the rules
/// that merge a new page into them.
///
/// A page is checked against what is loaded before anything changes (a source, or a trace, may send
/// anything): its ids must be non-empty and new, its items newest first, also across the boundary with the
/// items it joins. A page that breaks a rule is refused as a ``FeedError`` and the items stay as they were.
///
/// Merging a refresh (Paging 3 calls it a refresh, too): when the newest page reaches the current top item
/// (holds its id), the items above it are put on top and the rest of the list is kept; otherwise the page
/// replaces the list. A load-more page is appended, without the loaded list's last items when it starts with them
/// again (an offset-paged source whose pages moved down as items arrived on top).
public struct LoadedItems: Hashable, Sendable, Codable {
    /// The items, newest first.
    public internal(set) var items: [FeedItem] = []
    /// The ids of ``items``, as a set: made when an answer is checked (rarely, and for at most the held rows), not
    /// kept beside the items, which hold them already (docs/PERFORMANCE.md, "Memory per connected session").
    var ids: Set<String> { Set(items.lazy.map(\.id)) }
    /// Asks for the items older than the last one (`nil`: none can be asked).
    public internal(set) var olderCursor: FeedCursor?
    /// Asks for the items newer than the first one.
    public private(set) var newerCursor: FeedCursor?
    /// Whether older items may exist beyond the last one.
    public internal(set) var hasMore = false

    /// No items.
    public init() {}

    /// Merges `page`, the answer to a refresh or a first load (limited to `limit` items).
    /// - Returns: what changed, or `nil` when nothing did (the page holds nothing above the top item).
    public mutating func mergeNewest(_ page: FeedPage, limit: Int) throws(FeedError) -> RowsChange? {
        try Self.check(page, limit: limit)
        guard let top = items.first, let reached = page.items.firstIndex(where: { $0.id == top.id }) else {
            self = LoadedItems(replacingWith: page)
            return .replaced
        }
        let newer = page.items[..<reached]
        let ids = self.ids
        for item in newer where ids.contains(item.id) { throw Self.again(item) }
        if let lowest = newer.last, lowest.timeMicros < top.timeMicros {
            throw .outOfOrder("item \"\(lowest.id)\" is older than \"\(top.id)\" below it")
        }
        if let cursor = page.newerCursor { newerCursor = cursor }
        guard !newer.isEmpty else { return nil }
        items.insert(contentsOf: newer, at: 0)
        return .prepended(newer.count)
    }

    /// Appends `page`, the answer to a load-more (limited to `limit` items).
    /// - Returns: what changed, or `nil` when the page was empty (then ``hasMore`` may still change).
    public mutating func append(_ page: FeedPage, limit: Int) throws(FeedError) -> RowsChange? {
        try Self.check(page, limit: limit)
        let fresh = page.items[seam(of: page.items)...]
        let ids = self.ids
        for item in fresh where ids.contains(item.id) { throw Self.again(item) }
        if let last = items.last, let first = fresh.first, first.timeMicros > last.timeMicros {
            throw .outOfOrder("item \"\(first.id)\" of the next page is newer than \"\(last.id)\" above it")
        }
        items.append(contentsOf: fresh)
        olderCursor = page.olderCursor
        hasMore = page.hasMore && page.olderCursor != nil
        return fresh.isEmpty ? nil : .appended(fresh.count)
    }

    /// How many of a load-more page's first items are the loaded list's last ones again, in the same order.
    ///
    /// A source that pages by offset (most JSON Feeds, any `?page=N` API) shifts its pages down when items
    /// arrive on top, so the next page starts with the items that were last on the one before: those, and only
    /// those, are skipped. Any other repeat (an item from further up, or the same ids in another order) is the
    /// source's error.
    private func seam(of page: [FeedItem]) -> Int {
        guard let first = page.first, let start = items.lastIndex(where: { $0.id == first.id }) else { return 0 }
        let tail = items[start...]
        let overlap = min(tail.count, page.count)
        guard page.prefix(overlap).map(\.id) == tail.prefix(overlap).map(\.id) else { return 0 }
        return overlap
    }

    init(replacingWith page: FeedPage) {
        items = page.items
        olderCursor = page.olderCursor
        newerCursor = page.newerCursor
        hasMore = page.hasMore && page.olderCursor != nil
    }

    /// The rules within one page: at most `limit` items, ids non-empty and unique, newest first.
    static func check(_ page: FeedPage, limit: Int) throws(FeedError) {
        guard page.items.count <= limit else {
            throw .oversized(what: "page (\(page.items.count) items)", limit: limit)
        }
        var seen = Set<String>()
        var previous: FeedItem?
        for item in page.items {
            guard !item.id.isEmpty else { throw .malformed("an item has an empty id") }
            guard seen.insert(item.id).inserted else { throw .repeatedIds(item.id) }
            if let previous, item.timeMicros > previous.timeMicros {
                throw .outOfOrder("item \"\(item.id)\" is newer than \"\(previous.id)\" above it")
            }
            previous = item
        }
    }

    static func again(_ item: FeedItem) -> FeedError {
        .malformed("the source sent item \"\(item.id)\" again")
    }
}
