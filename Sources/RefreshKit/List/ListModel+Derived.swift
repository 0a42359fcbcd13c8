/// What ``ListModel`` keeps of its own members because an input or a frame reads it: the controls that are switched
/// off, the feed's status and the row height. Each is derived (worked out again when `nil`, and set to `nil` where
/// what it derives from changes: `configure`, the `didSet`s of `configuration` and `pager`), so a
/// model's coding and equality do not see them. At 1 000 sessions a move that reads one of these instead of what it
/// derives from finds fewer cold cache lines (`bench/profile/callgrind_cache.py`):
/// - `inertControls`, the controls that do nothing until the configuration changes (bit `index`): switched off, and
///   so `disabled` (``EdgeControl/configure(_:contentFits:at:events:)``). Observing one changes nothing, it has no
///   timer, and frames do not show it, so an input's observation and its frame pass over it without reading it:
///   each control lies in cache lines of its own (two edges switched off: 61.2 -> 58.3 lines missed per input).
///   The quiet step's look for a timer (`nothingDue`) reads every control's state still: with the mask there too
///   the step no longer inlined `advance(to:)` into `apply` (+59 instructions per engine step for ~2 lines).
/// - `feedStatusCache`, ``FeedPager/status()`` since the pager last changed: every input and frame reads it, and
///   each read of the pager copies it.
/// - `rowHeightCache`, the configuration's row height since it last changed: every frame carries it, and nothing
///   else a drag's move reads is in the configuration's cache lines (67.1 -> 66.4 lines missed per input).
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

    /// ``FeedPager/status()``, read once after each change of the pager.
    @inline(__always)
    mutating func feedStatus() -> FeedPager.Status {
        if let status = feedStatusCache.value { return status }
        let status = pager.status()
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
