/// The WebSocket close codes the server's connections end with: every row of PROTOCOL.md's close-code table
/// (`ProtocolDocumentTests` checks that they are the same, and `web/js/protocol.js` names the same ones for the
/// page). The raw value is the code on the wire, the 2-byte status of the close frame (RFC 6455 §5.5.1).
///
/// The codes below 4000 are RFC 6455's (§7.4.1, their meaning there); 4000…4999 are for applications to
/// define (§7.4.2), and 4001 is this protocol's own. Not all are sent by this project's code: libwebsockets
/// itself closes a connection that breaks the WebSocket framing or sends a text frame that is not UTF-8.
public enum CloseCode: UInt16, CaseIterable, Hashable, Sendable {
    /// 1001, "going away": the server is shutting down (SIGTERM, SIGINT). The page reconnects.
    case goingAway = 1001
    /// 1002, "protocol error": the client broke the WebSocket framing. Sent by libwebsockets.
    case protocolError = 1002
    /// 1007, "invalid frame payload data": a text frame that is not UTF-8. Sent by libwebsockets, which the
    /// server asks to check (RFC 6455 §8.1 requires it).
    case invalidPayload = 1007
    /// 1008, "policy violation": a client that kept flooding past the rate limit (docs/HARDENING.md).
    case policyViolation = 1008
    /// 1009, "message too big": a message over the size limit, closed as soon as the limit is crossed.
    case messageTooBig = 1009
    /// 4001: the connection's member resumed on a newer connection, which wins. The page forgets its token
    /// and comes back as a new member (PROTOCOL.md, "Sessions").
    case sessionTaken = 4001

    /// The close frame's reason text when the server sets one (the codes libwebsockets sends carry its own):
    /// for people reading a log or a browser's console, never for the page's logic.
    public var reason: String? {
        switch self {
        case .goingAway: "server shutting down"
        case .protocolError, .invalidPayload: nil
        case .policyViolation: "rate limit exceeded"
        case .messageTooBig: "message too large"
        case .sessionTaken: "session resumed on another connection"
        }
    }
}
