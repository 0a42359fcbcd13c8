// A wheel's or trackpad's gesture on the scroll model: its events, its end, and the momentum swallowed after it.

extension ScrollModel {
    /// Whether a wheel gesture is under way.
    ///
    /// Read from the phase, which is `wheel` exactly while a gesture is stored (every change of the one changes
    /// the other): every input asks, and the gesture (whether there is one is the last of its bytes) lies with the
    /// members only wheels use, away from what a drag's move reads (docs/PERFORMANCE.md, "Cold lines").
    public var isWheeling: Bool {
        assert((phase == .wheel) == (sideCar.wheel != nil), "a wheel gesture runs exactly in the wheel phase")
        return phase == .wheel
    }

    /// When the running wheel gesture ends if no event arrives.
    ///
    /// Every input asks, mostly with no wheel: the gesture, held apart (`ScrollSideCar`), is read out of line, so
    /// that the test of the phase is all an input runs (docs/PERFORMANCE.md, "Inlining on an input's path").
    public var wheelDeadline: Timestamp? { isWheeling ? sideCar.wheelDeadline() : nil }

    /// Applies one wheel event at the model's current time.
    public mutating func wheel(_ input: WheelInput) -> GestureOutcome {
        // The gestures are changed in place through `!`, not copied out and stored back: this runs on every
        // wheel event.
        guard !isDragging else { return .ignored }
        let delta = pixels(input)
        if let deadline = sideCar.swallowedWheel?.deadline {
            if now < deadline && !sideCar.swallowedWheel!.isNewPush(delta) {
                sideCar.swallowedWheel!.add(delta, at: now)
                return .ignored
            }
            sideCar.swallowedWheel = nil
        }
        var outcome = GestureOutcome.moved
        if sideCar.wheel == nil {
            stopMotion()
            sideCar.wheel = WheelGesture(raw: rawOffset(), at: now)
            phase = .wheel
            outcome = .began
        }
        sideCar.wheel!.add(delta, at: now)
        let raw = sideCar.wheel!.raw
        if sideCar.wheel!.isMomentum {
            // The fingers are off the trackpad. Overscrolled: let go now (spring back or refresh). In range:
            // coast with the OS's momentum but stop at the edge, swallowing what would overscroll.
            let overscrolled = !bounds(.horizontal).contains(offset.x) || !bounds(.vertical).contains(offset.y)
            if overscrolled { return endWheelSwallowing() }
            let target = Point(x: bounds(.horizontal).clamp(raw.x), y: bounds(.vertical).clamp(raw.y))
            let hitEdge = target != raw
            offset = target
            sideCar.wheel!.raw = target
            if hitEdge { return endWheelSwallowing() }
            return outcome
        }
        offset = Point(x: displayed(raw: raw.x, axis: .horizontal), y: displayed(raw: raw.y, axis: .vertical))
        return outcome
    }

    /// Ends the wheel gesture (its idle gap ran out). The caller settles as after a lift.
    public mutating func endWheel() -> GestureOutcome {
        guard sideCar.wheel != nil else { return .ignored }
        sideCar.wheel = nil
        phase = .animating
        return .released(velocity: .zero)
    }

    /// Ends the running wheel gesture, whose momentum is swallowed from now on.
    private mutating func endWheelSwallowing() -> GestureOutcome {
        sideCar.swallowedWheel = sideCar.wheel
        return endWheel()
    }

    private func pixels(_ input: WheelInput) -> Point {
        switch input.mode {
        case .pixel: input.delta
        case .line: Point(x: input.delta.x * Self.wheelLineHeight, y: input.delta.y * Self.wheelLineHeight)
        case .page: Point(x: input.delta.x * viewport.width, y: input.delta.y * viewport.height)
        }
    }
}
