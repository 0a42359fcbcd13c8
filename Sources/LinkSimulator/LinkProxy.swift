#if canImport(Glibc)
    import Glibc
#endif

/// The I/O edge of the link simulator: accepts connections on one address, opens one to the upstream for
/// each, and carries the bytes both ways through a ``LinkShaper`` per direction, on one thread with
/// `poll(2)`. What is released when is decided by the shapers, the shared stall schedule and the stalls
/// asked for with ``requestStall()`` (``OnDemandStalls``); this type only reads, waits and writes.
public final class LinkProxy: Sendable {
    public let listen: LinkAddress
    public let upstream: LinkAddress
    public let profile: LinkProfile
    public let seed: UInt64
    /// A direction stops reading while more than this many bytes wait in it.
    public let queueLimitBytes: Int
    /// How long a stall asked for with ``requestStall()`` holds all traffic.
    public let onDemandStallMs: Double
    /// The port actually bound (the real one when `listen.port` is 0).
    public let port: Int
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let log: @Sendable (String) -> Void

    /// Binds the listening socket (so the port is known and taken before ``run()``).
    public init(
        listen: LinkAddress, upstream: LinkAddress, profile: LinkProfile, seed: UInt64,
        queueLimitBytes: Int = 4 << 20, onDemandStallMs: Double = 300,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        self.listen = listen
        self.upstream = upstream
        self.profile = profile
        self.seed = seed
        self.queueLimitBytes = queueLimitBytes
        self.onDemandStallMs = onDemandStallMs
        self.log = log
        _ = try Socket.resolve(upstream, passive: false)  // a bad upstream fails now, not per connection
        (listener, port) = try Socket.listening(on: listen)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(listener)
            throw SocketError("pipe2")
        }
        for fd in fds { Socket.setNonBlocking(fd) }
        wake = (fds[0], fds[1])
    }

    /// What the wake pipe carries to the loop, one byte each.
    enum Request: UInt8 {
        case stop = 1
        case stall = 2
    }

    /// Makes ``run()`` return (from any thread, e.g. a signal watcher).
    public func requestStop() { post(.stop) }

    /// Holds all traffic, both ways on every connection, for ``onDemandStallMs`` from the moment the loop
    /// takes the request (from any thread, e.g. a signal watcher). The loop logs each stall it begins.
    public func requestStall() { post(.stall) }

    private func post(_ request: Request) {
        var byte = request.rawValue
        _ = write(wake.write, &byte, 1)
    }

    /// Serves until ``requestStop()``; then closes every connection and the listener.
    public func run() {
        let loop = ProxyLoop(proxy: self, listener: listener, wake: wake.read, log: log)
        loop.run()
        close(listener)
        close(wake.read)
        close(wake.write)
    }
}

/// The state of ``LinkProxy/run()``: the connections and the poll loop over them.
private final class ProxyLoop {
    /// A client connection and its upstream, the two directions between them.
    struct Pair {
        let number: UInt64
        var connecting: Bool
        /// Names the client in each request upstream (``ForwardedFor``).
        var forwarded: ForwardedFor
        var up: LinkDirection  // client → upstream
        var down: LinkDirection  // upstream → client
        var client: Int32 { up.source }
        var server: Int32 { up.destination }
    }

    let proxy: LinkProxy
    let listener: Int32
    let wake: Int32
    let log: @Sendable (String) -> Void
    let start = Socket.monotonicMs()
    var pairs: [Pair] = []
    var onDemand = OnDemandStalls()
    var accepted: UInt64 = 0
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(proxy: LinkProxy, listener: Int32, wake: Int32, log: @escaping @Sendable (String) -> Void) {
        self.proxy = proxy
        self.listener = listener
        self.wake = wake
        self.log = log
    }

    var now: Double { Socket.monotonicMs() - start }

    func run() {
        while true {
            var fds = [
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            ]
            var deadline = Double.infinity
            let time = now
            for pair in pairs {
                let up = interest(pair.up, canRead: true, canWrite: !pair.connecting, at: time)
                let down = interest(pair.down, canRead: !pair.connecting, canWrite: true, at: time)
                deadline = min(deadline, up.due, down.due)
                let clientEvents = (up.read ? POLLIN : 0) | (down.write ? POLLOUT : 0)
                let serverEvents = (down.read ? POLLIN : 0) | (up.write || pair.connecting ? POLLOUT : 0)
                // A descriptor with nothing to wait for is left out (-1): a peer that hung up would
                // otherwise report POLLHUP on every call.
                fds.append(pollfd(fd: clientEvents == 0 ? -1 : pair.client, events: Int16(clientEvents), revents: 0))
                fds.append(pollfd(fd: serverEvents == 0 ? -1 : pair.server, events: Int16(serverEvents), revents: 0))
            }
            // poll(2) counts whole ms: round up, so a release is never polled for before it is due.
            let timeout = deadline.isFinite ? Int32(min(60_000, max(0, (deadline - time).rounded(.up)))) : -1
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR {
                log("poll: \(String(cString: strerror(errno)))")
                break
            }
            if fds[0].revents != 0 && !takeRequests() { break }
            onDemand.forget(before: now)
            if fds[1].revents & Int16(POLLIN) != 0 { acceptAll() }
            // Service every pair (a due release needs no event); pairs accepted just now have no pollfd yet.
            var index = 0
            var slot = 2
            while index < pairs.count {
                let clientEvents = slot < fds.count && fds[slot].fd == pairs[index].client ? fds[slot].revents : 0
                let serverEvents =
                    slot + 1 < fds.count && fds[slot + 1].fd == pairs[index].server ? fds[slot + 1].revents : 0
                slot += 2
                if service(&pairs[index], clientEvents: clientEvents, serverEvents: serverEvents) {
                    index += 1
                } else {
                    pairs.remove(at: index)
                }
            }
        }
        for pair in pairs {
            close(pair.client)
            close(pair.server)
        }
        pairs.removeAll()
    }

    /// What a direction waits for: reading its source, writing its destination, or a release time.
    func interest(_ direction: LinkDirection, canRead: Bool, canWrite: Bool, at time: Double)
        -> (read: Bool, write: Bool, due: Double)
    {
        let read = canRead && direction.wantsRead
        guard canWrite, !direction.finished, let due = direction.queue.nextRelease else {
            return (read, false, .infinity)
        }
        let release = opening(due)
        return release <= time ? (read, true, .infinity) : (read, false, release)
    }

    /// When a chunk the shaper released at `release` may be written: later if a stall on demand holds it.
    func opening(_ release: Double) -> Double {
        onDemand.earliestOpen(atOrAfter: release, with: proxy.profile.stalls)
    }

    /// Acts on what came through the wake pipe; false once a stop was asked for.
    func takeRequests() -> Bool {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(wake, $0.baseAddress, $0.count) }
            guard count > 0 else { return true }
            for byte in bytes[0..<count] {
                switch LinkProxy.Request(rawValue: byte) {
                case .stop: return false
                case .stall:
                    let time = now
                    onDemand.stall(from: time, durationMs: proxy.onDemandStallMs)
                    log("stall on demand: holding all traffic for \(LinkProfile.format(proxy.onDemandStallMs)) ms")
                case nil: continue
                }
            }
        }
    }

    func acceptAll() {
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            if fd < 0 {
                if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                    log("accept: \(String(cString: strerror(errno)))")
                }
                return
            }
            Socket.setNonBlocking(fd)
            Socket.noDelay(fd)
            let server: Int32
            do { server = try Socket.connecting(to: proxy.upstream) } catch {
                log("a client was reset: the upstream could not be reached (\(error))")
                Socket.reset(fd)
                continue
            }
            accepted += 1
            let seeds = LinkShaper.seeds(for: proxy.seed, connection: accepted)
            pairs.append(
                Pair(
                    number: accepted, connecting: true,
                    forwarded: ForwardedFor(client: Socket.numericHost(address)),
                    up: LinkDirection(
                        source: fd, destination: server,
                        shaper: LinkShaper(profile: proxy.profile, seed: seeds.toUpstream),
                        limitBytes: proxy.queueLimitBytes),
                    down: LinkDirection(
                        source: server, destination: fd,
                        shaper: LinkShaper(profile: proxy.profile, seed: seeds.toClient),
                        limitBytes: proxy.queueLimitBytes)))
        }
    }

    /// Reads, writes and ends what is ready; false once the pair is closed.
    func service(_ pair: inout Pair, clientEvents: Int16, serverEvents: Int16) -> Bool {
        if pair.connecting {
            guard serverEvents != 0 else {
                if clientEvents & Int16(POLLIN) != 0 { readClient(&pair) }
                return true
            }
            let code = Socket.pendingError(pair.server)
            guard code == 0 else {
                log("connection \(pair.number): upstream \(proxy.upstream): \(String(cString: strerror(code)))")
                return abort(pair, nil)
            }
            pair.connecting = false
        }
        let readable = Int16(POLLIN | POLLHUP | POLLERR)
        if clientEvents & readable != 0 && !pair.up.readEnded { readClient(&pair) }
        if serverEvents & readable != 0 && !pair.down.readEnded { read(&pair.down, side: "upstream", pair.number) }
        switch (flush(&pair.up), flush(&pair.down)) {
        case (.failed(let code), _): return abort(pair, "writing to the upstream: \(String(cString: strerror(code)))")
        case (_, .failed(let code)): return abort(pair, "writing to the client: \(String(cString: strerror(code)))")
        case (.reset, _), (_, .reset): return abort(pair, nil)
        default: break
        }
        if pair.up.finished && pair.down.finished {
            close(pair.client)
            close(pair.server)
            return false
        }
        return true
    }

    /// One read into the direction's queue; an error (a reset) is queued too, to be passed on in order.
    func read(_ direction: inout LinkDirection, side: String, _ number: UInt64) {
        guard let bytes = readSome(&direction, side: side, number) else { return }
        direction.received(bytes, at: now)
    }

    /// One read from the client: its requests name it (``ForwardedFor``) before they are queued.
    func readClient(_ pair: inout Pair) {
        guard let bytes = readSome(&pair.up, side: "client", pair.number) else { return }
        if bytes.isEmpty {
            let held = pair.forwarded.finish()
            if !held.isEmpty { pair.up.received(held, at: now) }
            pair.up.received([], at: now)  // the end of the stream
            return
        }
        let passed = pair.forwarded.pass(bytes)
        if !passed.isEmpty { pair.up.received(passed, at: now) }  // empty: a head not whole yet
    }

    /// What one read brought (empty: the end of the stream); nil when nothing came, or it failed (the failure is
    /// queued to be passed on in order).
    func readSome(_ direction: inout LinkDirection, side: String, _ number: UInt64) -> [UInt8]? {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(direction.source, $0.baseAddress, $0.count) }
        if count < 0 {
            guard errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR else { return nil }
            log("connection \(number): \(side) failed: \(String(cString: strerror(errno)))")
            direction.failed(at: now)
            return nil
        }
        return Array(buffer[0..<count])
    }

    /// What ``flush(_:)`` came to.
    enum Flushed {
        case ok
        /// Writing to the destination failed (errno).
        case failed(Int32)
        /// A reset from the source was released: the pair is to be reset.
        case reset
    }

    /// Writes every released chunk the destination takes; passes on a released end of stream.
    func flush(_ direction: inout LinkDirection) -> Flushed {
        let time = now
        while !direction.finished, let due = direction.queue.nextRelease, opening(due) <= time,
            let item = direction.queue.released(at: due)
        {
            switch item {
            case .end:
                shutdown(direction.destination, Int32(SHUT_WR))
                direction.queue.dropHead()
                direction.finished = true
            case .reset:
                return .reset
            case .bytes(let bytes):
                let offset = direction.queue.written
                let count = bytes.withUnsafeBytes {
                    send(direction.destination, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
                }
                if count < 0 {
                    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .ok : .failed(errno)
                }
                direction.queue.consume(count)
                if count < bytes.count - offset { return .ok }  // the socket is full: wait for POLLOUT
            }
        }
        return .ok
    }

    /// Gives the pair up after an error: both sockets are reset, so each peer sees a failure.
    func abort(_ pair: Pair, _ why: String?) -> Bool {
        if let why { log("connection \(pair.number): \(why)") }
        Socket.reset(pair.client)
        Socket.reset(pair.server)
        return false
    }
}
