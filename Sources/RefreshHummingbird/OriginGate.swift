import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import RefreshAccess

extension RefreshService {
    /// The app's server: HTTP/1.1 with the WebSocket upgrades of `webSocketRouter` and ``webSocketConfiguration``, as
    /// Hummingbird's `.http1WebSocketUpgrade(webSocketRouter:configuration:)`, with the front door before every
    /// upgrade: a handshake whose `Origin` the door refuses is answered `403 Forbidden` with the reason, before any
    /// route of `webSocketRouter` sees it (docs/EMBEDDING.md, "In a Hummingbird app").
    ///
    /// ```swift
    /// let app = Application(router: router, server: refresh.http1WebSocketUpgrade(webSocketRouter: sockets))
    /// ```
    ///
    /// With Hummingbird's own builder the route of ``addWebSocket(to:at:)`` refuses the same handshakes, but
    /// Hummingbird answers every refused upgrade `400 Bad Request` with no body.
    public func http1WebSocketUpgrade<Builder: HTTPResponderBuilder & _HB_SendableMetatype>(
        webSocketRouter: Builder
    ) -> HTTPServerBuilder where Builder.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(ws: webSocketConfiguration)
        return HTTPServerBuilder { [self] responder in
            FrontDoorUpgradeChannel(
                upgrades: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder, configuration: configuration),
                service: self)
        }
    }
}

/// Hummingbird's HTTP/1.1 channel with WebSocket upgrades, and an ``OriginGate`` in its pipeline right before the
/// upgrade handler.
struct FrontDoorUpgradeChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let upgrades: HTTP1WebSocketUpgradeChannel
    let service: RefreshService

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        upgrades.setup(channel: channel, logger: logger).flatMapThrowing { [service] value in
            let pipeline = channel.pipeline.syncOperations
            let upgrader = try pipeline.handler(
                type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)
            try pipeline.addHandler(OriginGate(service: service), position: .before(upgrader))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await upgrades.handle(value: value, logger: logger)
    }
}

/// Reads a connection's first request before Hummingbird's upgrade handler does. A WebSocket handshake whose
/// `Origin` the front door refuses is answered here, `403` with the reason and the security headers, and the
/// connection closed; anything else goes on, and the gate leaves the pipeline (only a connection's first request
/// can be an upgrade).
final class OriginGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let service: RefreshService
    private var refused = false

    init(service: RefreshService) {
        self.service = service
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }  // the rest of a refused request
        guard case .head(let head) = unwrapInboundIn(data),
            head.headers["upgrade"].contains(where: { $0.lowercased().contains("websocket") }),
            let reason = service.refusal(ofWebSocketFrom: head.headers["origin"].first, client: client(head, context))
        else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        refused = true
        let body = "origin not allowed: \(reason)\n"
        var headers = HTTPHeaders([
            ("content-type", "text/plain; charset=utf-8"), ("content-length", "\(body.utf8.count)"),
            ("connection", "close"),
        ])
        for header in SecurityHeaders.all { headers.add(name: header.name, value: header.value) }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .forbidden, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in
            // The upgrade handler behind this one has seen no request: told that the input is closed, it closes the
            // connection and ends its wait quietly (a wait that fails otherwise is logged as an error).
            context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }
    }

    private func client(_ head: HTTPRequestHead, _ context: ChannelHandlerContext) -> ClientAddress {
        let door = service.frontDoor
        let forwarded = door.forwardingHeaderName.map { head.headers[$0].joined(separator: ",") }
        return door.client(
            peer: context.channel.remoteAddress?.ipAddress ?? "?",
            forwardingHeader: forwarded?.isEmpty == false ? forwarded : nil)
    }
}
