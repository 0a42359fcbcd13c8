/// The section header drawn pinned at the top of the viewport (a frame's `pinned`): the section of the row under the
/// viewport's top, below the top inset, until the next section's first row pushes it up and away (docs/LAYOUT.md,
/// "Section headers").
public struct PinnedSection: Hashable, Sendable, Codable {
    /// The section's name (``FeedItem/section``), which the header shows.
    public var section: String
    /// The header's top in viewport coordinates: the top inset while it is pinned, less while the next section's first
    /// row pushes it, and the section's own first row's top while the list is pulled down past its top.
    public var y: Double

    /// The header of `section` drawn at `y`.
    public init(section: String, y: Double) {
        self.section = section
        self.y = y
    }
}

/// The rules of section headers over a list's rows (its ``RowGeometry`` and the held items), which the page follows too
/// (web/js/feed/rowLayout.js): a held row whose item has a section (a name, not empty) starts that section (its row has the header's
/// band at its top) when it is the first row, or the row above it is a placeholder, or holds another section.
enum SectionHeaders {
    /// Whether any held item has a section: only then do frames carry a pinned header.
    static func any(in items: [FeedItem]) -> Bool { items.contains { $0.section?.isEmpty == false } }

    /// The section of the row at `row`, when it is held and its item has one.
    static func section(ofRow row: Int, _ geometry: RowGeometry, _ items: [FeedItem]) -> String? {
        geometry.heldPosition(ofRow: row).flatMap { items[$0].section }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The header pinned at the top of `list`'s viewport, headers as high as its configuration says.
    static func pinned(in list: borrowing ListModel) -> PinnedSection? {
        pinned(
            list.pager.geometry, list.pager.loaded.items, offset: list.scroll.offset.y,
            topInset: list.scroll.insets.combined.top, headerHeight: list.configuration.feed.sectionHeaderHeight)
    }

    /// The header pinned in a viewport at `offset` under a top inset `topInset`, headers `headerHeight` px high; nil when the row there is a placeholder or has no section. O(log n) for each row whose top is within a
    /// header's height below the viewport's top (one or two). Out of line: a frame of a list without sections does
    /// not carry its code.
    @inline(never)
    static func pinned(
        _ geometry: RowGeometry, _ items: [FeedItem], offset: Double, topInset: Double, headerHeight: Double
    ) -> PinnedSection? {
        let line = offset + topInset
        guard let row = geometry.row(at: line), let section = section(ofRow: row, geometry, items) else { return nil }
        // Pulled down past the list's top (the row is the first, below the line): the header stays on its row.
        var top = max(line, geometry.y(ofRow: row))
        var next = row + 1
        while next < geometry.rowCount {
            let nextTop = geometry.y(ofRow: next)
            guard nextTop < top + headerHeight else { break }
            if Self.section(ofRow: next, geometry, items) != section {
                top = nextTop - headerHeight
                break
            }
            next += 1
        }
        return PinnedSection(section: section, y: top - offset)
    }
}
