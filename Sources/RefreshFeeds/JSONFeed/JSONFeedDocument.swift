import Foundation
import RefreshKit

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

    /// Parses a JSON Feed from `data` (Foundation's JSONSerialization; this runs on the feed worker).
    ///
    /// Each item needs an `id` (a string, or a number taken as its text), a `content_text` or
    /// `content_html` (reduced to its text; `summary` or `title` when neither is there) and a
    /// `date_published` (or `date_modified`) in RFC 3339. Its author is `authors[0].name` (JSON Feed 1.0's
    /// `author.name`, or the feed's own author, when missing); its picture is `image`.
    /// - Throws: `FeedError/oversized(what:limit:)` past ``FeedLimits/maxBodyBytes``,
    ///   `FeedError/malformed(_:)` naming the first fault.
    public init(parsing data: Data, limits: FeedLimits = FeedLimits()) throws(FeedError) {
        guard data.count <= limits.maxBodyBytes else { throw .oversized(what: "body", limit: limits.maxBodyBytes) }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .malformed("the body is not JSON")
        }
        guard let feed = root as? [String: Any] else { throw .malformed("the body is not a JSON object") }
        guard let version = feed["version"] as? String, version.hasPrefix("https://jsonfeed.org/version/1") else {
            throw .malformed("\"version\" is not a JSON Feed 1.x version (https://jsonfeed.org/version/1.1)")
        }
        guard let items = feed["items"] as? [Any] else { throw .malformed("\"items\" is missing or not an array") }
        let feedAuthor = Self.author(of: feed)
        let dates = RFC3339Dates()
        var parsed: [FeedItem] = []
        parsed.reserveCapacity(items.count)
        for (index, value) in items.enumerated() {
            guard let item = value as? [String: Any] else { throw .malformed("item \(index) is not an object") }
            parsed.append(try Self.item(item, index: index, feedAuthor: feedAuthor, dates: dates))
        }
        self.init(title: feed["title"] as? String, items: parsed, nextURL: feed["next_url"] as? String)
    }

    private static func item(
        _ item: [String: Any], index: Int, feedAuthor: String?, dates: RFC3339Dates
    ) throws(FeedError) -> FeedItem {
        let id: String
        if let text = item["id"] as? String {
            id = text
        } else if let number = item["id"] as? NSNumber, !(item["id"] is Bool) {
            id = number.stringValue
        } else {
            throw .malformed("item \(index) has no \"id\"")
        }
        let text: String
        if let plain = item["content_text"] as? String {
            text = plain
        } else if let html = item["content_html"] as? String {
            text = HTMLText.plain(html)
        } else if let summary = (item["summary"] as? String) ?? (item["title"] as? String) {
            text = summary
        } else {
            throw .malformed("item \"\(id)\" has neither \"content_text\" nor \"content_html\"")
        }
        guard let date = (item["date_published"] as? String) ?? (item["date_modified"] as? String) else {
            throw .malformed("item \"\(id)\" has no \"date_published\"")
        }
        guard let time = dates.micros(date) else {
            throw .malformed("item \"\(id)\" has a \"date_published\" that is not RFC 3339: \"\(date)\"")
        }
        let image = (item["image"] as? String).map { FeedImage(url: $0) }
        return FeedItem(
            id: id, text: text.trimmingCharacters(in: .whitespacesAndNewlines),
            author: author(of: item) ?? feedAuthor, timeMicros: time, image: image)
    }

    private static func author(of object: [String: Any]) -> String? {
        if let authors = object["authors"] as? [Any], let first = authors.first as? [String: Any],
            let name = first["name"] as? String
        {
            return name
        }
        return (object["author"] as? [String: Any])?["name"] as? String
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
