extension ScrollModel {
    /// The displayed pull beyond `edge`'s rest position (without its own layer), and its velocity: what a control
    /// at that edge observes.
    @inline(__always)
    func pull(_ edge: Edge) -> (distance: Double, velocity: Double) {
        let range = bounds(excluding: edge)
        let position = offset[edge.axis]
        let speed = velocity[edge.axis]
        return edge.isLeading ? (range.lower - position, -speed) : (position - range.upper, speed)
    }

    /// Puts the content within its bounds at once, unless a finger or a wheel holds it (a finish that is not
    /// animated).
    mutating func snapIntoBounds() {
        guard !isDragging, !isWheeling else { return }
        let target = Point(x: bounds(.horizontal).clamp(offset.x), y: bounds(.vertical).clamp(offset.y))
        if target != offset { scroll(to: target, animated: false) }
    }
}
