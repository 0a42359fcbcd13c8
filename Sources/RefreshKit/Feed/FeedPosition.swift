/// Where a page starts, as Paging 3's `LoadParams` (Refresh, Append, Prepend) says it.
public enum FeedPosition: Hashable, Sendable, Codable {
    /// The newest items (a refresh, or the first load).
    case newest
    /// The items just older than the cursor (load-more at the bottom).
    case olderThan(FeedCursor)
    /// The items just newer than the cursor (what came in above the top row).
    case newerThan(FeedCursor)
    /// A page holding the item of this id, with items newer and older than it around it (`scrollToItem` to an
    /// item not loaded, docs/LAYOUT.md, "A jump"). A source that cannot find an item by its id answers
    /// ``FeedError/unsupported(_:)``; one that has no such item, ``FeedError/unknownItem(_:)``.
    case around(String)
}
