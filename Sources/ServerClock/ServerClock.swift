#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server's clock, in microseconds since the Unix epoch: the wall clock (`CLOCK_REALTIME`) read once, when
/// the clock is made, advanced from then on by the monotonic clock (`CLOCK_MONOTONIC`).
///
/// It is the time of the engine, the traces, the frames and `serverT` (docs/PROTOCOL.md, "Clocks"), and it must
/// be two things at once:
/// - **never stepped** while the process runs, so that a session's time only moves forward: the monotonic clock
///   gives the time elapsed, and an administrator or NTP setting the wall clock later does not move it;
/// - **the same on every machine**, so that a session taken over by a process on another machine continues at
///   the time it had (docs/SCALING.md, "Several machines"): the wall clock gives the origin. The monotonic
///   clock alone counts from an unspecified point (on Linux, the boot), different on every machine.
///
/// Linux applies the gradual corrections of adjtime(3) and NTP to `CLOCK_MONOTONIC` as well as to the wall
/// clock; a step of the wall clock it applies to the wall clock alone, and `CLOCK_MONOTONIC` does not count
/// time the machine spends suspended (clock_gettime(2)). So this clock stays within NTP's accuracy of the wall
/// clock unless the wall clock is stepped, or the machine suspended, after the clock was made; and two
/// processes, on one machine or on several machines synchronised by NTP (chrony, ntpd), agree to within that
/// accuracy.
public struct ServerClock: Sendable {
    /// The wall clock's time at the origin, µs since the Unix epoch.
    public let wallOrigin: Int64
    /// The monotonic clock's reading at the origin, µs.
    public let monotonicOrigin: Int64
    /// How far apart in time the origin's two readings may be, µs: half the time the monotonic clock moved
    /// while the wall clock was read. Every time this clock gives is off by at most this much (plus what the
    /// wall clock itself is off by).
    public let originUncertainty: Int64

    /// A clock whose origin is now: the wall clock read between two readings of the monotonic clock, whose
    /// midpoint is taken as the monotonic clock's reading at the same instant. A thread preempted between the
    /// reads would widen that bracket by the whole preemption (and shift every time this clock gives by up to
    /// half of it, for the life of the process), so the reads are made `originAttempts` times and the
    /// narrowest bracket is kept.
    public init() {
        var best = Self.readOrigin()
        for _ in 1..<Self.originAttempts where best.after - best.before > 1 {  // 1 µs: as narrow as it gets
            let next = Self.readOrigin()
            if next.after - next.before < best.after - best.before { best = next }
        }
        self.init(
            wallOrigin: best.wall, monotonicOrigin: best.before + (best.after - best.before) / 2,
            originUncertainty: (best.after - best.before + 1) / 2)
    }

    /// The wall clock, read between two readings of the monotonic clock.
    private static func readOrigin() -> (wall: Int64, before: Int64, after: Int64) {
        let before = read(CLOCK_MONOTONIC)
        let wall = read(CLOCK_REALTIME)
        return (wall, before, read(CLOCK_MONOTONIC))
    }

    /// A clock with the given origin: the wall clock read `wallOrigin` when the monotonic clock read
    /// `monotonicOrigin`, give or take `originUncertainty` µs.
    public init(wallOrigin: Int64, monotonicOrigin: Int64, originUncertainty: Int64 = 0) {
        self.wallOrigin = wallOrigin
        self.monotonicOrigin = monotonicOrigin
        self.originUncertainty = originUncertainty
    }

    /// How many times ``init()`` reads the clocks at most.
    static let originAttempts = 8

    /// The time now, µs since the Unix epoch.
    ///
    /// Inlinable, with its arithmetic unchecked (µs since 1970 are nowhere near `Int64`'s bounds): the server reads
    /// it for every event and every write, and a call with overflow checks there was a cost on every one besides
    /// `clock_gettime` (docs/PERFORMANCE.md, "The whole server, instructions per input").
    @inlinable
    public func now() -> Int64 { wallOrigin &+ (Self.read(CLOCK_MONOTONIC) &- monotonicOrigin) }

    /// The time when the monotonic clock read `monotonic` (µs).
    public func time(atMonotonic monotonic: Int64) -> Int64 { wallOrigin + (monotonic - monotonicOrigin) }

    /// The wall clock now, µs since the Unix epoch (what NTP keeps; it may step).
    public static func wallClock() -> Int64 { read(CLOCK_REALTIME) }

    @inlinable @inline(__always)
    static func read(_ clock: clockid_t) -> Int64 {
        var reading = timespec()
        clock_gettime(clock, &reading)
        return Int64(reading.tv_sec) &* 1_000_000 &+ Int64(reading.tv_nsec) / 1000
    }
}
