extension ScrollModel {
    /// A new app inset (a bar appeared, a safe area changed). Content resting at an edge stays at that edge, gliding
    /// to its new rest; content scrolled elsewhere, or moving, does not move.
    mutating func changeAppInsets(to value: EdgeInsets) {
        guard value != insets.app else { return }
        let resting = phase == .idle
        let atLeading = Axis.allCases.map { abs(offset[$0] - bounds($0).lower) < 0.5 }
        let atTrailing = Axis.allCases.map { abs(offset[$0] - bounds($0).upper) < 0.5 }
        setAppInsets(value)
        guard resting else { return }
        var target = offset
        for (index, axis) in Axis.allCases.enumerated() {
            if atLeading[index] {
                target[axis] = bounds(axis).lower
            } else if atTrailing[index] {
                target[axis] = bounds(axis).upper
            }
        }
        if target != offset { scroll(to: target, animated: true) }
    }
}
