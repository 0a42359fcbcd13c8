import RefreshKit
import RefreshWire

/// What the session host asks its transport to do. The host decides; the transport (the libwebsockets
/// adapter, or a test) carries these out in order, and tells the host what happened through its events.
///
/// The rare actions with large payloads (a store batch, a read, a feed request) are `indirect`: each is one
/// pointer, as a connection is, so the actions of every input (a write, the tick) are copied and destroyed
/// without the value witnesses of the large ones (docs/PERFORMANCE.md, "No copies per input").
public enum HostAction {
    /// Call back when `connection` can be written (``SessionHost/writeable(_:at:write:)``).
    case wantWrite(Connection)
    /// `connection`'s frame is the only thing it has to send: write it at once if nothing earlier is still
    /// buffered on the socket (call ``SessionHost/writeable(_:at:write:)`` now), else as ``wantWrite(_:)``.
    case writeSoon(Connection)
    /// Close `connection` at once without a close handshake (the peer is not listening, or a write failed).
    case kill(Connection)
    /// The host's timer must fire at `deadline` (µs): call ``SessionHost/tick(at:)`` then. Replaces any
    /// earlier arming.
    case armTick(at: Int64)
    /// The liveness sweep must run in `after` µs: call ``SessionHost/sweep(at:)`` then.
    case armSweep(after: Int64)
    /// Hand `batch` to the session store, without waiting for it; tell the host what became of it with
    /// ``SessionHost/storeAnswered(_:at:)`` (docs/SCALING.md).
    indirect case writeStore(StoreBatch)
    /// Read session `read.session` from the store for a take-over, without the host waiting for it; bring the
    /// answer back with ``SessionHost/storeRead(_:at:)`` (docs/SCALING.md).
    indirect case readStore(StoreRead)
    /// Hand session `session`'s request `id` (its model's `ListModel.sourceRequest`) to the feed source,
    /// without waiting; bring the answer back with ``SessionHost/feedAnswered(session:answer:at:)``
    /// (docs/FEEDS.md, "Serving").
    indirect case requestFeed(session: String, id: Int, request: FeedRequest)
}

/// What one write asked the transport to put on the wire.
public enum HostWrite {
    /// A text message: the bytes after the host's headroom.
    case text
    /// A ping control frame with these bytes as its payload (after the headroom).
    case ping
}

/// What became of a ``SessionHost/writeable(_:at:write:)``.
public enum WriteOutcome: Equatable, Sendable {
    /// A message was written, or there was nothing to write.
    case written
    /// The transport's write failed: the connection is to be dropped.
    case failed
    /// Send the close frame now, with this code (and its `CloseCode.reason`).
    case close(CloseCode)
}
