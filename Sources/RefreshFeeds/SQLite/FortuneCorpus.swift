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
        for line in removingOverstrikes(text).split(separator: "\n", omittingEmptySubsequences: false) {
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
        var lines = raw.map { String($0.reversed().drop(while: \.isWhitespace).reversed()) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        guard !lines.isEmpty else { return nil }
        var author: String?
        if let start = lines.lastIndex(where: { $0.drop(while: \.isWhitespace).hasPrefix("-- ") }), start > 0 {
            let attribution = lines[start...].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            author = String(attribution.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            lines.removeSubrange(start...)
            while lines.last?.isEmpty == true { lines.removeLast() }
        }
        let text = lines.joined(separator: "\n")
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return Entry(text: text, author: author?.isEmpty == true ? nil : author)
    }

    private static func removingOverstrikes(_ text: String) -> String {
        guard text.contains("\u{8}") else { return text }
        var kept: [Character] = []
        for character in text {
            if character == "\u{8}" {
                if !kept.isEmpty { kept.removeLast() }
            } else {
                kept.append(character)
            }
        }
        return String(kept)
    }
}
