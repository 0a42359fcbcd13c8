/// How a seed library tells its app what its control does: which of our events it has, under which names, in
/// which order, and which it leaves out (docs/SEEDS.md, "Each library's events").
///
/// A model whose configuration asks for the library's events (``ListConfiguration/events``) hands each event
/// it takes through its preset's dialect. State changes (`transition`), the feed's and the gestures' events
/// pass through unchanged: they are the engine's account of the list, which the page draws from whatever the
/// names. The control's callbacks (`armed` … `didEnd`) are replaced by the library's, each carrying the
/// ``LibraryEvent`` and, as its ``Event/name``, the event of ours it stands for.
public enum EventDialect: String, Hashable, Sendable, CaseIterable, Codable {
    /// UIRefreshControl (`ios`) and GVRefreshControl (`gv`): one `valueChanged` when a refresh begins.
    case uiKit
    /// JHPullToRefreshKit (`jh`).
    case jh
    /// MSPullToRefreshController (`ms`).
    case ms
    /// HTRefreshView (`ht`).
    case ht
    /// IQPullToRefresh (`iq`).
    case iq

    /// Appends to `out` what `event`, of an edge configured as `edge`, is in the library's sequence: itself,
    /// itself and a library event, one or two library events, or nothing.
    public func translate(_ event: Event, edge: EdgeConfiguration, into out: inout [Event]) {
        switch event.name {
        case .transition:
            out.append(event)
            if self == .iq, let state = Self.iqState(event, edge: edge) {
                out.append(event.named(state, as: .transition))
            }
        case .feedLoaded, .feedFailed, .feedDropped, .gestureBegan, .gestureEnded:
            out.append(event)
        case .armed, .disarmed, .willStart, .didStart, .cycleStarted, .cycleEnded, .endRequested, .willEnd, .didEnd:
            for (library, ours) in callbacks(for: event, edge: edge) { out.append(event.named(library, as: ours)) }
        }
    }

    /// The library's callbacks for one of ours, each with the event of ours it stands for (mostly the one it
    /// replaces; where one becomes two, the first stands for the step before: JH's `valueChanged` for
    /// `willStart`, HT's footer's `CanEngage` for `armed`, HT's `DidEnd` for `didEnd`).
    private func callbacks(for event: Event, edge: EdgeConfiguration) -> [(LibraryEvent, Event.Name)] {
        let name = event.name
        switch (self, name) {
        case (.uiKit, .didStart): return [(.valueChanged, .didStart)]
        // JH is a UIControl: `valueChanged`, then its delegate (docs/SEEDS.md §1.2). It has no armed state and
        // no "will end"; its `didEnd` comes after the exit animation, as ours does.
        case (.jh, .didStart): return [(.valueChanged, .willStart), (.refreshControlDidStart, .didStart)]
        case (.jh, .cycleStarted): return [(.refreshControlDidStartAnimationCycle, name)]
        case (.jh, .cycleEnded): return [(.refreshControlDidEndAnimationCycle, name)]
        case (.jh, .didEnd): return [(.refreshControlDidEnd, name)]
        // MS has no end callback at all (§2.3).
        case (.ms, .armed): return [(.canEngage, name)]
        case (.ms, .disarmed): return [(.didDisengage, name)]
        case (.ms, .didStart): return [(.didEngage, name)]
        case (.ht, .armed): return [(.canEngageRefresh, name)]
        case (.ht, .disarmed): return [(.didDisengageRefresh, name)]
        // The app's `startRefresh:` of a footer (bottom or right) sets HT's flag before anything runs, so its guard
        // skips the handler: no `DidEngage` (§3.3). An AutoTrigger footer is never armed by a pull: HT says
        // `CanEngage` and `DidEngage` as the edge starts it (§3.4).
        case (.ht, .didStart):
            if event.cause == .command, event.edge == .bottom || event.edge == .right { return [] }
            return edge.trigger == .onReachEdge
                ? [(.canEngageRefresh, .armed), (.didEngageRefresh, .didStart)] : [(.didEngageRefresh, .didStart)]
        // HT's AutoTrigger and DoNotTrigger footers skip the inset logic: `endRefresh:` says `DidEnd` alone; every
        // other edge says `WillEnd` on the app's call, again on each re-run of a finish that had to wait, and
        // `DidEnd` at once as the inset starts back, not after it (§3.3, §3.4).
        case (.ht, .endRequested): return Self.htSaysOnlyDidEnd(edge) ? [] : [(.willEndRefresh, name)]
        case (.ht, .willEnd):
            return Self.htSaysOnlyDidEnd(edge)
                ? [(.didEndRefresh, .didEnd)] : [(.willEndRefresh, .willEnd), (.didEndRefresh, .didEnd)]
        // IQ's states come with the transitions (``iqState(_:edge:)``); its delegates are asked to load.
        case (.iq, .didStart): return [(edge.role == .loadMore ? .loadMoreTriggered : .refreshTriggered, name)]
        default: return []
        }
    }

    /// Whether HT's `endRefresh:` says only `DidEnd` on `edge`: an AutoTrigger or DoNotTrigger footer's.
    private static func htSaysOnlyDidEnd(_ edge: EdgeConfiguration) -> Bool {
        edge.trigger == .onReachEdge || edge.trigger == .manual
    }

    /// IQPullToRefresh's control state for a transition of ours, when it reports one (§5.2, §5.3): `.pulling`,
    /// `.eligible` (only where a release starts the control: a progress-completion control starts at once, never
    /// eligible), `.refreshing`, and `.none` back at rest.
    private static func iqState(_ event: Event, edge: EdgeConfiguration) -> LibraryEvent? {
        switch event.to {
        case .pulling: return .pullingState
        case .armed: return edge.trigger == .onRelease ? .eligibleState : nil
        case .refreshing: return .refreshingState
        case .idle: return event.from == .disabled ? nil : .noneState
        default: return nil
        }
    }
}

extension ListConfiguration {
    /// `events` under the names this configuration asks for (docs/SEEDS.md §(b)): RefreshKit's, which keep an end
    /// that had to wait to themselves, or the library's.
    func named(_ events: [Event]) -> [Event] {
        guard let dialect = eventDialect else {
            guard events.contains(where: { $0.name == .endRequested }) else { return events }
            return events.filter { $0.name != .endRequested }
        }
        var named: [Event] = []
        named.reserveCapacity(events.count + 2)
        for event in events { dialect.translate(event, edge: event.edge.map(edge) ?? .none, into: &named) }
        return named
    }
}

extension Event {
    /// This event as the library's `name`, standing for our `ours`.
    fileprivate func named(_ name: LibraryEvent, as ours: Event.Name) -> Event {
        var event = self
        event.name = ours
        event.library = name
        return event
    }
}
