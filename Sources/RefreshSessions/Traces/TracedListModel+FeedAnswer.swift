import RefreshKit
import RefreshWire

extension TracedListModel {
    /// Applies the feed source's `answer` at `clockTime`, recorded as a `feed_answer` applied by member -1
    /// (`TraceOperation.feedSourceMember`), the way a replay will apply it without the source.
    ///
    /// The answer is written as its `feed_answer` text, and the model gets what that text reads back as (an
    /// item's time to the microsecond, `ms` to the microsecond), so the session and a replay of its trace hold
    /// the same values. An answer that does not read back (an item's time beyond ±10¹³ ms) is applied as the
    /// `malformed` failure that says why.
    /// - Returns: the `feed_answer` text recorded.
    @discardableResult
    public mutating func apply(feedAnswer answer: FeedAnswerInput, at clockTime: Timestamp) throws(ListModelError)
        -> [UInt8]
    {
        let encoder = MessageEncoder()
        var text: [UInt8] = []
        encoder.encodeFeedAnswer(answer, into: &text)
        var applied: FeedAnswerInput
        do {
            applied = try FeedAnswerDecoder().decode(text)
        } catch {
            let failure = FeedFailure(.malformed(error.message))
            applied = FeedAnswerInput(
                request: answer.request, outcome: .failure(failure), durationMs: answer.durationMs)
            text.removeAll()
            encoder.encodeFeedAnswer(applied, into: &text)
        }
        let input = applied
        let result: Result<Void, ListModelError> = text.withUnsafeBytes { bytes in
            Result { () throws(ListModelError) in
                try apply(
                    ReceivedInput(.feedAnswer(input), text: bytes), member: TraceOperation.feedSourceMember,
                    at: clockTime)
            }
        }
        try result.get()
        return text
    }

    /// The input a recorded message stands for, and its `seq`: a page's message read by `decoder`, or, from
    /// member -1, the feed source's `feed_answer` (which `decoder` refuses from a page).
    public static func recordedInput(_ text: [UInt8], member: Int, decoder: MessageDecoder) throws(WireError) -> (
        Input, UInt64?
    ) {
        if member == TraceOperation.feedSourceMember {
            return (.feedAnswer(try FeedAnswerDecoder().decode(text)), nil)
        }
        let decoded: Result<ClientMessage, WireError> = text.withUnsafeBytes { bytes in
            Result { () throws(WireError) in try decoder.decode(bytes) }
        }
        guard case .input(let input, let seq) = try decoded.get() else {
            throw WireError(
                code: .badMessage, message: "the recorded message is not an input (hello, ping or trace)")
        }
        return (input, seq)
    }
}
