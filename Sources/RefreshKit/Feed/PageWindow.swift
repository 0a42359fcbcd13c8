/// The cursors of one held page of an external feed: what to ask to load the rows just above it and just below
/// it again once its neighbours are dropped (docs/LAYOUT.md, "The window"). `nil` where the page's answer did not
/// say: a refresh's new rows on top have no older cursor of their own (their page went on into rows already
/// held); the window never drops the neighbour a missing cursor would be needed to load back.
public struct PageCursors: Hashable, Sendable, Codable {
    /// The cursor of the page's first item: `newerThan` it loads the page above.
    public var newer: FeedCursor?
    /// The cursor of the page's last item: `olderThan` it loads the page below.
    public var older: FeedCursor?

    /// A page's cursors; see the properties.
    public init(newer: FeedCursor? = nil, older: FeedCursor? = nil) {
        self.newer = newer
        self.older = older
    }
}

/// What an external feed keeps for its window of pages besides the layout and the items: the cursors of each
/// held page (in step with ``RowLayout/pageSizes``), the list's first item (held or not: the "N new" count
/// starts there), the rows updates the pages have not been sent yet, and the back-off after a failed reload.
public struct PageWindow: Hashable, Sendable, Codable {
    /// Each held page's cursors, top to bottom.
    public internal(set) var cursors: [PageCursors] = []
    /// The list's first item, also while its page is dropped.
    public internal(set) var top: FeedItem?
    /// The rows updates not taken yet (at most ``RowsUpdate/limit``).
    var updates: [RowsUpdate] = []
    /// Updates were forgotten since the last take: the pages need every row anew.
    var overflowed = false
    /// The cursors of the last page answered, for ``SourcePager/place(_:contentOffset:)``.
    var answered = PageCursors()
    /// Whether every item of the last page answered was taken (no skipped first items).
    var answeredWhole = false
    /// Reloads failed in a row.
    var failures = 0
    /// No reload is asked before this time after a failure (1, 2, 4 … 30 s, as a failed footer's retries).
    var retryNotBefore: Timestamp?

    /// An empty window.
    public init() {}
}
