/// One change of a list's rows, whichever source answers, as the pages are told it (the `rows` message,
/// docs/PROTOCOL.md), in the order the engine made them: an answer's merge, and the window of pages dropping far
/// pages and loading them back (docs/LAYOUT.md, "The window"). A host takes them with
/// ``ListModel/takeRowsUpdates()`` after each input or step and sends each as one `rows` message before the frame
/// that shows it.
///
/// Each carries what the pages need and nothing that changes later (the items it added, the rows after it), so
/// updates taken together still say the right thing when several happened in one step.
public struct RowsUpdate: Hashable, Sendable, Codable {
    /// What changed.
    public enum Change: Hashable, Sendable, Codable {
        /// Every row anew: the held `items`, `above` placeholders above them and `below` below.
        case replaced(items: [FeedItem], above: Int, below: Int)
        /// `items` put on top of the list (a refresh's newer items).
        case prepended([FeedItem])
        /// `items` put at the end of the list (a load-more's older items).
        case appended([FeedItem])
        /// The held page of `count` rows at `edge` became placeholders (it went out of the window).
        case dropped(PageEdge, count: Int)
        /// `items` loaded back into the placeholders at `edge`, next to the held rows; `removed` placeholders
        /// there were then taken away (the source has nothing more that way: rows were deleted meanwhile).
        case reloaded(PageEdge, items: [FeedItem], removed: Int)
    }

    /// What changed.
    public var change: Change
    /// The rows of the list after the change, placeholders included (the next frames' `feed.count`).
    public var rowCount: Int

    /// An update; see the properties.
    public init(_ change: Change, rowCount: Int) {
        self.change = change
        self.rowCount = rowCount
    }

    /// How many updates wait for a host before the oldest are forgotten and the host is told to send every row
    /// anew (``ListModel/takeRowsUpdates()`` then answers `nil`): a session replayed without a host (a
    /// take-over's replay) keeps no more than this.
    public static let limit = 16
}
