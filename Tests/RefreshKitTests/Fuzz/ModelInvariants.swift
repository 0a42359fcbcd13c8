import RefreshKit

/// Checks, after every step of a trace, what must hold whatever the inputs were: every number in the frame
/// finite, progress in 0…1, only legal transitions (each from the state the edge was in), exactly one end
/// per start, time never going backwards, a non-negative feed, and a next deadline in the future.
struct ModelInvariants {
    /// Each edge's state as the events tell it, and whether a refresh of it has started and not ended.
    private var states: [Edge: EdgeState] = [:]
    private var started: [Edge: Bool] = [:]
    private var lastEventTime: Timestamp
    private var lastSequence: UInt64?
    /// Refreshes started and ended over the whole trace.
    private(set) var starts = 0
    private(set) var ends = 0

    /// Starts from the model as created. Events it still holds from its creation are checked against the
    /// states before them; a refresh it started without reporting it counts as started (the disabled test
    /// `sessionInitReportsTheLoadMoreItStarts` tracks that).
    init(_ model: ListModel) {
        lastEventTime = model.now
        var copy = model
        let pending = copy.takeEvents()
        for edge in Edge.allCases {
            if let first = pending.first(where: { $0.edge == edge && $0.name == .transition }), let from = first.from {
                states[edge] = from
                started[edge] = false
            } else {
                states[edge] = model.control(edge).state
                started[edge] = model.control(edge).state.isRefreshUnderway
            }
        }
    }

    /// What is wrong after a step that began at `before`, given its events and the frame taken after it.
    mutating func check(_ model: ListModel, events: [Event], frame: Frame, before: Timestamp) -> [String] {
        var problems: [String] = []
        check(events, model: model, before: before, into: &problems)
        check(frame, model: model, into: &problems)
        if let deadline = model.nextDeadline, deadline <= model.now {
            problems.append("nextDeadline \(deadline) is not after now \(model.now)")
        }
        // Whatever falls due by now has run: `nextDeadline` lists only later times, so a timer left due now
        // would wait for the next input.
        for control in model.controls {
            if let due = control.nextDeadline, due <= model.now {
                problems.append(
                    "\(Self.pending(due, model.now)): \(control.edge)'s timer at \(due) in \(control.state)")
            }
        }
        if let request = model.pager.running, let due = model.feedDue, due <= model.now {
            problems.append("\(Self.pending(due, model.now)): the feed answer for \(request.edge) at \(due)")
        }
        return problems
    }

    static let dueNow = "due now but left pending"
    static let overdue = "overdue and left pending"

    static func pending(_ due: Timestamp, _ now: Timestamp) -> String { due == now ? dueNow : overdue }

    // MARK: - Events

    private mutating func check(_ events: [Event], model: ListModel, before: Timestamp, into problems: inout [String]) {
        for event in events {
            if event.time < lastEventTime || event.time < before || event.time > model.now {
                problems.append(
                    "event \(event.name) at \(event.time) outside [\(max(lastEventTime, before)), \(model.now)]")
            }
            lastEventTime = max(lastEventTime, event.time)
            guard let edge = event.edge else { continue }
            let state = states[edge]!
            switch event.name {
            case .transition:
                guard let from = event.from, let to = event.to else {
                    problems.append("transition of \(edge) without from/to")
                    continue
                }
                if from != state { problems.append("\(edge): transition from \(from), but the edge was \(state)") }
                if !from.canTransition(to: to) { problems.append("\(edge): illegal transition \(from)→\(to)") }
                states[edge] = to
            case .didStart:
                if started[edge]! { problems.append("\(edge): didStart while a refresh was already started") }
                if state != .refreshing { problems.append("\(edge): didStart in \(state)") }
                started[edge] = true
                starts += 1
            case .didEnd:
                if !started[edge]! { problems.append("\(edge): didEnd without a didStart") }
                if state.isRefreshUnderway { problems.append("\(edge): didEnd in \(state)") }
                started[edge] = false
                ends += 1
            default:
                break
            }
        }
        for edge in Edge.allCases {
            let state = states[edge]!
            if model.control(edge).state != state {
                problems.append("\(edge): events say \(state), the control is \(model.control(edge).state)")
            }
            if started[edge]! != state.isRefreshUnderway {
                problems.append("\(edge): in \(state) with a refresh \(started[edge]! ? "started" : "not started")")
            }
        }
    }

    // MARK: - Frame

    private mutating func check(_ frame: Frame, model: ListModel, into problems: inout [String]) {
        if let lastSequence, frame.sequence != lastSequence + 1 {
            problems.append("frame sequence \(frame.sequence) after \(lastSequence)")
        }
        lastSequence = frame.sequence
        if frame.time != model.now { problems.append("frame time \(frame.time) is not now \(model.now)") }
        if !frame.isFinite { problems.append("a non-finite number in \(frame)") }
        for edge in frame.edges {
            if !(0...1).contains(edge.progress) {
                problems.append("\(edge.edge).progress \(edge.progress) outside 0…1")
            }
            if edge.state != model.control(edge.edge).state { problems.append("\(edge.edge): frame state differs") }
        }
        for segment in frame.horizontalMotion + frame.verticalMotion {
            if let end = segment.end, end < segment.start {
                problems.append("segment ends before it starts: \(segment)")
            }
        }
        if frame.feed.count < 0 { problems.append("feed count \(frame.feed.count)") }
        if frame.contentSize.height < 0 || frame.contentSize.width < 0 { problems.append("negative content size") }
    }

}
