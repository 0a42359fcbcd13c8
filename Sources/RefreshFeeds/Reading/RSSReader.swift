/// RSS 0.90, 0.91, 0.92, 1.0 and 2.0 entries (docs/FEEDS.md, "Reading feeds: the field mapping"). The versions
/// differ in their namespace (none for 0.91 to 2.0; RDF's for 0.90 and 1.0) more than in their fields, so one
/// reader takes the namespace.
enum RSSReader {
    static func read(
        channel: XMLFeedElement, items: [XMLFeedElement], format: FeedFormat, namespace: String
    ) -> FeedDocument {
        let feedAuthor =
            [
                channel.text(namespace, "managingEditor"), channel.text(FeedNamespace.dublinCore, "creator"),
                channel.text(FeedNamespace.itunes, "author"),
            ].lazy.compactMap(FeedText.person).first
        let entries = items.map { entry(of: $0, namespace: namespace, feedAuthor: feedAuthor) }
        return FeedDocument(
            format: format, title: FeedText.title(channel.text(namespace, "title")), entries: entries,
            nextURL: XMLFeedReader.nextLink(channel.all(FeedNamespace.atom10, "link")))
    }

    private static func entry(of item: XMLFeedElement, namespace: String, feedAuthor: String?) -> FeedEntry {
        // A guid is a permalink unless it says otherwise (RSS 2.0): then it is an address, resolved against its
        // xml:base as a link is, and the link of an item without one when it is a web page's (as feedparser reads
        // it; docs/FEEDS.md, "Reading feeds: the field mapping").
        let guid = item.first(namespace, "guid")
        let isPermalink = guid?.attributes["isPermaLink"]?.lowercased() != "false"
        let guidText = guid.flatMap { guid in guid.trimmedText.map { isPermalink ? guid.resolve($0) : $0 } }
        var link = item.text(namespace, "link").map(item.resolve)
        if link == nil, isPermalink, let guidText, XMLFeedReader.isWebAddress(guidText) { link = guidText }
        let author =
            [
                item.text(namespace, "author"), item.text(FeedNamespace.dublinCore, "creator"),
                item.text(FeedNamespace.itunes, "author"),
            ].lazy.compactMap(FeedText.person).first ?? feedAuthor
        let body =
            item.text(namespace, "description") ?? item.text(FeedNamespace.content, "encoded")
            ?? item.text(FeedNamespace.itunes, "summary")
        let time = XMLFeedReader.date(
            published: [
                item.text(namespace, "pubDate"), item.text(FeedNamespace.dublinCoreTerms, "issued"),
                item.text(FeedNamespace.atom10, "published"),
            ],
            updated: [
                item.text(FeedNamespace.dublinCore, "date"), item.text(FeedNamespace.dublinCoreTerms, "modified"),
                item.text(FeedNamespace.atom10, "updated"),
            ])
        return FeedEntry.reading(
            id: guidText ?? item.attributes["rdf:about"], title: FeedText.title(item.text(namespace, "title")),
            link: link, author: author, text: body.map(FeedText.html), timeMicros: time, image: EntryImage.of(item))
    }
}
