import CLibWebSockets
import RefreshSessions

/// lws's events on a `refreshkit.v1` connection, told to the host: the protocol callback (the C entry point and
/// ``ServiceLoop/handle(wsi:reason:user:input:length:)``) and what it keeps in lws's per-connection memory.
extension ServiceLoop {
    /// The `refreshkit.v1` protocol callback, on the service thread.
    func handle(
        wsi: OpaquePointer,
        reason: lws_callback_reasons,
        user: UnsafeMutableRawPointer?,
        input: UnsafeMutableRawPointer?,
        length: Int
    ) -> Int32 {
        // Every input's event, first: its piece is held for the turn's end (TurnInputs), and its connection's and
        // session's memory fetched meanwhile (SessionPrefetch); a piece too long to hold goes to the host at once,
        // after those held before it. The connection is used unretained: the connection object outlives its
        // events, and a retain and release on every input is atomic work for nothing. Beside it lies what its last input noted of where its next one reads
        // (InputMemory): the host's delivery notes it again.
        if reason == LWS_CALLBACK_RECEIVE {
            guard let user, let connection = Self.connection(in: user) else { return 0 }
            let memory = user + Self.inputMemoryOffset
            let piece = UnsafeRawBufferPointer(start: input, count: length)
            let binary = lws_frame_is_binary(wsi) != 0
            let isLast = lws_remaining_packet_payload(wsi) == 0 && lws_is_final_fragment(wsi) != 0
            if !turnInputs.canHold(length) {
                handOverTurnInputs()
                if !turnInputs.canHold(length) {
                    deliver(piece, binary: binary, isLast: isLast, on: connection, memory: memory, at: clock.now())
                    return 0
                }
            }
            turnInputs.hold(piece, binary: binary, isLast: isLast, on: connection, memory: memory, at: clock.now())
            sessionPrefetch.held(connection, memory: memory)
            return 0
        }
        return handleOther(wsi: wsi, reason: reason, user: user, input: input, length: length)
    }

    /// Every event but `RECEIVE`. Out of line, so that every input's `RECEIVE` does not set up this function's
    /// large frame (a stack canary, saved registers, values spilled across its calls) for events it does not
    /// handle (docs/PERFORMANCE.md, "The whole server, instructions per input").
    @inline(never)
    private func handleOther(
        wsi: OpaquePointer,
        reason: lws_callback_reasons,
        user: UnsafeMutableRawPointer?,
        input: UnsafeMutableRawPointer?,
        length: Int
    ) -> Int32 {
        // lws moved on from the read that brought the held input: its frame goes first. (`CLOSED` flushes it
        // itself, once the closing connection is marked: its socket is gone.)
        if reason != LWS_CALLBACK_CLOSED {
            handOverTurnInputs()
            host.flushHeldFrame()
        }
        defer { carryOutActions() }
        switch reason {
        case LWS_CALLBACK_ESTABLISHED:
            guard let user else { return 0 }
            let id = nextConnectionID
            nextConnectionID += 1
            let client = gatekeeper.client(of: wsi)
            gatekeeper.opened(client)
            // What the embedder's `hello` hook may judge the client by: its cookies (a browser sends no other
            // header of its own with a WebSocket), read only when there is a hook (docs/EMBEDDING.md, "Who may join")
            let credentials = host.configuration.authorize == nil ? nil : Gatekeeper.header(wsi, WSI_TOKEN_HTTP_COOKIE)
            let connection = host.opened(id: id, peer: client.key, credentials: credentials, at: clock.now())
            connection.transport = wsi  // before the host's actions are carried out (the defer above)
            connection.balancerBackend = Gatekeeper.customHeader(wsi, "x-refreshkit-backend:")
            user.storeBytes(of: Unmanaged.passRetained(connection).toOpaque(), as: UnsafeMutableRawPointer?.self)
            user.storeBytes(of: owner, toByteOffset: Self.loopOffset, as: UnsafeMutableRawPointer.self)
            user.storeBytes(of: InputMemory(), toByteOffset: Self.inputMemoryOffset, as: InputMemory.self)
            return 0
        case LWS_CALLBACK_SERVER_WRITEABLE:
            return Self.connection(in: user)?._withUnsafeGuaranteedRef { write($0, wsi: wsi) } ?? 0
        case LWS_CALLBACK_RECEIVE_PONG:
            if let connection = Self.connection(in: user)?.takeUnretainedValue() {
                host.pong(on: connection, at: clock.now())
            }
            return 0
        case LWS_CALLBACK_TIMER:
            // Only ever armed by a close: now lws sends the close frame with the reason given.
            guard let connection = Self.connection(in: user)?.takeUnretainedValue(),
                connection.lifecycle == .closeIssued
            else { return 0 }
            return -1
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if let connection = Self.connection(in: user)?.takeUnretainedValue() {
                logger.debug("peer closed", metadata: ["connection": "\(connection.id)"])
            }
            return 0
        case LWS_CALLBACK_CLOSED:
            guard let user, let raw = user.load(as: UnsafeMutableRawPointer?.self) else { return 0 }
            user.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
            let connection = Unmanaged<Connection>.fromOpaque(raw).takeRetainedValue()
            connection.transport = nil  // the socket is gone: actions still naming it do nothing
            assert(
                !turnInputs.isHandingOver,
                "a connection closed while the turn's pieces, which name it, were handed over")
            handOverTurnInputs()  // what it sent before it closed is applied (its frames go nowhere)
            gatekeeper.closed(key: connection.peer)
            host.closed(connection, at: clock.now())
            return 0
        default:
            return 0
        }
    }

    /// Hands the turn's held pieces (``TurnInputs``) to the host, in the order they were read, each with the time
    /// it was read.
    func handOverTurnInputs() {
        guard !turnInputs.isEmpty else { return }
        turnInputs.handOver { bytes, piece in
            deliver(
                bytes, binary: piece.binary, isLast: piece.isLast, on: piece.connection, memory: piece.memory,
                at: piece.time)
        }
    }

    /// Tells the host a piece of a message arrived on `connection` at `time`, and carries out what it asks.
    private func deliver(
        _ piece: UnsafeRawBufferPointer, binary: Bool, isLast: Bool, on connection: Unmanaged<Connection>,
        memory: UnsafeMutableRawPointer, at time: Int64
    ) {
        connection._withUnsafeGuaranteedRef {
            host.received(piece, binary: binary, isLast: isLast, on: $0, at: time)
            // What the input read is in the cache now: where it lies is noted for the connection's next input.
            memory.storeBytes(of: $0.inputMemory, as: InputMemory.self)
        }
        carryOutActions()
    }

    /// lws's per-connection memory (`per_session_data_size`): the connection (from `ESTABLISHED` until `CLOSED`),
    /// then this loop (from `ESTABLISHED` on), at ``loopOffset``, then where the connection's next input will read
    /// and write (``InputMemory``, noted after each input), at ``inputMemoryOffset``.
    static let perConnectionBytes = inputMemoryOffset + MemoryLayout<InputMemory>.stride
    static let loopOffset = MemoryLayout<UnsafeMutableRawPointer?>.stride
    static let inputMemoryOffset = 2 * MemoryLayout<UnsafeMutableRawPointer?>.stride

    /// The connection behind lws's per-connection pointer (set at `ESTABLISHED`, which holds its reference
    /// until `CLOSED`), unretained.
    private static func connection(in user: UnsafeMutableRawPointer?) -> Unmanaged<Connection>? {
        guard let raw = user?.load(as: UnsafeMutableRawPointer?.self) else { return nil }
        return Unmanaged<Connection>.fromOpaque(raw)
    }
}

// MARK: - The C entry point (it runs on the service thread, inside lws_service)

func refreshKitProtocolCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    // An open connection's events (all but a handful) find the loop beside the connection, and go on with a jump:
    // no calls into lws for the context and its user, and no registers saved around them here
    // (docs/PERFORMANCE.md, "The whole server, instructions per input").
    if let wsi, let owner = user?.load(fromByteOffset: ServiceLoop.loopOffset, as: UnsafeMutableRawPointer?.self) {
        return handleEvent(owner, wsi, reason, user, input, length)
    }
    return handleEventAskingLoop(wsi, reason, user, input, length)
}

/// The other events: the loop is the context's user.
@inline(never)
private func handleEventAskingLoop(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else { return 0 }
    return handleEvent(owner, wsi, reason, user, input, length)
}

/// ``ServiceLoop/handle(wsi:reason:user:input:length:)`` on the loop at `owner`. Out of line, so that the C entry
/// point can end in a jump to it.
@inline(never)
private func handleEvent(
    _ owner: UnsafeMutableRawPointer,
    _ wsi: OpaquePointer,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    // The loop outlives its context: no retain and release around every callback.
    Unmanaged<ServiceLoop>.fromOpaque(owner)._withUnsafeGuaranteedRef {
        $0.handle(wsi: wsi, reason: reason, user: user, input: input, length: length)
    }
}
