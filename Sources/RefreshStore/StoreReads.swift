import Logging
import RefreshSessions

/// Carries out the host's take-over reads (`HostAction/readStore(_:)`) for the service loop: on the service
/// thread, through the reader's own Redis connection (`RedisStore`), a bounded round trip made only when a
/// page names a session this process does not hold. The loop hands each answer back to the host as an event
/// (`SessionHost/storeRead(_:at:)`) with the time it came; the host's rules never touch the store.
public final class StoreReads: @unchecked Sendable {
    private let store: SessionStore

    public init(address: StoreAddress, logger: Logger) {
        store = RedisStore(address: address, logger: logger)
    }

    /// What the store holds of `read`'s session (`StoreLoad/unavailable` while it is unreachable).
    public func answer(_ read: StoreRead) -> StoreReadAnswer {
        StoreReadAnswer(read: read, load: store.load(read.session))
    }
}
