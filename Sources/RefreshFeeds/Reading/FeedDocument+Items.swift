import RefreshKit

extension FeedDocument {
    /// The entries as the list's items, in the document's order (docs/FEEDS.md, "Reading feeds"): each entry's
    /// id, text, title, link, author, date (none for an undated entry) and image.
    public var items: [FeedItem] {
        entries.map { entry in
            FeedItem(
                id: entry.id, text: entry.text, author: entry.author, timeMicros: entry.timeMicros,
                image: entry.image.map { FeedImage(url: $0) }, title: entry.title, url: entry.link)
        }
    }
}
