import RefreshKit

// What a queued message holds, for the bounds in bytes of a connection's outbox (docs/HARDENING.md, "Budgets in
// bytes").
extension ServerMessage {
    /// About how many bytes this message keeps alive while it waits to be written, beyond what its session keeps
    /// anyway: a trace its whole export (``TraceRecorder/exported()`` copies only what it holds, and it is encoded
    /// whole when written), heights their array; the others are a few small values, or share the session's arrays.
    public var queuedByteEstimate: Int {
        switch self {
        case .trace(let recorder): recorder.jsonByteEstimate
        case .heights(let heights): 64 + heights.count * MemoryLayout<RowMeasurement>.stride
        default: 256
        }
    }
}
