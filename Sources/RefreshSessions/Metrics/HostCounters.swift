/// What the host counts as things happen, in plain integers: bumped on the host's thread on every message,
/// input and frame, and read by the transport when its metrics are asked for (RefreshServer's `/metrics`,
/// docs/OPERATIONS.md names each figure). Counting through swift-metrics' handlers took an atomic or a lock
/// per bump (docs/PERFORMANCE.md, "Counters, not metrics"); a plain field costs one addition. The totals only
/// grow, from the host's start.
public struct HostCounters: Sendable, Equatable {
    /// Page messages handled (`refreshkit_messages_total`).
    public var messages: UInt64 = 0
    /// Inputs applied to a session (`refreshkit_inputs_total`).
    public var inputs: UInt64 = 0
    /// Frames written, whole or delta (`refreshkit_frames_total`).
    public var frames: UInt64 = 0
    /// WebSocket payload bytes written (`refreshkit_sent_bytes_total`).
    public var sentBytes: UInt64 = 0
    /// From receiving an input to writing the first frame that includes it (`refreshkit_input_to_frame_seconds`).
    public var inputToFrame = LatencyHistogram(bounds: LatencyHistogram.inputToFrameBounds)

    public init() {}
}
