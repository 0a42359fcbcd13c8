/// The rows a jump's page makes (docs/LAYOUT.md, "A jump"): the page as the one held page, `above` placeholders
/// over it, its cursors the window's, the item's row. Made, and checked, before anything changes: a page that breaks
/// the items' rules or does not hold the item is refused and the rows stay as they were.
struct JumpRows {
    let items: [FeedItem]
    let page: FeedPage
    /// How many placeholders are above the page (the items the source says are newer than its first).
    let above: Int
    let geometry: RowGeometry
    /// The item's row in the whole list.
    let row: Int

    /// The rows of `page`, the page around the item `id` (at most `limit` items), in a layout like `current`'s
    /// (its estimate and window size).
    init(_ page: FeedPage, around id: String, limit: Int, replacing current: RowGeometry) throws(FeedError) {
        let page = try LoadedItems.checked(page, limit: limit)
        guard let position = page.items.firstIndex(where: { $0.id == id }) else {
            throw .malformed("the page around \"\(id.prefix(64))\" does not hold it")
        }
        let above = max(0, page.above ?? 0)
        guard above <= Int(Int32.max) - page.items.count else {
            throw .malformed("the page says \(above) items are above it")
        }
        var geometry = SourcePager.emptyGeometry(
            estimatedHeight: current.estimatedHeight, maxHeldRows: current.maxHeldRows)
        _ = geometry.append(page.items.count, contentOffset: 0)
        _ = geometry.insertPlaceholdersOnTop(above, contentOffset: 0)
        (self.items, self.page, self.above, self.geometry, self.row) =
            (page.items, page, above, geometry, above + position)
    }

    /// Puts the rows in `pager`, the item's row held; the list's first item stays what "N new" counts from while
    /// the top is not held.
    func apply(to pager: inout SourcePager) {
        pager.loaded = LoadedItems(replacingWith: page)
        pager.geometry = geometry
        pager.window.cursors = [PageCursors(newer: page.newerCursor, older: page.olderCursor)]
        pager.window.answered = pager.window.cursors[0]
        pager.window.answeredWhole = true
        pager.window.top = above == 0 ? items.first : pager.window.top ?? items.first
        pager.lastRowsChange = .replaced
        pager.record(.replaced(items: items, above: above, below: 0))
        pager.hold(row)
    }
}
