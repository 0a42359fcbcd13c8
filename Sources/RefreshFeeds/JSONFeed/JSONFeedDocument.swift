import Foundation
import RefreshKit
import RefreshWire

/// One fetched JSON Feed 1.1 document, reduced to what a list shows (the fields read: docs/FEEDS.md).
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

    /// Parses a JSON Feed from `data` (the wire's validating reader, ``JSONTree``, as every JSON the server
    /// reads; this runs on the feed worker).
    ///
    /// Each item needs an `id` (a string, or a number taken as its text), a `content_text` or
    /// `content_html` (reduced to its text; `summary` or `title` when neither is there) and a
    /// `date_published` (or `date_modified`) in RFC 3339. Its author is `authors[0].name` (JSON Feed 1.0's
    /// `author.name`, or the feed's own author, when missing); its picture is `image`.
    /// - Throws: `FeedError/oversized(what:limit:)` past ``FeedLimits/maxBodyBytes``,
    ///   `FeedError/malformed(_:)` naming the first fault (for text that is not JSON, the reader's: what, and at
    ///   which byte).
    public init(parsing data: Data, limits: FeedLimits = FeedLimits()) throws(FeedError) {
        guard data.count <= limits.maxBodyBytes else { throw .oversized(what: "body", limit: limits.maxBodyBytes) }
        let read = data.withUnsafeBytes { bytes in
            // RFC 8259 lets a reader ignore a leading byte order mark, which some servers send.
            let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            return Result { () throws(WireError) in
                try JSONTree.read(UnsafeRawBufferPointer(rebasing: bytes[bom...]), maxDepth: Self.maxDepth)
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
        guard let version = root["version"]?.string, version.hasPrefix("https://jsonfeed.org/version/1") else {
            throw .malformed("\"version\" is not a JSON Feed 1.x version (https://jsonfeed.org/version/1.1)")
        }
        guard let items = root["items"]?.elements else { throw .malformed("\"items\" is missing or not an array") }
        let feedAuthor = Self.author(of: root)
        let dates = RFC3339Dates()
        var parsed: [FeedItem] = []
        parsed.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard case .object = item else { throw .malformed("item \(index) is not an object") }
            parsed.append(try Self.item(item, index: index, feedAuthor: feedAuthor, dates: dates))
        }
        self.init(title: root["title"]?.string, items: parsed, nextURL: root["next_url"]?.string)
    }

    /// The deepest nesting read: the wire reader's most (a feed's item's author is four deep; an extension's
    /// values may nest further).
    static let maxDepth = 64

    private static func item(
        _ item: JSONTree, index: Int, feedAuthor: String?, dates: RFC3339Dates
    ) throws(FeedError) -> FeedItem {
        guard let id = item["id"].flatMap(idText) else { throw .malformed("item \(index) has no \"id\"") }
        let text: String
        if let plain = item["content_text"]?.string {
            text = plain
        } else if let html = item["content_html"]?.string {
            text = HTMLText.plain(html)
        } else if let summary = item["summary"]?.string ?? item["title"]?.string {
            text = summary
        } else {
            throw .malformed("item \"\(id)\" has neither \"content_text\" nor \"content_html\"")
        }
        guard let date = item["date_published"]?.string ?? item["date_modified"]?.string else {
            throw .malformed("item \"\(id)\" has no \"date_published\"")
        }
        guard let time = dates.micros(date) else {
            throw .malformed("item \"\(id)\" has a \"date_published\" that is not RFC 3339: \"\(date)\"")
        }
        let image = item["image"]?.string.map { FeedImage(url: $0) }
        return FeedItem(
            id: id, text: text.trimmingCharacters(in: .whitespacesAndNewlines),
            author: author(of: item) ?? feedAuthor, timeMicros: time, image: image)
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

    private static func author(of object: JSONTree) -> String? {
        if let name = object["authors"]?.elements?.first?["name"]?.string { return name }
        return object["author"]?["name"]?.string
    }
}

/// RFC 3339 dates (JSON Feed's: `2026-11-24T10:00:00Z`, `2026-11-24T10:00:00.250+01:00`) as µs since 1970.
///
/// Read by hand, as Foundation's ISO8601DateFormatter was too slow for a 10 000-item feed (docs/FEEDS.md,
/// "jsonfeed:URL").
struct RFC3339Dates {
    func micros(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("Tt "), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var fraction: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100_000
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) {
                fraction += Int64(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset: Int64 = 0
        if expect("Zz") {
            offset = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2), expect(":"), let minutes = number(2) else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds =
            Self.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return seconds * 1_000_000 + fraction
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar: Howard Hinnant's days_from_civil
    /// (docs/FEEDS.md, "jsonfeed:URL").
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
