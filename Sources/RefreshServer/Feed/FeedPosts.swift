import CLibWebSockets
import Logging
import RefreshAccess
import RefreshFeeds
import RefreshKit

/// The libwebsockets side of `POST /feed/items` (``FeedPostEndpoint`` decides): the gate screens the request
/// (method; the front door's word on its client, origin and content type; whether the feed takes posts; the
/// declared length: none is refused), lws hands the body over in pieces to the
/// `/feed/items` callback mount, and once it is whole the post goes to the feed's posts queue
/// (``FeedService/post(_:ticket:)``), never written on this thread. When the source has answered,
/// the connection is asked to be written and the answer goes out.
///
/// Confined to the service thread, like ``Gatekeeper``. A connection that closes before its answer is
/// forgotten (the post is still written; its answer is dropped).
final class FeedPosts {
    /// A post's connection, from the gate's admission to its answer.
    private enum State {
        /// The body arrives; `overflow`: more than ``FeedPostEndpoint/maxBodyBytes`` came (what follows is
        /// not kept).
        case receiving(body: [UInt8], overflow: Bool)
        /// Handed to the source as `ticket`.
        case writing(ticket: UInt64)
        /// The answer waits for the connection to be writeable.
        case answered(HTTPEndpoints.Response)
    }

    private let feed: FeedService?
    private let logger: Logger
    private let address: String
    private var posts: [OpaquePointer: State] = [:]
    private var tickets: [UInt64: OpaquePointer] = [:]
    private var nextTicket: UInt64 = 1

    init(feed: FeedService?, address: String, logger: Logger) {
        self.feed = feed
        self.address = address
        self.logger = logger
    }

    /// Whether `wsi` is a post this object answers.
    func owns(_ wsi: OpaquePointer) -> Bool { posts[wsi] != nil }

    /// The gate's screen (`FILTER_HTTP_CONNECTION` of `/feed/items`): nil lets the request on to the callback
    /// mount (its body is awaited), else the answer to write at once. `admission`: the front door's word
    /// (``FrontDoor/admitsWrite(_:from:)``).
    func screen(
        _ wsi: OpaquePointer, isPost: Bool, admission: CrossSiteWrites.Decision, declaredLength: Int?
    ) -> HTTPEndpoints.Response? {
        guard isPost else { return FeedPostEndpoint.wrongMethod }
        if case .refuse(let status, let code, let message) = admission {
            return FeedPostEndpoint.error(Int32(status), code, message)
        }
        guard let feed, feed.isPostable else { return FeedPostEndpoint.notPostable(address) }
        guard let declaredLength else { return FeedPostEndpoint.lengthRequired }
        if declaredLength > FeedPostEndpoint.maxBodyBytes { return FeedPostEndpoint.tooLarge }
        posts[wsi] = .receiving(body: [], overflow: false)
        return nil
    }

    /// lws's events for an admitted post (the `http` protocol's callback). - Returns: what lws expects.
    func handle(
        _ wsi: OpaquePointer, reason: lws_callback_reasons, input: UnsafeMutableRawPointer?, length: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_HTTP:
            return 0  // the body follows
        case LWS_CALLBACK_HTTP_BODY:
            guard case .receiving(var body, var overflow) = posts[wsi] else { return 0 }
            if !overflow, let input, body.count + length <= FeedPostEndpoint.maxBodyBytes {
                body.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
            } else {
                (body, overflow) = ([], true)
            }
            posts[wsi] = .receiving(body: body, overflow: overflow)
            return 0
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
            guard case .receiving(let body, let overflow) = posts[wsi] else { return 0 }
            if overflow {
                answer(wsi, FeedPostEndpoint.tooLarge)
                return 0
            }
            switch FeedPostEndpoint.decode(body) {
            case .refused(let response):
                answer(wsi, response)
            case .post(let post):
                let ticket = nextTicket
                nextTicket += 1
                tickets[ticket] = wsi
                posts[wsi] = .writing(ticket: ticket)
                feed?.post(post, ticket: ticket)
            }
            return 0
        case LWS_CALLBACK_HTTP_WRITEABLE:
            guard case .answered(let response) = posts[wsi] else { return 0 }
            posts[wsi] = nil
            let written = response.body.withCString { body in
                rk_http_respond(wsi, UInt32(response.status), response.contentType, body, response.body.utf8.count, 1)
            }
            guard written == 0 else { return -1 }
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        case LWS_CALLBACK_CLOSED_HTTP:
            if case .writing(let ticket) = posts[wsi] { tickets[ticket] = nil }
            posts[wsi] = nil
            return 0
        default:
            return 0
        }
    }

    /// The source answered post `ticket`.
    func posted(ticket: UInt64, _ outcome: Result<FeedItem, FeedError>) {
        switch outcome {
        case .success(let item):
            logger.info("feed item posted", metadata: ["feed": "\(address)", "item": "\(item.id)"])
        case .failure:
            break  // logged with its answer
        }
        guard let wsi = tickets.removeValue(forKey: ticket) else { return }  // its connection closed
        answer(wsi, FeedPostEndpoint.response(for: outcome))
    }

    private func answer(_ wsi: OpaquePointer, _ response: HTTPEndpoints.Response) {
        if let refusal = response.refusal {
            logger.notice(
                "feed post refused",
                metadata: ["feed": "\(address)", "status": "\(response.status)", "reason": "\(refusal)"])
        }
        posts[wsi] = .answered(response)
        lws_callback_on_writable(wsi)
    }
}
