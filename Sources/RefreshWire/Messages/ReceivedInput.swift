import RefreshKit

/// An input as a page sent it: what it asks of the session, the page's `seq` for it, and the message text
/// both were read from, which a session's trace records as it was received (a replay reads it back).
///
/// One value from the decoder to the recording, so the input and its text cannot part on the way. It
/// borrows the text: use it while the buffer it was read from lives (a transport's receive buffer lives for
/// the callback that delivered it).
public struct ReceivedInput {
    public let input: Input
    /// The page's number for it (`touch`, `wheel`), acknowledged in the frames once applied.
    public let seq: UInt64?
    /// The message, exactly as received.
    public let text: UnsafeRawBufferPointer

    /// `input` and `seq` as decoded from `text`.
    public init(_ input: Input, seq: UInt64? = nil, text: UnsafeRawBufferPointer) {
        self.input = input
        self.seq = seq
        self.text = text
    }
}

/// A touch as ``MessageDecoder/plainTouchInput(_:)`` reads it, and its `seq`: plain values, nothing to free.
/// (Returned as a ``ReceivedInput``, whose input the caller cannot see is a touch, it would be freed through the
/// input type's value witnesses: docs/PERFORMANCE.md, "No copies per input".)
public struct PlainTouchInput: Sendable, Equatable {
    public let touch: TouchInput
    /// The page's number for it, as ``ReceivedInput/seq``.
    public let seq: UInt64?
}

extension MessageDecoder {
    /// `text` as a touch when it is spelled exactly as the page spells one (`plainTouch(_:)`), read in one
    /// pass; nil otherwise, and then ``decode(_:)-(UnsafeRawBufferPointer)`` reads it (it alone reports errors).
    /// What ``decodeInput(_:)`` returns for such a text (as `ReceivedInput(.touch(touch), seq: seq, text: text)`),
    /// without making a ``ClientMessage`` on the way.
    public func plainTouchInput(_ text: UnsafeRawBufferPointer) -> PlainTouchInput? {
        guard let (touch, seq) = plainTouch(text) else { return nil }
        return PlainTouchInput(touch: touch, seq: seq)
    }

    /// Decodes `text` as an input. - Returns: nil when `text` is a valid message of another kind (`hello`,
    /// `ping`, `trace`). - Throws: the ``WireError`` the page would be sent.
    public func decodeInput(_ text: UnsafeRawBufferPointer) throws(WireError) -> ReceivedInput? {
        guard case .input(let input, let seq) = try decode(text) else { return nil }
        return ReceivedInput(input, seq: seq, text: text)
    }
}
