/// The state of one edge control. The same machine drives all four edges.
///
/// `idle → pulling → armed → refreshing → finishing → idle`, plus `noMoreData`, `failed` and `disabled`.
public enum EdgeState: String, Hashable, Sendable, CaseIterable, Codable {
    /// Nothing shown; the content rests at (or is scrolled away from) the edge.
    case idle
    /// Pulled past the edge, short of the trigger distance.
    case pulling
    /// Pulled past the trigger distance: letting go now starts a refresh (MS `canEngage`, IQ `eligible`).
    case armed
    /// The request is running; the content rests on the control's resting inset.
    case refreshing
    /// The request finished; the exit animation runs and the resting inset is released.
    case finishing
    /// The feed has no more pages: the footer says so and nothing triggers.
    case noMoreData
    /// The last load failed: the footer offers a retry.
    case failed
    /// The edge control is switched off.
    case disabled
}

/// Why something happened. Every transition carries one.
public enum Cause: String, Hashable, Sendable, CaseIterable, Codable {
    /// A finger (or mouse) moved the content.
    case drag
    /// The finger lifted.
    case release
    /// Momentum after a lift.
    case fling
    /// A wheel or trackpad gesture.
    case wheel
    /// The edge came into view (auto-trigger).
    case reachEdge
    /// A client command.
    case command
    /// The feed answered.
    case feedCompleted
    /// The feed failed.
    case feedFailed
    /// A timer of the control ran out (minimum visible time, exit animation, retry back-off).
    case timer
    /// The configuration changed.
    case configure
    /// The viewport or the content changed size.
    case layout
    /// Another edge's refresh took precedence.
    case preempted
    /// A feed answer came for a request that is no longer running (answered, timed out, cancelled).
    case stale
}
