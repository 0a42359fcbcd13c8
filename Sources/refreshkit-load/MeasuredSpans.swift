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

/// The measured window's figures, summed over the spans in which this generator drove its target: the whole
/// window, or its own slices of it (``Slices``). A figure read at only one end of some span is unknown (nil).
struct MeasuredSpans {
    private(set) var count = 0
    /// The spans' time, seconds.
    private(set) var seconds = 0.0
    private(set) var serverCPU: Double? = 0
    private(set) var serverSystem: Double? = 0
    private(set) var watched: [(cpu: Double, system: Double)?]
    private(set) var clientCPU = 0.0
    private(set) var steal: Double? = 0
    /// The target as last read (its memory and threads at the window's end).
    private(set) var lastServer: ProcessSample?

    init(watching count: Int) {
        watched = Array(repeating: (0, 0), count: count)
    }

    mutating func add(from start: SpanSample, to end: SpanSample) {
        count += 1
        seconds += Double(end.time - start.time) / 1_000_000
        if let before = start.server, let after = end.server {
            serverCPU = serverCPU.map { $0 + after.cpuSeconds - before.cpuSeconds }
            serverSystem = serverSystem.map { $0 + after.systemSeconds - before.systemSeconds }
        } else {
            (serverCPU, serverSystem) = (nil, nil)
        }
        lastServer = end.server ?? lastServer
        for index in watched.indices {
            if index < start.watched.count, index < end.watched.count, let before = start.watched[index],
                let after = end.watched[index], let sum = watched[index]
            {
                watched[index] = (
                    sum.cpu + after.cpuSeconds - before.cpuSeconds,
                    sum.system + after.systemSeconds - before.systemSeconds
                )
            } else {
                watched[index] = nil
            }
        }
        clientCPU += end.clientCPU - start.clientCPU
        if let before = start.steal, let after = end.steal {
            steal = steal.map { $0 + after - before }
        } else {
            steal = nil
        }
    }
}
