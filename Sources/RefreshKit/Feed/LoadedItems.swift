/// The items an external feed has loaded, in the feed's own order, with the cursors to go on from them, and the
/// rules that merge a new page into them (docs/FEEDS.md, "Order and dates").
///
/// The list keeps the order the feed gives, as feed readers do: a feed need not be newest first (edited and
/// pinned posts, time zones, podcasts listed oldest first), and times are for ages and "N new" only. A page is
/// checked before anything changes (a source, or a trace, may send anything): at most its limit, every id
/// non-empty; an id a page repeats is taken once, where it first comes. A page that breaks a rule is refused as
/// a ``FeedError`` and the items stay as they were.
///
/// Merging a refresh (Paging 3 calls it a refresh, too): when the newest page reaches the current top item
/// (holds its id), the items above it that are not loaded already are put on top and the rest of the list is
/// kept; otherwise the page replaces the list. A load-more page is appended without the items already loaded (an
/// offset-paged source whose pages moved down as items arrived on top sends the last ones again); a page of
/// nothing but items already loaded is refused (`repeated_ids`), unless it is the list's last items again in
/// their order (that source's page moved down by a whole page).
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
        let page = try Self.checked(page, limit: limit)
        guard let top = items.first, let reached = page.items.firstIndex(where: { $0.id == top.id }) else {
            self = LoadedItems(replacingWith: page)
            return .replaced
        }
        // An item above the top that is loaded further down already (a post edited, or moved up) stays where the
        // reader has it.
        let ids = self.ids
        let newer = page.items[..<reached].filter { !ids.contains($0.id) }
        if let cursor = page.newerCursor { newerCursor = cursor }
        guard !newer.isEmpty else { return nil }
        items.insert(contentsOf: newer, at: 0)
        return .prepended(newer.count)
    }

    /// Appends `page`, the answer to a load-more (limited to `limit` items).
    /// - Returns: what changed, or `nil` when the page was empty (then ``hasMore`` may still change).
    public mutating func append(_ page: FeedPage, limit: Int) throws(FeedError) -> RowsChange? {
        let page = try Self.checked(page, limit: limit)
        let ids = self.ids
        let fresh = page.items.filter { !ids.contains($0.id) }
        if fresh.isEmpty, let first = page.items.first, !isSeam(page.items) { throw .repeatedIds(first.id) }
        items.append(contentsOf: fresh)
        olderCursor = page.olderCursor
        hasMore = page.hasMore && page.olderCursor != nil
        return fresh.isEmpty ? nil : .appended(fresh.count)
    }

    /// Whether a load-more page of nothing but loaded items is the loaded list's last ones again, in order: an
    /// offset-paged source (most JSON Feeds, any `?page=N` API) whose pages moved down a whole page as items
    /// arrived on top. Its cursor goes on; any other page of repeats is the source's error.
    private func isSeam(_ page: [FeedItem]) -> Bool {
        page.count <= items.count && items.suffix(page.count).map(\.id) == page.map(\.id)
    }

    init(replacingWith page: FeedPage) {
        items = page.items
        olderCursor = page.olderCursor
        newerCursor = page.newerCursor
        hasMore = page.hasMore && page.olderCursor != nil
    }

    /// `page` within the rules of one page: at most `limit` items, every id non-empty; an id it repeats is taken
    /// once, where it first comes (feed readers keep an entry once).
    static func checked(_ page: FeedPage, limit: Int) throws(FeedError) -> FeedPage {
        guard page.items.count <= limit else {
            throw .oversized(what: "page (\(page.items.count) items)", limit: limit)
        }
        var seen = Set<String>()
        var repeats = false
        for item in page.items {
            guard !item.id.isEmpty else { throw .malformed("an item has an empty id") }
            if !seen.insert(item.id).inserted { repeats = true }
        }
        guard repeats else { return page }
        seen.removeAll(keepingCapacity: true)
        var once = page
        once.items = page.items.filter { seen.insert($0.id).inserted }
        return once
    }

    static func again(_ item: FeedItem) -> FeedError {
        .malformed("the source sent item \"\(item.id)\" again")
    }
}
