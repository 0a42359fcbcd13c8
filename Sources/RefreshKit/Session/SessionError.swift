/// Why the session refused an input. The host sends it to the client as `error {code, message}`; the
/// session itself is unchanged and keeps working.
public struct SessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable code (`out_of_range`, `unknown_preset`, `unknown_command`, …).
    public var code: String
    /// A sentence for people.
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    static func outOfRange(_ message: String) -> SessionError { SessionError(code: "out_of_range", message: message) }
}
