import Foundation
import RefreshKit

/// One fetched feed document of any format, read as a feed reader reads it (docs/FEEDS.md, "Reading feeds").
///
/// The entries keep the document's own order, whatever their dates: feeds list pinned, edited and podcast
/// entries out of time order, and no feed reader refuses them.
public struct FeedDocument: Hashable, Sendable {
    /// The format the body was found to be.
    public var format: FeedFormat
    /// The feed's title, when it has one.
    public var title: String?
    /// The entries, in the document's order.
    public var entries: [FeedEntry]
    /// The address of the next page of the feed (JSON Feed `next_url`; Atom's or RSS's `atom:link rel="next"`,
    /// RFC 5005), absolute, when there is one.
    public var nextURL: String?

    /// A document; see the properties.
    public init(format: FeedFormat, title: String?, entries: [FeedEntry], nextURL: String?) {
        self.format = format
        self.title = title
        self.entries = entries
        self.nextURL = nextURL
    }

    /// Reads `data`, a feed of any format found from its bytes.
    ///
    /// - Parameters:
    ///   - data: the document's bytes, as fetched.
    ///   - url: the address it was fetched from, against which relative links are resolved (an `xml:base`
    ///     takes precedence), or `nil`.
    ///   - limits: the largest body, number of entries and field it reads.
    /// - Throws: `FeedError/oversized(what:limit:)` for a body, an entry count or a field past `limits`;
    ///   `FeedError/malformed(_:)` for a body that is no feed ("not a feed: …") or XML that is not well-formed.
    public init(reading data: Data, url: String? = nil, limits: FeedLimits = FeedLimits()) throws(FeedError) {
        guard data.count <= limits.maxBodyBytes else { throw .oversized(what: "body", limit: limits.maxBodyBytes) }
        switch FeedSniffer.kind(of: data) {
        case .json:
            self = try JSONFeedReader.read(data, url: url, limits: limits)
        case .xml:
            self = try XMLFeedReader.read(XMLTreeBuilder.parse(data, url: url, limits: limits), limits: limits)
        case .neither(let reason):
            throw .malformed("not a feed: \(reason)")
        }
    }
}
