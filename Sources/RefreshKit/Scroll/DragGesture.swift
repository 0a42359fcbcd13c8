/// A finger (or mouse, or pen) holding the content.
///
/// The offset is a function of the total translation since the drag began, never a sum of per-event
/// rubber-banded steps, so the same finger position always gives the same offset whatever the event rate
/// (physics.md §1.1, §10.4). A drag that starts while the content is overscrolled begins from the raw
/// position that the inverse rubber band gives for the displayed offset: no jump.
struct DragGesture: Hashable, Sendable {
    /// The pointer that owns the drag; samples from other pointers are ignored until it lifts.
    let pointer: Int
    /// The raw (un-rubber-banded) offset the drag started from, re-based whenever the bounds change.
    var anchor: Point
    /// Total finger movement since the drag began, CSS px, positive down/right.
    var translation: Point = .zero
    /// The page time of the latest sample, ms.
    var lastPageTime: Double
    var horizontalTracker = VelocityTracker()
    var verticalTracker = VelocityTracker()

    init(pointer: Int, anchor: Point, pageTime: Double) {
        self.pointer = pointer
        self.anchor = anchor
        self.lastPageTime = pageTime
        horizontalTracker.add(position: 0, time: pageTime)
        verticalTracker.add(position: 0, time: pageTime)
    }

    /// The raw offset the finger asks for: the anchor moved against the finger.
    var rawOffset: Point { Point(x: anchor.x - translation.x, y: anchor.y - translation.y) }

    /// Adds one finger movement sampled at `pageTime`.
    mutating func move(by delta: Point, pageTime: Double) {
        translation.x += delta.x
        translation.y += delta.y
        // Samples must go forward in page time for the velocity estimate; equal times are merged.
        lastPageTime = max(lastPageTime, pageTime)
        horizontalTracker.add(position: translation.x, time: lastPageTime)
        verticalTracker.add(position: translation.y, time: lastPageTime)
    }

    /// The content's velocity (px/s of offset) if the finger lifted at `pageTime`: the finger's velocity,
    /// reversed, since the content follows the finger.
    func releaseVelocity(pageTime: Double) -> Point {
        let lift = max(pageTime, lastPageTime)
        return Point(
            x: -horizontalTracker.velocity(atLift: lift),
            y: -verticalTracker.velocity(atLift: lift)
        )
    }
}
