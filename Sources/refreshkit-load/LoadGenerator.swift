// Over 400 lines on purpose: a bench tool, one lws client context with its callbacks and its clock; not
// product code.
import CLibWebSockets
import DequeModule
import Foundation
import ServerClock

/// One client connection and its drag.
final class LoadConnection {
    enum State { case waiting, connecting, open, closed, failed }

    let index: Int
    var state = State.waiting
    var wsi: OpaquePointer?
    /// The first frame (or, against the echo server, the hello's echo) arrived.
    var ready = false
    var helloSent = false
    var inputDue = false
    var inputsSent = 0
    /// Send times (µs, the generator's ``ServerClock``) of inputs not answered yet, oldest first.
    var pending = TimeQueue()

    // The message being received (it may come in several callbacks).
    var inMessage = false
    var messageBytes = 0
    var messageKind = MessageKind.other
    var messageTime: Int64 = 0
    var messageMoving = false
    /// Whether the latest frame's `phase` is not `idle`: a delta carries `phase` only when it changed.
    var phaseMoving = false

    init(index: Int) {
        self.index = index
    }
}

enum MessageKind { case frame, event, welcome, error, pong, other }

/// The send times of a connection's inputs not yet answered, oldest first: at most ``capacity``, the oldest
/// dropped beyond (a Deque with room for them all from the start, so no allocation after the first).
struct TimeQueue {
    static let capacity = 64
    private var times = Deque<Int64>(minimumCapacity: TimeQueue.capacity)

    var count: Int { times.count }
    var first: Int64? { times.first }

    /// Appends `time`; when full, the oldest is dropped and returned.
    mutating func append(_ time: Int64) -> Int64? {
        let dropped = times.count == Self.capacity ? times.popFirst() : nil
        times.append(time)
        return dropped
    }

    @discardableResult
    mutating func removeFirst() -> Int64? { times.popFirst() }

    func all() -> [Int64] { Array(times) }
}

/// The load generator: one lws client context on this thread, `sessions` connections, inputs at `rate`
/// Hz per session with the sessions' phases spread evenly over the period.
///
/// lws runs on a libuv loop of ours (epoll: lws's own poll() scans every descriptor on each wake-up, which
/// at 1 000 connections made the generator, not the server, the bottleneck), and a 1 ms libuv timer drives
/// the schedule. (On lws's poll loop a 1 kHz `lws_sul` busy-spins in `poll(…, 0)`; a uv timer does not.)
final class LoadGenerator {
    enum Phase { case connecting, warmup, measuring, draining, lingering, done }

    let options: Options
    private(set) var phase = Phase.connecting
    /// Called once, when the window is over and its inputs answered (or given up on), before the sessions linger:
    /// the figures are final from then on.
    var whenAnswered: (() -> Void)?
    private var context: OpaquePointer?
    private var connections: [LoadConnection] = []
    private var strings: [UnsafeMutablePointer<CChar>] = []
    /// address, host header, origin, path, subprotocol: allocated once, freed in deinit. lws 4.1.6's client
    /// writes `Origin: http://` + origin, so the origin is given without its scheme; over TLS the context writes it
    /// as given (`rk_opt_raw_origin`), whole, with `https://`.
    private lazy var connectStrings = (
        address: cString(options.host), host: cString("\(options.host):\(options.port)"),
        origin: cString("\(options.tlsCA == nil ? "" : "https://")\(options.host):\(options.port)"),
        path: cString(options.path), subprotocol: cString(options.subprotocol)
    )
    private var sendBuffer = [UInt8](repeating: 0, count: Int(RK_LWS_PRE) + 512)

    // Schedule.
    private let period: Int64
    private var scheduleOrigin: Int64 = 0
    private var cursor = 0
    private var round: Int64 = 0
    private var connectDeadline: Int64 = 0
    private var launched = 0
    /// Connections that became ready, and those that failed or closed before they did.
    private var readyCount = 0
    private var lostBeforeReady = 0
    private var phaseEnd: Int64 = 0

    // The measured window.
    private(set) var windowStart = Int64.max
    private(set) var windowEnd = Int64.max
    /// The slices in which this generator drives its target (``Options/slices``): all the time, or every other.
    let slices: Slices
    /// Where the span being measured began: the window's start, or the start of this generator's slice.
    private var openSpan: SpanSample?
    /// The window's figures (CPU times, steal), summed over its spans.
    private(set) var spans: MeasuredSpans

    // Results (counters reset when the window opens).
    private(set) var latency = Latencies()
    /// The window's tail tenth of a second by tenth (``TailBins``).
    private(set) var tails = TailBins.empty
    private(set) var inputsSent = 0
    private(set) var inputsLate = 0
    private(set) var inputsSkippedNotReady = 0
    private(set) var inputsDropped = 0
    private(set) var frames = 0
    private(set) var framesAnswering = 0
    private(set) var movingFrames = 0
    private(set) var movingFrameBytes = 0
    private(set) var movingFrameWireBytes = 0
    private(set) var messages = 0
    private(set) var bytes = 0
    private(set) var events = 0
    private(set) var errors = 0
    private(set) var connectFailures = 0
    private(set) var closedEarly = 0
    private(set) var clockSkewMicroseconds: Int64?
    /// Every time the generator reads: the server's kind of clock (µs since the Unix epoch, the wall clock read
    /// at the start and advanced by the monotonic clock), so that a send time and a frame's `t` compare.
    private let clock = ServerClock()
    private(set) var failure: String?
    private var loggedProblems = 0

    init(options: Options) {
        self.options = options
        period = Int64((1_000_000 / Swift.max(options.rate, 0.001)).rounded())
        slices = options.slices
        spans = MeasuredSpans(server: options.serverPID != nil, watching: options.watchedPIDs.count)
        connections = (0..<options.sessions).map { LoadConnection(index: $0) }
    }

    deinit {
        for string in strings { free(string) }
    }

    private func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
        let pointer = strdup(text)!
        strings.append(pointer)
        return pointer
    }

    // MARK: - Running

    /// Connects, warms up, measures, drains and closes. - Returns: `false` on a fatal problem.
    func run() -> Bool {
        var protocols = [lws_protocols(), lws_protocols()]
        protocols[0].name = UnsafePointer(cString(options.subprotocol))
        protocols[0].callback = loadProtocolCallback
        protocols[0].per_session_data_size = 0
        protocols[0].rx_buffer_size = 16 * 1024
        let protocolList = UnsafeMutablePointer<lws_protocols>.allocate(capacity: protocols.count)
        protocolList.initialize(from: protocols, count: protocols.count)
        defer { protocolList.deallocate() }

        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.protocols = UnsafePointer(protocolList)
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.gid = -1
        info.uid = -1
        // No fd_limit_per_thread: setting it makes lws 4.1.6 find the wsi of each ready fd by a linear scan
        // (`max_fds_unrelated_to_ulimit`); the default, a table sized by `ulimit -n`, is O(1).
        guard let loop = rk_uv_loop_create() else {
            failure = "libuv: uv_loop_init failed"
            return false
        }
        var foreignLoop: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(loop)
        info.options |= rk_opt_libuv()
        if let ca = options.tlsCA {
            info.options |= rk_opt_tls_global_init() | rk_opt_raw_origin()
            info.client_ssl_ca_filepath = UnsafePointer(cString(ca))
        }
        lws_set_log_level(LLL_ERR, nil)
        let created = withUnsafeMutablePointer(to: &foreignLoop) { slot in
            info.foreign_loops = slot
            return lws_create_context(&info)
        }
        guard let context = created else {
            failure = "lws_create_context failed"  // the loop is not run again: see ServiceLoop.create
            return false
        }
        self.context = context
        let timer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
        defer { timer.deallocate() }
        uv_timer_init(loop, timer)
        timer.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        uv_timer_start(timer, scheduleTimerCallback, 0, options.idle ? 50 : 1)

        let start = clock.now()
        connectDeadline = start + Int64(options.connectTimeout * 1_000_000)
        while phase != .done {
            uv_run(loop, UV_RUN_ONCE)
        }
        uv_timer_stop(timer)
        uv_close(UnsafeMutableRawPointer(timer).assumingMemoryBound(to: uv_handle_t.self), nil)
        rk_uv_destroy(context, loop)  // completes the timer's close too, before it is deallocated
        self.context = nil
        return failure == nil
    }

    /// The schedule's heartbeat (every millisecond; 50 ms for idle connections), put to sleep where nothing is due.
    fileprivate func onTimer(_ timer: UnsafeMutablePointer<uv_timer_t>) {
        let now = clock.now()
        advance(now: now)
        if let wake = restsUntil(now: now) {
            uv_timer_start(timer, scheduleTimerCallback, UInt64(Swift.max(1, (wake - now + 999) / 1000)), 1)
        }
    }

    /// When the heartbeat may sleep until, or nil to beat on: while lingering, to its end; turn by turn, in the
    /// other generator's slice, to the start of its own (or the end of its phase). A heartbeat there would find
    /// nothing to do a thousand times a second, and each time want a core that the target measured in that slice
    /// and its generator are using: at 1 000 sessions such an idle generator spent some 130 ms of each second
    /// waiting to run (its schedstat), time taken from or queued behind the measured pair (docs/PERFORMANCE.md, "Two
    /// targets measured turn by turn").
    private func restsUntil(now: Int64) -> Int64? {
        switch phase {
        case .lingering:
            return phaseEnd
        case .warmup, .measuring:
            return slices.isSliced && !slices.isActive(now) ? Swift.min(slices.start(atOrAfter: now), phaseEnd) : nil
        case .connecting, .draining, .done:
            return nil
        }
    }

    /// Everything time-driven.
    private func advance(now: Int64) {
        switch phase {
        case .connecting:
            connectMore()
            if readyCount + lostBeforeReady == connections.count || now >= connectDeadline {
                connectFailures = connections.count - readyCount
                if readyCount == 0 {
                    failure = "no session became ready (server down, or wrong --mode?)"
                    phase = .done
                    return
                }
                let elapsed = (now - connectDeadline) / 1000 + Int64(options.connectTimeout * 1000)
                log("\(readyCount)/\(connections.count) sessions ready after \(elapsed) ms")
                scheduleOrigin = now + 20_000
                // Turn by turn, the window opens as one of this generator's slices starts.
                phaseEnd = slices.start(atOrAfter: scheduleOrigin + Int64(options.warmup * 1_000_000))
                phase = .warmup
            }
        case .warmup:
            scheduleInputs(now: now)
            if now >= phaseEnd { openWindow(now: now) }
        case .measuring:
            scheduleInputs(now: now)
            if now >= phaseEnd {
                closeWindow(now: now)
            } else if slices.isSliced {
                followSlices(now: now)
            }
        case .draining:
            let waiting = connections.contains { $0.state == .open && $0.pending.count > 0 }
            if !waiting || now >= phaseEnd { linger(now: now) }
        case .lingering:
            if now >= phaseEnd { phase = .done }
        case .done:
            return
        }
    }

    private func connectMore() {
        guard let context else { return }
        var inFlight = launched - readyCount - lostBeforeReady
        let (address, host, origin, path, subprotocol) = connectStrings
        while launched < connections.count && inFlight < options.connectBatch {
            let connection = connections[launched]
            launched += 1
            var info = lws_client_connect_info()
            info.context = context
            info.address = UnsafePointer(address)
            info.port = Int32(options.port)
            info.path = UnsafePointer(path)
            info.host = UnsafePointer(host)
            info.origin = UnsafePointer(origin)
            info.protocol = UnsafePointer(subprotocol)
            info.ssl_connection = options.tlsCA == nil ? 0 : rk_client_use_tls()
            info.userdata = Unmanaged.passUnretained(connection).toOpaque()
            connection.state = .connecting
            withUnsafeMutablePointer(to: &connection.wsi) { slot in
                info.pwsi = slot
                if lws_client_connect_via_info(&info) == nil {
                    connection.state = .failed
                    lostBeforeReady += 1
                    problem("connect \(connection.index) failed to start")
                }
            }
            inFlight += 1
        }
    }

    /// Marks every session whose next input is due: session `i` sends at origin + i·period/N + k·period.
    private func scheduleInputs(now: Int64) {
        guard !options.idle else { return }
        let count = Int64(connections.count)
        while true {
            let due = scheduleOrigin + Int64(cursor) * period / count + round * period
            if due > now { break }
            let connection = connections[cursor]
            if !slices.isActive(due) {
                // The other generator's slice: this target rests.
            } else if connection.state == .open && connection.ready {
                if connection.inputDue {
                    inputsLate += 1  // the previous one has not been written yet: the client is behind
                } else {
                    connection.inputDue = true
                    // Written now when the socket takes it (as the server writes its frames): no
                    // "tell me when writable" round, which costs two epoll_ctl calls per input.
                    if let wsi = connection.wsi {
                        if lws_partial_buffered(wsi) != 0 {
                            lws_callback_on_writable(wsi)
                        } else if writeable(connection, wsi: wsi) < 0 {
                            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
                        }
                    }
                }
            } else if phase == .measuring {
                inputsSkippedNotReady += 1
            }
            cursor += 1
            if cursor == connections.count {
                cursor = 0
                round += 1
            }
        }
    }

    private func openWindow(now: Int64) {
        latency = Latencies()
        inputsSent = 0
        inputsLate = 0
        inputsSkippedNotReady = 0
        inputsDropped = 0
        frames = 0
        framesAnswering = 0
        movingFrames = 0
        movingFrameBytes = 0
        movingFrameWireBytes = 0
        messages = 0
        bytes = 0
        events = 0
        errors = 0
        closedEarly = 0
        windowStart = now
        spans = MeasuredSpans(server: options.serverPID != nil, watching: options.watchedPIDs.count)
        openSpan = slices.isMeasured(now) ? sample(at: now) : nil
        // Turn by turn, from the start of the slice now begun, so that the window holds whole slices.
        let start = slices.sliceStart(at: now)
        phaseEnd = start + slices.window(about: Int64(options.duration * 1_000_000))
        tails = TailBins(origin: start, duration: phaseEnd - start)
        phase = .measuring
        // What a profiler waits for to count the window alone (the bench's callgrind counts: ServerInstructions).
        log(RK_LOAD_WINDOW_OPENED)
    }

    private func closeWindow(now: Int64) {
        windowEnd = now
        closeSpan(now: now)
        log(RK_LOAD_WINDOW_CLOSED)
        phaseEnd = now + 500_000
        phase = .draining
    }

    /// The window is over and answered: ``whenAnswered`` is told, and the sessions stay open, quiet, for
    /// ``Options/linger`` seconds.
    private func linger(now: Int64) {
        whenAnswered?()
        whenAnswered = nil
        phase = options.linger > 0 ? .lingering : .done
        phaseEnd = now + Int64(options.linger * 1_000_000)
    }

    /// Turn by turn: a span is measured in each of this generator's slices, from the end of its lead to the slice's
    /// end (the timer sees each edge within a millisecond of it; the target's work in flight at the slice's end,
    /// well under a millisecond, falls outside for both targets alike).
    private func followSlices(now: Int64) {
        let measured = slices.isMeasured(now)
        if measured && openSpan == nil {
            openSpan = sample(at: now)
        } else if !measured {
            closeSpan(now: now)
        }
    }

    private func closeSpan(now: Int64) {
        guard let start = openSpan else { return }
        spans.add(from: start, to: sample(at: now))
        openSpan = nil
    }

    private func sample(at time: Int64) -> SpanSample {
        SpanSample.read(at: time, server: options.serverPID, watched: options.watchedPIDs)
    }

    /// Whether an input sent at `time` is measured: in the window, and in one of this generator's slices.
    private func inWindow(_ time: Int64) -> Bool { time >= windowStart && time < windowEnd && slices.isMeasured(time) }

    // MARK: - Callbacks (on this thread, inside lws_service)

    func handle(
        wsi: OpaquePointer, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?,
        input: UnsafeMutableRawPointer?, length: Int
    ) -> Int32 {
        guard let user else { return 0 }
        let connection = Unmanaged<LoadConnection>.fromOpaque(user).takeUnretainedValue()
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            connection.state = .open
            connection.wsi = wsi
            lws_callback_on_writable(wsi)
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            if !connection.ready && connection.state != .failed && connection.state != .closed { lostBeforeReady += 1 }
            connection.state = .failed
            connection.wsi = nil
            let text = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "?"
            problem("connection \(connection.index) failed: \(text)")
        case LWS_CALLBACK_CLIENT_CLOSED:
            if !connection.ready && connection.state != .failed && connection.state != .closed { lostBeforeReady += 1 }
            if phase == .connecting || phase == .warmup || phase == .measuring {
                closedEarly += 1
                problem("connection \(connection.index) closed by the server")
            }
            connection.state = .closed
            connection.wsi = nil
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            return writeable(connection, wsi: wsi)
        case LWS_CALLBACK_CLIENT_RECEIVE:
            receive(connection, wsi: wsi, input: input, length: length)
        default:
            break
        }
        return 0
    }

    private func writeable(_ connection: LoadConnection, wsi: OpaquePointer) -> Int32 {
        let pre = Int(RK_LWS_PRE)
        var length = 0
        var isInput = false
        if !connection.helloSent {
            connection.helloSent = true
            length =
                options.frames == .delta
                ? put(#"{"type":"hello","viewport":{"w":390,"h":844},"dpr":3,"frames":"delta"}"#, at: pre)
                : put(#"{"type":"hello","viewport":{"w":390,"h":844},"dpr":3}"#, at: pre)
            if options.mode == .echo { _ = connection.pending.append(0) }  // its echo is not an input
        } else if connection.inputDue {
            connection.inputDue = false
            isInput = true
            length =
                options.touch == .binary
                ? binaryTouch(for: connection, at: pre, now: clock.now())
                : touchMessage(for: connection, at: pre, now: clock.now())
        } else {
            return 0
        }
        let sent = clock.now()
        let kind = isInput && options.touch == .binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT
        let written = sendBuffer.withUnsafeMutableBytes { raw in
            lws_write(wsi, raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + pre, length, kind)
        }
        if written < 0 {
            problem("write failed on connection \(connection.index)")
            return -1
        }
        if isInput {
            connection.inputsSent += 1
            if inWindow(sent) { inputsSent += 1 }
            if let dropped = connection.pending.append(sent), inWindow(dropped) { inputsDropped += 1 }
        }
        if connection.inputDue { lws_callback_on_writable(wsi) }
        return 0
    }

    /// `touch start` first, then `touch move`s of ±step px, flipping direction every few moves so the
    /// content keeps moving inside the first page (never pulling past an edge). `t` is the page clock of a
    /// browser (`performance.now()`): ms since the generator started.
    private func touchMessage(for connection: LoadConnection, at offset: Int, now: Int64) -> Int {
        var at = offset
        if connection.inputsSent == 0 {
            at += put(#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":"#, at: at)
        } else {
            let move = connection.inputsSent - 1
            let up = (move / options.movesPerDirection) % 2 == 0
            at += put(
                up ? #"{"type":"touch","phase":"move","dx":0,"dy":-"# : #"{"type":"touch","phase":"move","dx":0,"dy":"#,
                at: at)
            at += putNumber(Int64((options.step * 1000).rounded()), decimals: 3, at: at)
            at += put(#","t":"#, at: at)
        }
        at += putNumber(now - clock.wallOrigin, decimals: 3, at: at)
        at += put("}", at: at)
        return at - offset
    }

    /// ``touchMessage(for:at:now:)``'s touch in its binary spelling (docs/PROTOCOL.md, "Binary touch"): kind 1,
    /// the phase, six zero bytes, then `dx`, `dy`, `t` and `id` as little-endian binary64s; no `seq`, as the
    /// JSON one has none. 40 bytes.
    private func binaryTouch(for connection: LoadConnection, at offset: Int, now: Int64) -> Int {
        let start = connection.inputsSent == 0
        var dy = 0.0
        if !start {
            let move = connection.inputsSent - 1
            let up = (move / options.movesPerDirection) % 2 == 0
            dy = up ? -options.step : options.step
        }
        let t = Double(now - clock.wallOrigin) / 1000
        sendBuffer.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt64(start ? 0x01 : 0x0101).littleEndian, toByteOffset: offset, as: UInt64.self)
            raw.storeBytes(of: 0, toByteOffset: offset + 8, as: UInt64.self)  // dx 0
            raw.storeBytes(of: dy.bitPattern.littleEndian, toByteOffset: offset + 16, as: UInt64.self)
            raw.storeBytes(of: t.bitPattern.littleEndian, toByteOffset: offset + 24, as: UInt64.self)
            raw.storeBytes(of: 0, toByteOffset: offset + 32, as: UInt64.self)  // id 0
        }
        return 40
    }

    private func put(_ text: StaticString, at offset: Int) -> Int {
        let count = text.utf8CodeUnitCount
        sendBuffer.withUnsafeMutableBufferPointer { buffer in
            (buffer.baseAddress! + offset).update(from: text.utf8Start, count: count)
        }
        return count
    }

    /// Writes `value / 10^decimals` as a decimal number (value ≥ 0), digits straight into the send buffer.
    private func putNumber(_ value: Int64, decimals: Int, at offset: Int) -> Int {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        digits = Swift.max(digits, decimals + 1)  // 0.005, not .005
        let count = digits + (decimals > 0 ? 1 : 0)
        sendBuffer.withUnsafeMutableBufferPointer { buffer in
            var at = offset + count - 1
            var rest = value
            for place in 0..<digits {
                if place == decimals && decimals > 0 {
                    buffer[at] = UInt8(ascii: ".")
                    at -= 1
                }
                buffer[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                at -= 1
            }
        }
        return count
    }

    private func receive(_ connection: LoadConnection, wsi: OpaquePointer, input: UnsafeMutableRawPointer?, length: Int)
    {
        let chunk = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
        if !connection.inMessage {
            connection.inMessage = true
            connection.messageBytes = 0
            classify(chunk, into: connection)
        }
        connection.messageBytes += length
        guard lws_remaining_packet_payload(wsi) == 0, lws_is_final_fragment(wsi) != 0 else { return }
        connection.inMessage = false
        let now = clock.now()
        let size = connection.messageBytes
        let counted = phase == .measuring
        if counted {
            messages += 1
            bytes += size
        }
        if options.mode == .echo {
            markReady(connection)
            if let sent = connection.pending.removeFirst(), inWindow(sent) { timed(sent: sent, answeredAt: now) }
            return
        }
        switch connection.messageKind {
        case .frame:
            markReady(connection)
            var answered = false
            while let sent = connection.pending.first, sent <= connection.messageTime {
                connection.pending.removeFirst()
                answered = true
                if inWindow(sent) { timed(sent: sent, answeredAt: now) }
            }
            if counted {
                frames += 1
                if answered { framesAnswering += 1 }
                if connection.messageMoving {
                    movingFrames += 1
                    movingFrameBytes += size
                    movingFrameWireBytes += size + (size < 126 ? 2 : size < 65536 ? 4 : 10)
                }
            }
        case .event:
            if counted { events += 1 }
        case .welcome:
            if clockSkewMicroseconds == nil { clockSkewMicroseconds = connection.messageTime - now }
        case .error:
            if counted { errors += 1 }
            let text = String(decoding: chunk.prefix(200), as: UTF8.self)
            problem("error from the server on connection \(connection.index): \(text)")
        case .pong, .other:
            break
        }
    }

    /// An input of the window, sent at `sent`, answered at `now`: into the latencies and the tail's bins.
    private func timed(sent: Int64, answeredAt now: Int64) {
        latency.record(now - sent)
        tails.record(sent: sent, latency: now - sent)
    }

    private func markReady(_ connection: LoadConnection) {
        guard !connection.ready else { return }
        connection.ready = true
        readyCount += 1
    }

    /// Reads only what the measurement needs from the start of a message: its type, a frame's or a delta's
    /// `t` (µs) and whether its `phase` is not `idle` (a delta without `phase` has the phase of the frame
    /// before it), a welcome's `serverT`.
    private func classify(_ chunk: UnsafeRawBufferPointer, into connection: LoadConnection) {
        connection.messageKind = .other
        connection.messageMoving = false
        guard options.mode == .frames else { return }
        let prefix: [UInt8] = Array(#"{"type":""#.utf8)
        guard chunk.count > prefix.count + 2, chunk.starts(with: prefix) else { return }
        let first = chunk[prefix.count]
        let second = chunk[prefix.count + 1]
        switch (first, second) {
        case (UInt8(ascii: "f"), _), (UInt8(ascii: "d"), _):
            connection.messageKind = .frame
            connection.messageTime = Self.milliseconds(after: #","t":"#, in: chunk) ?? Int64.max
            if let phase = Self.index(of: #""phase":""#, in: chunk), phase < chunk.count {
                connection.phaseMoving = chunk[phase] != UInt8(ascii: "i")
            }
            connection.messageMoving = connection.phaseMoving
        case (UInt8(ascii: "e"), UInt8(ascii: "v")): connection.messageKind = .event
        case (UInt8(ascii: "e"), _): connection.messageKind = .error
        case (UInt8(ascii: "w"), _):
            connection.messageKind = .welcome
            connection.messageTime = Self.milliseconds(after: #""serverT":"#, in: chunk) ?? 0
        case (UInt8(ascii: "p"), _): connection.messageKind = .pong
        default: break
        }
    }

    /// The index just past the first occurrence of `needle` in `chunk`, by glibc's `memmem` (`rk_load_find`). The
    /// generator looks for `,"t":` and `"phase":"` (through the whole frame) in every frame it reads; loops of
    /// checked subscripts cost ~1 900 instructions a frame (callgrind of the generator at 20 sessions), time
    /// counted in every later frame's latency.
    private static func index(of needle: StaticString, in chunk: UnsafeRawBufferPointer) -> Int? {
        guard let base = chunk.baseAddress,
            let found = rk_load_find(base, chunk.count, needle.utf8Start, needle.utf8CodeUnitCount)
        else { return nil }
        return UnsafeRawPointer(found) - base + needle.utf8CodeUnitCount
    }

    /// A non-negative decimal number of milliseconds after `key`, as whole microseconds.
    private static func milliseconds(after key: StaticString, in chunk: UnsafeRawBufferPointer) -> Int64? {
        guard var i = index(of: key, in: chunk) else { return nil }
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var sawDigit = false
        while i < chunk.count, (48...57).contains(chunk[i]) {
            whole = whole * 10 + Int64(chunk[i] - 48)
            sawDigit = true
            i += 1
        }
        if i < chunk.count, chunk[i] == UInt8(ascii: ".") {
            i += 1
            while i < chunk.count, (48...57).contains(chunk[i]) {
                if fractionDigits < 3 {
                    fraction = fraction * 10 + Int64(chunk[i] - 48)
                    fractionDigits += 1
                }
                i += 1
            }
        }
        guard sawDigit else { return nil }
        while fractionDigits < 3 {
            fraction *= 10
            fractionDigits += 1
        }
        return whole * 1000 + fraction
    }

    // MARK: - Reporting

    /// Inputs sent in the window that never got their frame (or echo).
    var inputsUnanswered: Int {
        connections.reduce(0) { $0 + $1.pending.all().filter { self.inWindow($0) }.count } + inputsDropped
    }

    var readySessions: Int { readyCount }

    /// The server's CPU time over the measured spans (needs `--server-pid`).
    var serverCPUSeconds: Double? { spans.server?.cpu }

    /// The part of ``serverCPUSeconds`` spent in the kernel.
    var serverSystemSeconds: Double? { spans.server?.system }

    /// The server as last read: its memory and threads at the window's end.
    var serverAfter: ProcessSample? { spans.lastServer }

    /// This generator's CPU time over the measured spans.
    var clientCPUSeconds: Double { spans.clientCPU }

    /// The machine's steal time over the measured spans (``ProcessSample/hostStealSeconds()``), nil where unknown.
    var hostStealSeconds: Double? { spans.steal }

    /// Each watched process's CPU time over the measured spans, total and in the kernel (nil: not read at both
    /// ends of every span).
    var watchedCPUSeconds: [(pid: Int32, cpu: Double, system: Double)?] {
        zip(options.watchedPIDs, spans.watched).map { pid, times in times.map { (pid, $0.cpu, $0.system) } }
    }

    private func problem(_ text: String) {
        loggedProblems += 1
        if loggedProblems <= 5 { log(text) }
        if loggedProblems == 6 { log("(further problems not shown)") }
    }

    func log(_ text: String) {
        FileHandle.standardError.write(Data("refreshkit-load: \(text)\n".utf8))
    }
}

// MARK: - The C entry points (they run on the generator's thread, inside uv_run)

private func scheduleTimerCallback(_ timer: UnsafeMutablePointer<uv_timer_t>?) {
    guard let timer, let owner = timer.pointee.data else { return }
    Unmanaged<LoadGenerator>.fromOpaque(owner).takeUnretainedValue().onTimer(timer)
}

private func loadProtocolCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else { return 0 }
    let generator = Unmanaged<LoadGenerator>.fromOpaque(owner).takeUnretainedValue()
    return generator.handle(wsi: wsi, reason: reason, user: user, input: input, length: length)
}
