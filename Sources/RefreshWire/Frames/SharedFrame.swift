import RefreshKit

/// A frame with several holders: the recorded session (the base of its next update), the server's room, and
/// the connections whose pages hold it (their next delta's base).
///
/// A `Frame` is some 200 bytes and three arrays: every hand-over of the value copied the bytes and retained
/// each array, and dropping one released them again, a dozen atomic operations per frame and holder. Shared
/// through one object, a hand-over is one reference count, and the arrays are let go once, when the last
/// holder moves on.
public final class SharedFrame: Sendable {
    public let frame: Frame
    /// The frame's `ack` map: what the `frame` message writes as `ack` (none when empty).
    public let acknowledgements: Acknowledgements

    public init(_ frame: Frame, acknowledgements: Acknowledgements = Acknowledgements()) {
        self.frame = frame
        self.acknowledgements = acknowledgements
    }

    public var sequence: UInt64 { frame.sequence }
}
