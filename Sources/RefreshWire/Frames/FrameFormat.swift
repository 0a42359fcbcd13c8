/// How a connection receives the session's frames, chosen by the page in `hello` (`"frames":"full"` or
/// `"frames":"delta"`; PROTOCOL.md, "delta").
public enum FrameFormat: String, Hashable, Sendable, CaseIterable {
    /// Every frame is a whole `frame` message (the default: pages and tools written before deltas existed
    /// keep working unchanged).
    case full
    /// The first frame after a `welcome` is a whole `frame`; each one after it is a `delta`, the changes
    /// since the previous frame or delta the connection received
    /// (``MessageEncoder/encodeDelta(_:from:into:)-(_,_,[UInt8])``).
    case delta
}
