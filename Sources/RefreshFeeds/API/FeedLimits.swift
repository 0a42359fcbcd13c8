/// The bounds an answer from a source must keep to, and its time limit.
public struct FeedLimits: Hashable, Sendable {
    /// The longest an answer may take, milliseconds (Paging 3 leaves this to the app; a list must not wait
    /// forever).
    public var timeoutMs: Int
    /// The largest body a fetched feed may have, bytes.
    public var maxBodyBytes: Int
    /// The most items one page may hold, whatever the request asked.
    public var maxItems: Int
    /// The most entries one fetched document may hold (a feed is read whole before it is paged): far more than
    /// feeds publish, and a bound on the work a hostile body under ``maxBodyBytes`` can cause.
    public var maxEntries: Int
    /// The longest an item's text may be, bytes of UTF-8.
    public var maxTextBytes: Int
    /// The longest an id, a title, a link, an author or an image address may be, bytes of UTF-8.
    public var maxFieldBytes: Int

    /// Limits; the defaults suit a list on a phone.
    public init(
        timeoutMs: Int = 5_000,
        maxBodyBytes: Int = 8 << 20,
        maxItems: Int = 200,
        maxEntries: Int = 20_000,
        maxTextBytes: Int = 16_384,
        maxFieldBytes: Int = 2_048
    ) {
        self.timeoutMs = timeoutMs
        self.maxBodyBytes = maxBodyBytes
        self.maxItems = maxItems
        self.maxEntries = maxEntries
        self.maxTextBytes = maxTextBytes
        self.maxFieldBytes = maxFieldBytes
    }
}
