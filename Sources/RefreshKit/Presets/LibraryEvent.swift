/// An event as a seed library's delegate (or its control's target) receives it, for a model whose
/// configuration names its events as the library does (``ListConfiguration/events``; docs/SEEDS.md, "Each
/// library's events").
///
/// A one-byte value rather than a name: an ``Event`` stays plain data, copied without retains.
public enum LibraryEvent: UInt8, Hashable, Sendable, CaseIterable, Codable {
    // UIKit's control, and any UIControl: the target-action event.
    case valueChanged
    // JHPullToRefreshKit's delegate (docs/SEEDS.md §1.4).
    case refreshControlDidStart
    case refreshControlDidStartAnimationCycle
    case refreshControlDidEndAnimationCycle
    case refreshControlDidEnd
    // MSPullToRefreshController's delegate (§2.3).
    case canEngage
    case didDisengage
    case didEngage
    // HTRefreshView's states (§3.4).
    case canEngageRefresh
    case didDisengageRefresh
    case didEngageRefresh
    case willEndRefresh
    case didEndRefresh
    // IQPullToRefresh's control states and its delegates' calls (§5.2, §5.3).
    case noneState
    case pullingState
    case eligibleState
    case refreshingState
    case refreshTriggered
    case loadMoreTriggered

    /// The name as the library spells it, which the wire's `event` carries.
    public var name: String {
        switch self {
        case .valueChanged: "valueChanged"
        case .refreshControlDidStart: "refreshControlDidStart"
        case .refreshControlDidStartAnimationCycle: "refreshControlDidStartAnimationCycle"
        case .refreshControlDidEndAnimationCycle: "refreshControlDidEndAnimationCycle"
        case .refreshControlDidEnd: "refreshControlDidEnd"
        case .canEngage: "canEngage"
        case .didDisengage: "didDisengage"
        case .didEngage: "didEngage"
        case .canEngageRefresh: "CanEngageRefresh"
        case .didDisengageRefresh: "DidDisengageRefresh"
        case .didEngageRefresh: "DidEngageRefresh"
        case .willEndRefresh: "WillEndRefresh"
        case .didEndRefresh: "DidEndRefresh"
        case .noneState: ".none"
        case .pullingState: ".pulling"
        case .eligibleState: ".eligible"
        case .refreshingState: ".refreshing"
        case .refreshTriggered: "refreshTriggered"
        case .loadMoreTriggered: "loadMoreTriggered"
        }
    }
}
