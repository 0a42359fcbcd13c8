import RefreshKit
import RefreshWire

/// Replays a recorded `Trace` headlessly: a fresh model with the trace's start (or the session its snapshot
/// holds, `SessionSnapshot`), then every operation in order through ``TracedListModel`` (the path the server
/// takes), decoding each recorded message with `MessageDecoder`. The engine is deterministic, so the frames come
/// out byte for byte as they were sent, which the frame digest checks.
public struct TraceReplay: Sendable {
    /// What the replay produced.
    public struct Result: Sendable {
        /// The model after the last operation.
        public var model: ListModel
        /// Every event, in order.
        public var events: [Event]
        /// The frames produced, and their digest.
        public var frames: FrameDigest
        /// The last frame produced, if any.
        public var lastFrame: Frame?
        /// Recorded messages the engine refused (the server refused them too, with an `error`).
        public var refused: Int
        /// Whether the recording's frames can be compared with the replay's: not for a trace of format version 1,
        /// whose frames carried the simulated feed's `newest` and that feed's rows as they were then
        /// (docs/TRACE.md, "Versions").
        public var checked: Bool
        /// Whether the replay produced the recording's frames: the same count and digest (never when not
        /// ``checked``).
        public var matches: Bool
    }

    public let trace: Trace
    public var decoder: MessageDecoder

    public init(_ trace: Trace, decoder: MessageDecoder = MessageDecoder()) {
        self.trace = trace
        self.decoder = decoder
    }

    /// Runs the replay. `onFrame` sees each frame and its encoded `frame` message.
    public func run(onFrame: (Frame, ArraySlice<UInt8>) -> Void = { _, _ in }) throws(TraceError) -> Result {
        var traced = try TracedListModel.starting(trace, limits: .unlimited, presets: decoder.presets)
        var events: [Event] = []
        var lastFrame: Frame?
        var refused = 0
        var update = MessageBuffer()
        var buffer: [UInt8] = []
        let encoder = MessageEncoder()
        for (index, operation) in trace.operations.enumerated() {
            switch operation {
            case .apply(let time, let member, let text):
                let (input, seq) = try input(text, member: member, index: index)
                let result: Swift.Result<Void, ListModelError> = text.withUnsafeBytes { bytes in
                    Swift.Result { () throws(ListModelError) in
                        try traced.apply(ReceivedInput(input, seq: seq, text: bytes), member: member, at: time)
                    }
                }
                if case .failure = result { refused += 1 }
            case .advance(let time):
                traced.advance(to: time)
            case .frame:
                update.removeAll()
                let shared = traced.frame(appendingUpdateTo: &update)  // as the server made it
                lastFrame = shared.frame
                buffer.removeAll(keepingCapacity: true)
                encoder.encode(shared, into: &buffer)
                onFrame(shared.frame, buffer[...])
            }
            events.append(contentsOf: traced.takeEvents())
        }
        let frames = traced.recorder.frames
        return Result(
            model: traced.model, events: events, frames: frames, lastFrame: lastFrame, refused: refused,
            checked: trace.version >= 2, matches: trace.version >= 2 && frames == trace.frames)
    }

    /// The recorded message's input and its `seq` (a `feed_answer` from member -1, the feed source).
    private func input(_ text: [UInt8], member: Int, index: Int) throws(TraceError) -> (Input, UInt64?) {
        do {
            return try TracedListModel.recordedInput(text, member: member, decoder: decoder)
        } catch {
            throw TraceError("ops[\(index)]: the recorded message does not decode: \(error.description)")
        }
    }
}
