/// Why a request to a feed source gave no page, as the wire and the trace carry it: the ``FeedError``'s
/// ``FeedError/code`` and its sentence for people.
///
/// A `FeedError` carries values (a path, a limit) that its sentence already says; an answer read back from a
/// trace has only the code and the sentence, so the engine keeps those two.
public struct FeedFailure: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The ``FeedError/code`` (`timed_out`, `malformed`, …).
    public var code: String
    /// What went wrong, for a person (``FeedError/description``): the failed state shows it.
    public var message: String

    /// A failure with `code` and `message`.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The failure `error` describes.
    public init(_ error: FeedError) {
        self.init(code: error.code, message: error.description)
    }

    /// The message.
    public var description: String { message }
}
