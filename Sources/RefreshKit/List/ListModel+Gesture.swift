// A touch's or a wheel's sample, applied: checked, the model moved to its time, handed to the scroll model, and its
// outcome carried out by the controls. A drag's move that only moved the content says so, so that a host may keep the
// schedule it read (`apply(_:at:)` of a touch). The model's members these read are internal for this file
// (ListModel.swift: the events, the quiet flag, the controls' observation and actions).

extension ListModel {
    /// ``apply(_:at:)`` of a touch, for a host that read one without making an ``Input`` of it: the same steps.
    /// (Taken out of an `Input` there, the touch's `delta.y` was copied as three narrower pieces and read back
    /// whole, a read the CPU holds until every store before it is written: docs/PERFORMANCE.md, "A turn's inputs
    /// together". Inlined into the `Input` path, as it was.)
    ///
    /// - Returns: whether ``schedule()`` is what it was before the touch: the clock only moved up to `time`, nothing
    ///   fell due, and the touch only moved the content, a drag's move that no control took notice of. A host that
    ///   keeps the schedule after every call need not ask again (a drag's every move). A touch does not end a wheel gesture or start a motion, a timer or a request without an
    ///   event, so the schedule's parts (``isActive``, ``nextDeadline``) are untouched.
    @inline(__always)
    @discardableResult
    public mutating func apply(_ touch: TouchInput, at time: Timestamp) throws(ListModelError) -> Bool {
        let (clockOnly, moved) = try applyGesture(
            touch.delta, pageTime: touch.pageTime, "touch", at: time, { $0.touch(touch) })
        if moved { return clockOnly }
        // What the input made due at once happens now, not at the next unrelated input.
        advance(to: now)
        return false
    }

    /// A touch's or wheel's sample: checked (before anything changes), the model moved to `time`, the sample
    /// handed to the scroll model by `step` and its outcome handled. - Returns: whether moving to `time` only moved
    /// the clock (``advanceClock(to:)``), and whether the sample only moved the content (``movedOnly(since:)``), so
    /// that nothing more is due.
    @inline(__always)
    mutating func applyGesture(
        _ delta: Point, pageTime: Double, _ what: StaticString, at time: Timestamp,
        _ step: (inout ScrollModel) -> ScrollModel.GestureOutcome
    ) throws(ListModelError) -> (clockOnly: Bool, moved: Bool) {
        try Validation.finite(delta, what)
        try Validation.pageTime(pageTime, what)
        let clockOnly = advanceClock(to: time)
        // The input changes the model (or is ignored, and then the next step observes anyway).
        observedQuietly.value = false
        let eventCount = events.count
        handle(step(&scroll))
        return (clockOnly, movedOnly(since: eventCount, clockOnly: clockOnly))
    }

    /// Whether the gesture input just handled only moved the content: it said nothing (no event since
    /// `eventCount`) and the controls, observing it, asked for nothing. Then it made nothing due, and everything
    /// due by now already ran, so ``apply(_:at:)`` need not look again. (Every request of a control, timer and
    /// motion starts with an event. The window of pages asks for a dropped page without one: when moving the clock
    /// to the input's time stepped (`clockOnly` false), such a request may have started at this very time, and
    /// with a source that answers at once it is due now.)
    @inline(__always)
    private mutating func movedOnly(since eventCount: Int, clockOnly: Bool) -> Bool {
        guard observedQuietly.value && events.count == eventCount else { return false }
        if !clockOnly, let due = earliestDeadline(), due <= now { return false }
        return true
    }

    /// Inlined where a gesture input or a wheel's end is handled (docs/PERFORMANCE.md, "Inlining on an input's path").
    @inline(__always)
    mutating func handle(_ outcome: ScrollModel.GestureOutcome) {
        switch outcome {
        case .ignored:
            return
        case .began:
            events.append(Event(.gestureBegan, cause: scroll.isWheeling ? .wheel : .drag, time: now))
            pager.release()  // the reader takes the list back from a `scrollToItem`
            observe()
        case .moved:
            observe()
        case .released(let velocity):
            let cause: Cause = scroll.isDragging ? .drag : .release
            events.append(Event(.gestureEnded, cause: cause, time: now))
            for edge in Edge.allCases {
                let canStart = canStart(edge)
                let action = controls[Self.index(edge)].release(canStart: canStart, at: now, events: &events)
                perform(action, for: edge)
            }
            syncLayers(onRelease: true)
            scroll.settle(velocity: velocity)
            observe()
        }
    }
}
