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
    /// there) against the held items: the page's own rules, and ids not held (a page loaded back takes exactly
    /// the rows it left, so none of its items may be dropped).
    static func checkReload(
        _ kept: ArraySlice<FeedItem>, of page: FeedPage, at edge: PageEdge, limit: Int, ids: Set<String>
    ) throws(FeedError) {
        guard try checked(page, limit: limit).items.count == page.items.count else {
            throw .malformed("a page loaded back repeats an item")
        }
        for item in kept where ids.contains(item.id) { throw again(item) }
    }

    /// Puts `kept` (checked by ``checkReload(_:of:at:limit:ids:)``) at `edge` of the held items.
    mutating func reload(_ kept: ArraySlice<FeedItem>, at edge: PageEdge) {
        if edge == .above { items.insert(contentsOf: kept, at: 0) } else { items.append(contentsOf: kept) }
    }

    /// Replaces every item with `page` (a refresh while the top of the list is not held: the list starts over).
    mutating func replace(with page: FeedPage, limit: Int) throws(FeedError) -> RowsChange {
        self = LoadedItems(replacingWith: try Self.checked(page, limit: limit))
        return .replaced
    }
}
