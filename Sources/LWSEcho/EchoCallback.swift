import CLibWebSockets

/// The echo's lws callback: the connection's state (``EchoConnection``) lives behind the per-session pointer
/// from ESTABLISHED to CLOSED; RECEIVE feeds it, and each WRITEABLE writes the oldest waiting message.
/// `writes` is ``WebSocketEcho/Writes`` (the two lws callbacks differ only in it).
func echoCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int,
    writes: WebSocketEcho.Writes
) -> Int32 {
    guard let wsi, let user else { return 0 }
    switch reason {
    case LWS_CALLBACK_ESTABLISHED:
        let connection = EchoConnection(
            headroom: Int(RK_LWS_PRE), maxMessageBytes: WebSocketEcho.maxMessageBytes,
            maxQueued: WebSocketEcho.maxQueuedMessages)
        user.storeBytes(of: Unmanaged.passRetained(connection).toOpaque(), as: UnsafeMutableRawPointer?.self)
    case LWS_CALLBACK_CLOSED:
        guard let raw = user.load(as: UnsafeMutableRawPointer?.self) else { return 0 }
        user.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        Unmanaged<EchoConnection>.fromOpaque(raw).release()
    case LWS_CALLBACK_RECEIVE:
        guard let connection = connection(user) else { return 0 }
        let chunk = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
        switch connection.receive(
            chunk, binary: lws_frame_is_binary(wsi) != 0, remaining: Int(lws_remaining_packet_payload(wsi)),
            final: lws_is_final_fragment(wsi) != 0)
        {
        case .partial, .ignored:
            break
        case .complete(let queued):
            if writes == .straightBack && queued == 1 && lws_partial_buffered(wsi) == 0 {
                return writeNext(connection, wsi)
            }
            lws_callback_on_writable(wsi)
        case .close(let refusal):
            var text = Array((refusal == .tooLarge ? "message too large" : "not reading: too many echoes waiting").utf8)
            let status = refusal == .tooLarge ? LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE : LWS_CLOSE_STATUS_POLICY_VIOLATION
            lws_close_reason(wsi, status, &text, text.count)
            lws_callback_on_writable(wsi)
        }
    case LWS_CALLBACK_SERVER_WRITEABLE:
        guard let connection = connection(user) else { return 0 }
        if connection.refusal != nil {
            // Closed from the connection's timer, not by returning -1 here: on Debian's lws 4.1.6 with libuv a
            // -1 from WRITEABLE runs a second close that drops the close frame (the peer saw 1006, not 1009);
            // the server's own protocol closes the same way (ServiceLoop.issueClose).
            lws_set_timer_usecs(wsi, 0)
            return 0
        }
        return writeNext(connection, wsi)
    case LWS_CALLBACK_TIMER:
        // Only ever armed above: now lws sends the close frame with the reason given.
        guard let connection = connection(user), connection.refusal != nil else { return 0 }
        return -1
    default:
        break
    }
    return 0
}

private func connection(_ user: UnsafeMutableRawPointer) -> EchoConnection? {
    user.load(as: UnsafeMutableRawPointer?.self).map { Unmanaged<EchoConnection>.fromOpaque($0).takeUnretainedValue() }
}

/// Writes the oldest waiting message in place (its headroom is lws's LWS_PRE); asks for WRITEABLE again when
/// more are waiting.
private func writeNext(_ connection: EchoConnection, _ wsi: OpaquePointer) -> Int32 {
    guard var message = connection.next() else { return 0 }
    let headroom = connection.headroom
    let count = message.framed.count - headroom
    let written = message.framed.withUnsafeMutableBufferPointer { bytes in
        lws_write(wsi, bytes.baseAddress! + headroom, count, message.binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT)
    }
    if written < 0 { return -1 }
    if !connection.outbox.isEmpty { lws_callback_on_writable(wsi) }
    return 0
}
