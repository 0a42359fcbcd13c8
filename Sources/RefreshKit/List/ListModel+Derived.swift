/// What ``ListModel`` keeps of its own members because an input or a frame reads it: the controls that are switched
/// off, the feed's status and the row height. Each is derived (worked out again when `nil`, and set to `nil` where
/// what it derives from changes: `configure`, the `didSet`s of the configuration, `pager` and `simulated`), so a
/// model's coding and equality do not see them. A drag's move reads one of these, kept beside the other members an
/// input reads, instead of reaching into what it derives from (docs/PERFORMANCE.md, "Cold lines"):
/// - `inertControls`, the controls that do nothing until the configuration changes (bit `index`): switched off, and
///   so `disabled` (``EdgeControl/configure(_:contentFits:at:events:)``). Observing one changes nothing, it has no
///   timer, and frames do not show it, so an input's observation and its frame pass over it without reading it.
///   The quiet step's look for a timer (`nothingDue`) reads every control's state still, so that it stays small
///   enough to be inlined into `apply`.
/// - `feedStatusCache`, ``FeedStatus`` since the pager last changed: every input and frame reads it.
/// - `rowHeightCache`, the configuration's row height since it last changed: every frame carries it, and nothing
///   else a drag's move reads is in the configuration.
extension ListModel {
    /// ``inertControls``, worked out again after a change of the configuration (or a decoding).
    @inline(__always)
    mutating func inert() -> UInt8 {
        if let mask = inertControls.value { return mask }
        return findInertControls()
    }

    /// ``inert()`` when the controls have changed.
    @inline(never)
    mutating func findInertControls() -> UInt8 {
        var mask: UInt8 = 0
        for index in controls.indices
        where !controls[index].configuration.enabled && controls[index].state == .disabled {
            mask |= 1 << index
        }
        inertControls.value = mask
        return mask
    }

    /// ``FeedStatus``, read once after each change of the pager or of the engine's own source.
    @inline(__always)
    mutating func feedStatus() -> FeedStatus {
        if let status = feedStatusCache.value { return status }
        return findFeedStatus()
    }

    /// ``feedStatus()`` after a change.
    @inline(never)
    mutating func findFeedStatus() -> FeedStatus {
        let status = FeedStatus(
            due: feedDue, running: pager.running?.kind, hasMore: pager.hasMore, mayLoadMore: pager.mayLoadMore,
            hasSections: SectionHeaders.any(in: pager.loaded.items), count: pager.geometry.rowCount)
        feedStatusCache.value = status
        return status
    }

    /// ``FeedConfiguration/rowHeight`` of ``configuration``, read once after each change of the configuration.
    @inline(__always)
    mutating func rowHeight() -> Double {
        if let height = rowHeightCache.value { return height }
        let height = configuration.feed.rowHeight
        rowHeightCache.value = height
        return height
    }
}
