extension Frame {
    /// Every number this frame carries, in a fixed order: positions, sizes, insets, motion segments, edges, the
    /// pinned header.
    ///
    /// What checks of the engine's promise use (nothing a client sends makes a number non-finite): the fuzz
    /// targets and tests walk this list rather than each keeping its own.
    public var allNumbers: [Double] {
        var numbers = [
            offset.x, offset.y, velocity.x, velocity.y, contentSize.width, contentSize.height, viewport.width,
            viewport.height, insets.top, insets.left, insets.bottom, insets.right, feed.rowHeight,
        ]
        for segment in horizontalMotion + verticalMotion {
            numbers += [segment.position, segment.velocity, segment.decayConstant, segment.target]
            if let spring = segment.spring { numbers += [spring.mass, spring.stiffness, spring.damping] }
            if let curve = segment.curve { numbers += [curve.x1, curve.y1, curve.x2, curve.y2] }
        }
        for edge in edges {
            numbers += [edge.distance, edge.progress, edge.velocity, edge.scale]
            for rect in [edge.control, edge.view] {
                numbers += [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height]
            }
            if let cycle = edge.cycle { numbers += [cycle.duration, cycle.delay] }
            if let exit = edge.exit { numbers.append(exit.duration) }
        }
        if let pinned { numbers.append(pinned.y) }
        return numbers
    }

    /// Whether every number of the frame is finite.
    public var isFinite: Bool { allNumbers.allSatisfy(\.isFinite) }
}
