import RefreshKit

/// A frame as the server keeps and sends it: the frame and the `ack` map that goes with it (what its `frame`
/// message writes, and what a `delta` from it compares against).
///
/// A value, kept where it is made: a session's recorded model holds its latest frame and the one before it
/// (RefreshSessions's `TracedListModel`), and a connection names the frame its page holds by its sequence number.
/// Not an object that the session, the trace and each connection hold: that cost an allocation and a free per
/// frame, and a retain and a release per holder (docs/PERFORMANCE.md, "The frame's two slots"). Readers borrow
/// it in place (a parameter, or a mutating method of its holder), which copies nothing.
public struct SharedFrame: Sendable {
    public let frame: Frame
    /// The frame's `ack` map: what the `frame` message writes as `ack` (none when empty).
    public let acknowledgements: Acknowledgements

    public init(_ frame: Frame, acknowledgements: Acknowledgements = Acknowledgements()) {
        self.frame = frame
        self.acknowledgements = acknowledgements
    }

    public var sequence: UInt64 { frame.sequence }
}
