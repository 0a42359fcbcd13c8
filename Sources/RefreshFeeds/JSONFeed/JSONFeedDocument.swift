import Foundation
import RefreshKit

/// One fetched JSON Feed 1.x document as the `jsonfeed:` source pages it: the entries that
/// ``FeedDocument`` reads (docs/FEEDS.md, "Reading feeds"), made `FeedItem`s.
public struct JSONFeedDocument: Hashable, Sendable {
    /// The feed's title, when it has one.
    public var title: String?
    /// Its items, in the document's order (a feed lists them newest first).
    public var items: [FeedItem]
    /// The address of the next, older document (`next_url`), when there is one.
    public var nextURL: String?

    /// A document; see the properties.
    public init(title: String?, items: [FeedItem], nextURL: String?) {
        self.title = title
        self.items = items
        self.nextURL = nextURL
    }

    /// Parses a JSON Feed from `data` with ``FeedDocument``'s JSON Feed reader (the wire's validating reader,
    /// ``JSONTree``, as every JSON the server reads; this runs on the feed worker).
    ///
    /// An item without an `id` takes its `url`, else a hash of its content; its `title` and `url` are the item's;
    /// an undated one takes the time of the dated item above it
    /// (or, at the top, of the first dated one below; 1970 in a feed with no dates), so the items keep the
    /// document's order newest first.
    /// - Parameter url: the document's address, against which relative `next_url`s are resolved, or `nil`.
    /// - Throws: `FeedError/oversized(what:limit:)` past ``FeedLimits/maxBodyBytes`` (or an entry or field past
    ///   its limit), `FeedError/malformed(_:)` naming the first fault (for text that is not JSON, the reader's:
    ///   what, and at which byte).
    public init(parsing data: Data, url: String? = nil, limits: FeedLimits = FeedLimits()) throws(FeedError) {
        let document = try JSONFeedReader.read(data, url: url, limits: limits)
        var time = document.entries.lazy.compactMap(\.timeMicros).first ?? 0
        let items = document.entries.map { entry in
            time = entry.timeMicros ?? time
            return FeedItem(
                id: entry.id, text: entry.text, author: entry.author, timeMicros: time,
                image: entry.image.map { FeedImage(url: $0) }, title: entry.title, url: entry.link)
        }
        self.init(title: document.title, items: items, nextURL: document.nextURL)
    }
}
