import Foundation

/// Which kind of feed a body was, found from the body itself and never from the address's suffix
/// (docs/FEEDS.md, "Reading feeds").
public enum FeedFormat: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Netscape's RSS 0.90: RDF, with the `http://my.netscape.com/rdf/simple/0.9/` namespace.
    case rss090
    /// RSS 0.91 (`<rss version="0.91">`, Netscape's or UserLand's).
    case rss091
    /// RSS 0.92 (and the short-lived 0.93 and 0.94, read the same way).
    case rss092
    /// RSS 1.0: RDF, with the `http://purl.org/rss/1.0/` namespace.
    case rss10
    /// RSS 2.0 (`<rss version="2.0">`, or an `<rss>` with no version).
    case rss20
    /// Atom 0.3 (`http://purl.org/atom/ns#`).
    case atom03
    /// Atom 1.0, RFC 4287 (`http://www.w3.org/2005/Atom`).
    case atom10
    /// JSON Feed 1.0 (`https://jsonfeed.org/version/1`).
    case jsonFeed10
    /// JSON Feed 1.1 (`https://jsonfeed.org/version/1.1`).
    case jsonFeed11

    /// The format's name as people write it: "RSS 2.0", "Atom 1.0", "JSON Feed 1.1".
    public var description: String {
        switch self {
        case .rss090: "RSS 0.90"
        case .rss091: "RSS 0.91"
        case .rss092: "RSS 0.92"
        case .rss10: "RSS 1.0"
        case .rss20: "RSS 2.0"
        case .atom03: "Atom 0.3"
        case .atom10: "Atom 1.0"
        case .jsonFeed10: "JSON Feed 1.0"
        case .jsonFeed11: "JSON Feed 1.1"
        }
    }

    /// The format of an `<rss>` document whose `version` attribute is `version`.
    static func rss(version: String?) -> FeedFormat {
        switch version?.trimmingCharacters(in: .whitespaces) {
        case "0.91": .rss091
        case "0.92", "0.93", "0.94": .rss092
        default: .rss20
        }
    }
}
