import RefreshSessions
import RefreshStore

/// What a transport does for the ``HostDriver``: its I/O, and nothing else (docs/EMBEDDING.md, "A transport of
/// one's own"). Called on the transport's serving thread, the one the driver is confined to.
///
/// The fourth thing a transport does is the hop its ``HostDriver/start(hop:)`` is given: it hands a
/// ``HostArrival`` from another thread to ``HostDriver/take(_:on:)`` on its serving thread.
public protocol HostTransport: AnyObject {
    /// The host has something for `connection`: wake its writer. `soon`: the host would rather it were written
    /// now than at the turn's end, when nothing of an earlier message waits (the libwebsockets loop writes it at
    /// once then).
    func wake(_ connection: Connection, soon: Bool)
    /// The host dropped `connection`: close its socket without a close handshake.
    func close(_ connection: Connection)
    /// Calls ``HostDriver/fire(_:on:)`` with `timer` in `microseconds` (re-arming replaces the earlier one).
    func arm(_ timer: HostTimer, inMicroseconds microseconds: Int64)
}

/// The host's two timers.
public enum HostTimer: Hashable, Sendable {
    /// The engine's tick: sessions in motion advance.
    case tick
    /// The liveness sweep: pings, hang-ups, the grace periods and the store's next batch.
    case sweep
}

/// What another thread brings to the serving thread (through the transport's hop).
public enum HostArrival: Sendable {
    /// The feed's workers left reports (answers, the poll's page, posts written).
    case feedReports
    /// The store answered a take-over's read.
    case storeRead(StoreReadAnswer)
}
