import Testing

@testable import RefreshKit

/// The data an ``EdgeControl`` keeps lives in the state it means something in (``EdgeControl/Stage``): it is
/// set on entering that state and gone on leaving it, and the flat ``EdgeControl/state`` is its projection.
@Suite struct EdgeControlStageTests {
    static let t0 = Timestamp(microseconds: 1_000_000)

    static func at(_ seconds: Double) -> Timestamp { t0.advanced(bySeconds: seconds) }

    static func control(
        _ role: EdgeConfiguration.Role = .refresh, minimumVisible: Double = 0.5, endsOnCycleBoundary: Bool = false
    ) -> EdgeControl {
        EdgeControl(
            edge: role == .refresh ? .top : .bottom,
            configuration: EdgeConfiguration(
                role: role, triggerDistance: 100, restingInset: 60, minimumVisibleDuration: minimumVisible,
                exitDuration: 0.3, endsOnCycleBoundary: endsOnCycleBoundary,
                cycle: EdgeConfiguration.AnimationCycle(duration: 0.8)))
    }

    @Test func aRefreshCarriesItsStartCycleAndWaitingFinishUntilItEnds() throws {
        var control = Self.control()
        var events: [Event] = []
        #expect(control.stage == .plain(.idle) && control.state == .idle)
        #expect(control.start(cause: .command, canStart: true, at: Self.at(0), events: &events) == .request)
        guard case .refreshing(let started) = control.stage else {
            Issue.record("not refreshing: \(control.stage)")
            return
        }
        #expect(started.start == Self.at(0) && started.visibleUntil == Self.at(0.5))
        #expect(started.cycle == EdgeControl.RunningCycle(index: 0, start: Self.at(0)) && started.pending == nil)
        #expect(control.state == .refreshing && control.refreshStart == Self.at(0) && control.exitStart == nil)

        // The feed answers before the minimum visible time: the finish waits, in the refreshing state.
        control.finish(
            .success(hasMore: true), cause: .feedCompleted, fingerDown: false, at: Self.at(0.1), events: &events)
        guard case .refreshing(let waiting) = control.stage else {
            Issue.record("ended early: \(control.stage)")
            return
        }
        #expect(waiting.pending == EdgeControl.PendingFinish(outcome: .success(hasMore: true), animated: true))
        #expect(control.nextDeadline == Self.at(0.5))

        // The gate opens: the exit starts.
        control.advance(to: Self.at(0.5), fingerDown: false, events: &events)
        guard case .finishing(let finishing) = control.stage else {
            Issue.record("not finishing: \(control.stage)")
            return
        }
        #expect(finishing.refreshStart == Self.at(0) && finishing.exitStart == Self.at(0.5))
        #expect(finishing.exitDuration == 0.3 && finishing.next == .idle)
        #expect(control.cycle == nil && control.nextDeadline == Self.at(0.8))

        // After the exit nothing of the refresh is left.
        control.advance(to: Self.at(0.8), fingerDown: false, events: &events)
        #expect(control.stage == .plain(.idle))
        #expect(control.refreshStart == nil && control.exitStart == nil && control.exitDuration == 0)
        #expect(control.nextDeadline == nil)
    }

    @Test func aCycleRunsOnInsideTheRefreshingState() {
        var control = Self.control(minimumVisible: 0)
        var events: [Event] = []
        _ = control.start(cause: .command, canStart: true, at: Self.at(0), events: &events)
        control.advance(to: Self.at(1.7), fingerDown: false, events: &events)
        #expect(control.cycle == EdgeControl.RunningCycle(index: 2, start: Self.at(1.6)))
        #expect(events.filter { $0.name == .cycleStarted }.map(\.value) == [0, 1, 2])
    }

    @Test func aFailedFooterCarriesItsBackOffAndLosesItOnceReset() {
        var control = Self.control(.loadMore, minimumVisible: 0)
        var events: [Event] = []
        for (attempt, backOff) in [(0.0, 1.0), (10.0, 2.0)] {
            _ = control.start(cause: .command, canStart: true, at: Self.at(attempt), events: &events)
            control.finish(.failure, cause: .feedFailed, fingerDown: false, at: Self.at(attempt), events: &events)
            guard case .finishing(let finishing) = control.stage else {
                Issue.record("not finishing: \(control.stage)")
                return
            }
            let failed = EdgeControl.Failed(retryNotBefore: Self.at(attempt + backOff))
            #expect(finishing.next == .failed(failed))
            control.advance(to: Self.at(attempt + 0.3), fingerDown: false, events: &events)
            #expect(control.stage == .failed(failed) && control.retryNotBefore == Self.at(attempt + backOff))
        }
        control.feedReset(hasMore: true, at: Self.at(20), events: &events)
        #expect(control.stage == .plain(.idle) && control.retryNotBefore == nil)
    }

    @Test func switchingAnEdgeOffEndsItsRefreshAsItsWaitingFinishAsked() {
        var control = Self.control(minimumVisible: 2)
        var events: [Event] = []
        _ = control.start(cause: .command, canStart: true, at: Self.at(0), events: &events)
        control.finish(
            .success(hasMore: true), cause: .feedCompleted, animated: false, fingerDown: false, at: Self.at(0.1),
            events: &events)
        var off = control.configuration
        off.enabled = false
        #expect(control.configure(off, at: Self.at(0.2), events: &events) == .cancelRequest)
        #expect(control.stage == .plain(.disabled) && control.exitAnimated == false)
        let moves = events.filter { $0.name == .transition }.map { "\($0.from!)→\($0.to!)" }
        #expect(moves == ["idle→refreshing", "refreshing→finishing", "finishing→disabled"])
        #expect(events.filter { $0.name == .didEnd }.count == 1)
    }

    @Test func theFlatStateIsTheStagesProjection() {
        let stages: [EdgeControl.Stage] = [
            .plain(.idle), .plain(.pulling), .plain(.armed), .plain(.noMoreData), .plain(.disabled),
            .refreshing(.init(start: Self.t0, cycle: .init(index: 0, start: Self.t0))),
            .finishing(.init(refreshStart: Self.t0, exitStart: Self.t0, exitDuration: 0.3, next: .idle)),
            .failed(.init(retryNotBefore: Self.t0)),
        ]
        #expect(Set(stages.map(\.state)) == Set(EdgeState.allCases))
    }
}
