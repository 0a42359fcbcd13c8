/// The seed libraries the presets imitate, with their own names for our events, read from each library's
/// source (docs/SEEDS.md): the delegate callbacks, notifications or states it reports.
extension PresetLibrary {
    /// UIKit's `UIRefreshControl` (`ios`): a control event when it starts, a method call to end.
    public static let uiRefreshControl = PresetLibrary(
        name: "UIRefreshControl", eventNames: uiKitEvents, dialect: .uiKit)

    /// GVRefreshControl (`gv`): a `UIRefreshControl`, so UIKit's names.
    public static let gvRefreshControl = PresetLibrary(
        name: "GVRefreshControl", eventNames: uiKitEvents, dialect: .uiKit)

    /// JHPullToRefreshKit (`jh`): its base class's hooks (docs/SEEDS.md §1).
    public static let jhPullToRefreshKit = PresetLibrary(
        name: "JHPullToRefreshKit",
        eventNames: [
            "didStart": EventNames(["refreshControlDidStart"]),
            "cycleStarted": EventNames(["refreshControlDidStartAnimationCycle"]),
            "cycleEnded": EventNames(["refreshControlDidEndAnimationCycle"]),
            "didEnd": EventNames(["refreshControlDidEnd"]),
        ],
        dialect: .jh)

    /// HTRefreshView (`ht`): its refresh view's state callbacks (docs/SEEDS.md §3).
    public static let htRefreshView = PresetLibrary(
        name: "HTRefreshView",
        eventNames: [
            "armed": EventNames(["CanEngageRefresh"]),
            "disarmed": EventNames(["DidDisengageRefresh"]),
            "didStart": EventNames(["DidEngageRefresh"]),
            "willEnd": EventNames(["WillEndRefresh"]),
            "didEnd": EventNames(["DidEndRefresh"]),
        ],
        dialect: .ht)

    /// MSPullToRefreshController (`ms`): its delegate's callbacks (docs/SEEDS.md §2).
    public static let msPullToRefreshController = PresetLibrary(
        name: "MSPullToRefreshController",
        eventNames: [
            "armed": EventNames(["canEngage"]),
            "disarmed": EventNames(["didDisengage"]),
            "didStart": EventNames(["didEngage"]),
        ],
        dialect: .ms)

    /// IQPullToRefresh (`iq`): its refresh states, and its load-more delegate's calls (docs/SEEDS.md §5).
    public static let iqPullToRefresh = PresetLibrary(
        name: "IQPullToRefresh",
        eventNames: [
            "transition:pulling": EventNames([".pulling(progress)"]),
            "armed": EventNames([".eligible"]),
            "didStart": EventNames(refresh: [".refreshing"], loadMore: ["loadingBegin"]),
            "didEnd": EventNames(refresh: [".none"], loadMore: ["loadingFinished"]),
        ],
        dialect: .iq)

    /// `valueChanged` when it begins, `endRefreshing` to end.
    private static let uiKitEvents: [String: EventNames] = [
        "didStart": EventNames(["valueChanged (beginRefreshing)"]),
        "didEnd": EventNames(["endRefreshing"]),
    ]
}
