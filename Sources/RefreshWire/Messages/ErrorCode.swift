import RefreshKit

/// The stable, machine-readable `code` of an `error` message: every row of PROTOCOL.md's error table, spelled
/// as the wire spells it (the raw value). `ProtocolDocumentTests` checks that the cases are exactly the table's
/// codes, and `web/js/protocol.js` names the same ones for the page.
///
/// Written into a log line or a metric's label, a code reads as its raw value (`bad_field`).
public enum ErrorCode: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The text is not JSON (or is nested deeper than ``DecodingLimits/maxDepth``). Raised by the decoder.
    case badJSON = "bad_json"
    /// The JSON is not an object, or has no string `type`. Raised by the decoder.
    case badMessage = "bad_message"
    /// `type` is not a message the page may send. Raised by the decoder.
    case unknownType = "unknown_type"
    /// A required field is absent. Raised by the decoder.
    case missingField = "missing_field"
    /// A field has the wrong type, a non-finite value or an unknown enum value; also a page time that went
    /// backwards or ran ahead (PROTOCOL.md, "Clocks"). Raised by the decoder and the server.
    case badField = "bad_field"
    /// A value outside its documented range (a viewport side, a delta, a configuration value). Raised by the
    /// decoder and the engine.
    case outOfRange = "out_of_range"
    /// `command.name` is not a known command. Raised by the decoder.
    case unknownCommand = "unknown_command"
    /// A preset name the server does not know. Raised by the engine.
    case unknownPreset = "unknown_preset"
    /// A `scrollToItem` whose `id` is not among the session's loaded rows. Raised by the engine.
    case unknownItem = "unknown_item"
    /// An input (or `trace`) before `hello`. Raised by the server.
    case notReady = "not_ready"
    /// A `hello` with a `token` the session never issued (or has forgotten); nothing was joined. Raised by the
    /// server.
    case badToken = "bad_token"
    /// A `hello {session}` when the session's members are all connected and at the limit. Raised by the server.
    case sessionFull = "session_full"
    /// A new session while the server holds its maximum and none of them is idle. Raised by the server.
    case tooManySessions = "too_many_sessions"
    /// A binary WebSocket frame. Raised by the server.
    case binaryUnsupported = "binary_unsupported"
    /// Messages arrive faster than the rate limit: they are dropped unanswered until the rate falls; sent at
    /// most once a second. Raised by the server.
    case rateLimited = "rate_limited"
    /// The connection fell behind and its oldest queued messages were dropped. Raised by the server.
    case lagging = "lagging"
    /// A `hello` for a session that another live process holds (``WireError/node`` names it): the page connects
    /// again with `n=<node>`, which a balancer routes there (docs/SCALING.md). Raised by the server.
    case sessionElsewhere = "session_elsewhere"
    /// An input whose `seq` is not above the last one the session applied for the member (a resend that crossed the
    /// first sending: docs/SCALING.md, "Resending"); it is not applied again. Raised by the server.
    case alreadyApplied = "already_applied"
    /// A `hello` without the key (or token) a live session asks for, or with a wrong one, or one the embedder's
    /// hook denied; or an input the member's role may not send (``MemberRole``). Nothing changes; the session goes
    /// on. Raised by the server.
    case forbidden = "forbidden"

    /// The code of an engine refusal. Every reason has one; the switch has no default, so a new
    /// `ListModelError.Reason` does not compile until it is given its code here (and in PROTOCOL.md's table).
    public init(_ reason: ListModelError.Reason) {
        switch reason {
        case .outOfRange: self = .outOfRange
        case .unknownPreset: self = .unknownPreset
        case .wrongKind: self = .badField
        case .badMeasurement: self = .badMessage
        case .unknownItem: self = .unknownItem
        }
    }

    /// The code as the wire spells it.
    public var description: String { rawValue }
}
