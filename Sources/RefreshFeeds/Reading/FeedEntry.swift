import RefreshKit

/// One entry of a feed of any format, as a feed reader reads it (docs/FEEDS.md, "Reading feeds": the field
/// mapping of each format).
///
/// Everything but the id may be missing: feeds leave out titles, links, texts and dates, and an entry with
/// neither title nor text is still an entry (it is drawn by its link, or as untitled).
public struct FeedEntry: Hashable, Sendable {
    /// The entry's id: its RSS `guid`, Atom `id` or JSON Feed `id`; else its link; else a stable hash of its
    /// content (16 hexadecimal digits of FNV-1a 64), the same in every process.
    public var id: String
    /// Its title as plain text (an HTML title reduced to its text), when it has one.
    public var title: String?
    /// The address of the page it stands for (RSS `link`, Atom `link rel="alternate"`, JSON Feed `url`),
    /// absolute: a relative one is resolved against `xml:base` or the feed's address.
    public var link: String?
    /// Who wrote it, or the feed's author when the entry names nobody.
    public var author: String?
    /// Its summary, else its content, as plain text (HTML reduced by `HTMLText`); may be empty.
    public var text: String
    /// When it was published, else updated, µs since 1970 (UTC); `nil` when undated or the date is unreadable.
    public var timeMicros: Int64?
    /// The address of a picture that goes with it (JSON Feed `image`, Media RSS, iTunes, an image enclosure).
    public var image: String?

    /// An entry; see the properties.
    public init(
        id: String, title: String? = nil, link: String? = nil, author: String? = nil, text: String = "",
        timeMicros: Int64? = nil, image: String? = nil
    ) {
        self.id = id
        self.title = title
        self.link = link
        self.author = author
        self.text = text
        self.timeMicros = timeMicros
        self.image = image
    }

    /// The id of an entry with neither an id nor a link: FNV-1a 64 of its title, text, date and image, so
    /// an entry keeps its id from one fetch to the next while it does not change.
    static func contentID(title: String?, text: String, timeMicros: Int64?, image: String?) -> String {
        var hash = StableHash()
        hash.add(title)
        hash.add(text)
        hash.add(timeMicros.map { String($0) })
        hash.add(image)
        return hash.hex
    }

    /// `self` when its fields keep to `limits`; `FeedError/oversized(what:limit:)` naming the first that does
    /// not.
    func checked(against limits: FeedLimits) throws(FeedError) -> FeedEntry {
        let fields: [(String, String?)] = [
            ("id", id), ("title", title), ("link", link), ("author", author), ("image address", image),
        ]
        for (name, value) in fields where (value?.utf8.count ?? 0) > limits.maxFieldBytes {
            throw .oversized(what: "\(name) of entry \"\(id.prefix(80))\"", limit: limits.maxFieldBytes)
        }
        guard text.utf8.count <= limits.maxTextBytes else {
            throw .oversized(what: "text of entry \"\(id.prefix(80))\"", limit: limits.maxTextBytes)
        }
        return self
    }
}
