import ArgumentParser
import Foundation
import RefreshFeeds
import RefreshKit

extension FeedCommand {
    /// `feed read PATH-OR-URL [--base URL] [--json]`: one feed document read as the `feed:` source reads it
    /// (docs/FEEDS.md, "Reading feeds"); e2e/feeds compares its entries with feedparser's.
    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read one feed (RSS, Atom or JSON Feed) from a file or an address and print its entries.",
            discussion: """
                Prints the format found and the entries in the feed's own order. With --json: one JSON object \
                a line, the document first ({"format","title","next"}), then each entry with the keys id, \
                title, link, author, text, time (seconds since 1970, UTC; null when undated), timeMicros and \
                image, null when missing. Errors are printed to stderr with exit 1.
                """
        )

        @Argument(help: ArgumentHelp("A file, or an http or https address.", valueName: "path-or-url"))
        var source: String

        @Option(help: "The address relative links resolve against (a file's default: none; an address's: itself).")
        var base: String?

        @Flag(help: "JSON lines instead of text.")
        var json = false

        @Option(help: "The time limit of a fetch, milliseconds.")
        var timeoutMs = FeedLimits().timeoutMs

        func run() throws {
            let limits = FeedLimits(timeoutMs: timeoutMs)
            let isAddress = source.hasPrefix("http://") || source.hasPrefix("https://")
            let document = try FeedCLI.run { () throws(FeedError) -> FeedDocument in
                let data: Data
                if isAddress {
                    // its own host as written, and the internet (docs/FEEDS.md, "What is fetched, and what is refused")
                    data = try CurlFetcher.fetch(
                        source, timeoutMs: limits.timeoutMs, maxBytes: limits.maxBodyBytes,
                        policy: FetchPolicy.outsideOnly.allowing(hostOf: source))
                } else {
                    guard FileManager.default.fileExists(atPath: source) else { throw .missing(path: source) }
                    guard let read = FileManager.default.contents(atPath: source) else {
                        throw .unavailable("\(source) cannot be read")
                    }
                    data = read
                }
                return try FeedDocument(reading: data, url: base ?? (isAddress ? source : nil), limits: limits)
            }
            if json {
                try printLine(DocumentLine(document))
                for entry in document.entries { try printLine(EntryLine(entry)) }
            } else {
                print("\(document.format): \(document.title ?? "(untitled)"), \(document.entries.count) entries")
                for entry in document.entries {
                    let date = entry.timeMicros.map { Date(timeIntervalSince1970: Double($0) / 1e6).description }
                    print("- \(entry.title ?? "(untitled)")  [\(date ?? "undated")]  \(entry.link ?? entry.id)")
                }
            }
        }

        private func printLine(_ value: some Encodable) throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(value), as: UTF8.self))
        }
    }

    /// The first JSON line of `feed read --json`.
    private struct DocumentLine: Encodable {
        let document: FeedDocument
        init(_ document: FeedDocument) { self.document = document }

        private enum Keys: String, CodingKey { case format, title, next }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(document.format.description, forKey: .format)
            try container.encode(document.title, forKey: .title)
            try container.encode(document.nextURL, forKey: .next)
        }
    }

    /// An entry's JSON line: every key always there, `null` when missing, so a reader needs no defaults.
    private struct EntryLine: Encodable {
        let entry: FeedEntry
        init(_ entry: FeedEntry) { self.entry = entry }

        private enum Keys: String, CodingKey { case id, title, link, author, text, time, timeMicros, image }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(entry.id, forKey: .id)
            try container.encode(entry.title, forKey: .title)
            try container.encode(entry.link, forKey: .link)
            try container.encode(entry.author, forKey: .author)
            try container.encode(entry.text, forKey: .text)
            // Whole seconds, rounded down, as feedparser's dates are.
            let seconds = entry.timeMicros.map { $0 >= 0 ? $0 / 1_000_000 : ($0 - 999_999) / 1_000_000 }
            try container.encode(seconds, forKey: .time)
            try container.encode(entry.timeMicros, forKey: .timeMicros)
            try container.encode(entry.image, forKey: .image)
        }
    }
}
