/// The edges of a frame (``ListModel/frame()``): one entry per shown control, filled in place in the array of the
/// frame before last.
extension ListModel {
    /// Fills `edges` with the shown controls' entries, in their order, as many as it has room for; the controls of
    /// `inert` (bit `index`, ``ListModel``'s `inertControls`) are not shown, and not read.
    /// - Returns: how many controls are shown. Counting them in the same pass spares a pass that only counted
    ///   (docs/PERFORMANCE.md, "The frame's two slots").
    @discardableResult
    @inline(__always)
    static func fillEdges(
        _ edges: inout [EdgeFrame], from controls: UnsafeBufferPointer<EdgeControl>, skipping inert: UInt8,
        viewport: Size, bases: EdgeInsets
    ) -> Int {
        edges.withUnsafeMutableBufferPointer { slots in
            guard let first = controls.baseAddress else { return 0 }
            var count = 0
            // Read where it lies, through its address: bound to a name, a control handed to a call not inlined
            // (`fillAnimations`), or read for a computed property (its `configuration`), is first copied whole
            // (docs/PERFORMANCE.md, "No copies per input"). Shown: enabled, or still winding down.
            for index in 0..<controls.count
            where inert & 1 << index == 0
                && (first[index].shared.address.pointee.enabled || first[index].state != .disabled)
            {
                let control = first + index
                if count < slots.count {
                    // One copy of the fill per edge, with the edge a constant: its choices by edge (the base inset,
                    // the rectangles' sides) are then made once, here, not by a jump apiece.
                    switch control.pointee.edge {
                    case .top:
                        fill(&slots[count], from: control, edge: .top, viewport: viewport, baseInset: bases.top)
                    case .bottom:
                        fill(&slots[count], from: control, edge: .bottom, viewport: viewport, baseInset: bases.bottom)
                    case .left:
                        fill(&slots[count], from: control, edge: .left, viewport: viewport, baseInset: bases.left)
                    case .right:
                        fill(&slots[count], from: control, edge: .right, viewport: viewport, baseInset: bases.right)
                    }
                }
                count += 1
            }
            return count
        }
    }

    /// Each edge's base inset, ``InsetLayers/excluding(_:)`` at that edge: the combined inset less the edge's
    /// own control layer (the same sums, so the same bits).
    @inline(__always)
    static func baseInsets(_ insets: InsetLayers) -> EdgeInsets {
        let (combined, own) = (insets.combined, insets.controls)
        return EdgeInsets(
            top: combined.top - own.top, left: combined.left - own.left, bottom: combined.bottom - own.bottom,
            right: combined.right - own.right)
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

    /// Fills `entry` from `control`, which is at `edge` (a constant where it is inlined).
    @inline(__always)
    static func fill(
        _ entry: inout EdgeFrame, from control: UnsafePointer<EdgeControl>, edge: Edge, viewport: Size,
        baseInset: Double
    ) {
        let (distance, configuration) = (control.pointee.distance, control.pointee.shared.address)
        let geometry = EdgeGeometry(
            edge: edge, configuration: configuration.pointee, distance: distance, viewport: viewport,
            baseInset: baseInset)
        entry.edge = edge
        entry.state = control.pointee.state
        entry.distance = distance
        entry.progress = EdgeControl.progress(distance: distance, configuration: configuration)
        entry.velocity = control.pointee.pullVelocity
        entry.control = geometry.control
        entry.view = geometry.view
        entry.scale = geometry.scale
        // Only a refreshing or finishing control runs an animation, and only theirs is read, out of line: a
        // switch over the stage here read every state's data on every frame.
        switch entry.state {
        case .refreshing, .finishing: fillAnimations(&entry, from: control)
        default: (entry.cycle, entry.exit) = (nil, nil)
        }
    }

    /// The running cycle or exit animation of a control that is refreshing or finishing.
    @inline(never)
    static func fillAnimations(_ entry: inout EdgeFrame, from control: UnsafePointer<EdgeControl>) {
        switch control.pointee.stage {
        case .refreshing(let refreshing):
            let (cycle, animation) = (refreshing.cycle, control.pointee.shared.address.pointee.cycle)
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
