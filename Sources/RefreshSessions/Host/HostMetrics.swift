import CoreMetrics
import RefreshWire

/// The counters the host bumps as things happen (docs/OPERATIONS.md names each). The server makes them in
/// its own registry; a test makes them with any swift-metrics factory.
public struct HostMetrics: Sendable {
    /// Page messages handled, `refreshkit_messages_total`.
    public let messages: CoreMetrics.Counter
    /// Inputs applied to a session, `refreshkit_inputs_total`.
    public let inputs: CoreMetrics.Counter
    /// Frames written (whole or delta), `refreshkit_frames_total`.
    public let frames: CoreMetrics.Counter
    /// WebSocket payload bytes written, `refreshkit_sent_bytes_total`.
    public let sentBytes: CoreMetrics.Counter
    /// From receiving an input to writing the first frame that includes it.
    public let inputToFrame: CoreMetrics.Timer
    /// An `error` message written, by its code.
    public let error: @Sendable (ErrorCode) -> Void

    public init(
        messages: CoreMetrics.Counter, inputs: CoreMetrics.Counter, frames: CoreMetrics.Counter,
        sentBytes: CoreMetrics.Counter, inputToFrame: CoreMetrics.Timer, error: @escaping @Sendable (ErrorCode) -> Void
    ) {
        self.messages = messages
        self.inputs = inputs
        self.frames = frames
        self.sentBytes = sentBytes
        self.inputToFrame = inputToFrame
        self.error = error
    }

    /// Counters that count nowhere (swift-metrics' no-op handlers).
    public static var none: HostMetrics {
        HostMetrics(
            messages: Counter(label: "messages", factory: NOOPMetricsHandler.instance),
            inputs: Counter(label: "inputs", factory: NOOPMetricsHandler.instance),
            frames: Counter(label: "frames", factory: NOOPMetricsHandler.instance),
            sentBytes: Counter(label: "sentBytes", factory: NOOPMetricsHandler.instance),
            inputToFrame: Timer(label: "inputToFrame", factory: NOOPMetricsHandler.instance), error: { _ in })
    }
}
