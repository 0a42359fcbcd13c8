/// The presets: each seed library's documented behaviour and defaults, read from its source (docs/SEEDS.md),
/// as values of the one edge model. Their bugs (docs/SEEDS.md, section (c)) are not reproduced.
extension Preset {
    /// The footer every preset with load-more uses unless its library says otherwise: it starts as it comes
    /// into view, a fling's included.
    static func footer(
        trigger: EdgeConfiguration.Trigger = .onReachEdge, height: Double = 60, prompting: Double = 0,
        strictness: EdgeConfiguration.Strictness = .inclusive, preload: Double = 0,
        shortContent: EdgeConfiguration.ShortContentPolicy = .enabled, insetDuration: Double? = nil,
        insetAnimation: InsetAnimation? = nil
    ) -> EdgeConfiguration {
        EdgeConfiguration(
            role: .loadMore, triggerDistance: height, restingInset: height, promptingInset: prompting,
            preload: preload, trigger: trigger, strictness: strictness, fling: .trigger, shortContent: shortContent,
            minimumVisibleDuration: 0.3, startDuration: insetDuration ?? 0.25, exitDuration: insetDuration ?? 0.2,
            insetAnimation: insetAnimation, presentation: .slideDown, anchor: .middle, viewBehaviour: .fixedBottom,
            height: height)
    }

    /// UIView's `animateWithDuration:animations:` and Swift's `UIView.animate(withDuration:)` without options:
    /// `UIView.AnimationOptions.curveEaseInOut`, the default, whose curve is Core Animation's
    /// ease-in-ease-out (docs/PHYSICS.md §11.1). JH, MS and IQ animate their insets so.
    static let uiViewAnimation = InsetAnimation(curve: .easeInEaseOut)

    /// UIRefreshControl, as Flutter's CupertinoSliverRefreshControl measured it on iOS: the refresh starts
    /// while the finger is still down, once 100 px are visible, and the content rests 60 px down
    /// (docs/PHYSICS.md §8.1). Load-more starts when the footer comes into view.
    public static let ios = Preset(
        name: "ios", library: .uiRefreshControl,
        summary: "UIRefreshControl: starts at 100 px while dragging, rests at 60 px; auto load-more footer",
        configuration: ListConfiguration(edges: [
            .top: EdgeConfiguration(
                role: .refresh, triggerDistance: 100, restingInset: 60, trigger: .whileDragging,
                strictness: .inclusive, minimumVisibleDuration: 0.5, startDuration: 0.25, exitDuration: 0.3,
                presentation: .background, anchor: .middle, viewBehaviour: .fixedBottom, height: 60),
            .bottom: footer(),
        ])
    )

    /// JHPullToRefreshKit: a top control `height` tall (60 in its demos) that starts on release once the
    /// pull is strictly beyond its height, rests on that height, repeats an animation cycle until the end,
    /// then plays an exit animation, and only then gives the inset back; both inset moves are its 0.25 s
    /// `kPTRAnimationDuration` UIView animations (docs/SEEDS.md §1). Its pull is measured from the inset here (its own
    /// threshold ignored the inset), and a forced refresh is revealed and never doubled.
    public static let jh = Preset(
        name: "jh", library: .jhPullToRefreshKit,
        summary: "JHPullToRefreshKit: release past 60 px (strict), animation cycles, exit animation",
        configuration: ListConfiguration(edges: [
            .top: EdgeConfiguration(
                role: .refresh, triggerDistance: 60, restingInset: 60, trigger: .onRelease, strictness: .strict,
                minimumVisibleDuration: 0, startDuration: 0.25, exitDuration: 0.5,
                insetAnimation: InsetAnimation(curve: .easeInEaseOut, returnDuration: 0.25), endsOnCycleBoundary: true,
                presentation: .slideDown,
                anchor: .top, viewBehaviour: .anchored,
                cycle: EdgeConfiguration.AnimationCycle(duration: 0.8, delay: 0, kind: .default), height: 60,
                control: "colorCycle")
        ])
    )

    /// HTRefreshView: all four edges on its fork of MSPullToRefreshController. Top and left refresh on
    /// release strictly past their size and also when a fling's bounce carries them there; the bottom
    /// footer auto-triggers as it comes into view (on every offset change, momentum's included) and keeps a
    /// prompting inset, and is hidden, with its inset given back, while the list fits the viewport
    /// (docs/SEEDS.md §3.3, §3.4). The right edge keeps working on a list no wider than the viewport, which
    /// every list here is: HT's hiding rule would switch it off for good. Every inset change, the footer's
    /// prompt included, is HT's 0.25 s ease-out from where the content is (§3.3, §3.4).
    public static let ht = Preset(
        name: "ht", library: .htRefreshView,
        summary: "HTRefreshView: four edges, fling may trigger, auto-trigger footer with prompting inset",
        configuration: ListConfiguration(edges: [
            .top: EdgeConfiguration(
                role: .refresh, triggerDistance: 60, restingInset: 60, trigger: .onRelease, strictness: .strict,
                fling: .trigger, minimumVisibleDuration: 0.25, startDuration: 0.25, exitDuration: 0.25,
                insetAnimation: htInset, presentation: .slideDown, anchor: .bottom, viewBehaviour: .fixedBottom,
                height: 60, control: "arrow"),
            .bottom: footer(
                height: 44, prompting: 44, strictness: .strict, shortContent: .disabled, insetDuration: 0.25,
                insetAnimation: htInset),
            .left: EdgeConfiguration(
                role: .refresh, triggerDistance: 60, restingInset: 60, trigger: .onRelease, strictness: .strict,
                fling: .trigger, minimumVisibleDuration: 0.25, startDuration: 0.25, exitDuration: 0.25,
                insetAnimation: htInset, height: 60, control: "side"),
            .right: EdgeConfiguration(
                role: .loadMore, triggerDistance: 60, restingInset: 60, trigger: .onRelease, strictness: .strict,
                minimumVisibleDuration: 0.25, startDuration: 0.25, exitDuration: 0.25, insetAnimation: htInset,
                height: 60, control: "side"),
        ])
    )

    /// HTRefreshView's inset animation: 0.25 s ease-out (`UIViewAnimationOptionCurveEaseOut`), from the
    /// frozen displayed offset, in and out (docs/SEEDS.md §3.3).
    static let htInset = InsetAnimation(curve: .easeOut)

    /// GVRefreshControl: UIRefreshControl with a height from its data source (100 by default) and a view
    /// behaviour chosen from the pull progress; UIKit starts it while dragging (docs/SEEDS.md §4). The default
    /// behaviour when the data source gives none is `fixedTop`.
    public static let gv = Preset(
        name: "gv", library: .gvRefreshControl,
        summary: "GVRefreshControl: 100 px control, starts while dragging, stretches then pins (fixedTop)",
        configuration: ListConfiguration(edges: [
            .top: EdgeConfiguration(
                role: .refresh, triggerDistance: 100, restingInset: 100, trigger: .whileDragging,
                strictness: .inclusive, minimumVisibleDuration: 0.5, startDuration: 0.25, exitDuration: 0.3,
                presentation: .slideDown, anchor: .middle, viewBehaviour: .fixedTop, height: 100, control: "ring")
        ])
    )

    /// MSPullToRefreshController: headless, per-edge refreshable and refreshing insets (30 and 30 in its
    /// demo) on top and bottom, engaged on the first frame after release strictly past the refreshable
    /// inset; flings never engage; a release applies the refreshing inset at once and the bounce settles on
    /// it, while a programmatic start and every finish animate over 0.2 s (docs/SEEDS.md §2.3). Short content
    /// works here (the original broke when the content area was smaller than the frame).
    public static let ms = Preset(
        name: "ms", library: .msPullToRefreshController,
        summary: "MSPullToRefreshController: top and bottom, engage on release past 30 px (strict), 0.2 s",
        configuration: ListConfiguration(edges: [
            .top: EdgeConfiguration(
                role: .refresh, triggerDistance: 30, restingInset: 30, trigger: .onRelease, strictness: .strict,
                fling: .ignore, minimumVisibleDuration: 0, startDuration: 0.2, exitDuration: 0.2,
                insetAnimation: msInset, presentation: .slideDown, anchor: .bottom, viewBehaviour: .fixedBottom,
                height: 30, control: "arrow"),
            .bottom: EdgeConfiguration(
                role: .loadMore, triggerDistance: 30, restingInset: 30, trigger: .onRelease, strictness: .strict,
                fling: .ignore, minimumVisibleDuration: 0, startDuration: 0.2, exitDuration: 0.2,
                insetAnimation: msInset, presentation: .slideDown, anchor: .top, viewBehaviour: .fixedBottom, height: 30
            ),
        ])
    )

    /// MSPullToRefreshController's insets: UIView animations of 0.2 s (default curve), except on engaging
    /// after a release, where the inset is set at once (docs/SEEDS.md §2.3).
    static let msInset = InsetAnimation(curve: .easeInEaseOut, bouncesOnRelease: true)

    /// IQPullToRefresh with its custom-control defaults: refresh `eligible` at progress ≥ 1 (inclusive) of
    /// an 80 px length and started on release; the default load-more indicator (60 px) starts when a drag
    /// reaches the end, never a fling (`fling: ignore`); `preload` moves both thresholds; insets animate
    /// over 0.1 s, UIView's default curve (docs/SEEDS.md §5.2, §5.3). Paginated by its wrapper's rules.
    public static let iq = Preset(
        name: "iq", library: .iqPullToRefresh,
        summary: "IQPullToRefresh: eligible at 80 px (inclusive), release to refresh, reach-end load-more",
        configuration: ListConfiguration(edges: [
            .top: EdgeConfiguration(
                role: .refresh, triggerDistance: 80, restingInset: 80, trigger: .onRelease, strictness: .inclusive,
                fling: .ignore, minimumVisibleDuration: 0.3, startDuration: 0.1, exitDuration: 0.1,
                insetAnimation: uiViewAnimation, presentation: .background, anchor: .middle,
                viewBehaviour: .fixedTop, height: 80, control: "ring"),
            .bottom: EdgeConfiguration(
                role: .loadMore, triggerDistance: 60, restingInset: 60, preload: 0, trigger: .onReachEdge,
                strictness: .inclusive, fling: .ignore, minimumVisibleDuration: 0.3, startDuration: 0.1,
                exitDuration: 0.1, insetAnimation: uiViewAnimation,
                presentation: .background, anchor: .middle, viewBehaviour: .fixedBottom, height: 60),
        ])
    )
}
