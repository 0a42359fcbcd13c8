/// A point on the engine's time axis, in whole microseconds.
///
/// The engine never reads a clock: every call that moves it forward is given a `Timestamp`. Integer
/// microseconds keep replays bit-exact, because elapsed times are computed as integer differences before
/// they become seconds (docs/PHYSICS.md §10.3).
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// Microseconds since an origin chosen by the host (the server's clock counts from the Unix epoch).
    public var microseconds: Int64

    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// The timestamp nearest to `milliseconds`, a fractional millisecond value such as `performance.now()`.
    public init(milliseconds: Double) {
        microseconds = Int64((milliseconds * 1000).rounded())
    }

    public static let zero = Timestamp(microseconds: 0)

    /// This timestamp in fractional milliseconds (the page's unit).
    public var milliseconds: Double { Double(microseconds) / 1000 }

    /// Seconds elapsed from `earlier` to `self` (negative when `earlier` is later).
    public func seconds(since earlier: Timestamp) -> Double {
        Double(microseconds - earlier.microseconds) / 1_000_000
    }

    /// This timestamp moved by `seconds`, rounded to the nearest microsecond.
    public func advanced(bySeconds seconds: Double) -> Timestamp {
        Timestamp(microseconds: microseconds + Int64((seconds * 1_000_000).rounded()))
    }

    /// This timestamp moved by a whole number of microseconds.
    public func advanced(byMicroseconds delta: Int64) -> Timestamp {
        Timestamp(microseconds: microseconds + delta)
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }

    public var description: String { "\(microseconds)µs" }
}
