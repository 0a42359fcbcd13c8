/// The ranges the model accepts for its inputs (a `configure`'s are ``ConfigurationSchema``'s). Whatever a client
/// sends, nothing non-finite or absurd gets in.
enum Validation {
    /// The largest viewport side, CSS px (a 16K display at dpr 1 is 15 360).
    static let maximumViewport = 100_000.0
    /// The largest single delta, CSS px.
    static let maximumDelta = 1_000_000.0

    static func viewport(_ size: Size) throws(ListModelError) {
        guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0,
            size.width <= maximumViewport, size.height <= maximumViewport
        else {
            throw .outOfRange(
                "viewport must be positive and at most \(Int(maximumViewport)) px on each side, got \(size.width)×\(size.height)"
            )
        }
    }

    // The two checks every move passes: inline, with the error (string interpolation) built out of line.
    @inline(__always)
    static func finite(_ delta: Point, _ what: StaticString) throws(ListModelError) {
        // `!(a <= b)` is also true for NaN; infinities exceed the bound.
        guard abs(delta.x) <= maximumDelta, abs(delta.y) <= maximumDelta else { throw deltaError(what) }
    }

    @inline(never)
    private static func deltaError(_ what: StaticString) -> ListModelError {
        .outOfRange("\(what) deltas must be finite and at most \(Int(maximumDelta)) px")
    }

    @inline(__always)
    static func pageTime(_ milliseconds: Double, _ what: StaticString) throws(ListModelError) {
        guard milliseconds.isFinite else { throw pageTimeError(what) }
    }

    @inline(never)
    private static func pageTimeError(_ what: StaticString) -> ListModelError {
        .outOfRange("\(what).t must be a finite number of milliseconds")
    }

    static func command(_ command: Command) throws(ListModelError) {
        guard command.amount.isFinite, abs(command.amount) <= maximumDelta else {
            throw .outOfRange("command.amount must be finite and at most \(Int(maximumDelta))")
        }
    }

    /// Throws unless `value` lies in `range`.
    static func check(_ value: Double, in range: ClosedRange<Double>, _ name: String) throws(ListModelError) {
        guard value.isFinite, range.contains(value) else {
            throw NumberRule(range, nil, step: 0).outOfRange(name, got: "\(value)")
        }
    }
}
