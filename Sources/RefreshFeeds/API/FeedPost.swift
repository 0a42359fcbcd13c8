/// A new item as a person writes it (`POST /feed/items`, `refreshkit post`): its text, and what else it may have.
/// The source gives it its id and time (``PostableFeedSource/post(_:timeMicros:)``).
public struct FeedPost: Hashable, Sendable {
    /// The item's text; not empty once trimmed.
    public var text: String
    /// Who wrote it.
    public var author: String?
    /// Its title.
    public var title: String?
    /// The address of the page it stands for (`http:` or `https:`).
    public var url: String?
    /// The group it belongs to (docs/LAYOUT.md, "Section headers").
    public var section: String?

    /// A post; see the properties.
    public init(
        text: String, author: String? = nil, title: String? = nil, url: String? = nil, section: String? = nil
    ) {
        self.text = text
        self.author = author
        self.title = title
        self.url = url
        self.section = section
    }
}
