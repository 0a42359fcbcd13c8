/// Where a scroll command takes the content offset (docs/PROTOCOL.md, "Commands"): worked out from the scroll
/// view's bounds, viewport and insets and, for `scrollToItem`, the rows' layout. Pure: ``ListModel`` carries the
/// motion out.
enum ScrollDestination {
    /// The offset `command` scrolls to, or nil for a command that does not scroll. `row` is `scrollToItem`'s row
    /// (``row(of:in:)``).
    static func offset(of command: Command, row: Int?, scroll: ScrollModel, rows geometry: RowGeometry) -> Point? {
        var target = scroll.offset
        switch command.name {
        case .scrollToEdge:
            let edge = command.edge ?? .top
            let range = scroll.bounds(edge.axis)
            target[edge.axis] = edge.isLeading ? range.lower : range.upper
        case .scrollByPage, .scrollBy:
            let distance = command.name == .scrollBy ? command.amount : command.amount * scroll.viewport.height * 0.9
            target.y = scroll.bounds(.vertical).clamp(target.y + distance)
        case .scrollToItem:
            guard let row, row < geometry.rowCount else { return nil }
            target.y = scroll.bounds(.vertical).clamp(
                itemOffset(top: geometry.y(ofRow: row), height: geometry.height(ofRow: row), command.align, scroll)
                    + command.amount)
        case .refresh, .finish, .loadMore, .retry:
            return nil
        }
        return target
    }

    /// The offset that lands `row` at `align` and `offset` px below it, within the content's bounds, and whether the content's end stopped it
    /// short of the alignment (a jump's page with too few rows below its item yet: docs/LAYOUT.md, "A jump").
    static func landing(
        of row: Int, _ align: ItemAlignment, offset: Double, scroll: ScrollModel, rows geometry: RowGeometry
    ) -> (y: Double, short: Bool) {
        let target =
            itemOffset(top: geometry.y(ofRow: row), height: geometry.height(ofRow: row), align, scroll) + offset
        let bounds = scroll.bounds(.vertical)
        return (bounds.clamp(target), target > bounds.upper + 0.5)
    }

    /// The id `command` jumps to (docs/LAYOUT.md, "A jump"): a `scrollToItem` by an id not among the loaded rows of a
    /// feed outside the engine (`engineFeed` false: the engine's own feed is walked page by page, and refuses such an
    /// id). `nil` for any other command.
    static func jumpTarget(of command: Command, in pager: SourcePager, engineFeed: Bool) -> String? {
        guard command.name == .scrollToItem, !engineFeed, case .id(let id) = command.item,
            !pager.loaded.items.contains(where: { $0.id == id })
        else { return nil }
        return id
    }

    /// The content offset that puts a row (its `top` and `height` in the content) at `align` of the viewport less
    /// the insets, unclamped.
    static func itemOffset(top: Double, height: Double, _ align: ItemAlignment, _ scroll: ScrollModel) -> Double {
        let insets = scroll.insets.combined
        let visible = scroll.viewport.height - insets.top - insets.bottom
        switch align {
        case .start: return top - insets.top
        case .center: return top + height / 2 - insets.top - visible / 2
        case .end: return top + height - insets.top - visible
        }
    }

    /// The row `target` names in the whole list (placeholders included): an id among the loaded rows, or an index
    /// below the row count. Throws, naming what was asked, otherwise.
    static func row(of target: ItemTarget?, in pager: SourcePager) throws(ListModelError) -> Int {
        let rowCount = pager.geometry.rowCount
        switch target {
        case .id(let id):
            guard let position = pager.loaded.items.firstIndex(where: { $0.id == id }) else {
                let shown = id.utf8.count <= 64 ? "'\(id)'" : "'\(id.prefix(64))…'"
                throw ListModelError(
                    .unknownItem,
                    message: "scrollToItem: no item \(shown) among the \(pager.loaded.items.count) loaded rows")
            }
            return pager.geometry.placeholdersAbove + position
        case .index(let index):
            guard index >= 0, index < rowCount else {
                throw .outOfRange("scrollToItem.index must be in 0..<\(rowCount) (the list's rows), got \(index)")
            }
            return index
        case nil:
            throw .outOfRange("scrollToItem needs an item: an id or an index")
        }
    }
}
