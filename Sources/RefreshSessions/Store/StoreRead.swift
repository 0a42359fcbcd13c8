/// A read the host asks of the store (``HostAction/readStore(_:)``): session `session`, for a take-over
/// (docs/SCALING.md, "Who holds a session"). The transport carries it out with a ``SessionStore`` and brings
/// the answer back as an event (``SessionHost/storeRead(_:at:)``), as it does with the writes' batches.
public struct StoreRead: Sendable, Hashable {
    /// Counts the host's reads from 1: an answer names the read it answers, and one the host no longer
    /// waits for is ignored.
    public var number: UInt64
    public var session: String

    public init(number: UInt64, session: String) {
        self.number = number
        self.session = session
    }
}

/// The store's answer to a ``StoreRead``: what it holds of the session (with the copy's holder and whether that
/// holder's lease is current, ``StoredSession``). Whatever else a read learns about the copy (a fencing epoch,
/// for one) rides on ``StoredSession`` and reaches the host's rules with it.
public struct StoreReadAnswer: Sendable {
    /// The read this answers.
    public var read: StoreRead
    /// What the store holds of the session: found, missing, or the store unreachable.
    public var load: StoreLoad

    public init(read: StoreRead, load: StoreLoad) {
        self.read = read
        self.load = load
    }
}
