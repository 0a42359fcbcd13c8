extension EdgeControl {
    /// The timed move this control's library makes when its inset grows (a start: `startDuration`) or shrinks (an
    /// end: `exitDuration`, or the return after the exit), docs/PHYSICS.md §11.3. `nil`: the bounce spring carries
    /// the content — a control without an ``InsetAnimation``, a start by a release where the library applies the
    /// inset at once (MS). After a finish that is not animated the move takes no time: the content is put at its
    /// new rest.
    func insetTiming(growing: Bool, onRelease: Bool) -> TimedMove? {
        let configuration = configuration
        guard let animation = configuration.insetAnimation else { return nil }
        let duration: Double
        if growing {
            if onRelease && animation.bouncesOnRelease { return nil }
            duration = configuration.startDuration
        } else {
            // A finish that is not animated gives the inset back at once, whenever that is (JH: at the end of
            // the cycle it waits for): a move of no duration.
            if !exitAnimated { return TimedMove(duration: 0, curve: animation.curve) }
            duration = animation.returnDuration ?? configuration.exitDuration
        }
        return duration > 0 ? TimedMove(duration: duration, curve: animation.curve) : nil
    }
}
