/// One entry of a feed: what a row of the list shows.
///
/// Times are microseconds since 1970 (UTC), the engine's unit (``FeedItem/timeMicros``), used for the item's age
/// and the "N new" count: the list keeps the feed's own order, which need not be newest first (docs/FEEDS.md,
/// "Order and dates").
public struct FeedItem: Hashable, Sendable, Codable {
    /// The item's id, unique within its feed (a SQLite row id, a JSON Feed item's `id`).
    public var id: String
    /// The item's text, plain (a JSON Feed's HTML is reduced to its text).
    public var text: String
    /// Who wrote it, when the source knows.
    public var author: String?
    /// When it was published, microseconds since 1970 (UTC); `nil` for an undated entry, which a row shows without
    /// an age (docs/FEEDS.md, "Order and dates").
    public var timeMicros: Int64?
    /// A picture that goes with it, if any.
    public var image: FeedImage? {
        get { details?.image }
        set { setDetails(image: newValue, title: title, url: url, section: section) }
    }
    /// Its title, plain text, when it has one (RSS and Atom `title`, JSON Feed `title`); a row draws it above the
    /// text, as feed readers do.
    public var title: String? {
        get { details?.title }
        set { setDetails(image: image, title: newValue, url: url, section: section) }
    }
    /// The address of the page it stands for (RSS `link`, Atom's `alternate` link, JSON Feed `url`): a tap on its
    /// row opens it.
    public var url: String? {
        get { details?.url }
        set { setDetails(image: image, title: title, url: newValue, section: section) }
    }
    /// The group it belongs to (a day, an author, a topic), when the source groups its items: the list draws the
    /// group's name as a header above its first row, and pins the header of the group at the top of the viewport
    /// (docs/LAYOUT.md, "Section headers").
    public var section: String? {
        get { details?.section }
        set { setDetails(image: image, title: title, url: url, section: newValue) }
    }

    /// The picture, title, link and section, out of line: the simulated feed's items have none, and every session holds
    /// its list's items, so an item keeps one word for them rather than their own size (docs/PERFORMANCE.md,
    /// "Memory per connected session"). Immutable: setting one puts a new box.
    private var details: Details?

    private final class Details: Sendable {
        let image: FeedImage?
        let title: String?
        let url: String?
        let section: String?
        init(image: FeedImage?, title: String?, url: String?, section: String?) {
            self.image = image
            self.title = title
            self.url = url
            self.section = section
        }
    }

    private mutating func setDetails(image: FeedImage?, title: String?, url: String?, section: String?) {
        details =
            image == nil && title == nil && url == nil && section == nil
            ? nil : Details(image: image, title: title, url: url, section: section)
    }

    /// An item; see the properties.
    public init(
        id: String, text: String, author: String? = nil, timeMicros: Int64?, image: FeedImage? = nil,
        title: String? = nil, url: String? = nil, section: String? = nil
    ) {
        self.id = id
        self.text = text
        self.author = author
        self.timeMicros = timeMicros
        setDetails(image: image, title: title, url: url, section: section)
    }

    public static func == (a: FeedItem, b: FeedItem) -> Bool {
        a.id == b.id && a.text == b.text && a.author == b.author && a.timeMicros == b.timeMicros
            && a.image == b.image && a.title == b.title && a.url == b.url && a.section == b.section
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(text)
        hasher.combine(author)
        hasher.combine(timeMicros)
        hasher.combine(image)
        hasher.combine(title)
        hasher.combine(url)
        hasher.combine(section)
    }

    private enum CodingKeys: String, CodingKey {
        case id, text, author, timeMicros, image, title, url, section
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), text: try container.decode(String.self, forKey: .text),
            author: try container.decodeIfPresent(String.self, forKey: .author),
            timeMicros: try container.decodeIfPresent(Int64.self, forKey: .timeMicros),
            image: try container.decodeIfPresent(FeedImage.self, forKey: .image),
            title: try container.decodeIfPresent(String.self, forKey: .title),
            url: try container.decodeIfPresent(String.self, forKey: .url),
            section: try container.decodeIfPresent(String.self, forKey: .section))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(text, forKey: .text)
        try container.encodeIfPresent(author, forKey: .author)
        try container.encodeIfPresent(timeMicros, forKey: .timeMicros)
        try container.encodeIfPresent(image, forKey: .image)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(section, forKey: .section)
    }
}
