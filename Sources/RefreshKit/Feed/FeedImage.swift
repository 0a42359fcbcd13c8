/// A picture of a ``FeedItem``: where it is and, when the source says, its size in pixels.
///
/// The size lets a list reserve the row's height before the picture has loaded. JSON Feed does not carry
/// sizes, so both are optional.
public struct FeedImage: Hashable, Sendable, Codable {
    /// The picture's address (http, https or a path the page can load).
    public var url: String
    /// Its width in pixels, when known.
    public var width: Int?
    /// Its height in pixels, when known.
    public var height: Int?

    /// A picture; see the properties.
    public init(url: String, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.width = width
        self.height = height
    }
}
