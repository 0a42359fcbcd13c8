/// Time cut into slices that two load generators on one machine take in turn, so that two targets are measured
/// over the same seconds: one generator drives its target in the even slices, the other in the odd ones. Both
/// read the same kind of clock (``ServerClock``: µs since the Unix epoch, which agrees across processes), so
/// they agree on the slices without talking to each other.
///
/// Why: on a shared virtual machine the host takes the CPU away now and then, for a few ms to tens of ms. Two
/// runs one after the other meet different such stalls, and a ratio of their tails (p99) or CPU times then
/// measures the host as much as the targets. Turn by turn, both meet the same hour (docs/PERFORMANCE.md,
/// "Two targets measured turn by turn").
struct Slices {
    /// A slice's length, µs; 0 for none: the generator drives its target all the time.
    let length: Int64
    /// This generator's slices: 0 the even ones, 1 the odd ones.
    let phase: Int64
    /// The start of each of its slices that is not measured, µs: the target's first pass over sockets and sessions
    /// the other target's slice left cold (the same warm-up as a run's, in little).
    let lead: Int64

    static let none = Slices(length: 0, phase: 0, lead: 0)

    var isSliced: Bool { length > 0 }

    /// Whether this generator drives its target at `time` (µs, ``ServerClock``).
    func isActive(_ time: Int64) -> Bool {
        !isSliced || (time / length) % 2 == phase
    }

    /// Whether what happens at `time` is measured: in one of this generator's slices, past its lead.
    func isMeasured(_ time: Int64) -> Bool {
        !isSliced || (isActive(time) && time % length >= lead)
    }

    /// The start of this generator's first slice at or after `time`; `time` itself when not sliced.
    func start(atOrAfter time: Int64) -> Int64 {
        guard isSliced else { return time }
        let cycle = 2 * length
        let own = (time / cycle) * cycle + phase * length
        return own >= time ? own : own + cycle
    }

    /// The start of the slice that holds `time`; `time` itself when not sliced.
    func sliceStart(at time: Int64) -> Int64 {
        isSliced ? (time / length) * length : time
    }

    /// A window of about `duration` µs from the start of one of this generator's slices, as whole pairs of slices
    /// (each generator then drives its target for half of it); `duration` itself when not sliced.
    func window(about duration: Int64) -> Int64 {
        guard isSliced else { return duration }
        let cycle = 2 * length
        return Swift.max(1, (duration + cycle / 2) / cycle) * cycle
    }
}
