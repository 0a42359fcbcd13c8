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

// The rule a page draws by too: a held row whose item has a section starts that section (its row has the header's
// band at its top) when it is the first row, or the row above it is a placeholder, or holds another section.
extension SourcePager {
    /// Whether any held item has a section: only then do frames carry a pinned header.
    var hasSections: Bool { loaded.items.contains { $0.section != nil } }

    /// The section of the row at `row`, when it is held and its item has one.
    func section(ofRow row: Int) -> String? {
        geometry.heldPosition(ofRow: row).flatMap { loaded.items[$0].section }
    }

    /// The header pinned in `scroll`'s viewport (at its offset, under its top inset), headers `headerHeight` high.
    func pinned(under scroll: ScrollModel, _ headerHeight: Double) -> PinnedSection? {
        pinnedSection(offset: scroll.offset.y, topInset: scroll.insets.combined.top, headerHeight: headerHeight)
    }

    /// The header pinned at content offset `offset` under a top inset `topInset`, headers being `headerHeight` px
    /// high; nil when the row there is a placeholder or has no section. O(log n) for each row whose top is within a
    /// header's height below the viewport's top (one or two). Out of line: a frame of a list without sections does
    /// not carry its code.
    @inline(never)
    func pinnedSection(offset: Double, topInset: Double, headerHeight: Double) -> PinnedSection? {
        let line = offset + topInset
        guard let row = geometry.row(at: line), let section = section(ofRow: row) else { return nil }
        // Pulled down past the list's top (the row is the first, below the line): the header stays on its row.
        var top = max(line, geometry.y(ofRow: row))
        var next = row + 1
        while next < geometry.rowCount {
            let nextTop = geometry.y(ofRow: next)
            guard nextTop < top + headerHeight else { break }
            if self.section(ofRow: next) != section {
                top = nextTop - headerHeight
                break
            }
            next += 1
        }
        return PinnedSection(section: section, y: top - offset)
    }
}
