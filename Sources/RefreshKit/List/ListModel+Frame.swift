/// The edges of a frame (``ListModel/frame()``): one entry per shown control, filled in place in the array of the
/// frame before last.
extension ListModel {
    /// Fills `edges` with the shown controls' entries, in their order, as many as it has room for.
    /// - Returns: how many controls are shown. Counting them in the same pass spares a pass that only counted
    ///   (callgrind: ListModel.frame 535 -> 501 instructions a frame).
    @discardableResult
    @inline(__always)
    static func fillEdges(
        _ edges: inout [EdgeFrame], from controls: UnsafeBufferPointer<EdgeControl>, viewport: Size,
        insets: InsetLayers
    ) -> Int {
        edges.withUnsafeMutableBufferPointer { slots in
            var count = 0
            for control in controls where isShown(control) {
                if count < slots.count {
                    fill(
                        &slots[count], from: control, viewport: viewport,
                        baseInset: insets.excluding(control.edge)[control.edge])
                }
                count += 1
            }
            return count
        }
    }

    /// Whether frames carry an entry for `control`: enabled, or still winding down.
    @inline(__always)
    static func isShown(_ control: EdgeControl) -> Bool {
        control.configuration.enabled || control.state != .disabled
    }

    /// Grows or shrinks a frame's edge array to `count` entries; only when the set of shown edges changes.
    static func resize(_ edges: inout [EdgeFrame], to count: Int) {
        if edges.count > count {
            edges.removeLast(edges.count - count)
        } else {
            let placeholder = EdgeFrame(edge: .top, state: .disabled, distance: 0, progress: 0, velocity: 0)
            edges.append(contentsOf: repeatElement(placeholder, count: count - edges.count))
        }
    }

    @inline(__always)
    static func fill(
        _ entry: inout EdgeFrame, from control: borrowing EdgeControl, viewport: Size, baseInset: Double
    ) {
        let (edge, distance, progress) = (control.edge, control.distance, control.progress)
        let geometry = EdgeGeometry(
            edge: edge, configuration: control.configuration, distance: distance, viewport: viewport,
            baseInset: baseInset)
        entry.edge = edge
        entry.state = control.state
        entry.distance = distance
        entry.progress = progress
        entry.velocity = control.pullVelocity
        entry.control = geometry.control
        entry.view = geometry.view
        entry.scale = geometry.scale
        switch control.stage {
        case .refreshing(let refreshing):
            let (cycle, animation) = (refreshing.cycle, control.configuration.cycle)
            entry.cycle = CycleFrame(
                index: cycle.index, start: cycle.start, duration: animation.duration, delay: animation.delay,
                kind: animation.kind)
            entry.exit = nil
        case .finishing(let finishing):
            entry.cycle = nil
            entry.exit = ExitFrame(start: finishing.exitStart, duration: finishing.exitDuration)
        default:
            (entry.cycle, entry.exit) = (nil, nil)
        }
    }
}
