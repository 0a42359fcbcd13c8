import RefreshKit

/// An XML feed's tree read into a ``FeedDocument``: the format confirmed from the root's name and namespace,
/// then RSS or Atom read by their readers.
enum XMLFeedReader {
    static func read(_ root: XMLFeedElement, limits: FeedLimits) throws(FeedError) -> FeedDocument {
        let document: FeedDocument
        switch (root.namespace, root.name) {
        case (FeedNamespace.none, "rss"):
            guard let channel = root.first(FeedNamespace.none, "channel") else {
                throw .malformed("not a feed: the <rss> element has no <channel>")
            }
            document = RSSReader.read(
                channel: channel, items: channel.all(FeedNamespace.none, "item"),
                format: .rss(version: root.attributes["version"]), namespace: FeedNamespace.none)
        case (FeedNamespace.rdf, "RDF"):
            // RSS 0.90 and 1.0 are RDF: the channel and the items are siblings, in the version's namespace.
            guard
                let namespace = [FeedNamespace.rss10, FeedNamespace.rss090].first(where: { namespace in
                    root.first(namespace, "channel") != nil || root.first(namespace, "item") != nil
                })
            else {
                throw .malformed("not a feed: an RDF document with no RSS 0.90 or 1.0 channel")
            }
            let channel =
                root.first(namespace, "channel")
                ?? XMLFeedElement(
                    namespace: namespace, name: "channel", attributes: [:], base: root.base)
            document = RSSReader.read(
                channel: channel, items: root.all(namespace, "item") + channel.all(namespace, "item"),
                format: namespace == FeedNamespace.rss10 ? .rss10 : .rss090, namespace: namespace)
        case (FeedNamespace.atom10, "feed"):
            document = AtomReader.read(feed: root, format: .atom10, namespace: FeedNamespace.atom10)
        case (FeedNamespace.atom03, "feed"):
            document = AtomReader.read(feed: root, format: .atom03, namespace: FeedNamespace.atom03)
        default:
            let namespace = root.namespace.isEmpty ? "no namespace" : "namespace \(root.namespace.prefix(80))"
            throw .malformed("not a feed: the root element is <\(root.name.prefix(40))> in \(namespace)")
        }
        guard document.entries.count <= limits.maxEntries else {
            throw .oversized(what: "feed (\(document.entries.count) entries)", limit: limits.maxEntries)
        }
        var checked = document
        checked.entries = []
        checked.entries.reserveCapacity(document.entries.count)
        for entry in document.entries { checked.entries.append(try entry.checked(against: limits)) }
        return checked
    }

    /// The date of an entry: the first of `published` that reads, else the first of `updated`
    /// (docs/FEEDS.md, "Reading feeds: dates"). An unreadable date is skipped, never an error.
    static func date(published: [String?], updated: [String?]) -> Int64? {
        for text in published + updated {
            if let text, let micros = FeedDates.micros(text) { return micros }
        }
        return nil
    }

    /// Whether `address` is a web page's (http or https): what a row's link must be to open one.
    static func isWebAddress(_ address: String) -> Bool {
        let lower = address.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The `rel="next"` link among `links` (Atom's, or `atom:link` in an RSS channel: RFC 5005's paged feeds),
    /// absolute.
    static func nextLink(_ links: [XMLFeedElement]) -> String? {
        for link in links where link.attributes["rel"] == "next" {
            if let href = link.attributes["href"] { return link.resolve(href) }
        }
        return nil
    }
}

extension FeedEntry {
    /// An entry read from a feed: an id from the feed, else the link, else a hash of the content
    /// (``contentID(title:text:timeMicros:image:)``); empty fields are missing ones.
    static func reading(
        id: String?, title: String?, link: String?, author: String?, text: String?, timeMicros: Int64?,
        image: String?
    ) -> FeedEntry {
        func present(_ value: String?) -> String? {
            guard let value, !value.isEmpty else { return nil }
            return value
        }
        let text = text ?? ""
        let id =
            present(id) ?? present(link) ?? contentID(title: title, text: text, timeMicros: timeMicros, image: image)
        return FeedEntry(
            id: id, title: present(title), link: present(link), author: present(author), text: text,
            timeMicros: timeMicros, image: present(image))
    }
}
