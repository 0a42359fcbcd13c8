import Foundation
import RefreshWire

/// `GET /feed/image?u=URL` decided as values (docs/FEEDS.md, "Images"); ``ImageRequests`` does the lws side and
/// ``ImageFetchService`` the fetching.
///
/// Why by address and not by item id: the page has the address already (the item's `image.url`), an image that
/// several items share is fetched and kept once, the address is the cache's key and the browser's, and a
/// row dropped from a session (its page far from the viewport) does not stop its image being served. The
/// address must be one the feed gave (``KnownImageURLs``): anything else is refused, so the server fetches
/// nothing a page makes up.
///
/// The answers:
/// - 200 with the image (its type from its bytes), `Cache-Control: public, max-age=86400` and an `ETag`;
///   304 when `If-None-Match` names that tag;
/// - 400 `bad_url`: no `u`, longer than ``ImageLimits/maxURLBytes``, not http(s);
/// - 403 `not_in_feed`: an address no item of the feed has;
/// - 405 `method_not_allowed`: not GET or HEAD;
/// - 502 `source_failed` (unreachable, an address the feed's `FetchPolicy` refuses, an HTTP error: one reason
///   for all, "could not fetch the image"), `too_large` (over ``ImageLimits/maxImageBytes``),
///   `not_an_image` (a type other than PNG, JPEG, GIF, WebP or AVIF, by its `Content-Type` or its bytes);
/// - 503 `busy`: too many images being fetched already;
/// - 504 `timed_out`: the source took longer than ``ImageLimits/timeoutMilliseconds``.
///
/// An error is `{"error":{"code":"…","message":"…"}}` with `Cache-Control: no-store`.
enum ImageEndpoint {
    static let path = "/feed/image"
    /// How long a browser keeps an image before asking again (with its tag), seconds.
    static let maxAgeSeconds = 86_400

    /// A complete answer: status, headers that vary, body.
    struct Response: Sendable, Equatable {
        var status: Int32
        var contentType: String
        var body: [UInt8]
        var cacheControl = "no-store"
        var etag: String?
        /// Why a request was refused, for the log; nil for a success.
        var refusal: String?
        /// The refusal's stable name (the JSON's `code`).
        var code: String?
    }

    /// What the source did with an image.
    enum FetchFailure: Error, Sendable, Equatable {
        /// Unreachable, or it answered an HTTP error status: the reason.
        case sourceFailed(String)
        case timedOut(milliseconds: Int)
        case tooLarge(limit: Int)
        /// Not one of the ``ImageKind``s: what it was.
        case notAnImage(String)
    }

    /// What a fetch brought.
    struct Fetched: Sendable, Equatable {
        var bytes: [UInt8]
        /// The answer's `Content-Type`, nil when it had none.
        var contentType: String?
    }

    /// The address asked for, checked: an http or https URL of at most `limits.maxURLBytes` bytes. - Returns: the
    /// 400 answer otherwise.
    static func check(url: String?, limits: ImageLimits) -> Result<String, RefusedRequest> {
        guard let url, !url.isEmpty else {
            return .failure(RefusedRequest(error(400, "bad_url", "\(path) needs ?u=… (an image address of the feed)")))
        }
        guard url.utf8.count <= limits.maxURLBytes else {
            return .failure(
                RefusedRequest(error(400, "bad_url", "the image address is longer than \(limits.maxURLBytes) bytes")))
        }
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), URL(string: url)?.host != nil else {
            return .failure(RefusedRequest(error(400, "bad_url", "only http and https image addresses are served")))
        }
        return .success(url)
    }

    /// A refusal, as a `Result`'s failure.
    struct RefusedRequest: Error, Sendable, Equatable {
        var response: Response
        init(_ response: Response) { self.response = response }
    }

    static let notInFeed = error(
        403, "not_in_feed", "the address is not the image of any item the feed gave; only those are served")
    static let wrongMethod = error(405, "method_not_allowed", "only GET and HEAD are answered at \(path)")
    static let busy = error(503, "busy", "too many images are being fetched; try again")
    static let noFeed = error(404, "no_feed", "the server has no external feed, so no images")

    /// The image fetched, checked (`limits`): the image to keep and serve, or why not.
    static func image(from fetched: Fetched, limits: ImageLimits) -> Result<ImageCache.Image, FetchFailure> {
        guard fetched.bytes.count <= limits.maxImageBytes else {
            return .failure(.tooLarge(limit: limits.maxImageBytes))
        }
        let declared = fetched.contentType ?? "(none)"
        guard ImageKind(mediaType: declared) != nil else {
            return .failure(.notAnImage("the source sent Content-Type \(declared)"))
        }
        guard let kind = ImageKind.sniff(fetched.bytes) else {
            return .failure(
                .notAnImage("the source sent \(declared) but the bytes are not PNG, JPEG, GIF, WebP or AVIF"))
        }
        return .success(ImageCache.Image(bytes: fetched.bytes, kind: kind))
    }

    /// The answer for a kept image; 304 when the browser has it (`ifNoneMatch` holds its tag).
    static func response(for image: ImageCache.Image, ifNoneMatch: String?) -> Response {
        let cache = "public, max-age=\(maxAgeSeconds)"
        if let ifNoneMatch,
            ifNoneMatch.split(separator: ",").contains(where: {
                let tag = $0.trimmingCharacters(in: .whitespaces)
                return tag == image.etag || tag == "W/" + image.etag || tag == "*"
            })
        {
            return Response(
                status: 304, contentType: image.kind.mediaType, body: [], cacheControl: cache, etag: image.etag)
        }
        return Response(
            status: 200, contentType: image.kind.mediaType, body: image.bytes, cacheControl: cache, etag: image.etag)
    }

    /// The answer for a failed fetch. The page is told the code and a short reason, never what the source sent
    /// nor why it could not be reached (one "could not fetch" for a refused address, a closed port, an HTTP
    /// status: docs/FEEDS.md, "What is fetched, and what is refused"); the log line has the whole reason
    /// (``Response/refusal``).
    static func response(for failure: FetchFailure) -> Response {
        switch failure {
        case .sourceFailed(let reason):
            return error(502, "source_failed", "could not fetch the image", log: "could not fetch the image: \(reason)")
        case .timedOut(let milliseconds):
            return error(504, "timed_out", "the image's source did not answer within \(milliseconds) ms")
        case .tooLarge(let limit):
            return error(502, "too_large", "the image is larger than the limit of \(limit) bytes")
        case .notAnImage(let what):
            let shown = "not a PNG, JPEG, GIF, WebP or AVIF image"
            return error(502, "not_an_image", shown, log: "\(shown): \(what)")
        }
    }

    /// A JSON error answer (the wire's writer); `log` is the log line's reason when it says more than `message`.
    static func error(_ status: Int32, _ code: String, _ message: String, log: String? = nil) -> Response {
        let body = JSONTree.object([("error", .object([("code", .string(code)), ("message", .string(message))]))])
        return Response(
            status: status, contentType: "application/json", body: body.bytes, refusal: log ?? message, code: code)
    }
}
