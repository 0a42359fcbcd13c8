/// Something that happened in a model, in the order it happened. Hosts stream every event to the
/// client; none is ever dropped.
public struct Event: Hashable, Sendable, Codable {
    /// What happened.
    public enum Name: String, Hashable, Sendable, CaseIterable, Codable {
        /// An edge control changed state (`from` → `to`).
        case transition
        /// The pull passed the trigger distance (MS `canEngage`, HT `CanEngageRefresh`, IQ `eligible`).
        case armed
        /// The pull went back below the trigger distance (MS `didDisengage`).
        case disarmed
        /// A refresh is about to start.
        case willStart
        /// A refresh started (MS `didEngage`, JH `refreshControlDidStart`); the feed was asked.
        case didStart
        /// A cycle of the refreshing animation began (JH `didStartAnimationCycle`).
        case cycleStarted
        /// A cycle of the refreshing animation ended (JH `didEndAnimationCycle`).
        case cycleEnded
        /// The app asked a refresh to end while it must wait (the minimum visible time, a finger holding the
        /// content, a cycle running): only a library's dialect shows it (HT `WillEndRefresh`, docs/SEEDS.md
        /// §3.3); a model naming its events as RefreshKit does keeps it to itself.
        case endRequested
        /// A refresh is about to end: the exit animation begins.
        case willEnd
        /// A refresh ended and the control is reset (JH `refreshControlDidEnd`, HT `DidEndRefresh`).
        case didEnd
        /// The feed delivered items.
        case feedLoaded
        /// The feed failed.
        case feedFailed
        /// A result arrived for a request that was no longer wanted, and was dropped.
        case feedDropped
        /// A drag or wheel gesture began.
        case gestureBegan
        /// A drag or wheel gesture ended.
        case gestureEnded
    }

    public var name: Name
    public var edge: Edge?
    public var from: EdgeState?
    public var to: EdgeState?
    public var cause: Cause
    public var time: Timestamp
    /// A number that goes with some events: items loaded, the cycle index, the pull progress.
    public var value: Double?
    /// The library's name for this event, for a model naming its events as its preset's library does
    /// (``EventDialect``); ``name`` is then the event of ours it stands for.
    public var library: LibraryEvent?

    public init(
        _ name: Name,
        edge: Edge? = nil,
        from: EdgeState? = nil,
        to: EdgeState? = nil,
        cause: Cause,
        time: Timestamp,
        value: Double? = nil,
        library: LibraryEvent? = nil
    ) {
        self.name = name
        self.edge = edge
        self.from = from
        self.to = to
        self.cause = cause
        self.time = time
        self.value = value
        self.library = library
    }
}
