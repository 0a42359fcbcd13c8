/// A fixed-duration move the scroll model makes instead of a spring when an inset changes: `duration`
/// seconds paced by `curve`.
public struct TimedMove: Hashable, Sendable, Codable {
    public var duration: Double
    public var curve: TimingCurve

    public init(duration: Double, curve: TimingCurve) {
        self.duration = duration
        self.curve = curve
    }
}
