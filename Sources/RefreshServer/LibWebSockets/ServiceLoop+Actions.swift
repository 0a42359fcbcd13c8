import CLibWebSockets
import RefreshHosting
import RefreshSessions

// The host driver's transport (``HostTransport``): its actions on lws's sockets and timers, and the timers'
// callbacks back into the driver.
extension ServiceLoop: HostTransport {
    /// Carries out what the host asked for, in order (the driver's, inlined here: every input ends with it).
    @inline(__always)
    func carryOutActions() { driver.carryOutActions(on: self) }

    func wake(_ connection: Connection, soon: Bool) {
        guard let wsi = connection.transport else { return }
        // Written at once when lws holds nothing of an earlier message (the kernel took it all), so lws never
        // holds more than one partial message and a slow reader gets the latest frame.
        if soon, lws_partial_buffered(wsi) == 0 {
            if write(connection, wsi: wsi) < 0 { kill(connection, wsi: wsi) }
        } else {
            lws_callback_on_writable(wsi)
        }
    }

    func close(_ connection: Connection) {
        if let wsi = connection.transport { kill(connection, wsi: wsi) }
    }

    func arm(_ timer: HostTimer, inMicroseconds microseconds: Int64) {
        guard let context else { return }
        switch timer {
        case .tick: lws_sul_schedule(context, 0, &tick.pointee.sul, tickCallback, microseconds)
        case .sweep: lws_sul_schedule(context, 0, &keepaliveSweep.pointee.sul, keepaliveCallback, microseconds)
        }
    }

    /// One write on `wsi`: whatever the host has to send, or the close it decided.
    func write(_ connection: Connection, wsi: OpaquePointer) -> Int32 {
        let pre = Int(RK_LWS_PRE)
        let outcome = host.writeable(connection, at: clock.now()) { kind, buffer in
            let start = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + pre
            let protocolKind = kind == .ping ? LWS_WRITE_PING : LWS_WRITE_TEXT
            return lws_write(wsi, start, buffer.count - pre, protocolKind) >= 0
        }
        switch outcome {
        case .written:
            return 0
        case .failed:
            return -1
        case .close(let code):
            var bytes = Array((code.reason ?? "").utf8)
            bytes.withUnsafeMutableBufferPointer { buffer in
                lws_close_reason(
                    wsi, lws_close_status(rawValue: UInt32(code.rawValue)), buffer.baseAddress, buffer.count)
            }
            // Not by returning -1 here: lws handles that as "close and handled", and Debian's lws 4.1.6 is
            // built with `_DEBUG`, where on libuv that path at once closes a second time ("uv repeat test"),
            // which finds the close frame still waiting to be sent, drops it and kills the socket (the peer
            // sees 1006). A timeout would not do either (lws marks a timed-out socket unusable). The
            // connection's hrtimer does: its callback returning -1 closes through the polite path on every
            // event loop.
            lws_set_timer_usecs(wsi, 0)
            return 0
        }
    }

    /// Closes the socket without a close handshake, at lws's next timeout check: safe from any callback,
    /// including another connection's.
    private func kill(_ connection: Connection, wsi: OpaquePointer) {
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    fileprivate func onTimer(_ timer: HostTimer) {
        handOverTurnInputs()
        driver.fire(timer, on: self)
    }
}

// MARK: - C entry points of the loop's timers (they run on the service thread, inside lws_service)

private func tickCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let owner = rk_tick_owner(sul) else { return }
    Unmanaged<ServiceLoop>.fromOpaque(owner).takeUnretainedValue().onTimer(.tick)
}

private func keepaliveCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let raw = rk_tick_owner(sul) else { return }
    Unmanaged<ServiceLoop>.fromOpaque(raw).takeUnretainedValue().onTimer(.sweep)
}
