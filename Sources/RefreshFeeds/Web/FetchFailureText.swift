import RefreshKit

extension FeedError {
    /// This failure of a fetch of `url` as the pages are told it (a `feed_request`'s error, docs/FEEDS.md "What is
    /// fetched, and what is refused"): its code and a short reason that holds no byte of what was fetched, and one
    /// reason for whatever kept the document from being fetched.
    ///
    /// - `unavailable` (a refused address, a closed port, a connection reset, any HTTP status, a `Retry-After`
    ///   wait) is "could not fetch URL": a feed's author who points the server at addresses cannot tell a closed
    ///   port from a refused address from a status, nor read the services' answers;
    /// - `malformed` is "URL is not a feed this server can read" (not the body's first bytes, not its items' ids);
    /// - `oversized` keeps what was too large but not an entry's id;
    /// - the rest hold nothing of the body (a time limit, a cursor) and are left as they are.
    ///
    /// `url` is the address the source asked for (never one a redirect named), shortened past
    /// ``maxURLCharacters``. The whole reason is for the operator's log (``WebFeedSource/reportFailures(to:)``).
    public func toldToPages(fetching url: String) -> FeedError {
        let shown = url.count <= Self.maxURLCharacters ? url : String(url.prefix(Self.maxURLCharacters)) + "…"
        switch self {
        case .unavailable: return .unavailable("could not fetch \(shown)")
        case .malformed: return .malformed("\(shown) is not a feed this server can read")
        case .oversized(let what, let limit):
            // "text of entry \"…\"": the entry's id is the document's
            let general = what.range(of: " \"").map { String(what[..<$0.lowerBound]) } ?? what
            return .oversized(what: general, limit: limit)
        default: return self
        }
    }

    /// The longest address a page is told (longer ones are cut, with "…").
    public static var maxURLCharacters: Int { 200 }
}
