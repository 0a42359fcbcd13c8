import RefreshKit
import RefreshWire

// TRANSITIONAL: delete this file once the session host's files name their codes (`ErrorCode`).
//
// The session host's files (`Host/`, `Sessions/SessionRegistry.swift`, `Connection/Outbox.swift`) still spell error
// codes as string literals (`WireError(code: "not_ready", …)`), an engine refusal's code as `error.code`, the
// field refusal as `WireError.Code.badField`, and count an error by its spelling (`HostMetrics.error`); they were
// written on another branch and are left alone here. These spellings keep them compiling, and each maps to the
// typed code at once.

extension WireError {
    /// A refusal whose code is spelled as on the wire. The spelling must be one of ``ErrorCode``'s (every caller
    /// passes a literal from PROTOCOL.md's table); another is a programming error.
    init(code spelled: String, message: String, ref: String? = nil, seq: UInt64? = nil) {
        guard let code = ErrorCode(rawValue: spelled) else {
            preconditionFailure("\"\(spelled)\" is not an error code of PROTOCOL.md's table")
        }
        self.init(code: code, message: message, ref: ref, seq: seq)
    }

    /// The codes' old namespace: `WireError.Code.badField` is ``ErrorCode/badField``.
    typealias Code = ErrorCode
}

extension HostMetrics {
    /// Counts an `error` message written with `code` (``error`` takes the spelling).
    func error(_ code: ErrorCode) { error(code.rawValue) }
}

extension SessionError {
    /// The wire code of this refusal (``ErrorCode/init(_:)``).
    var code: ErrorCode { ErrorCode(reason) }
}
