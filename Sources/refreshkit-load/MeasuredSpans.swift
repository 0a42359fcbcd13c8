/// What the generator reads at each end of a span of time it measured: its target's CPU time, the watched
/// processes', its own, and the machine's steal time.
struct SpanSample {
    var time: Int64
    var server: ProcessSample?
    var watched: [ProcessSample?]
    var clientCPU: Double
    var steal: Double?

    static func read(at time: Int64, server: Int32?, watched: [Int32]) -> SpanSample {
        SpanSample(
            time: time, server: server.flatMap(ProcessSample.read), watched: watched.map(ProcessSample.read),
            clientCPU: ProcessSample.selfCPUSeconds(), steal: ProcessSample.hostStealSeconds())
    }
}

/// A process's CPU time over the measured spans, seconds: in all, and the part in the kernel.
struct ProcessTimes {
    var cpu = 0.0
    var system = 0.0
}

/// The measured window's figures, summed over the spans in which this generator drove its target: the whole
/// window, or its own slices of it (``Slices``). A figure that some span could not read at both ends is unknown
/// (nil).
struct MeasuredSpans {
    private(set) var count = 0
    /// The spans' time, seconds.
    private(set) var seconds = 0.0
    /// The target's (nil without one).
    private(set) var server: ProcessTimes?
    /// Each watched process's, in ``Options/watchedPIDs``' order.
    private(set) var watched: [ProcessTimes?]
    private(set) var clientCPU = 0.0
    private(set) var steal: Double? = 0
    /// The target as last read (its memory and threads at the window's end).
    private(set) var lastServer: ProcessSample?

    init(server: Bool, watching count: Int) {
        self.server = server ? ProcessTimes() : nil
        watched = Array(repeating: ProcessTimes(), count: count)
    }

    mutating func add(from start: SpanSample, to end: SpanSample) {
        count += 1
        seconds += Double(end.time - start.time) / 1_000_000
        server = Self.adding(server, from: start.server, to: end.server)
        watched = watched.indices.map { Self.adding(watched[$0], from: start.watched[$0], to: end.watched[$0]) }
        lastServer = end.server ?? lastServer
        clientCPU += end.clientCPU - start.clientCPU
        if let sum = steal, let before = start.steal, let after = end.steal {
            steal = sum + after - before
        } else {
            steal = nil
        }
    }

    /// `sum` and what the process ran between the two reads; nil when either read failed, or the sum is unknown.
    private static func adding(_ sum: ProcessTimes?, from before: ProcessSample?, to after: ProcessSample?)
        -> ProcessTimes?
    {
        guard let sum, let before, let after else { return nil }
        return ProcessTimes(
            cpu: sum.cpu + after.cpuSeconds - before.cpuSeconds,
            system: sum.system + after.systemSeconds - before.systemSeconds)
    }
}
