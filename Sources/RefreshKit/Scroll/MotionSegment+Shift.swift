extension MotionSegment {
    /// The same motion `distance` px further along its axis: start, target (a spring's rest, a decay's or
    /// timed move's end) moved together, velocity and timing unchanged. A row layout's anchor correction moves
    /// a running fling this way (docs/LAYOUT.md, "Wiring"): the content keeps its speed, nothing is re-planned.
    func shifted(by distance: Double) -> MotionSegment {
        var segment = self
        segment.position += distance
        segment.target += distance
        return segment
    }
}
