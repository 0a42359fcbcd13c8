/// The span of content the window of pages keeps loaded (docs/LAYOUT.md, "Where a fling stops"): the viewport, and
/// while the content moves on its own (a fling, a bounce, an animated scroll) and the list follows motion
/// (`physics.flingPrefetch`), the way to where it comes to rest: the vertical motion's last target, known in closed
/// form at the release.
struct WindowReach {
    /// The span's top, a content offset.
    var top: Double
    /// Its height: the viewport's, and the way's.
    var height: Double
    /// Whether the span is a motion's way, not the viewport alone.
    var alongMotion: Bool

    /// The reach of `scroll` as it is now.
    init(_ scroll: borrowing ScrollModel, followingMotion: Bool) {
        let (offset, viewport) = (scroll.offset.y, scroll.viewport.height)
        guard followingMotion, scroll.phase == .animating, let rest = scroll.verticalMotion.last?.target,
            rest != offset
        else {
            (top, height, alongMotion) = (offset, viewport, false)
            return
        }
        (top, height, alongMotion) = (min(offset, rest), abs(rest - offset) + viewport, true)
    }
}
