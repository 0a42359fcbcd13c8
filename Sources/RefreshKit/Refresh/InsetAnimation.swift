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

/// How the content follows an edge's inset as a refresh starts and ends, as `configure` and a preset file name it
/// (`edges.<edge>.insetMotion`; docs/PROTOCOL.md, "configure"): on the bounce spring, as UIScrollView moves it
/// under UIKit's own control, or on a timed curve over `startDuration` and `exitDuration`, as a library's UIView
/// animation moves it (docs/PHYSICS.md §11.3).
public enum InsetMotion: String, Hashable, Sendable, CaseIterable, Codable {
    /// The engine's bounce spring carries the content to each new rest.
    case spring
    /// Core Animation's named curves (``TimingCurve``).
    case linear, easeIn, easeOut, easeInEaseOut
    /// A curve given in Swift (``InsetAnimation/curve``) that has no name here; choosing it keeps the curve.
    case custom

    /// The named curve, for the timed motions.
    var curve: TimingCurve? {
        switch self {
        case .linear: .linear
        case .easeIn: .easeIn
        case .easeOut: .easeOut
        case .easeInEaseOut: .easeInEaseOut
        case .spring, .custom: nil
        }
    }
}

extension EdgeConfiguration {
    /// ``insetAnimation`` as a choice: `spring` without one, else its curve's name. Choosing a curve keeps the
    /// animation's order (``InsetAnimation/returnDuration``, ``InsetAnimation/bouncesOnRelease``), which comes
    /// from the preset's library.
    public var insetMotion: InsetMotion {
        get {
            guard let animation = insetAnimation else { return .spring }
            return InsetMotion.allCases.first { $0.curve == animation.curve } ?? .custom
        }
        set {
            switch newValue {
            case .spring: insetAnimation = nil
            case .custom: break
            default:
                guard let curve = newValue.curve else { return }
                if insetAnimation == nil {
                    insetAnimation = InsetAnimation(curve: curve)
                } else {
                    insetAnimation?.curve = curve
                }
            }
        }
    }
}
