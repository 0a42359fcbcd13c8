/// The legal moves of the edge state machine, as ``EdgeControl`` makes them.
///
/// Every `transition` event an ``EdgeControl`` emits goes from one state to another listed here; the table
/// is what clients, tests and the fuzz target check a stream of events against. Staying in the same state
/// is never a transition (the control emits nothing then).
extension EdgeState {
    /// For each state, the states the control may move to next, and nothing else.
    ///
    /// Why each move exists (the function of ``EdgeControl`` that makes it, and the condition):
    ///
    /// - `idle → pulling`: `observe` — hands on the content (drag or wheel), or momentum carrying it
    ///   outwards, pull it past the edge; also the first step of arming (`idle` never jumps to `armed`).
    /// - `idle → refreshing`: `start` (a command), or `observe` for an `onReachEdge` trigger once the edge
    ///   minus its preload comes into view (under hands, for `fling: ignore`).
    /// - `idle → noMoreData`: `feedReset` — a load-more footer learns the feed has no more pages; or
    ///   `observeLayout` switching a short-content footer back on when the feed has none.
    /// - `pulling → idle`: `observe` — the pull went back to (or behind) the edge.
    /// - `pulling → armed`: `observe` — the pull passed the trigger distance, with hands on the content or a
    ///   fling the policy lets trigger; never for a `manual` trigger.
    /// - `pulling → refreshing`: `start` (a command), or `observe` for an `onReachEdge` trigger.
    /// - `armed → idle`: `observe` with the pull back at the edge; `release` that may not start (a refresh
    ///   runs elsewhere, no more pages) with nothing pulled.
    /// - `armed → pulling`: `observe` — hands bring the pull back below the trigger; `release` that may not
    ///   start while still pulled.
    /// - `armed → refreshing`: `release` (`onRelease`), `observe` (`whileDragging` with hands on, a fling
    ///   past the trigger, `onReachEdge`), or `start` (a command).
    /// - `refreshing → finishing`: `end`, reached from `finish` (the feed answered, a command, a preemption),
    ///   from `release` or a timer once a waiting finish may run, or from `configure` switching the edge off.
    /// - `finishing → idle`: the exit animation's timer ran out after a refresh, a cancel, a success with
    ///   more pages, or a failed refresh (a refresh control never shows `failed`).
    /// - `finishing → noMoreData`: the exit ended after a load-more whose page was the last.
    /// - `finishing → failed`: the exit ended after a load-more that failed (its footer offers a retry).
    /// - `noMoreData → idle`: `feedReset` — a refresh reloaded the feed and pages exist again.
    /// - `failed → idle`: `feedReset` — a refresh reloaded the feed and pages exist again.
    /// - `failed → armed`: `observe` — a deliberate pull past the trigger retries, once the back-off allows.
    /// - `failed → refreshing`: `start` (a `retry` or `loadMore` command retries at once).
    /// - any enabled state except `refreshing` `→ disabled`: `configure` switched the edge off (a running
    ///   refresh first ends, `refreshing → finishing`, so that it still has its end); or, for `idle`,
    ///   `pulling`, `armed`, `noMoreData` and `failed`, `observeLayout` found the content fits and the edge's
    ///   `shortContent` policy is `disabled`.
    /// - `disabled → idle`: `configure` switched the edge on, or `observeLayout` found the content no longer
    ///   fits (then `idle → noMoreData` when the feed has no more pages).
    public static let legalTransitions: [EdgeState: Set<EdgeState>] = [
        .idle: [.pulling, .refreshing, .noMoreData, .disabled],
        .pulling: [.idle, .armed, .refreshing, .disabled],
        .armed: [.idle, .pulling, .refreshing, .disabled],
        .refreshing: [.finishing],
        .finishing: [.idle, .noMoreData, .failed, .disabled],
        .noMoreData: [.idle, .disabled],
        .failed: [.idle, .armed, .refreshing, .disabled],
        .disabled: [.idle],
    ]

    /// Whether the control may move from this state to `next` in one transition (see ``legalTransitions``).
    public func canTransition(to next: EdgeState) -> Bool {
        Self.legalTransitions[self]?.contains(next) ?? false
    }

    /// Whether a refresh of this control is under way: it has started and not yet ended. A `didStart`
    /// comes with the move into `refreshing`, and the matching `didEnd` with the move out of `finishing`.
    public var isRefreshUnderway: Bool {
        self == .refreshing || self == .finishing
    }
}
