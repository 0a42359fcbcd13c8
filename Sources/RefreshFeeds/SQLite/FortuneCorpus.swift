import Foundation
import RefreshKit

/// The text a new SQLite feed starts with: quotations from Debian's `fortunes` package (the BSD fortune
/// files, in /usr/share/games/fortunes; licence in docs/FEEDS.md).
///
/// A fortune file is in strfile's format: entries separated by lines holding only `%`. An entry's last
/// lines that start (after white space) with `-- ` are its attribution; they become the item's author.
public enum FortuneCorpus {
    /// Where Debian's `fortunes` package puts its files.
    public static let folder = "/usr/share/games/fortunes"

    /// The files read, all prose (the `art` and `ascii-art` files are pictures and are left out).
    public static let files = [
        "fortunes", "wisdom", "literature", "humorists", "people", "science", "computers", "pratchett", "work",
        "education", "love", "food", "politics", "law", "medicine", "sports", "tao", "platitudes",
    ]

    /// One quotation: its text and, when attributed, its author.
    public struct Entry: Hashable, Sendable {
        /// The quotation, lines joined with newlines, trailing white space removed.
        public var text: String
        /// The attribution without its `-- `, lines joined with a space.
        public var author: String?

        /// An entry; an app may fill a new ``SQLiteFeed`` with entries of its own.
        public init(text: String, author: String? = nil) {
            self.text = text
            self.author = author
        }
    }

    /// Every entry of the files in `folder` (the UTF-8 `.u8` versions where Debian ships them), in file
    /// order. - Throws: `FeedError/missing(path:)` when none of the files exists (`fortunes` is not
    /// installed: `scripts/ensure-deps.sh` installs it).
    public static func load(folder: String = folder) throws(FeedError) -> [Entry] {
        var entries: [Entry] = []
        var found = false
        for name in files {
            let base = "\(folder)/\(name)"
            guard
                let data = FileManager.default.contents(atPath: base + ".u8")
                    ?? FileManager.default.contents(atPath: base)
            else { continue }
            found = true
            entries += parse(String(decoding: data, as: UTF8.self))
        }
        guard found else { throw .missing(path: "\(folder)/fortunes (install Debian's fortunes package)") }
        return entries
    }

    /// The entries of one fortune file's text; empty entries are skipped, overstruck characters
    /// (`x` backspace `x`, as some old files use for bold) are reduced to one.
    public static func parse(_ text: String) -> [Entry] {
        var entries: [Entry] = []
        var lines: [Substring] = []
        // Lines and the `%` between entries are found in the UTF-8 bytes: the files are a few megabytes, and a walk
        // by Characters (grapheme clusters) makes a debug build's first start take seconds.
        let text = removingOverstrikes(text)
        for bytes in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let line = Substring(bytes)
            if line == "%" {
                if let entry = entry(lines) { entries.append(entry) }
                lines = []
            } else {
                lines.append(line)
            }
        }
        if let entry = entry(lines) { entries.append(entry) }
        return entries
    }

    private static func entry(_ raw: [Substring]) -> Entry? {
        var lines = raw.map(trimmingTrailingWhiteSpace)
        while lines.last?.isEmpty == true { lines.removeLast() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        guard !lines.isEmpty else { return nil }
        var author: String?
        if let start = lines.lastIndex(where: { $0.drop(while: \.isWhitespace).hasPrefix("-- ") }), start > 0 {
            let attribution = lines[start...].map { trimmingWhiteSpace($0[...]) }.joined(separator: " ")
            author = trimmingWhiteSpace(attribution.dropFirst(3))
            lines.removeSubrange(start...)
            while lines.last?.isEmpty == true { lines.removeLast() }
        }
        let text = lines.joined(separator: "\n")
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else { return nil }
        return Entry(text: text, author: author?.isEmpty == true ? nil : author)
    }

    /// `line` without the white space it ends with. An ASCII end is trimmed in its bytes; a line that ends in
    /// another character is trimmed by Characters, which knows Unicode's white space.
    private static func trimmingTrailingWhiteSpace(_ line: Substring) -> String {
        let bytes = line.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex {
            let before = bytes.index(before: end)
            switch bytes[before] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0A...0x0D: end = before
            case 0x80...: return String(line[..<end].reversed().drop(while: \.isWhitespace).reversed())
            default: return String(line[..<end])
            }
        }
        return ""
    }

    /// `text` without the white space (Unicode's) it starts and ends with.
    private static func trimmingWhiteSpace(_ text: Substring) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(Substring(scalars[first...last]))
    }

    /// `text` with each backspace and the character before it removed, in its UTF-8 bytes: a character's bytes
    /// are its lead byte and the continuation bytes (`10xxxxxx`) after it.
    private static func removingOverstrikes(_ text: String) -> String {
        guard text.utf8.contains(0x08) else { return text }
        var kept: [UInt8] = []
        kept.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            guard byte == 0x08 else {
                kept.append(byte)
                continue
            }
            while let last = kept.popLast(), last & 0xC0 == 0x80 {}
        }
        return String(decoding: kept, as: UTF8.self)
    }
}
