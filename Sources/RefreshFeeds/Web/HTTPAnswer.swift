import Foundation

/// One HTTP answer as the feed's fetch cache reads it: the status, the body, and the headers that say how long
/// the body stays good and how to ask again (RFC 9111 caching, RFC 9110 conditional requests; docs/FEEDS.md,
/// "What is fetched when").
public struct HTTPAnswer: Sendable {
    /// The status (304 for "not modified", after a conditional request).
    public var status: Int
    public var body: Data
    /// `Content-Type`, when the answer said one.
    public var contentType: String?
    /// `ETag`, sent back as `If-None-Match`.
    public var etag: String?
    /// `Last-Modified`, sent back as `If-Modified-Since`.
    public var lastModified: String?
    /// `Cache-Control`, whole.
    public var cacheControl: String?
    /// `Retry-After`, in seconds (a date is turned into seconds by libcurl).
    public var retryAfterSeconds: Int?

    public init(
        status: Int, body: Data = Data(), contentType: String? = nil, etag: String? = nil, lastModified: String? = nil,
        cacheControl: String? = nil, retryAfterSeconds: Int? = nil
    ) {
        self.status = status
        self.body = body
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.cacheControl = cacheControl
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// How long the body may be used without asking again: `max-age` (`s-maxage` first, as a shared cache
    /// reads it), none under `no-store` or `no-cache`, and none when the answer does not say.
    public var freshSeconds: Int {
        guard let cacheControl else { return 0 }
        var maxAge: Int?
        var shared: Int?
        for directive in cacheControl.lowercased().split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch parts.first {
            case "no-store", "no-cache": return 0
            case "max-age": maxAge = parts.count > 1 ? Int(parts[1].trimmingCharacters(in: ["\""])) : nil
            case "s-maxage": shared = parts.count > 1 ? Int(parts[1].trimmingCharacters(in: ["\""])) : nil
            default: break
            }
        }
        return max(0, shared ?? maxAge ?? 0)
    }

    /// Whether the answer asks the client to come back later: 429 (too many requests) or 503 (unavailable).
    public var asksToWait: Bool { status == 429 || status == 503 }
}
