/// Every field `configure` can set, each described once (docs/PROTOCOL.md, "configure", is this list as a
/// table, and a test keeps the two equal). The order is the wire's: `welcome.config` writes the fields in
/// it, `configure` checks them in it, and an editor keeps it within a section.
///
/// To make a field configurable, store it in its configuration and add its line here.
public enum ConfigurationSchema {
    /// One edge's control: `configure.edges.<edge>`, `config.edges.<edge>`.
    public static let edge: [ConfigurationField<EdgeConfiguration>] = [
        .enumeration(
            "role", \.role, "Role", in: .behaviour,
            "What pulling the edge does: reload from the start, or fetch the next page"),
        .bool("enabled", \.enabled, "Enabled", in: .behaviour, "Whether the edge has a working control"),
        .number(
            "triggerDistance", \.triggerDistance, 1...10_000, .pixels, step: 1, "Trigger distance", in: .distances,
            "The pull that arms the edge, past its prompting inset; for `onReachEdge`, the length `progress` counts over"
        ),
        .number(
            "restingInset", \.restingInset, 0...10_000, .pixels, step: 1, "Resting inset", in: .distances,
            "Extra inset the content rests on while the edge is refreshing"),
        .number(
            "promptingInset", \.promptingInset, 0...10_000, .pixels, step: 1, "Prompting inset", in: .distances,
            "Room kept at all times for a footer's prompt"),
        .number(
            "preload", \.preload, 0...100_000, .pixels, step: 1, "Preload", in: .distances,
            "An `onReachEdge` edge starts this far before the edge; a pull arms this much earlier"),
        .enumeration(
            "trigger", \.trigger, "Trigger", in: .behaviour,
            "When a refresh starts: on release past the trigger, while dragging past it, on reaching the edge, or only by command"
        ),
        .enumeration(
            "strictness", \.strictness, "Strictness", in: .behaviour,
            "Whether a pull of exactly `triggerDistance` counts (`inclusive`) or must exceed it (`strict`)"),
        .enumeration(
            "fling", \.fling, "Fling", in: .behaviour, "Whether momentum after the finger lifts may start the edge"),
        .enumeration(
            "shortContent", \.shortContent, "Short content", in: .behaviour,
            "Whether the edge works while the content is no longer than the viewport"),
        .number(
            "minimumVisibleDuration", \.minimumVisibleDuration, 0...60, .seconds, step: 0.05, "Minimum visible",
            in: .timing, "A refresh stays visible at least this long, so a fast reply does not flicker"),
        .number(
            "startDuration", \.startDuration, 0...60, .seconds, step: 0.05, "Start", in: .timing,
            "How long the content glides to the resting inset when a refresh starts, under a timed `insetMotion`"),
        .number(
            "exitDuration", \.exitDuration, 0...60, .seconds, step: 0.05, "Exit", in: .timing,
            "How long the exit animation and the inset's release take when a refresh ends"),
        .enumeration(
            "insetMotion", \.insetMotion, "Inset motion", in: .timing,
            "How the content follows the inset as a refresh starts and ends: the bounce spring, or a timed curve over `startDuration` and `exitDuration`"
        ),
        .bool(
            "endsOnCycleBoundary", \.endsOnCycleBoundary, "Ends on cycle", in: .timing,
            "An end waits for the running animation cycle to finish"),
        .enumeration(
            "presentation", \.presentation, "Presentation", in: .look,
            "Whether the indicator slides in with the content or is uncovered behind it"),
        .enumeration(
            "anchor", \.anchor, "Anchor", in: .look,
            "Where the animation view sits inside a stretched control, for the anchored view behaviour"),
        .enumeration(
            "viewBehaviour", \.viewBehaviour, "View", in: .look,
            "How the control's view follows the pull: scaled, scaled then pinned, glued to the content, or placed by its anchor unscaled"
        ),
        .number(
            "cycleDuration", \.cycle.duration, 0.05...60, .seconds, step: 0.05, "Cycle", in: .timing,
            "Length of one animation cycle while refreshing"),
        .number(
            "cycleDelay", \.cycle.delay, 0...60, .seconds, step: 0.05, "Cycle delay", in: .timing,
            "Pause before each animation cycle"),
        .enumeration(
            "cycleKind", \.cycle.kind, "Cycle kind", in: .timing, "The animation that repeats while refreshing"),
        .number(
            "height", \.height, 1...10_000, .pixels, step: 1, "Height", in: .distances,
            "Size of the control's view along the pull axis"),
        .name(
            "control", \.control, "Control", in: .look,
            "The page's control that draws the edge (`spinner`, `colorCycle`, `arrow`, `ring`, `footer`, `side`, or a user's own); the engine never reads it"
        ),
    ]

    /// The app's own content inset (bars, safe areas): `configure.insets`, `config.insets`. A `configure`
    /// sets all four sides at once; a side it leaves out is 0.
    public static let insets: [ConfigurationField<EdgeInsets>] = [
        .number(
            "top", \.top, 0...10_000, .pixels, step: 1, "Top", "The app's own inset at the top (a bar, a safe area)"),
        .number("left", \.left, 0...10_000, .pixels, step: 1, "Left", "The app's own inset on the left"),
        .number("bottom", \.bottom, 0...10_000, .pixels, step: 1, "Bottom", "The app's own inset at the bottom"),
        .number("right", \.right, 0...10_000, .pixels, step: 1, "Right", "The app's own inset on the right"),
    ]

    /// The simulated feed: `configure.feed`, `config.feed`.
    public static let feed: [ConfigurationField<FeedConfiguration>] = [
        .number(
            "latencyMs", \.latencyMs, 0...600_000, .milliseconds, step: 50, "Latency",
            "Time from a request to its answer"),
        .number(
            "failureRate", \.failureRate, 0...1, nil, step: 0.05, "Failure rate", "Probability that a request fails"),
        .integer("pageSize", \.pageSize, 1...1000, "Page size", "Items per page"),
        .integer(
            "totalItems", \.totalItems, 0...1_000_000, "Total items",
            "Items that exist in all; older pages run out after this many"),
        .integer(
            "newItemsPerRefresh", \.newItemsPerRefresh, 0...1000, "New per refresh",
            "New items that appear at the top before each refresh"),
        .number("rowHeight", \.rowHeight, 8...1000, .pixels, step: 1, "Row height", "Height of a row"),
        .number(
            "timeoutMs", \.timeoutMs, 1...600_000, .milliseconds, step: 100, "Timeout",
            "A request that has not answered after this long fails"),
        .number(
            "sectionHeaderHeight", \.sectionHeaderHeight, 8...200, .pixels, step: 1, "Section header",
            "Height of a section's header, drawn above its first row and pinned at the top"),
    ]

    /// The scroll physics: `configure.physics`, `config.physics`.
    public static let physics: [ConfigurationField<ListConfiguration>] = [
        .number(
            "decelerationRate", \.decelerationRate, 0.5...0.9999, nil, step: 0.0001, "Deceleration",
            "UIScrollView's deceleration rate per millisecond: 0.998 normal, 0.99 fast (docs/PHYSICS.md §2.1)"),
        .enumeration("spring", \.springName, names: Spring.presetNames, "Spring", "The bounce spring"),
        .number(
            "rubberBand", \.rubberBand, 0.05...1, nil, step: 0.01, "Rubber band",
            "The rubber-band coefficient `c`: 0.55 on iOS (docs/PHYSICS.md §1.1)"),
        .bool(
            "flingPrefetch", \.flingPrefetch, "Fling prefetch",
            "At a fling's release, an external feed's rows on its way and where it stops are asked for at once"),
    ]
}

/// A part of the configuration whose fields ``ConfigurationSchema`` lists.
public protocol Configurable {
    /// The fields of this part, in the wire's order.
    static var configurationFields: [ConfigurationField<Self>] { get }
}

extension EdgeConfiguration: Configurable {
    public static var configurationFields: [ConfigurationField<EdgeConfiguration>] { ConfigurationSchema.edge }
}

extension EdgeInsets: Configurable {
    public static var configurationFields: [ConfigurationField<EdgeInsets>] { ConfigurationSchema.insets }
}

extension FeedConfiguration: Configurable {
    public static var configurationFields: [ConfigurationField<FeedConfiguration>] { ConfigurationSchema.feed }
}

/// The model configuration's own fields are the physics (`configure.physics`).
extension ListConfiguration: Configurable {
    public static var configurationFields: [ConfigurationField<ListConfiguration>] { ConfigurationSchema.physics }
}
