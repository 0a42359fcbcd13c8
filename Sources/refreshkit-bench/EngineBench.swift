import CLibWebSockets
import Foundation
import RefreshKit
import RefreshWire

/// Engine micro-benchmarks: one session being dragged, on one core, no I/O.
///
/// A *step* is what the server does per input: `apply(touch move)` (which first advances the session to the
/// input's time), `advance(to:)` half a period later (the tick between two inputs), `frame()`, and the JSON
/// the page receives for it, encoded into a reused buffer: the `delta` from the previous frame (the page asks
/// for deltas), plus `takeEvents()` with the events encoded too. The whole `frame` encoding, which the server
/// still makes once per room for the trace digest and for pages that take whole frames, is timed apart. The drag
/// moves 5 px per 16.667 ms, flips direction every 30 moves, and lifts and touches down again every 240
/// steps (a release with some velocity, then a grab that interrupts the motion).
struct EngineBench {
    struct Result {
        var stepsPerSecond: Double
        var nanosecondsPerStep: Double
        var nanosecondsPerApply: Double
        var nanosecondsPerAdvance: Double
        var nanosecondsPerFrame: Double
        /// The step's encoding: the `delta` from the previous frame.
        var nanosecondsPerEncode: Double
        /// The whole `frame` message, alone.
        var nanosecondsPerFullEncode: Double
        /// The whole `frame` message and the FNV-1a digest of its text: what recording a frame cost before
        /// value digests.
        var nanosecondsPerFullEncodeAndDigest: Double
        /// The digest of the frame's values: what recording a frame cost before delta digests.
        var nanosecondsPerValueDigest: Double
        /// The digest of the frame's delta (the server encodes it anyway): what recording a frame costs.
        var nanosecondsPerDeltaDigest: Double
        var nanosecondsPerDecode: Double
        /// Bytes of the step's deltas, per frame.
        var bytesPerFrame: Double
        /// Bytes of the same frames as whole `frame` messages.
        var fullBytesPerFrame: Double
        /// Bytes per moving frame by what the list does (scripted sessions, deterministic).
        var frameBytes: FrameBytes
        var sessionInlineBytes: Int
        var heapBytesPerSession: Double
        var rssBytesPerSession: Double
        var runs: [Double]
    }

    /// Steps per timed run, and timed runs (the median is reported).
    var steps = 400_000
    var runs = 5

    static let viewport = Size(width: 390, height: 844)
    static let period: Int64 = 16_667

    /// The `i`-th input of the drag (i ≥ 0), at `time`.
    static func input(_ i: Int, at time: Int64) -> Input {
        let pageTime = Double(time) / 1000
        switch i % 240 {
        case 0: return .touch(TouchInput(phase: .start, pageTime: pageTime))
        case 239: return .touch(TouchInput(phase: .end, pageTime: pageTime))
        default:
            let move = i % 240 - 1
            let dy: Double = (move / 30) % 2 == 0 ? -5 : 5
            return .touch(TouchInput(phase: .move, delta: Point(x: 0, y: dy), pageTime: pageTime))
        }
    }

    func run() throws -> Result {
        var saved = cpu_set_t()
        _ = Affinity.get(&saved)
        pinToOneCore()
        defer { _ = Affinity.set(&saved) }  // the servers started later must not inherit it
        var perRun: [Double] = []
        var bytes = 0
        var frames = 0
        // One untimed run warms caches and the allocator.
        _ = try timedSteps(count: steps / 4, bytes: &bytes, frames: &frames)
        let fullBytes = try Self.fullBytes(count: 10_000)
        for _ in 0..<runs {
            bytes = 0
            frames = 0
            let seconds = try timedSteps(count: steps, bytes: &bytes, frames: &frames)
            perRun.append(Double(steps) / seconds)
        }
        let sorted = perRun.sorted()
        let median = sorted[sorted.count / 2]
        let parts = try timedParts(count: steps)
        let memory = try measureMemory(sessions: 10_000)
        return Result(
            stepsPerSecond: median, nanosecondsPerStep: 1e9 / median,
            nanosecondsPerApply: parts.apply, nanosecondsPerAdvance: parts.advance, nanosecondsPerFrame: parts.frame,
            nanosecondsPerEncode: parts.encode, nanosecondsPerFullEncode: parts.fullEncode,
            nanosecondsPerFullEncodeAndDigest: parts.digest, nanosecondsPerValueDigest: parts.valueDigest,
            nanosecondsPerDeltaDigest: parts.deltaDigest,
            nanosecondsPerDecode: parts.decode,
            bytesPerFrame: frames > 0 ? Double(bytes) / Double(frames) : 0, fullBytesPerFrame: fullBytes,
            frameBytes: try FrameBytes.measure(), sessionInlineBytes: MemoryLayout<ListModel>.size,
            heapBytesPerSession: memory.heap, rssBytesPerSession: memory.rss, runs: perRun)
    }

    /// Only the full step loop, `count` times, for a profiler (`valgrind --tool=callgrind`, `perf record`).
    func profile(count: Int) throws -> Double {
        var bytes = 0
        var frames = 0
        return try timedSteps(count: count, bytes: &bytes, frames: &frames)
    }

    /// The full step, `count` times. - Returns: seconds.
    private func timedSteps(count: Int, bytes: inout Int, frames: inout Int) throws -> Double {
        var session = try ListModel(viewport: Self.viewport, time: Timestamp(microseconds: 1_000_000))
        let encoder = MessageEncoder()
        var buffer = MessageBuffer(capacity: 8192)
        var time: Int64 = 1_000_000
        var base = session.frame()  // the whole frame the page got first
        let start = Clock.now()
        for i in 0..<count {
            time += Self.period
            try session.apply(Self.input(i, at: time), at: Timestamp(microseconds: time))
            session.advance(to: Timestamp(microseconds: time + Self.period / 2))
            buffer.removeAll()
            for event in session.takeEvents() { encoder.encode(event, into: &buffer) }
            let eventBytes = buffer.count
            let frame = session.frame()
            encoder.encodeDelta(frame, from: base, into: &buffer)
            base = frame
            bytes &+= buffer.count - eventBytes
            frames &+= 1
        }
        return Clock.seconds(since: start)
    }

    /// Bytes per whole `frame` message over the first `count` frames of the drag (untimed).
    private static func fullBytes(count: Int) throws -> Double {
        var session = try ListModel(viewport: viewport, time: Timestamp(microseconds: 1_000_000))
        let encoder = MessageEncoder()
        var buffer: [UInt8] = []
        var time: Int64 = 1_000_000
        var bytes = 0
        for i in 0..<count {
            time += period
            try session.apply(input(i, at: time), at: Timestamp(microseconds: time))
            session.advance(to: Timestamp(microseconds: time + period / 2))
            _ = session.takeEvents()
            buffer.removeAll(keepingCapacity: true)
            encoder.encode(session.frame(), into: &buffer)
            bytes += buffer.count
        }
        return Double(bytes) / Double(count)
    }

    /// Each part of the step, ns per call: the same drag run with more and more of the step (apply; + advance;
    /// + frame(); + encode), each loop timed as a whole (the fastest of three), the parts taken as differences
    /// (timing each call would mostly measure the clock). Encoding (the delta, the whole frame, the whole frame
    /// and its digest) and decoding are also timed on their own.
    private func timedParts(count: Int) throws -> (
        apply: Double, advance: Double, frame: Double, encode: Double, fullEncode: Double, digest: Double,
        valueDigest: Double, deltaDigest: Double, decode: Double
    ) {
        var checksum = 0
        var frames: [Frame] = []
        frames.reserveCapacity(1024)
        func loop(stages: Int) throws -> Double {
            var session = try ListModel(viewport: Self.viewport, time: Timestamp(microseconds: 1_000_000))
            let encoder = MessageEncoder()
            var buffer: [UInt8] = []
            buffer.reserveCapacity(8192)
            var time: Int64 = 1_000_000
            var base = session.frame()
            let start = Clock.now()
            for i in 0..<count {
                time += Self.period
                try session.apply(Self.input(i, at: time), at: Timestamp(microseconds: time))
                checksum &+= session.takeEvents().count
                if stages >= 2 { session.advance(to: Timestamp(microseconds: time + Self.period / 2)) }
                if stages >= 3 {
                    let frame = session.frame()
                    checksum &+= Int(frame.sequence)
                    if stages >= 4 {
                        buffer.removeAll(keepingCapacity: true)
                        encoder.encodeDelta(frame, from: base, into: &buffer)
                        base = frame
                        checksum &+= buffer.count
                    } else if frames.count < 1024 {
                        frames.append(frame)
                    }
                }
            }
            return Clock.seconds(since: start) / Double(count) * 1e9
        }
        // Each staged loop three times, interleaved, keeping the fastest: a busy host only adds time, and one
        // slow loop would otherwise make a part negative.
        var perStage = [Double](repeating: .infinity, count: 5)
        for _ in 0..<3 {
            for stages in 1...4 { perStage[stages] = min(perStage[stages], try loop(stages: stages)) }
        }
        // Encoding alone: 1 024 consecutive frames over and over, as deltas (each from the one before), whole,
        // and whole with the trace's digest.
        let encoder = MessageEncoder()
        var buffer: [UInt8] = []
        buffer.reserveCapacity(8192)
        var mark = Clock.now()
        for i in 0..<count {
            buffer.removeAll(keepingCapacity: true)
            let k = i % (frames.count - 1)
            encoder.encodeDelta(frames[k + 1], from: frames[k], into: &buffer)
            checksum &+= buffer.count
        }
        let encode = Clock.seconds(since: mark) / Double(count) * 1e9
        mark = Clock.now()
        for i in 0..<count {
            buffer.removeAll(keepingCapacity: true)
            encoder.encode(frames[i % frames.count], into: &buffer)
            checksum &+= buffer.count
        }
        let fullEncode = Clock.seconds(since: mark) / Double(count) * 1e9
        var digest = FrameDigest(kind: .text)
        mark = Clock.now()
        for i in 0..<count {
            buffer.removeAll(keepingCapacity: true)
            encoder.encode(frames[i % frames.count], into: &buffer)
            buffer.withUnsafeBytes { digest.add($0) }
        }
        checksum &+= Int(truncatingIfNeeded: digest.value)
        let fullEncodeAndDigest = Clock.seconds(since: mark) / Double(count) * 1e9
        var values = FrameDigest(kind: .values)
        mark = Clock.now()
        for i in 0..<count { values.add(frames[i % frames.count]) }
        checksum &+= Int(truncatingIfNeeded: values.value)
        let valueDigest = Clock.seconds(since: mark) / Double(count) * 1e9
        let deltas = (0..<(frames.count - 1)).map { k in
            var bytes: [UInt8] = []
            encoder.encodeDelta(frames[k + 1], from: frames[k], into: &bytes)
            return bytes
        }
        var updates = FrameDigest(kind: .deltas)
        mark = Clock.now()
        for i in 0..<count { deltas[i % deltas.count].withUnsafeBytes { updates.addUpdate($0) } }
        checksum &+= Int(truncatingIfNeeded: updates.value)
        let deltaDigest = Clock.seconds(since: mark) / Double(count) * 1e9
        // Decoding the touch messages a page sends.
        let decoder = MessageDecoder()
        let messages = (0..<64).map { i in
            Array(
                #"{"type":"touch","phase":"move","dx":0,"dy":\#(i % 2 == 0 ? -5 : 5),"t":\#(1000 + i * 16).667}"#.utf8)
        }
        mark = Clock.now()
        for i in 0..<count {
            let message = try messages[i % messages.count].withUnsafeBytes { try decoder.decode($0) }
            if case .input = message { checksum &+= 1 }
        }
        let decode = Clock.seconds(since: mark) / Double(count) * 1e9
        if checksum == 42 { print("") }  // keeps the optimizer from dropping the work
        return (
            perStage[1], Swift.max(0, perStage[2] - perStage[1]), Swift.max(0, perStage[3] - perStage[2]), encode,
            fullEncode, fullEncodeAndDigest, valueDigest, deltaDigest, decode
        )
    }

    /// Heap (malloc'd bytes) and RSS added by `sessions` sessions that each started a drag and sent a frame.
    private func measureMemory(sessions: Int) throws -> (heap: Double, rss: Double) {
        let heapBefore = Self.heapBytes()
        let rssBefore = Self.residentBytes()
        var all: [ListModel] = []
        all.reserveCapacity(sessions)
        let encoder = MessageEncoder()
        var buffer: [UInt8] = []
        for i in 0..<sessions {
            var session = try ListModel(viewport: Self.viewport, time: Timestamp(microseconds: 1_000_000 + Int64(i)))
            let time: Int64 = 1_100_000 + Int64(i)
            try session.apply(Self.input(0, at: time), at: Timestamp(microseconds: time))
            try session.apply(Self.input(1, at: time + Self.period), at: Timestamp(microseconds: time + Self.period))
            _ = session.takeEvents()
            buffer.removeAll(keepingCapacity: true)
            encoder.encode(session.frame(), into: &buffer)
            all.append(session)
        }
        let heap = Double(Self.heapBytes() - heapBefore) / Double(sessions)
        let rss = Double(Self.residentBytes() - rssBefore) / Double(sessions)
        withExtendedLifetime(all) {}
        return (heap, rss)
    }

    static func heapBytes() -> Int { Int(rk_bench_heap_in_use()) }

    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0)
                * 1024
        }
        return 0
    }

    /// Runs this thread on the last CPU only, so "steps per second" means one core.
    private func pinToOneCore() {
        var set = cpu_set_t()
        let cpus = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        let cpu = Swift.max(0, cpus - 1)
        withUnsafeMutableBytes(of: &set) { raw in
            raw[cpu / 8] |= UInt8(1 << (cpu % 8))
        }
        _ = Affinity.set(&set)
    }
}

/// `sched_{get,set}affinity` for this thread. Glibc declares them only under `_GNU_SOURCE`, which the
/// Glibc module is not built with, so they are looked up at run time.
enum Affinity {
    private typealias Call = @convention(c) (Int32, Int, UnsafeMutableRawPointer) -> Int32

    private static func call(_ name: String, _ set: inout cpu_set_t) -> Int32 {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return -1 }
        let function = unsafeBitCast(symbol, to: Call.self)
        return withUnsafeMutableBytes(of: &set) { function(0, $0.count, $0.baseAddress!) }
    }

    static func get(_ set: inout cpu_set_t) -> Int32 { call("sched_getaffinity", &set) }
    static func set(_ set: inout cpu_set_t) -> Int32 { call("sched_setaffinity", &set) }
}

/// This thread's CPU time (CLOCK_THREAD_CPUTIME_ID), in seconds: "per second on one core" stays meaningful
/// when other processes take turns on the core (the 2-core bench machine is shared).
enum Clock {
    static func now() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time
    }

    static func seconds(since start: timespec) -> Double {
        let end = now()
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    }
}
