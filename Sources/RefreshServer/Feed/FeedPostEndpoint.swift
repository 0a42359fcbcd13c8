import RefreshFeeds
import RefreshKit
import RefreshWire

/// `POST /feed/items` decided as values (docs/FEEDS.md, "Posting over HTTP"); ``FeedPosts`` does the lws side.
///
/// The body is JSON, `{"text":"…","author":"…","title":"…","url":"…","section":"…"}` (all but `text` optional), at most
/// ``maxBodyBytes``. The answers, each JSON:
/// - 201 with the item (`{"id":…,"text":…,"author":…,"title":…,"url":…,"section":…,"time":ms}`, the wire's item shape) once
///   the source wrote it;
/// - 400 when the body is not that JSON, the text is empty, or `url` is not an `http:`/`https:` address;
/// - 403 for a client that is not loopback nor in `--feed-post-allow` (the real client behind a trusted proxy), and
///   for a page of another site (`Origin`, `Sec-Fetch-Site: cross-site`), code `forbidden` or `cross_site`;
/// - 415 for a body that is not declared `application/json` (a form, `text/plain`): code `unsupported_media_type`;
/// - 405 for a method other than POST;
/// - 409 when the feed takes no posts (`simulated`, a JSON Feed, a read-only file);
/// - 413 when the body or the text is larger than allowed;
/// - 503 when the file is locked by another program or the source is unavailable.
///
/// An error is `{"error":{"code":"…","message":"…"}}`.
enum FeedPostEndpoint {
    static let path = "/feed/items"
    /// The largest body taken, bytes.
    static let maxBodyBytes = 4096

    /// What a body asks for.
    typealias Post = FeedPost

    /// The members a body may have; all but `text` optional.
    static let members = ["text", "author", "title", "url", "section"]

    /// A body, read.
    enum Decoded: Equatable, Sendable {
        case post(Post)
        /// The 400 or 413 answer.
        case refused(HTTPEndpoints.Response)
    }

    /// The post a body asks for, or the 400/413 answer.
    static func decode(_ body: [UInt8]) -> Decoded {
        guard body.count <= maxBodyBytes else { return .refused(tooLarge) }
        guard let object = (try? JSONTree.read(body))?.members else {
            return .refused(
                error(
                    400, "bad_json",
                    "the body must be a JSON object: {\"text\":\"…\",\"author\":\"…\",\"title\":\"…\",\"url\":\"…\",\"section\":\"…\"}"
                ))
        }
        if let unknown = object.map(\.key).sorted().first(where: { !members.contains($0) }) {
            return .refused(
                error(
                    400, "bad_field", "unknown member \"\(unknown)\"; a post has text, author, title, url and section"))
        }
        let fields = JSONTree.object(object)
        guard let text = fields["text"]?.string else {
            return .refused(error(400, "bad_field", "text must be a string"))
        }
        guard text.contains(where: { !$0.isWhitespace }) else {
            return .refused(error(400, "bad_field", "text is empty"))
        }
        var post = Post(text: text)
        for (name, path) in [
            ("author", \Post.author), ("title", \Post.title), ("url", \Post.url), ("section", \Post.section),
        ] {
            guard let value = fields[name], value != .null else { continue }
            guard let string = value.string else {
                return .refused(error(400, "bad_field", "\(name) must be a string"))
            }
            post[keyPath: path] = string
        }
        // A stored link is opened by every page that shows the item: a `javascript:` or `data:` one would run there.
        if let url = post.url, !isWebLink(url) {
            return .refused(error(400, "bad_field", "url must be an http:// or https:// address"))
        }
        return .post(post)
    }

    /// Whether `url` is an absolute `http:` or `https:` address with a host.
    static func isWebLink(_ url: String) -> Bool {
        let lowered = url.lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            let rest = lowered.dropFirst(scheme.count)
            return !rest.isEmpty && !rest.hasPrefix("/") && !url.utf8.contains { $0 < 0x21 || $0 == 0x7F }
        }
        return false
    }

    /// The answer to a post the source wrote or refused.
    static func response(for outcome: Result<FeedItem, FeedError>) -> HTTPEndpoints.Response {
        switch outcome {
        case .success(let item):
            return HTTPEndpoints.Response(
                status: 201, contentType: "application/json", body: itemJSON(item), refusal: nil)
        case .failure(let failure):
            let status: Int32 =
                switch failure {
                case .rejected, .malformed: 400
                case .readOnly: 409
                case .oversized: 413
                default: 503
                }
            return error(status, failure.code, failure.description)
        }
    }

    static let tooLarge = error(413, "too_large", "the body is larger than \(maxBodyBytes) bytes")
    static let wrongMethod = error(405, "method_not_allowed", "only POST is answered at \(path)")
    /// 411: a body without a `Content-Length` (a chunked one): libwebsockets 4.1 hands such a body to no callback,
    /// so it is refused before it is sent rather than left without an answer.
    static let lengthRequired = error(
        411, "length_required", "a post needs a Content-Length (chunked bodies are not read)")

    /// 409: the feed takes no posts.
    static func notPostable(_ address: String) -> HTTPEndpoints.Response {
        error(409, "not_postable", "the feed \(address) takes no posts (only a writable sqlite: feed does)")
    }

    /// A JSON error answer (the wire's writer).
    static func error(_ status: Int32, _ code: String, _ message: String) -> HTTPEndpoints.Response {
        let body = JSONTree.object([("error", .object([("code", .string(code)), ("message", .string(message))]))])
        return HTTPEndpoints.Response(
            status: status, contentType: "application/json", body: body.text, refusal: message)
    }

    /// An item as the wire writes it (the wire's `FeedJSON.itemJSON`): `time` in milliseconds since 1970;
    /// `author` and `image` when present.
    static func itemJSON(_ item: FeedItem) -> String {
        String(decoding: FeedJSON.itemJSON(item), as: UTF8.self)
    }
}
