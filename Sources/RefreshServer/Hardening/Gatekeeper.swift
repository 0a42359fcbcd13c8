import CLibWebSockets
import Logging
import RefreshAccess
import RefreshKit
import RefreshWire

/// The server's front door, confined to the service thread like ``ServiceLoop``: it reads a request from lws and
/// asks ``FrontDoor`` (who the client is behind the trusted proxies, its origin, its writes, its right to the
/// metrics), ``StaticPathPolicy`` (which files) and ``ConnectionLimits`` (how many WebSockets). The messages of an open connection are screened by the session
/// host (its rate limit and page clock). docs/HARDENING.md lists what is defended and how.
final class Gatekeeper {
    let configuration: HardeningConfiguration
    let logger: Logger
    private(set) var limits: ConnectionLimits
    /// What each client address may still spend on HTTP requests, posts, QR codes and images.
    private(set) var budgets: AddressBudgets
    /// TCP connections per address, from their accept to their end (`WSI_DESTROY`).
    private(set) var sockets: SocketLimits
    /// The key of the socket the filter just admitted: lws creates its wsi right after (`WSI_CREATE`), on this
    /// thread, before it accepts another.
    private var admittedSocket: String?
    /// The counted sockets' keys, by wsi.
    private var socketKeys: [OpaquePointer: String] = [:]
    /// Who reaches what; its own origins are set by ``start(webRoot:port:host:controlsRoot:)`` once the port is
    /// bound, and who may write by the feed (``ServiceLoop/openFeed()``).
    var door: FrontDoor
    private(set) var paths: StaticPathPolicy
    private(set) var endpoints = HTTPEndpoints()
    /// The user's control modules at `/controls/` (`serve --controls`).
    private(set) var controls = ControlsFolder(root: nil)
    /// Writes the metrics page (set by the service loop, which holds what it describes).
    var metricsText: () -> String = { "" }
    /// `POST /feed/items` (set by the service loop, which runs the feed).
    var feedPosts: FeedPosts?
    /// `GET /feed/image` (set by the service loop with an external feed; Images/ImageRequests.swift).
    var images: ImageRequests?
    private var throttle = LogThrottle()
    /// Whether the port speaks TLS (`serve --tls-cert`): a plain request on it is redirected to https, and a plain
    /// WebSocket refused (docs/HTTPS.md).
    private(set) var servesTLS = false
    /// Where a plain request is sent when its `Host` header will not do: this server's own address and port.
    private var shareHost = ""

    init(configuration: HardeningConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        limits = ConnectionLimits(
            maxTotal: configuration.maxConnections, maxPerAddress: configuration.maxConnectionsPerAddress,
            limitLoopback: configuration.limitLoopback)
        budgets = AddressBudgets(limitLoopback: configuration.limitLoopback)
        sockets = SocketLimits(
            maxPerAddress: configuration.maxSocketsPerAddress, limitLoopback: configuration.limitLoopback,
            proxies: configuration.proxies)
        let metricsAllow = (try? AddressAllowList.parse(configuration.metricsAllow).get()) ?? AddressAllowList()
        door = FrontDoor(
            origins: OriginPolicy(ownHosts: [], port: 0, allowedOrigins: configuration.allowedOrigins),
            proxies: configuration.proxies, metricsAllow: metricsAllow)
        endpoints.metricsAllow = metricsAllow
        paths = StaticPathPolicy(root: "/nonexistent")
    }

    /// Completes the policies that depend on the bound port and the resolved web root.
    func start(webRoot: String, port: Int, host: String, controlsRoot: String? = nil, tls: TLSFiles? = nil) {
        servesTLS = tls != nil
        endpoints.authority = tls?.certificateAuthority.flatMap(AuthorityFile.read)
        shareHost =
            (["0.0.0.0", "::", "[::]", ""].contains(host) ? "localhost" : host.contains(":") ? "[\(host)]" : host)
            + ":\(port)"
        paths = StaticPathPolicy(root: webRoot)
        controls = ControlsFolder(root: controlsRoot)
        door.origins = OriginPolicy(
            ownHosts: OriginPolicy.localHosts(bound: host), port: port, publicPorts: configuration.publicPorts,
            allowedOrigins: configuration.allowedOrigins, scheme: servesTLS ? "https" : "http",
            publicScheme: servesTLS || configuration.publicTLS ? "https" : "http")
    }

    // MARK: - Connections

    /// `ESTABLISHED`: the connection counts against the limits from now on.
    func opened(_ client: ClientAddress) {
        limits.opened(client)
    }

    /// `CLOSED`; `key`: the client's ``ClientAddress/key``.
    func closed(key: String) {
        limits.closed(key: key)
    }

    // MARK: - Budgets

    /// Pays for a request to `path` (nil: a WebSocket upgrade) from the client of `wsi`: every request, and a post, a
    /// QR code or an image besides. - Returns: nil when paid; else the refusal was written (429 with `Retry-After`,
    /// JSON for a post) and this is what lws expects.
    private func charge(_ wsi: OpaquePointer, for path: String?) -> Int32? {
        let client = client(of: wsi)
        let now = lws_now_usecs()
        var kinds: [AddressBudgets.Kind] = [.request]
        switch path {
        case FeedPostEndpoint.path: kinds.append(.post)
        case HTTPEndpoints.qrCodePath: kinds.append(.qrCode)
        case ImageEndpoint.path: kinds.append(.image)
        default: break
        }
        for kind in kinds {
            guard case .refuse(let seconds) = budgets.spend(kind, by: client, at: now) else { continue }
            if throttle.allow("budget") {
                logger.notice(
                    "request refused: over its address's budget",
                    metadata: [
                        "peer": "\(client)", "kind": "\(kind)", "path": "\(Self.shorten(path ?? "(upgrade)"))",
                        "suppressed": "\(throttle.takeSuppressed("budget"))",
                    ])
            }
            let message = "too many requests from this address; try again in \(seconds) s"
            let (type, body) =
                kind == .post
                ? ("application/json", FeedPostEndpoint.error(429, "rate_limited", message).body)
                : ("text/plain; charset=utf-8", message + "\n")
            return rk_http_refuse_typed(wsi, 429, "\(seconds)", type, body) == 0 ? 1 : -1
        }
        return nil
    }

    // MARK: - Sockets

    /// `LWS_CALLBACK_FILTER_NETWORK_CONNECTION`: a TCP connection just accepted, before lws reads from it;
    /// `arguments` is lws's `lws_filter_network_conn_args` (the peer's address first). Nonzero closes it.
    func filterSocket(_ arguments: UnsafeMutableRawPointer?) -> Int32 {
        admittedSocket = nil
        let peer = arguments.flatMap { Self.address(of: $0.load(as: sockaddr_storage.self)) }
        guard let key = sockets.key(for: peer) else { return 0 }
        guard sockets.admits(key) else {
            if throttle.allow("socket") {
                logger.notice(
                    "socket refused: too many connections from one address",
                    metadata: [
                        "peer": "\(key)", "open": "\(sockets.count(key))",
                        "suppressed": "\(throttle.takeSuppressed("socket"))",
                    ])
            }
            return 1
        }
        admittedSocket = key
        return 0
    }

    /// `LWS_CALLBACK_WSI_CREATE`: the connection the filter admitted (if any) counts from now on.
    func socketCreated(_ wsi: OpaquePointer) {
        guard let key = admittedSocket else { return }
        admittedSocket = nil
        sockets.opened(key)
        socketKeys[wsi] = key
    }

    /// `LWS_CALLBACK_WSI_DESTROY`.
    func socketDestroyed(_ wsi: OpaquePointer) {
        guard let key = socketKeys.removeValue(forKey: wsi) else { return }
        sockets.closed(key)
    }

    /// The address of an IPv4 or IPv6 socket address.
    static func address(of storage: sockaddr_storage) -> IPAddress? {
        let family = Int32(storage.ss_family)
        return withUnsafeBytes(of: storage) { raw -> IPAddress? in
            switch family {
            case AF_INET:
                let offset = MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!
                return IPAddress(bytes: Array(raw[offset..<offset + 4]))
            case AF_INET6:
                let offset = MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!
                return IPAddress(bytes: Array(raw[offset..<offset + 16]))
            default:
                return nil
            }
        }
    }

    // MARK: - HTTP (protocols[0])

    /// `LWS_CALLBACK_HTTP_CONFIRM_UPGRADE`: Origin, then the connection limits. A refusal is a complete HTTP
    /// response (403, or 503 with Retry-After); returning 1 tells lws it was written.
    func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        if let refused = charge(wsi, for: nil) { return refused }
        if servesTLS, lws_is_ssl(wsi) == 0 {
            if throttle.allow("plain") {
                logger.notice(
                    "plain WebSocket on the TLS port refused",
                    metadata: ["peer": "\(client(of: wsi))", "suppressed": "\(throttle.takeSuppressed("plain"))"])
            }
            return rk_http_refuse(wsi, 403, nil, "this server speaks wss:// only\n") == 0 ? 1 : -1
        }
        let peer = client(of: wsi)
        let origin = Self.header(wsi, WSI_TOKEN_ORIGIN)
        if case .refuse(let reason) = door.admitsWebSocket(origin: origin) {
            if throttle.allow("origin") {
                logger.notice(
                    "origin refused",
                    metadata: [
                        "peer": "\(peer)", "origin": "\(Self.shorten(origin ?? "-"))", "reason": "\(reason)",
                        "suppressed": "\(throttle.takeSuppressed("origin"))",
                    ])
            }
            return rk_http_refuse(wsi, 403, nil, "origin not allowed\n") == 0 ? 1 : -1
        }
        switch limits.check(peer) {
        case .admit:
            return 0
        case .refuseTotal, .refusePerAddress:
            let perAddress = limits.check(peer) == .refusePerAddress
            if throttle.allow("limit") {
                logger.notice(
                    "connection limit reached; upgrade refused",
                    metadata: [
                        "peer": "\(peer)", "limit": "\(perAddress ? "per-address" : "total")",
                        "open": "\(perAddress ? limits.count(for: peer) : limits.total)",
                        "suppressed": "\(throttle.takeSuppressed("limit"))",
                    ])
            }
            return rk_http_refuse(wsi, 503, "5", "too many connections; try again later\n") == 0 ? 1 : -1
        }
    }

    /// `LWS_CALLBACK_FILTER_HTTP_CONNECTION` (plain HTTP requests, before the mount serves a file).
    func filterHTTP(_ wsi: OpaquePointer, path input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        let bytes = input.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
        let hasBody = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0
        if let refused = charge(wsi, for: String(validating: bytes, as: UTF8.self)) { return refused }
        if servesTLS, lws_is_ssl(wsi) == 0, !PlainRequest.answeredPlain.contains(String(decoding: bytes, as: UTF8.self))
        {
            let location = PlainRequest.redirect(
                path: String(decoding: bytes, as: UTF8.self), query: Self.query(wsi),
                host: Self.header(wsi, WSI_TOKEN_HOST), fallbackHost: shareHost)
            _ = rk_http_redirect(wsi, 308, location)
            return 1  // lws closes the connection after the response
        }
        if let feedPosts, String(validating: bytes, as: UTF8.self) == FeedPostEndpoint.path {
            let declared = Self.header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH).flatMap { Int($0) }
            let peer = client(of: wsi)
            let write = CrossSiteWrites.Request(
                contentType: Self.header(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE), origin: Self.header(wsi, WSI_TOKEN_ORIGIN),
                fetchSite: Self.customHeader(wsi, "sec-fetch-site:"))
            guard
                let response = feedPosts.screen(
                    wsi, isPost: hasBody, admission: door.admitsWrite(write, from: peer), declaredLength: declared)
            else { return 0 }  // on to the callback mount, which takes the body
            if throttle.allow("http") {
                logger.notice(
                    "feed post refused",
                    metadata: [
                        "peer": "\(peer)", "status": "\(response.status)",
                        "reason": "\(response.refusal ?? "-")", "suppressed": "\(throttle.takeSuppressed("http"))",
                    ])
            }
            return respond(wsi, response)
        }
        if let images, String(validating: bytes, as: UTF8.self) == ImageEndpoint.path {
            return screenImage(wsi, images)
        }
        if let path = String(validating: bytes, as: UTF8.self), HTTPEndpoints.paths.contains(path) {
            return answer(wsi, path: path, hasBody: hasBody)
        }
        let decision: StaticPathPolicy.Decision
        if !hasBody, let path = String(validating: bytes, as: UTF8.self), path.hasPrefix(ControlsFolder.prefix) {
            decision = controls.decide(path: path, resolve: StaticPathPolicy.realPath)
        } else {
            decision = paths.decide(path: bytes, hasBody: hasBody, resolve: StaticPathPolicy.realPath)
        }
        switch decision {
        case .serve:
            return 0
        case .refuse(let status, let reason):
            if throttle.allow("http") {
                logger.notice(
                    "HTTP request refused",
                    metadata: [
                        "peer": "\(client(of: wsi))", "status": "\(status)", "reason": "\(reason)",
                        "path": "\(Self.shorten(String(decoding: bytes, as: UTF8.self)))",
                        "suppressed": "\(throttle.takeSuppressed("http"))",
                    ])
            }
            let body = status == 404 ? "not found\n" : status == 405 ? "method not allowed\n" : "bad request\n"
            _ = rk_http_refuse(wsi, UInt32(status), nil, body)
            return 1  // lws closes the connection after the response
        }
    }

    /// One of ``HTTPEndpoints``' paths: the response is written whole, and lws closes the connection after it.
    private func answer(_ wsi: OpaquePointer, path: String, hasBody: Bool) -> Int32 {
        let request = HTTPEndpoints.Request(path: path, text: Self.queryArgument(wsi, "text"), client: client(of: wsi))
        let response =
            hasBody
            ? .refused(405, "only GET and HEAD are answered")
            : endpoints.respond(to: request, metrics: metricsText, controls: { [controls] in controls.names() })
                ?? .refused(404, "not found")
        if let reason = response.refusal, throttle.allow("http") {
            logger.notice(
                "HTTP request refused",
                metadata: [
                    "peer": "\(request.client)", "status": "\(response.status)", "reason": "\(reason)",
                    "path": "\(path)", "suppressed": "\(throttle.takeSuppressed("http"))",
                ])
        }
        return respond(wsi, response)
    }

    /// Writes `response` whole; lws closes the connection after it.
    private func respond(_ wsi: OpaquePointer, _ response: HTTPEndpoints.Response) -> Int32 {
        let isHead = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0
        let written = response.body.withCString { body in
            rk_http_respond(
                wsi, UInt32(response.status), response.contentType, body, response.body.utf8.count, isHead ? 0 : 1)
        }
        return written == 0 ? 1 : -1
    }

    // MARK: - Helpers

    /// A URL query argument, URL-decoded by lws; nil when absent, and also when longer than the 1 KiB buffer
    /// (lws then finds nothing).
    /// The request's query as lws keeps it: its `name=value` fragments, each URL-decoded (at most 1 KiB each).
    static func query(_ wsi: OpaquePointer) -> [String] {
        var fragments: [String] = []
        var buffer = [CChar](repeating: 0, count: 1024)
        for index in 0..<64 {
            let length = lws_hdr_copy_fragment(wsi, &buffer, Int32(buffer.count), WSI_TOKEN_HTTP_URI_ARGS, Int32(index))
            guard length > 0 else { break }
            fragments.append(String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return fragments
    }

    static func queryArgument(_ wsi: OpaquePointer, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 1024 + name.utf8.count + 2)
        let count = Int32(buffer.count)
        return buffer.withUnsafeMutableBufferPointer { storage -> String? in
            guard let value = lws_get_urlarg_by_name(wsi, name + "=", storage.baseAddress, count) else { return nil }
            return String(cString: value)
        }
    }

    /// The real client of `wsi`: its peer, or, when that is a trusted proxy, the client it names
    /// (``FrontDoor/client(peer:forwardingHeader:)``).
    func client(of wsi: OpaquePointer) -> ClientAddress {
        let peer = Self.peer(of: wsi)
        guard let header = door.forwardingHeaderName else { return ClientAddress(peer: peer) }
        let value =
            header == TrustedProxies.Header.xForwardedFor.rawValue
            ? Self.header(wsi, WSI_TOKEN_X_FORWARDED_FOR) : Self.customHeader(wsi, header + ":", limit: 1024)
        return door.client(peer: peer, forwardingHeader: value)
    }

    /// The socket's peer address, as lws prints it.
    static func peer(of wsi: OpaquePointer) -> String {
        var name = [CChar](repeating: 0, count: 64)
        return name.withUnsafeMutableBufferPointer { buffer -> String in
            guard let text = lws_get_peer_simple(wsi, buffer.baseAddress, buffer.count) else { return "?" }
            return String(cString: text)
        }
    }

    /// A request header, nil when absent, empty (lws does not tell the two apart) or unreadable.
    static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        let copied = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
        guard copied >= 0 else { return nil }
        return String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A request header lws does not know by name (`name`: lowercase, with its colon), nil when absent, empty,
    /// longer than `limit` bytes or unreadable.
    static func customHeader(_ wsi: OpaquePointer, _ name: String, limit: Int = 64) -> String? {
        let length = Int(lws_hdr_custom_length(wsi, name, Int32(name.utf8.count)))
        guard length > 0, length <= limit else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        let copied = lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), name, Int32(name.utf8.count))
        guard copied > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func shorten(_ text: String, to limit: Int = 120) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}

// MARK: - C entry point

/// The callback of `protocols[0]` ("http"): the gate's two checks, everything else as lws's dummy does.
func httpGateCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    if let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) {
        let gatekeeper = Unmanaged<ServiceLoop>.fromOpaque(owner).takeUnretainedValue().gatekeeper
        switch reason {
        case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
            return gatekeeper.filterSocket(user)
        case LWS_CALLBACK_WSI_CREATE:
            gatekeeper.socketCreated(wsi)
        case LWS_CALLBACK_WSI_DESTROY:
            gatekeeper.socketDestroyed(wsi)
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            return gatekeeper.confirmUpgrade(wsi)
        case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
            return gatekeeper.filterHTTP(wsi, path: input, length: length)
        case LWS_CALLBACK_HTTP, LWS_CALLBACK_HTTP_BODY, LWS_CALLBACK_HTTP_BODY_COMPLETION,
            LWS_CALLBACK_HTTP_WRITEABLE, LWS_CALLBACK_CLOSED_HTTP:
            // A post admitted by the gate: its body and its answer (FeedPosts.swift).
            if let posts = gatekeeper.feedPosts, posts.owns(wsi) {
                return posts.handle(wsi, reason: reason, input: input, length: length)
            }
            if let images = gatekeeper.images, images.owns(wsi) { return images.handle(wsi, reason: reason) }
        default:
            break
        }
    }
    return lws_callback_http_dummy(wsi, reason, user, input, length)
}
