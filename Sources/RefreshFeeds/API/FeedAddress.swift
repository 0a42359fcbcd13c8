import Foundation
import RefreshKit

/// Where a feed comes from, as a person types it: `sqlite:PATH`, `feed:URL`, `jsonfeed:URL` or `simulated`.
public enum FeedAddress: Hashable, Sendable, CustomStringConvertible {
    /// A SQLite file (``SQLiteFeed``).
    case sqlite(path: String)
    /// A feed of any format at an http or https address (``WebFeedSource``).
    case web(url: String)
    /// The same, by its older name, for a JSON Feed (``WebFeedSource``, which reads any format).
    case jsonFeed(url: String)
    /// The engine's simulated feed (``SimulatedSource``).
    case simulated

    /// Parses `text`. - Throws: `FeedError/badAddress(_:)` saying what is wrong and what is expected.
    public init(parsing text: String) throws(FeedError) {
        let expected = "expected sqlite:PATH, feed:URL, jsonfeed:URL or simulated"
        if text == "simulated" {
            self = .simulated
        } else if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw .badAddress("\"sqlite:\" needs a file path, as in sqlite:feed.db") }
            self = .sqlite(path: path)
        } else if let prefix = ["feed:", "jsonfeed:"].first(where: text.hasPrefix) {
            let url = String(text.dropFirst(prefix.count))
            guard let scheme = URL(string: url)?.scheme?.lowercased(), ["http", "https"].contains(scheme),
                URL(string: url)?.host?.isEmpty == false
            else {
                throw .badAddress(
                    "\"\(url)\" is not an http or https address, as in \(prefix)https://example.org/feed.xml")
            }
            self = prefix == "feed:" ? .web(url: url) : .jsonFeed(url: url)
        } else if text.isEmpty {
            throw .badAddress("the address is empty; \(expected)")
        } else {
            throw .badAddress("\"\(text)\" names no known source; \(expected)")
        }
    }

    /// The address as typed.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .web(let url): "feed:\(url)"
        case .jsonFeed(let url): "jsonfeed:\(url)"
        case .simulated: "simulated"
        }
    }

    /// Opens the source this address names (a missing SQLite file is created and filled).
    /// - Parameters:
    ///   - limits: what a SQLite or web source keeps to (the simulated source takes none).
    ///   - policy: where a web source may connect, besides its own host as written (``FetchPolicy``).
    ///   - nowMicros: the time now, µs since 1970 (a new SQLite file's items are dated before it).
    public func open(
        limits: FeedLimits = FeedLimits(), policy: FetchPolicy = .outsideOnly, nowMicros: Int64
    ) throws(FeedError) -> any FeedSource {
        switch self {
        case .sqlite(let path): try SQLiteFeed(path: path, limits: limits, nowMicros: nowMicros)
        case .web(let url): WebFeedSource(url: url, limits: limits, policy: policy)
        case .jsonFeed(let url): WebFeedSource(url: url, scheme: "jsonfeed", limits: limits, policy: policy)
        case .simulated: SimulatedSource()
        }
    }
}
