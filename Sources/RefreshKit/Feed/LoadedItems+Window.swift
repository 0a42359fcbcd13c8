/// The held items of a window of pages (docs/LAYOUT.md, "The window"): the items of the pages the layout holds,
/// newest first. Pages dropped at either end take their items with them; pages loaded back put theirs there
/// again. ``LoadedItems/olderCursor`` and ``LoadedItems/hasMore`` stay the list's end (what load-more asks
/// for), whether its last page is held or not.
extension LoadedItems {
    /// Forgets the first (`.above`) or last (`.below`) `count` items.
    mutating func forget(_ count: Int, at edge: PageEdge) {
        if edge == .above {
            items.removeFirst(min(count, items.count))
        } else {
            items.removeLast(min(count, items.count))
        }
    }

    /// Checks the items of a page loaded back at `edge` (`kept`: the part of `page` that fits the placeholders
    /// there) against the held items: the page's own rules, ids not held, and newest first across the boundary.
    static func checkReload(
        _ kept: ArraySlice<FeedItem>, of page: FeedPage, at edge: PageEdge, limit: Int, joining held: [FeedItem],
        ids: Set<String>
    ) throws(FeedError) {
        try check(page, limit: limit)
        for item in kept where ids.contains(item.id) { throw again(item) }
        switch edge {
        case .above:
            if let lowest = kept.last, let top = held.first, lowest.timeMicros < top.timeMicros {
                throw .outOfOrder("item \"\(lowest.id)\" is older than \"\(top.id)\" below it")
            }
        case .below:
            if let highest = kept.first, let last = held.last, highest.timeMicros > last.timeMicros {
                throw .outOfOrder("item \"\(highest.id)\" of the page below is newer than \"\(last.id)\" above it")
            }
        }
    }

    /// Puts `kept` (checked by ``checkReload(_:of:at:limit:joining:ids:)``) at `edge` of the held items.
    mutating func reload(_ kept: ArraySlice<FeedItem>, at edge: PageEdge) {
        if edge == .above { items.insert(contentsOf: kept, at: 0) } else { items.append(contentsOf: kept) }
    }

    /// Replaces every item with `page` (a refresh while the top of the list is not held: the list starts over).
    mutating func replace(with page: FeedPage, limit: Int) throws(FeedError) -> RowsChange {
        try Self.check(page, limit: limit)
        self = LoadedItems(replacingWith: page)
        return .replaced
    }
}
