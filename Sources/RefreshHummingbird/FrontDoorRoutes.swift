import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import RefreshAccess
import Synchronization

/// The app's request context: Hummingbird's basic one, with the peer's address, which the front door reads
/// (``RefreshService/client(of:context:)``). Hummingbird's `BasicRequestContext` does not keep it: with it every
/// client is unknown, and so allowed no write and no metrics.
public struct RefreshRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// The WebSocket router's request context: Hummingbird's `BasicWebSocketRequestContext` with the peer's address, so
/// that the session host hears of each connection's real client (behind the trusted proxies) rather than `?`.
public struct RefreshWebSocketRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
    }
}

/// A request the front door or an app's route refuses: its status and `{"error": {"code", "message"}}`, as the
/// libwebsockets server answers a refused `POST /feed/items` (docs/HARDENING.md, "Cross-site writes").
public struct RequestRefused: HTTPResponseError, Equatable {
    public let status: HTTPResponse.Status
    /// `forbidden`, `cross_site`, `unsupported_media_type`, or an app's own (`bad_json`, `too_large`…).
    public let code: String
    public let message: String

    public init(status: HTTPResponse.Status, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    private struct Body: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
        }
        let error: Detail
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let body = try encoder.encode(Body(error: .init(code: code, message: message)))
        return SecurityHeaders.applied(
            to: Response(
                status: status, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: body))))
    }
}

extension RefreshService {
    /// Who sent `request`: its peer, or, when that is one of the door's trusted proxies, the client the proxy names
    /// (`FrontDoor/client(peer:forwardingHeader:)`). The peer is read from a context that keeps it
    /// (``RefreshRequestContext``, ``RefreshWebSocketRequestContext``); from any other the client is unknown (`?`),
    /// and allowed nothing that needs an address.
    public func client(of request: Request, context: some RequestContext) -> ClientAddress {
        let door = frontDoor
        let peer = (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress ?? "?"
        let forwarded = door.forwardingHeaderName.flatMap { HTTPField.Name($0) }.map { name -> String in
            let lines: [String] = request.headers[values: name]
            return lines.joined(separator: ",")
        }
        return door.client(peer: peer, forwardingHeader: forwarded?.isEmpty == false ? forwarded : nil)
    }

    /// For an app's own write routes (a post, a form's target), first thing: throws ``RequestRefused`` (403
    /// `forbidden` for a client the door's write list does not hold, 403 `cross_site` for another site's page,
    /// `Origin: null` or `Sec-Fetch-Site: cross-site`, 415 `unsupported_media_type` for a body that is not
    /// `application/json`), logged; returns when the door admits the write (`FrontDoor/admitsWrite(_:from:)`).
    ///
    /// ```swift
    /// router.post("/notes") { request, context -> Response in
    ///     try refresh.admitWrite(request, context: context)
    ///     …
    /// }
    /// ```
    public func admitWrite(_ request: Request, context: some RequestContext) throws(RequestRefused) {
        let client = client(of: request, context: context)
        let write = CrossSiteWrites.Request(
            contentType: request.headers[.contentType], origin: request.headers[.origin],
            fetchSite: request.headers[Self.fetchSite])
        guard case .refuse(let status, let code, let message) = frontDoor.admitsWrite(write, from: client) else {
            return
        }
        refusals.notice(
            "write refused", kind: "write \(code)",
            metadata: [
                "peer": "\(client)", "path": "\(Self.shorten(request.uri.path))", "status": "\(status)",
                "code": "\(code)", "reason": "\(message)",
            ])
        throw RequestRefused(status: .init(code: status), code: code, message: message)
    }

    /// Whether `request` may read the app's `/metrics`: loopback and the door's metrics list only, the client read
    /// behind the trusted proxies (`FrontDoor/admitsMetrics(from:)`). A refusal is logged.
    public func admitsMetrics(_ request: Request, context: some RequestContext) -> Bool {
        let client = client(of: request, context: context)
        guard !frontDoor.admitsMetrics(from: client) else { return true }
        refusals.notice(
            "metrics refused", kind: "metrics",
            metadata: ["peer": "\(client)", "path": "\(Self.shorten(request.uri.path))", "status": "403"])
        return false
    }

    /// Why a WebSocket handshake from `origin` is refused (logged), nil when the door admits it (no `Origin`: not a
    /// browser).
    func refusal(ofWebSocketFrom origin: String?, client: ClientAddress) -> String? {
        guard case .refuse(let reason) = frontDoor.admitsWebSocket(origin: origin) else { return nil }
        refusals.notice(
            "origin refused", kind: "origin \(reason)",
            metadata: ["peer": "\(client)", "origin": "\(Self.shorten(origin ?? "-"))", "reason": "\(reason)"])
        return reason
    }

    static let fetchSite = HTTPField.Name("sec-fetch-site")!

    static func shorten(_ text: String, to limit: Int = 120) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}

extension SecurityHeaders {
    /// The headers, as Hummingbird names them.
    static let fields: [(name: HTTPField.Name, value: String)] = all.compactMap { header in
        HTTPField.Name(header.name).map { ($0, header.value) }
    }

    /// `response` with every one of the headers (a value the route set is replaced).
    static func applied(to response: Response) -> Response {
        var response = response
        for field in fields { response.headers[field.name] = field.value }
        return response
    }
}

/// Logs a kind of refusal at most once a second, counting the ones left out (as the libwebsockets server's gate
/// does): a flood of refused requests does not flood the log.
final class RefusalLog: Sendable {
    private let logger: Logger
    private let last = Mutex<[String: (at: ContinuousClock.Instant, suppressed: Int)]>([:])

    init(logger: Logger) {
        self.logger = logger
    }

    /// `kind` is one of a few fixed texts (a refusal's code or reason), so the table stays small.
    func notice(_ message: Logger.Message, kind: String, metadata: Logger.Metadata) {
        let now = ContinuousClock.now
        let suppressed: Int? = last.withLock { last in
            if let previous = last[kind], now - previous.at < .seconds(1) {
                last[kind]?.suppressed += 1
                return nil
            }
            if last.count >= 256 { last.removeAll() }
            defer { last[kind] = (now, 0) }
            return last[kind]?.suppressed ?? 0
        }
        guard let suppressed else { return }
        var metadata = metadata
        metadata["suppressed"] = "\(suppressed)"
        logger.notice(message, metadata: metadata)
    }
}
