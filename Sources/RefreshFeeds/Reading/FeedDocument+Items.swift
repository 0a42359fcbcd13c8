import RefreshKit

extension FeedDocument {
    /// The entries as the list's items, in the document's order (docs/FEEDS.md, "Reading feeds"): each entry's
    /// id, text, title, link, author and image; an undated entry takes the time of the dated one above it (at the
    /// top: of the first dated one below; 1970 in a document with no dates), until an item may have no time.
    public var items: [FeedItem] {
        var time = entries.lazy.compactMap(\.timeMicros).first ?? 0
        return entries.map { entry in
            time = entry.timeMicros ?? time
            return FeedItem(
                id: entry.id, text: entry.text, author: entry.author, timeMicros: time,
                image: entry.image.map { FeedImage(url: $0) }, title: entry.title, url: entry.link)
        }
    }
}
