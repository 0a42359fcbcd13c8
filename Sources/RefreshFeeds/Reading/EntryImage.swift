/// An entry's picture from the extensions RSS and Atom feeds carry (docs/FEEDS.md, "Reading feeds: the field
/// mapping"), first found wins: a Media RSS `media:content` of an image (`medium="image"` or an `image/` type),
/// a `media:thumbnail`, an `itunes:image`, an enclosure of an `image/` type (RSS `enclosure`, Atom
/// `link rel="enclosure"`). Each looks inside `media:group` too. The address is made absolute.
enum EntryImage {
    static func of(_ entry: XMLFeedElement) -> String? {
        let media = mediaElements(of: entry)
        if let content = media.first(where: { $0.name == "content" && isImage($0) }),
            let url = content.attributes["url"]
        {
            return content.resolve(url)
        }
        let thumbnails =
            media.filter { $0.name == "thumbnail" }
            + media.filter { $0.name == "content" }.flatMap {
                mediaElements(of: $0).filter { $0.name == "thumbnail" }
            }
        if let thumbnail = thumbnails.first, let url = thumbnail.attributes["url"] {
            return thumbnail.resolve(url)
        }
        if let itunes = entry.first(FeedNamespace.itunes, "image"), let href = itunes.attributes["href"] {
            return itunes.resolve(href)
        }
        for enclosure in entry.all(FeedNamespace.none, "enclosure") where isImageType(enclosure.attributes["type"]) {
            if let url = enclosure.attributes["url"] { return enclosure.resolve(url) }
        }
        for namespace in [FeedNamespace.atom10, FeedNamespace.atom03] {
            for link in entry.all(namespace, "link")
            where link.attributes["rel"] == "enclosure" && isImageType(link.attributes["type"]) {
                if let href = link.attributes["href"] { return link.resolve(href) }
            }
        }
        return nil
    }

    /// The Media RSS children of `element`, those inside its `media:group`s after its own.
    private static func mediaElements(of element: XMLFeedElement) -> [XMLFeedElement] {
        let own = element.elements.filter { FeedNamespace.media.contains($0.namespace) }
        return own.filter { $0.name != "group" } + own.filter { $0.name == "group" }.flatMap { mediaElements(of: $0) }
    }

    private static func isImage(_ content: XMLFeedElement) -> Bool {
        content.attributes["medium"] == "image" || isImageType(content.attributes["type"])
    }

    private static func isImageType(_ type: String?) -> Bool {
        type?.lowercased().hasPrefix("image/") == true
    }
}
