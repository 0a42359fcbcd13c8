/// Whether a request that writes (a post to the feed, an app's own route) may come from the page that sent it
/// (docs/HARDENING.md, "Cross-site writes").
///
/// A browser lets any website send a form or a `text/plain` `fetch` to any address without asking (no CORS
/// preflight), and a LAN server is reachable from every phone on the LAN. So a write is taken only:
/// - as `application/json`: a cross-site page can send that only after a preflight, which this server never
///   grants; a form cannot send it at all;
/// - from no browser (no `Origin`, no `Sec-Fetch-Site`: `curl`, a script), or from a page of the server's own
///   origins (``OriginPolicy``); `Origin: null` (a sandboxed frame, a `file:` page) is refused;
/// - and never with `Sec-Fetch-Site: cross-site`, whatever `Origin` says.
public struct CrossSiteWrites: Sendable, Equatable {
    /// What the checks read of a request.
    public struct Request: Sendable, Equatable {
        public var contentType: String?
        public var origin: String?
        public var fetchSite: String?

        public init(contentType: String?, origin: String?, fetchSite: String?) {
            self.contentType = contentType
            self.origin = origin
            self.fetchSite = fetchSite
        }
    }

    public enum Decision: Sendable, Equatable {
        case accept
        /// The HTTP status (403 or 415), the error's code and its message.
        case refuse(status: Int, code: String, message: String)
    }

    public let origins: OriginPolicy

    public init(origins: OriginPolicy) {
        self.origins = origins
    }

    public func decide(_ request: Request) -> Decision {
        if request.fetchSite?.lowercased() == "cross-site" {
            return .refuse(
                status: 403, code: "cross_site",
                message: "a write from another site is refused (Sec-Fetch-Site: cross-site)")
        }
        if case .refuse(let reason) = origins.decide(origin: request.origin) {
            return .refuse(
                status: 403, code: "cross_site",
                message: "a write from origin \(Self.shorten(request.origin ?? "-")) is refused: \(reason)")
        }
        guard Self.isJSON(request.contentType) else {
            return .refuse(
                status: 415, code: "unsupported_media_type",
                message:
                    "a write is JSON: send Content-Type: application/json (got \(Self.shorten(request.contentType ?? "none")))"
            )
        }
        return .accept
    }

    /// `application/json`, with parameters (`; charset=utf-8`) or without, in any case.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return type.trimmingCharacters(in: [" ", "\t"]).lowercased() == "application/json"
    }

    static func shorten(_ text: String) -> String {
        text.count <= 80 ? text : String(text.prefix(80)) + "…"
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return text
    }
}
