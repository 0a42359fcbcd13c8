/// A wheel or trackpad stream treated as a gesture. The DOM gives wheel events no start or end, so the
/// gesture begins with the first event and ends on an idle gap or when the OS's momentum phase is
/// detected (physics.md §6.2–6.3; no seed handles this: seeds.md weakness 5).
struct WheelGesture: Hashable, Sendable {
    /// No event for this long ends the gesture: between Chromium's 100 ms and Chameleon's 150 ms.
    static let idleGap: Int64 = 120_000
    /// A momentum stream decays each event by a factor in this range (xiel/wheel-gestures constants.ts).
    static let momentumFactors: ClosedRange<Double> = 0.60...0.96
    /// This many consecutive decaying factors make a momentum phase.
    static let momentumRun = 5

    /// The raw (un-rubber-banded) offset the wheel asks for.
    var raw: Point
    var lastEvent: Timestamp
    /// Magnitudes of the latest deltas, newest last (at most `momentumRun + 1`).
    private var magnitudes: [Double] = []
    /// Momentum was detected: the fingers are off the trackpad and the OS is coasting.
    private(set) var isMomentum = false

    init(raw: Point, at time: Timestamp) {
        self.raw = raw
        self.lastEvent = time
    }

    /// When the gesture ends if nothing else arrives.
    var deadline: Timestamp { lastEvent.advanced(byMicroseconds: Self.idleGap) }

    /// Records one delta (already converted to px, offset direction) at `time`.
    mutating func add(_ delta: Point, at time: Timestamp) {
        raw.x += delta.x
        raw.y += delta.y
        lastEvent = time
        let magnitude = max(abs(delta.x), abs(delta.y))
        magnitudes.append(magnitude)
        if magnitudes.count > Self.momentumRun + 1 { magnitudes.removeFirst() }
        if !isMomentum { isMomentum = Self.looksLikeMomentum(magnitudes) }
    }

    /// Whether a new delta is clearly a new push rather than more momentum (|Δ| > max(2, 2·last)).
    func isNewPush(_ delta: Point) -> Bool {
        let magnitude = max(abs(delta.x), abs(delta.y))
        return magnitude > max(2, 2 * (magnitudes.last ?? 0))
    }

    private static func looksLikeMomentum(_ magnitudes: [Double]) -> Bool {
        guard magnitudes.count == momentumRun + 1 else { return false }
        for index in 1..<magnitudes.count {
            guard magnitudes[index - 1] > 0 else { return false }
            if !momentumFactors.contains(magnitudes[index] / magnitudes[index - 1]) { return false }
        }
        return true
    }
}
