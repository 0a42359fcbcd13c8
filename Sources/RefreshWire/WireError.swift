import RefreshKit

/// A message the server could not accept, sent back to the page as
/// `{"type":"error","code","message","ref"?,"seq"?}`.
///
/// `code` is stable and machine-readable (PROTOCOL.md, "error"); `message` is a sentence for people that
/// names the offending field; `ref` is the offending message's `type`, when it could be read; `seq` is the
/// refused `touch` or `wheel`'s own `seq`, when it had a valid one (the page drops that input from its
/// pending ones).
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One of the codes of PROTOCOL.md's error table (``WireError/Code``).
    public var code: String
    /// A sentence for people, naming the field (`"wheel.dy must be a finite number"`).
    public var message: String
    /// The `type` of the offending message, when it was readable.
    public var ref: String?
    /// The `seq` of the refused input, when it had a valid one.
    public var seq: UInt64?

    public init(code: String, message: String, ref: String? = nil, seq: UInt64? = nil) {
        self.code = code
        self.message = message
        self.ref = ref
        self.seq = seq
    }

    /// An engine refusal (``SessionError``), passed on to the page with the message type it answers and the
    /// input's `seq`.
    public init(_ error: SessionError, ref: String? = nil, seq: UInt64? = nil) {
        self.init(code: error.code, message: error.message, ref: ref, seq: seq)
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
    /// The stable codes of PROTOCOL.md's error table.
    public enum Code {
        /// The text is not JSON (or is nested deeper than ``DecodingLimits/maxDepth``).
        public static let badJSON = "bad_json"
        /// The JSON is not an object, or has no string `type`.
        public static let badMessage = "bad_message"
        /// `type` is not a known message type.
        public static let unknownType = "unknown_type"
        /// A required field is absent.
        public static let missingField = "missing_field"
        /// A field has the wrong type, a non-finite value, or an unknown enum value.
        public static let badField = "bad_field"
        /// A value outside its documented range.
        public static let outOfRange = "out_of_range"
        /// `command.name` is not a known command.
        public static let unknownCommand = "unknown_command"
        /// A preset name the server does not know (raised by the engine or the server, not by the decoder).
        public static let unknownPreset = "unknown_preset"
        /// An input before `hello` (raised by the server).
        public static let notReady = "not_ready"
        /// A binary WebSocket frame (raised by the server).
        public static let binaryUnsupported = "binary_unsupported"

        /// Every code of PROTOCOL.md's error table.
        public static let allCodes: [String] = [
            badJSON, badMessage, unknownType, missingField, badField, outOfRange, unknownCommand, unknownPreset,
            notReady, binaryUnsupported,
        ]
    }

    /// The reply to an input that arrives before `hello`.
    public static func notReady(ref: String?, seq: UInt64? = nil) -> WireError {
        WireError(code: Code.notReady, message: "send hello first", ref: ref, seq: seq)
    }

    /// The reply to a binary WebSocket frame.
    public static var binaryFrame: WireError {
        WireError(code: Code.binaryUnsupported, message: "binary frames are not supported; send JSON text")
    }
}
