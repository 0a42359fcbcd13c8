import Foundation

/// Titles, summaries and contents reduced to the plain text a row shows (docs/FEEDS.md, "Reading feeds:
/// text"), with ``HTMLText`` for whatever is HTML.
enum FeedText {
    /// A title as one line of text: markup and entities that a feed escaped into it reduced (RSS titles are
    /// often HTML), runs of white space made one space. `nil` when nothing is left.
    static func title(_ raw: String?) -> String? {
        guard let raw else { return nil }
        return oneLine(looksLikeHTML(raw) ? HTMLText.plain(raw) : raw)
    }

    /// `text` with its runs of white space made one space, trimmed; `nil` when nothing is left.
    static func oneLine(_ text: String?) -> String? {
        guard let words = text?.split(whereSeparator: { $0.isWhitespace }), !words.isEmpty else { return nil }
        return words.joined(separator: " ")
    }

    /// `text` without the white space at its ends, in pure Swift: Foundation's `trimmingCharacters` goes
    /// through `NSString` on Linux, and runs for every field of every entry.
    static func trimmed(_ text: some StringProtocol) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }

    /// HTML (an RSS `description`, `content:encoded`, a JSON Feed `content_html`) as text, trimmed.
    static func html(_ raw: String) -> String {
        trimmed(HTMLText.plain(raw))
    }

    /// An Atom text construct (RFC 4287 section 3.1; Atom 0.3's `type` and `mode`) as text: `text` as it is,
    /// `html` (or 0.3's escaped mode) reduced, `xhtml` (inline markup) written back and reduced, 0.3's base64
    /// decoded first.
    static func atom(_ element: XMLFeedElement?) -> String? {
        guard let element else { return nil }
        let type = (element.attributes["type"] ?? "text").lowercased()
        let mode = element.attributes["mode"]?.lowercased()
        var raw = element.text
        if mode == "base64" {
            let decoded = Data(base64Encoded: trimmed(raw), options: .ignoreUnknownCharacters)
            raw = decoded.map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        let text: String
        if type == "xhtml" || type == "application/xhtml+xml" || element.hasElements {
            text = html(element.innerMarkup)
        } else if type == "html" || type == "text/html" || mode == "escaped" {
            text = html(raw)
        } else {
            text = trimmed(raw)
        }
        return text.isEmpty ? nil : text
    }

    /// Whether `text` holds a tag (`<` then a letter, `/` or `!`) or an entity (`&name;`, `&#…;`).
    static func looksLikeHTML(_ text: String) -> Bool {
        var previous: Character = " "
        var inEntity = false
        var entityLength = 0
        for character in text {
            if previous == "<", character.isLetter || character == "/" || character == "!" { return true }
            if inEntity {
                if character == ";", entityLength > 0 { return true }
                if character.isLetter || character.isNumber || character == "#" {
                    entityLength += 1
                    if entityLength > 10 { inEntity = false }
                } else {
                    inEntity = false
                }
            }
            if character == "&" {
                inEntity = true
                entityLength = 0
            }
            previous = character
        }
        return false
    }

    /// An RSS `author` as a name: `jane@example.org (Jane Doe)` is Jane Doe, as feedparser's `author_detail`
    /// reads it; anything else is kept as written.
    static func person(_ raw: String?) -> String? {
        guard let raw = raw.map(trimmed), !raw.isEmpty else { return nil }
        if raw.hasSuffix(")"), let open = raw.firstIndex(of: "("), raw[..<open].contains("@") {
            let name = raw[raw.index(after: open)..<raw.index(before: raw.endIndex)]
                .trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { return name }
        }
        return raw
    }
}
