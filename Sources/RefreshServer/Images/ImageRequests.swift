import CLibWebSockets
import Logging
import RefreshFeeds
import RefreshKit

/// The libwebsockets side of `GET /feed/image?u=URL` (``ImageEndpoint`` decides, docs/FEEDS.md "Images"): the
/// gate screens the request (method, address, whether the feed gave it); a kept image is answered from the
/// cache (``ImageCache``); any other waits while a fetcher brings it (``ImageFetchService``: never on this
/// thread), and every request waiting for the same address is answered by that one fetch. The answer is written
/// when the connection is writeable, by lws's `/feed/image` callback mount.
///
/// Confined to the service thread, like ``Gatekeeper``. A connection that closes before its answer is forgotten
/// (its fetch goes on and fills the cache).
final class ImageRequests {
    /// A request's connection, from the gate's admission to its answer.
    private enum State {
        /// Waiting for `url`'s fetch.
        case waiting(url: String, ifNoneMatch: String?, head: Bool)
        /// The answer waits for the connection to be writeable.
        case answered(ImageEndpoint.Response, head: Bool)
    }

    let limits: ImageLimits
    private let fetcher: ImageFetchService
    private let logger: Logger
    /// Whether a session holds an item with this image (asked when the address is not known yet).
    private let inSessions: (String) -> Bool
    private(set) var cache: ImageCache
    private(set) var known: KnownImageURLs
    /// The addresses whose fetch failed lately: their answer is given again without fetching.
    private(set) var failed: FailedImages
    private var requests: [OpaquePointer: State] = [:]
    /// The connections waiting for each address being fetched.
    private var fetching: [String: [OpaquePointer]] = [:]
    private var throttle = LogThrottle()

    /// - Parameter policy: where the fetches may connect (the feed source's own `FetchPolicy`).
    init(limits: ImageLimits, policy: FetchPolicy, logger: Logger, inSessions: @escaping (String) -> Bool) {
        self.limits = limits
        self.logger = logger
        self.inSessions = inSessions
        fetcher = ImageFetchService(limits: limits, policy: policy)
        cache = ImageCache(maxCount: limits.cacheCount, maxBytes: limits.cacheBytes)
        known = KnownImageURLs(limit: limits.knownURLs)
        failed = FailedImages(seconds: limits.failureSeconds, maxCount: limits.failuresKept)
    }

    /// Starts the fetchers (they wake the loop of `context`).
    func start(waking context: OpaquePointer) { fetcher.start(waking: context) }

    /// Stops the fetchers. Call before the context is destroyed.
    func stop() { fetcher.stop() }

    /// Remembers the images of `items` as given by the feed.
    func learn(_ items: [FeedItem]) { known.learn(items) }

    /// How long a request may wait for its image: two fetches' time limits (its own and one queued before it),
    /// and a margin; lws closes the connection after that.
    var waitSeconds: Int { 2 * limits.timeoutMilliseconds / 1000 + 5 }

    /// Whether `wsi` is a request this object answers.
    func owns(_ wsi: OpaquePointer) -> Bool { requests[wsi] != nil }

    /// The gate's screen (`FILTER_HTTP_CONNECTION` of `/feed/image`): nil lets the request on to the callback
    /// mount (its answer is written when ready), else a refusal to write at once.
    func screen(
        _ wsi: OpaquePointer, method: String, url: String?, ifNoneMatch: String?, peer: String
    ) -> ImageEndpoint.Response? {
        guard method == "GET" || method == "HEAD" else {
            return refuse(ImageEndpoint.wrongMethod, url: url, peer: peer)
        }
        let head = method == "HEAD"
        let checked: String
        switch ImageEndpoint.check(url: url, limits: limits) {
        case .failure(let refused): return refuse(refused.response, url: url, peer: peer)
        case .success(let url): checked = url
        }
        if let image = cache.image(at: checked) {
            requests[wsi] = .answered(ImageEndpoint.response(for: image, ifNoneMatch: ifNoneMatch), head: head)
            return nil
        }
        if let failure = failed.answer(for: checked, at: lws_now_usecs()) {
            requests[wsi] = .answered(failure, head: head)
            return nil
        }
        if !known.contains(checked) {
            guard inSessions(checked) else { return refuse(ImageEndpoint.notInFeed, url: checked, peer: peer) }
            known.learn(checked)
        }
        if fetching[checked] != nil {
            fetching[checked]?.append(wsi)
        } else {
            guard fetching.count < limits.maxFetches else {
                return refuse(ImageEndpoint.busy, url: checked, peer: peer)
            }
            fetching[checked] = [wsi]
            fetcher.submit(checked)
        }
        requests[wsi] = .waiting(url: checked, ifNoneMatch: ifNoneMatch, head: head)
        return nil
    }

    /// lws's events for an admitted request (the `http` protocol's callback). - Returns: what lws expects.
    func handle(_ wsi: OpaquePointer, reason: lws_callback_reasons) -> Int32 {
        switch reason {
        case LWS_CALLBACK_HTTP:
            switch requests[wsi] {
            case .answered: lws_callback_on_writable(wsi)
            case .waiting:
                // lws gives a request holding its headers `timeout_secs_ah_idle` (10 s) to be answered; a fetch
                // may take the time limit, after the fetches queued before it
                lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Int32(waitSeconds))
            case nil: break
            }
            return 0
        case LWS_CALLBACK_HTTP_WRITEABLE:
            guard case .answered(let response, let head) = requests[wsi] else { return 0 }
            requests[wsi] = nil
            let sendBody: Int32 = head || response.status == 304 ? 0 : 1
            let written = response.body.withUnsafeBufferPointer { body in
                rk_http_respond_bytes(
                    wsi, UInt32(response.status), response.contentType, response.cacheControl, response.etag,
                    body.baseAddress, body.count, sendBody)
            }
            guard written == 0 else { return -1 }
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        case LWS_CALLBACK_CLOSED_HTTP:
            if case .waiting(let url, _, _) = requests[wsi] { fetching[url]?.removeAll { $0 == wsi } }
            requests[wsi] = nil
            return 0
        default:
            return 0
        }
    }

    /// Takes what the fetchers brought: keeps each image and answers every request waiting for it.
    func deliver() {
        for result in fetcher.takeResults() {
            let waiting = fetching.removeValue(forKey: result.url) ?? []
            let checked = result.outcome.flatMap { ImageEndpoint.image(from: $0, limits: limits) }
            switch checked {
            case .success(let image):
                cache.keep(image, at: result.url)
                for wsi in waiting {
                    guard case .waiting(_, let ifNoneMatch, let head) = requests[wsi] else { continue }
                    answer(wsi, ImageEndpoint.response(for: image, ifNoneMatch: ifNoneMatch), head: head)
                }
            case .failure(let failure):
                let response = ImageEndpoint.response(for: failure)
                failed.remember(response, for: result.url, at: lws_now_usecs())
                log(response, url: result.url, peer: "-")
                for wsi in waiting {
                    guard case .waiting(_, _, let head) = requests[wsi] else { continue }
                    answer(wsi, response, head: head)
                }
            }
        }
    }

    private func answer(_ wsi: OpaquePointer, _ response: ImageEndpoint.Response, head: Bool) {
        requests[wsi] = .answered(response, head: head)
        lws_callback_on_writable(wsi)
    }

    private func refuse(_ response: ImageEndpoint.Response, url: String?, peer: String) -> ImageEndpoint.Response {
        log(response, url: url ?? "-", peer: peer)
        return response
    }

    /// One line per refusal, at most one a second per code (the others counted in the next one's `suppressed`).
    private func log(_ response: ImageEndpoint.Response, url: String, peer: String) {
        let key = "image-\(response.code ?? "\(response.status)")"
        guard throttle.allow(key) else { return }
        logger.notice(
            "image refused",
            metadata: [
                "status": "\(response.status)", "code": "\(response.code ?? "-")",
                "reason": "\(response.refusal ?? "-")", "url": "\(Gatekeeper.shorten(url))", "peer": "\(peer)",
                "suppressed": "\(throttle.takeSuppressed(key))",
            ])
    }
}
