/// How the content follows an edge control's inset when its seed library animates the inset with a fixed
/// duration and curve (a UIView or Core Animation animation) rather than leaving it to UIKit's bounce
/// (docs/PHYSICS.md §11.3).
///
/// The durations are the configuration's: the inset goes out over `startDuration` when a refresh starts,
/// and back over `exitDuration` as the exit plays, or over ``returnDuration`` once the exit has ended.
public struct InsetAnimation: Hashable, Sendable, Codable {
    /// The animation's timing curve.
    public var curve: TimingCurve
    /// `nil`: the inset goes back as the exit starts, over `exitDuration` (MS, HT, IQ). A value: the inset is
    /// held while the exit animation plays and goes back over this many seconds once it has ended
    /// (JHPullToRefreshKit: exit animation, then `refreshControlDidEnd`, then the inset over 0.25 s,
    /// docs/SEEDS.md §1.2).
    public var returnDuration: Double?
    /// Whether a start by a release lets the bounce carry the content to the new rest: the library applies the
    /// inset at once there and animates only a programmatic start (MSPullToRefreshController, docs/SEEDS.md
    /// §2.3).
    public var bouncesOnRelease: Bool

    public init(curve: TimingCurve, returnDuration: Double? = nil, bouncesOnRelease: Bool = false) {
        self.curve = curve
        self.returnDuration = returnDuration
        self.bouncesOnRelease = bouncesOnRelease
    }

    /// Whether the inset is held through the exit animation.
    public var returnsAfterExit: Bool { returnDuration != nil }
}
