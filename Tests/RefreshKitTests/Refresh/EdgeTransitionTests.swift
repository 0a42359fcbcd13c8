import Testing

@testable import RefreshKit

/// Every legal transition of the edge state machine, made on purpose, one at a time, with the event it must
/// emit; and the set made here is exactly ``EdgeState/legalTransitions``.
@Suite struct EdgeTransitionTests {
    typealias Step = @Sendable (inout EdgeControl, inout [Event]) -> Void

    static let t0 = Timestamp(microseconds: 1_000_000)

    static func at(_ seconds: Double) -> Timestamp { t0.advanced(bySeconds: seconds) }

    /// A control of `role` with no minimum visible time, a 0.3 s exit and a 100 px trigger.
    static func control(_ role: EdgeConfiguration.Role = .refresh, trigger: EdgeConfiguration.Trigger = .onRelease)
        -> EdgeControl
    {
        EdgeControl(
            edge: role == .refresh ? .top : .bottom,
            configuration: EdgeConfiguration(
                role: role, triggerDistance: 100, restingInset: 60, trigger: trigger, minimumVisibleDuration: 0,
                exitDuration: 0.3))
    }

    // The moves the cases are made of.
    static func drag(_ distance: Double, at seconds: Double = 0) -> Step {
        { control, events in
            _ = control.observe(
                distance: distance, velocity: 0, motion: .dragging, canStart: true, at: at(seconds), events: &events)
        }
    }
    static let start: Step = { control, events in
        _ = control.start(cause: .command, canStart: true, at: at(0), events: &events)
    }
    static let release: Step = { control, events in _ = control.release(canStart: true, at: at(0), events: &events) }
    static func finish(_ outcome: EdgeControl.Outcome) -> Step {
        { control, events in
            control.finish(outcome, cause: .feedCompleted, fingerDown: false, at: at(0), events: &events)
        }
    }
    static let exitEnds: Step = { control, events in control.advance(to: at(1), fingerDown: false, events: &events) }
    static func switched(on: Bool) -> Step {
        { control, events in
            var configuration = control.configuration
            configuration.enabled = on
            _ = control.configure(configuration, at: at(2), events: &events)
        }
    }
    static func feedReset(hasMore: Bool) -> Step {
        { control, events in control.feedReset(hasMore: hasMore, at: at(2), events: &events) }
    }

    /// A control brought to `state` (load-more footers for the states only they reach).
    static func control(in state: EdgeState) -> EdgeControl {
        var events: [Event] = []
        var control: EdgeControl
        switch state {
        case .idle: control = Self.control()
        case .pulling:
            control = Self.control()
            drag(40)(&control, &events)
        case .armed:
            control = Self.control()
            drag(150)(&control, &events)
        case .refreshing:
            control = Self.control()
            start(&control, &events)
        case .finishing:
            control = Self.control()
            start(&control, &events)
            finish(.success(hasMore: true))(&control, &events)
        case .noMoreData:
            control = Self.control(.loadMore)
            start(&control, &events)
            finish(.success(hasMore: false))(&control, &events)
            exitEnds(&control, &events)
        case .failed:
            control = Self.control(.loadMore)
            start(&control, &events)
            finish(.failure)(&control, &events)
            exitEnds(&control, &events)
        case .disabled:
            control = Self.control()
            switched(on: false)(&control, &events)
        }
        return control
    }

    /// How each legal transition is made.
    static let cases: [(from: EdgeState, to: EdgeState, step: Step)] = [
        (.idle, .pulling, drag(40)),
        (.idle, .refreshing, start),
        (
            .idle, .noMoreData,
            { c, e in
                c = Self.control(.loadMore, trigger: .manual)
                Self.feedReset(hasMore: false)(&c, &e)
            }
        ),
        (.idle, .disabled, switched(on: false)),
        (.pulling, .idle, drag(0)),
        (.pulling, .armed, drag(150)),
        (.pulling, .refreshing, start),
        (.pulling, .disabled, switched(on: false)),
        (.armed, .idle, drag(0)),
        (.armed, .pulling, drag(50)),
        (.armed, .refreshing, release),
        (.armed, .disabled, switched(on: false)),
        (.refreshing, .finishing, finish(.success(hasMore: true))),
        (.finishing, .idle, exitEnds),
        (
            .finishing, .noMoreData,
            { c, e in
                c = Self.control(.loadMore, trigger: .manual)
                Self.start(&c, &e)
                Self.finish(.success(hasMore: false))(&c, &e)
                e.removeAll()
                Self.exitEnds(&c, &e)
            }
        ),
        (
            .finishing, .failed,
            { c, e in
                c = Self.control(.loadMore, trigger: .manual)
                Self.start(&c, &e)
                Self.finish(.failure)(&c, &e)
                e.removeAll()
                Self.exitEnds(&c, &e)
            }
        ),
        (.finishing, .disabled, switched(on: false)),
        (.noMoreData, .idle, feedReset(hasMore: true)),
        (.noMoreData, .disabled, switched(on: false)),
        (.failed, .idle, feedReset(hasMore: true)),
        // A deliberate pull (past the trigger beyond the footer's own 60 px) after the 1 s back-off.
        (.failed, .armed, drag(60 + 150, at: 5)),
        (.failed, .refreshing, start),
        (.failed, .disabled, switched(on: false)),
        (.disabled, .idle, switched(on: true)),
    ]

    @Test func everyLegalTransitionHappensWithItsEvent() {
        for (from, to, step) in Self.cases {
            var control = Self.control(in: from)
            #expect(control.state == from, "setting up \(from)")
            var events: [Event] = []
            step(&control, &events)
            let moves = events.filter { $0.name == .transition }.map { "\($0.from!)→\($0.to!)" }
            #expect(moves.contains("\(from)→\(to)"), "\(from)→\(to): saw \(moves)")
            #expect(control.state == to, "\(from)→\(to) ended in \(control.state)")
            for event in events where event.name == .transition {
                #expect(event.from!.canTransition(to: event.to!), "illegal \(event.from!)→\(event.to!)")
            }
        }
    }

    @Test func theCasesAreExactlyTheLegalTransitions() {
        let made = Set(Self.cases.map { "\($0.from)→\($0.to)" })
        let legal = Set(EdgeState.legalTransitions.flatMap { from, targets in targets.map { "\(from)→\($0)" } })
        #expect(made == legal)
        #expect(Self.cases.count == made.count)
    }

    @Test func illegalMovesAreRefusedByTheTable() {
        #expect(!EdgeState.idle.canTransition(to: .armed))
        #expect(!EdgeState.refreshing.canTransition(to: .idle))
        #expect(!EdgeState.noMoreData.canTransition(to: .refreshing))
        #expect(!EdgeState.disabled.canTransition(to: .refreshing))
    }
}
