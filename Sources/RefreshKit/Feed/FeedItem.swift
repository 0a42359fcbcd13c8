/// One entry of a feed: what a row of the list shows.
///
/// Times are microseconds since 1970 (UTC), the engine's unit (``FeedItem/timeMicros``). A feed lists its
/// items newest first; RefreshFeeds' `FeedPageValidator` checks that a source keeps to it, and the engine
/// checks it again across the pages it holds (docs/FEEDS.md).
public struct FeedItem: Hashable, Sendable, Codable {
    /// The item's id, unique within its feed (a SQLite row id, a JSON Feed item's `id`).
    public var id: String
    /// The item's text, plain (a JSON Feed's HTML is reduced to its text).
    public var text: String
    /// Who wrote it, when the source knows.
    public var author: String?
    /// When it was published, microseconds since 1970 (UTC).
    public var timeMicros: Int64
    /// A picture that goes with it, if any.
    public var image: FeedImage? {
        get { picture?.image }
        set { picture = newValue.map(Picture.init) }
    }

    /// The picture, out of line: most items have none, and every session holds its list's items, so an item
    /// keeps one word for it rather than the picture's own size (docs/PERFORMANCE.md, "Memory per connected
    /// session"). Immutable: setting ``image`` puts a new one.
    private var picture: Picture?

    private final class Picture: Sendable {
        let image: FeedImage
        init(_ image: FeedImage) { self.image = image }
    }

    /// An item; see the properties.
    public init(id: String, text: String, author: String? = nil, timeMicros: Int64, image: FeedImage? = nil) {
        self.id = id
        self.text = text
        self.author = author
        self.timeMicros = timeMicros
        self.image = image
    }

    public static func == (a: FeedItem, b: FeedItem) -> Bool {
        a.id == b.id && a.text == b.text && a.author == b.author && a.timeMicros == b.timeMicros
            && a.image == b.image
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(text)
        hasher.combine(author)
        hasher.combine(timeMicros)
        hasher.combine(image)
    }

    private enum CodingKeys: String, CodingKey {
        case id, text, author, timeMicros, image
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), text: try container.decode(String.self, forKey: .text),
            author: try container.decodeIfPresent(String.self, forKey: .author),
            timeMicros: try container.decode(Int64.self, forKey: .timeMicros),
            image: try container.decodeIfPresent(FeedImage.self, forKey: .image))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(text, forKey: .text)
        try container.encodeIfPresent(author, forKey: .author)
        try container.encode(timeMicros, forKey: .timeMicros)
        try container.encodeIfPresent(image, forKey: .image)
    }
}
