import Foundation
import RefreshKit
import RefreshWire

/// JSON Feed 1.0 and 1.1 (jsonfeed.org) read into a ``FeedDocument`` with the wire's validating reader,
/// ``JSONTree``, as every JSON the server takes (docs/FEEDS.md, "Reading feeds: the field mapping").
enum JSONFeedReader {
    /// The deepest nesting read: the wire reader's most (a feed's item's author is four deep; an extension's
    /// values may nest further).
    static let maxDepth = 64

    /// - Throws: `FeedError/malformed(_:)` for a body that is not JSON (the reader's fault: what, and at which
    ///   byte), not an object, or not a JSON Feed 1.x; `FeedError/oversized(what:limit:)` past `limits`.
    static func read(_ data: Data, url: String?, limits: FeedLimits) throws(FeedError) -> FeedDocument {
        guard data.count <= limits.maxBodyBytes else { throw .oversized(what: "body", limit: limits.maxBodyBytes) }
        let read = data.withUnsafeBytes { bytes in
            // RFC 8259 lets a reader ignore a leading byte order mark, which some servers send.
            let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            return Result { () throws(WireError) in
                try JSONTree.read(UnsafeRawBufferPointer(rebasing: bytes[bom...]), maxDepth: maxDepth)
            }
        }
        let root: JSONTree
        switch read {
        case .success(let tree): root = tree
        case .failure(let error):
            // The reader says what and where ("not JSON: unexpected end of text, expecting ']'").
            let fault = error.message.hasPrefix("not JSON: ") ? error.message.dropFirst(10) : Substring(error.message)
            throw .malformed("the body is not JSON: \(fault)")
        }
        guard case .object = root else { throw .malformed("the body is not a JSON object") }
        guard let format = root["version"]?.string.flatMap(format(ofVersion:)) else {
            throw .malformed(
                "not a feed: \"version\" is not a JSON Feed 1.x version (https://jsonfeed.org/version/1.1)")
        }
        guard let items = root["items"]?.elements else { throw .malformed("\"items\" is missing or not an array") }
        guard items.count <= limits.maxEntries else {
            throw .oversized(what: "feed (\(items.count) entries)", limit: limits.maxEntries)
        }
        let base = url.flatMap { URL(string: $0) }
        let feedAuthor = author(of: root)
        var entries: [FeedEntry] = []
        entries.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard case .object = item else { throw .malformed("item \(index) is not an object") }
            entries.append(try entry(item, base: base, feedAuthor: feedAuthor).checked(against: limits))
        }
        return FeedDocument(
            format: format, title: FeedText.oneLine(root["title"]?.string), entries: entries,
            nextURL: root["next_url"]?.string.map { resolve($0, against: base) })
    }

    /// `https://jsonfeed.org/version/1` is 1.0; any later 1.x is read as 1.1.
    private static func format(ofVersion version: String) -> FeedFormat? {
        for prefix in ["https://jsonfeed.org/version/", "http://jsonfeed.org/version/"] where version.hasPrefix(prefix)
        {
            let number = version.dropFirst(prefix.count)
            if number == "1" { return .jsonFeed10 }
            if number.hasPrefix("1.") { return .jsonFeed11 }
        }
        return nil
    }

    /// An item: its text is `content_text`, else `content_html` reduced, else `summary`.
    private static func entry(_ item: JSONTree, base: URL?, feedAuthor: String?) throws(FeedError) -> FeedEntry {
        let text: String? =
            if let plain = item["content_text"]?.string {
                FeedText.trimmed(plain)
            } else if let html = item["content_html"]?.string {
                FeedText.html(html)
            } else {
                item["summary"]?.string.map(FeedText.trimmed)
            }
        let published = item["date_published"]?.string.flatMap(FeedDates.micros)
        let image = item["image"]?.string ?? item["banner_image"]?.string
        return FeedEntry.reading(
            id: item["id"].flatMap(idText), title: FeedText.oneLine(item["title"]?.string),
            link: item["url"]?.string.map { resolve($0, against: base) }, author: author(of: item) ?? feedAuthor,
            text: text, timeMicros: published ?? item["date_modified"]?.string.flatMap(FeedDates.micros),
            image: image.map { resolve($0, against: base) })
    }

    /// An item's `id` as text: a string as it is, a number as its digits (`3` → `"3"`, `2.5` → `"2.5"`).
    private static func idText(_ id: JSONTree) -> String? {
        switch id {
        case .string(let text): return text
        case .number(let value) where value.isFinite:
            if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
            return String(value)
        default: return nil
        }
    }

    /// `authors[0].name` (1.1), else `author.name` (1.0).
    private static func author(of object: JSONTree) -> String? {
        if let name = object["authors"]?.elements?.first?["name"]?.string { return name }
        return object["author"]?["name"]?.string
    }

    private static func resolve(_ link: String, against base: URL?) -> String {
        guard let base, let resolved = URL(string: link, relativeTo: base) else { return link }
        return resolved.absoluteString
    }
}
