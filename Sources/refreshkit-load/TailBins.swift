/// Where in the window the tail was: for each tenth of a second of the window, the measured inputs sent in it, how
/// many of them were answered later than ``lateMicroseconds``, and the slowest answer.
///
/// A window's p99 is often one episode's (docs/PERFORMANCE.md, "Where the p99's tail comes from on this host"), and
/// turn by turn the two targets' slices are compared part by part ("Where in a slice the tail is"): the bins say
/// when the late inputs were sent, from the window's first slice, on the clock both generators share.
struct TailBins {
    struct Bin {
        var inputs = 0
        var late = 0
        var slowest: Int64 = 0
    }

    /// A bin's length, µs.
    static let length: Int64 = 100_000
    /// An answer later than this (µs) counts as late: beyond what a quiet window's p99 reaches at 1 000 sessions.
    static let lateMicroseconds: Int64 = 2_000

    /// The start of the first bin (µs, ``ServerClock``: the window's first slice).
    let origin: Int64
    private(set) var bins: [Bin]

    /// Bins from `origin` over `duration` µs.
    init(origin: Int64, duration: Int64) {
        self.origin = origin
        bins = Array(repeating: Bin(), count: Int(Swift.max(0, duration) / Self.length) + 1)
    }

    static let empty = TailBins(origin: 0, duration: 0)

    /// Counts an input sent at `sent` (in the window) and answered `latency` µs later.
    mutating func record(sent: Int64, latency: Int64) {
        // Before the origin by less than a bin, the quotient rounds towards zero, into the first bin: refused first.
        guard sent >= origin else { return }
        let index = Int((sent - origin) / Self.length)
        guard index < bins.count else { return }
        bins[index].inputs += 1
        if latency > Self.lateMicroseconds { bins[index].late += 1 }
        if latency > bins[index].slowest { bins[index].slowest = latency }
    }

    /// The bins that hold measured inputs: their start (s from ``origin``), inputs, late ones, the slowest (ms).
    var measured: [(start: Double, inputs: Int, late: Int, slowestMilliseconds: Double)] {
        bins.indices.compactMap { index in
            let bin = bins[index]
            guard bin.inputs > 0 else { return nil }
            return (Double(Int64(index) * Self.length) / 1_000_000, bin.inputs, bin.late, Double(bin.slowest) / 1000)
        }
    }
}
