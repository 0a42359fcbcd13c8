import ArgumentParser
import Dispatch
import Foundation
import RefreshFeeds
import RefreshKit
import Synchronization

/// `refreshkit feed show`: one page of a feed source as JSON; `refreshkit feed read`: a feed document of any
/// format, entry by entry (docs/FEEDS.md).
struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract:
            "Read a feed source (sqlite:PATH, feed:URL, jsonfeed:URL, simulated), or one feed document of any format.",
        subcommands: [Show.self, Read.self]
    )

    /// `feed show --feed ADDRESS [--older CURSOR | --newer CURSOR] [--limit N]`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print one page of a feed as JSON: its items, newest first, and the cursors to go on.",
            discussion: """
                Without a cursor: the newest items. A missing sqlite: file is created and filled from \
                Debian's fortunes. Errors (a missing folder, a locked file, a malformed feed, a timeout) \
                are printed to stderr with exit 1.
                """
        )

        @Option(help: "The feed: sqlite:PATH, feed:URL (RSS, Atom or JSON Feed), jsonfeed:URL or simulated.")
        var feed: String

        @Option(help: ArgumentHelp("Items older than this cursor (a page's olderCursor).", valueName: "cursor"))
        var older: String?

        @Option(help: ArgumentHelp("Items newer than this cursor (a page's newerCursor).", valueName: "cursor"))
        var newer: String?

        @Option(help: "The most items on the page (1…200).")
        var limit = 20

        @Option(help: "The time limit of the request, milliseconds.")
        var timeoutMs = FeedLimits().timeoutMs

        func validate() throws {
            guard (1...FeedLimits().maxItems).contains(limit) else {
                throw ValidationError("--limit must be between 1 and \(FeedLimits().maxItems)")
            }
            guard older == nil || newer == nil else { throw ValidationError("give --older or --newer, not both") }
            guard timeoutMs > 0 else { throw ValidationError("--timeout-ms must be positive") }
        }

        func run() throws {
            let limits = FeedLimits(timeoutMs: timeoutMs)
            let position: FeedPosition =
                if let older { .olderThan(FeedCursor(older)) } else if let newer {
                    .newerThan(FeedCursor(newer))
                } else { .newest }
            // a web source throws the short reason a page is told (docs/FEEDS.md, "What is fetched, and what is
            // refused"); the operator running this is told the whole one too
            let reasons = FeedCLI.Reasons()
            let page = try FeedCLI.run(because: reasons) { () throws(FeedError) -> FeedPage in
                let source = try FeedAddress(parsing: feed).open(limits: limits, nowMicros: FeedCLI.nowMicros())
                (source as? WebFeedSource)?.reportFailures { _, reason in reasons.add(reason) }
                return try FeedCLI.load(FeedRequest(position, limit: limit), from: source, limits: limits)
            }
            try FeedCLI.printJSON(page)
        }
    }
}

/// `refreshkit post --feed sqlite:PATH "text" [--author NAME] [--title TITLE] [--url URL] [--section NAME]`: adds an
/// item at the top of a SQLite feed.
struct PostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post",
        abstract: "Add an item at the top of a SQLite feed, and print it as JSON.",
        discussion: """
            A missing file is created (and filled from Debian's fortunes) first. A server reading the same \
            file sees the item on its next request for newer items.
            """
    )

    @Option(help: "The feed: sqlite:PATH.")
    var feed: String

    @Argument(help: "The item's text.")
    var text: String

    @Option(help: "Who wrote it.")
    var author: String?

    @Option(help: "Its title, drawn above the text.")
    var title: String?

    @Option(help: "The address of the page it stands for: a tap on its row opens it.")
    var url: String?

    @Option(help: "The section it belongs to: the list draws its name as a header above the section's first row.")
    var section: String?

    func run() throws {
        let item = try FeedCLI.run { () throws(FeedError) -> FeedItem in
            guard case .sqlite(let path) = try FeedAddress(parsing: feed) else {
                throw FeedError.badAddress("only a sqlite: feed takes posts, not \(feed)")
            }
            let now = FeedCLI.nowMicros()
            return try SQLiteFeed(path: path, nowMicros: now).post(
                FeedPost(text: text, author: author, title: title, url: url, section: section), timeMicros: now)
        }
        try FeedCLI.printJSON(item)
    }
}

/// What the feed commands share: the clock, the worker, the error exit and the JSON output.
enum FeedCLI {
    /// The wall clock, µs since 1970.
    static func nowMicros() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// The whole reasons a web source reported for what it threw in short (from its worker's thread).
    final class Reasons: Sendable {
        private let reasons = Mutex<[FeedError]>([])
        func add(_ reason: FeedError) { reasons.withLock { $0.append(reason) } }
        var all: [FeedError] { reasons.withLock { $0 } }
    }

    /// Runs `body`; a ``FeedError`` is printed as `error: …` on stderr, followed by a `because: …` line for each
    /// of the whole reasons in `because` (what a web source told in short), and exits 1.
    static func run<T>(because: Reasons? = nil, _ body: () throws(FeedError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            var text = "error: \(error.description) (\(error.code))\n"
            for reason in because?.all ?? [] where reason != error { text += "because: \(reason.description)\n" }
            FileHandle.standardError.write(Data(text.utf8))
            throw ExitCode(1)
        }
    }

    /// `request` answered by a ``FeedWorker``, as the server will: checked, and within the time limit.
    static func load(_ request: FeedRequest, from source: any FeedSource, limits: FeedLimits) throws(FeedError)
        -> FeedPage
    {
        let answered = DispatchSemaphore(value: 0)
        let box = Mutex<FeedAnswer?>(nil)
        let worker = FeedWorker(source: source, limits: limits) { answer in
            box.withLock { $0 = answer }
            answered.signal()
        }
        worker.submit(request)
        answered.wait()
        // Not stopped: a source still blocking past its time limit must not hold the command up (stop waits
        // for the call running); the process ends once the page is printed.
        guard let answer = box.withLock({ $0 }) else { throw .unavailable("no answer") }
        return try answer.outcome.get()
    }

    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
