/// Atom 1.0 (RFC 4287) and Atom 0.3 entries (docs/FEEDS.md, "Reading feeds: the field mapping"). The two
/// differ in their namespace, their date elements (0.3's `issued` and `modified` are 1.0's `published` and
/// `updated`) and 0.3's `mode` of content, which ``FeedText/atom(_:)`` reads.
enum AtomReader {
    static func read(feed: XMLFeedElement, format: FeedFormat, namespace: String) -> FeedDocument {
        let feedAuthor = name(of: feed, namespace: namespace)
        let entries = feed.all(namespace, "entry").map { entry(of: $0, namespace: namespace, feedAuthor: feedAuthor) }
        return FeedDocument(
            format: format, title: FeedText.oneLine(FeedText.atom(feed.first(namespace, "title"))), entries: entries,
            nextURL: XMLFeedReader.nextLink(feed.all(namespace, "link")))
    }

    private static func entry(of entry: XMLFeedElement, namespace: String, feedAuthor: String?) -> FeedEntry {
        // The alternate link: `rel="alternate"` or no `rel` (RFC 4287 section 4.2.7.2), the first of them.
        let alternate = entry.all(namespace, "link").first { link in
            (link.attributes["rel"] ?? "alternate") == "alternate" && link.attributes["href"] != nil
        }
        let author =
            name(of: entry, namespace: namespace)
            ?? entry.first(namespace, "source").flatMap { name(of: $0, namespace: namespace) }
            ?? entry.text(FeedNamespace.dublinCore, "creator") ?? feedAuthor
        let time = XMLFeedReader.date(
            published: [
                entry.text(namespace, "published"), entry.text(namespace, "issued"),
                entry.text(FeedNamespace.dublinCoreTerms, "issued"),
            ],
            updated: [
                entry.text(namespace, "updated"), entry.text(namespace, "modified"),
                entry.text(FeedNamespace.dublinCore, "date"),
            ])
        // The id, resolved against its xml:base (an IRI, RFC 4287 section 4.2.6), is the link of an entry without an
        // alternate one when it is a web page's address (as feedparser reads it).
        let id = entry.first(namespace, "id").flatMap { id in id.trimmedText.map(id.resolve) }
        let link =
            alternate.flatMap { link in link.attributes["href"].map(link.resolve) }
            ?? id.flatMap { XMLFeedReader.isWebAddress($0) ? $0 : nil }
        return FeedEntry.reading(
            id: id, title: FeedText.oneLine(FeedText.atom(entry.first(namespace, "title"))), link: link, author: author,
            text: FeedText.atom(entry.first(namespace, "summary")) ?? FeedText.atom(entry.first(namespace, "content")),
            timeMicros: time, image: EntryImage.of(entry))
    }

    /// The first author's name (`author/name`).
    private static func name(of element: XMLFeedElement, namespace: String) -> String? {
        element.first(namespace, "author")?.text(namespace, "name")
    }
}
