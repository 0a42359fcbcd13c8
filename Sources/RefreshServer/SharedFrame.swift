import RefreshKit

/// A frame held by its room and by the connections whose pages hold it (their next delta's base).
///
/// A `Frame` is some 200 bytes and three arrays: every hand-over of the value copied the bytes and retained
/// each array, and dropping one released them again, a dozen atomic operations per frame and connection.
/// Shared through one object, a hand-over is one reference count, and the arrays are let go once, when the
/// last holder moves on.
final class SharedFrame {
    let frame: Frame

    init(_ frame: Frame) {
        self.frame = frame
    }

    var sequence: UInt64 { frame.sequence }
}
