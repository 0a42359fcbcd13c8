import RefreshKit

/// A message the server could not accept, sent back to the page as
/// `{"type":"error","code","message","ref"?,"seq"?}`.
///
/// `code` is stable and machine-readable (PROTOCOL.md, "error"); `message` is a sentence for people that
/// names the offending field; `ref` is the offending message's `type`, when it could be read; `seq` is the
/// refused `touch` or `wheel`'s own `seq`, when it had a valid one (the page drops that input from its
/// pending ones).
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which row of PROTOCOL.md's error table this is.
    public var code: ErrorCode
    /// A sentence for people, naming the field (`"wheel.dy must be a finite number"`).
    public var message: String
    /// The `type` of the offending message, when it was readable.
    public var ref: String?
    /// The `seq` of the refused input, when it had a valid one.
    public var seq: UInt64?
    /// For ``ErrorCode/sessionElsewhere``: the process that holds the session.
    public var node: String?

    public init(code: ErrorCode, message: String, ref: String? = nil, seq: UInt64? = nil, node: String? = nil) {
        self.code = code
        self.message = message
        self.ref = ref
        self.seq = seq
        self.node = node
    }

    /// An engine refusal (`ListModelError`), passed on to the page with the message type it answers and the
    /// input's `seq`; its reason becomes the code (``ErrorCode/init(_:)``).
    public init(_ error: ListModelError, ref: String? = nil, seq: UInt64? = nil) {
        self.init(code: ErrorCode(error.reason), message: error.message, ref: ref, seq: seq)
    }

    /// The same error, answering an input numbered `seq` (unchanged when `seq` is nil).
    public func answering(seq: UInt64?) -> WireError {
        guard let seq else { return self }
        var error = self
        error.seq = seq
        return error
    }

    public var description: String {
        if let ref { "\(code): \(message) (\(ref))" } else { "\(code): \(message)" }
    }
}

extension WireError {
    /// The reply to an input numbered `seq` at or below `applied`, the last one the session applied for the
    /// member: it is not applied again (docs/SCALING.md, "Resending").
    public static func alreadyApplied(seq: UInt64, applied: UInt64, ref: String) -> WireError {
        WireError(
            code: .alreadyApplied,
            message: "input \(seq) was applied already (the session applied this device's inputs up to \(applied))",
            ref: ref, seq: seq)
    }

    /// The reply to an input that arrives before `hello`.
    public static func notReady(ref: String?, seq: UInt64? = nil) -> WireError {
        WireError(code: .notReady, message: "send hello first", ref: ref, seq: seq)
    }

    /// The reply to a `hello` for session `session`, which node `node` holds.
    public static func sessionElsewhere(_ session: String, node: String) -> WireError {
        WireError(
            code: .sessionElsewhere,
            message: "session \(session) is held by node \(node); connect again with n=\(node) in the URL",
            ref: "hello", node: node)
    }

    /// Sent to a page of session `session` when this process stopped holding it because node `node` took it
    /// over (docs/SCALING.md, "Fencing"); no `ref`: it answers no message. The connection closes after it.
    public static func sessionMoved(_ session: String, node: String) -> WireError {
        WireError(
            code: .sessionElsewhere,
            message: "session \(session) is now held by node \(node); connect again with n=\(node) in the URL",
            node: node)
    }

    /// The reply to a binary message that is not a binary touch (``BinaryTouch``): `count` bytes, the first
    /// `first` (nil: none).
    public static func notABinaryTouch(count: Int, first: UInt8?) -> WireError {
        let firstByte = first.map { ", the first \($0)" } ?? ""
        return WireError(
            code: .binaryUnsupported,
            message:
                "a binary message must be a touch: 40 or 48 bytes, the first 1, the second its phase 0-3 (docs/PROTOCOL.md, \"Binary touch\"); got \(count) bytes\(firstByte)"
        )
    }
}
