/// Where a page starts, as Paging 3's `LoadParams` (Refresh, Append, Prepend) says it.
public enum FeedPosition: Hashable, Sendable {
    /// The newest items (a refresh, or the first load).
    case newest
    /// The items just older than the cursor (load-more at the bottom).
    case olderThan(FeedCursor)
    /// The items just newer than the cursor (what came in above the top row).
    case newerThan(FeedCursor)
}

/// A position in a feed, made by the source and handed back to it unread (Paging 3's key).
///
/// A SQLite cursor names an item's time and id; a JSON Feed's older cursor is the feed's `next_url`. Callers
/// keep and pass them on, and never build one: only the source that made a cursor understands it.
public struct FeedCursor: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The cursor's text, as the source wrote it.
    public var value: String

    /// A cursor with the source's text `value` (from a page, or typed by a person after `feed show`).
    public init(_ value: String) {
        self.value = value
    }

    /// The cursor's text.
    public var description: String { value }

    /// Reads a cursor written as a plain JSON string.
    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes the cursor as a plain JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// One request to a ``FeedSource``: where the page starts and how many items it may hold at most.
public struct FeedRequest: Hashable, Sendable {
    /// Where the page starts.
    public var position: FeedPosition
    /// The most items the page may hold (Paging 3's `loadSize`); at least 1.
    public var limit: Int

    /// A request for at most `limit` items from `position` (a `limit` below 1 is taken as 1).
    public init(_ position: FeedPosition, limit: Int) {
        self.position = position
        self.limit = max(1, limit)
    }
}
