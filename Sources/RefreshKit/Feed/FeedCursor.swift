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
