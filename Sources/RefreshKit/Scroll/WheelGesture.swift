/// A wheel or trackpad stream treated as a gesture. The DOM gives wheel events no start or end, so the
/// gesture begins with the first event and ends on an idle gap or when the OS's momentum phase is
/// detected (docs/PHYSICS.md §6.2–6.3; no seed handles this: docs/SEEDS.md weakness 5).
struct WheelGesture: Hashable, Sendable, Codable {
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
    private var magnitudes = RecentMagnitudes()
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
        if !isMomentum { isMomentum = Self.looksLikeMomentum(magnitudes) }
    }

    /// Whether a new delta is clearly a new push rather than more momentum (|Δ| > max(2, 2·last)).
    func isNewPush(_ delta: Point) -> Bool {
        let magnitude = max(abs(delta.x), abs(delta.y))
        return magnitude > max(2, 2 * (magnitudes.last ?? 0))
    }

    private static func looksLikeMomentum(_ magnitudes: RecentMagnitudes) -> Bool {
        guard magnitudes.count == momentumRun + 1 else { return false }
        for index in 1..<magnitudes.count {
            guard magnitudes[index - 1] > 0 else { return false }
            if !momentumFactors.contains(magnitudes[index] / magnitudes[index - 1]) { return false }
        }
        return true
    }
}

/// The last `WheelGesture.momentumRun + 1` magnitudes, newest last, stored inline: a wheel event then
/// records one without an array to retain, copy or release.
struct RecentMagnitudes: Hashable, Sendable {
    // Equality and hashing look at the first `count` values only.
    private var values: (Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0)
    private(set) var count = 0

    static let capacity = WheelGesture.momentumRun + 1

    /// Adds `value` as the newest, dropping the oldest when full.
    mutating func append(_ value: Double) {
        if count < Self.capacity {
            self[count] = value
            count += 1
        } else {
            values = (values.1, values.2, values.3, values.4, values.5, value)
        }
    }

    var last: Double? { count == 0 ? nil : self[count - 1] }

    subscript(index: Int) -> Double {
        get {
            switch index {
            case 0: values.0
            case 1: values.1
            case 2: values.2
            case 3: values.3
            case 4: values.4
            default: values.5
            }
        }
        set {
            switch index {
            case 0: values.0 = newValue
            case 1: values.1 = newValue
            case 2: values.2 = newValue
            case 3: values.3 = newValue
            case 4: values.4 = newValue
            default: values.5 = newValue
            }
        }
    }

    static func == (a: Self, b: Self) -> Bool {
        a.count == b.count && (0..<a.count).allSatisfy { a[$0] == b[$0] }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for index in 0..<count { hasher.combine(self[index]) }
    }
}

// Its count, then all its values (a tuple has no `Codable` of its own).
extension RecentMagnitudes: Codable {
    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        count = try container.decode(Int.self)
        values = (
            try container.decode(Double.self), try container.decode(Double.self), try container.decode(Double.self),
            try container.decode(Double.self), try container.decode(Double.self), try container.decode(Double.self)
        )
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(count)
        for value in [values.0, values.1, values.2, values.3, values.4, values.5] { try container.encode(value) }
    }
}
