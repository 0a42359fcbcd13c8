import RefreshKit
import RefreshWire

// What one complete message does: screened, decoded, then handed to the session rules.
extension SessionHost {
    /// One complete message, JSON text or (`binary`) the page's binary touch. (Inlined in
    /// ``received(_:binary:isLast:on:at:)``, its caller for every message: docs/PERFORMANCE.md, "Inlining on an
    /// input's path".)
    @inline(__always)
    func process(_ text: UnsafeRawBufferPointer, binary: Bool, on connection: Connection, at now: Int64) {
        connection.messagesReceived &+= 1
        counters.messages &+= 1
        connection.heard(at: now)  // application traffic proves the peer is alive
        guard connection.lifecycle.acceptsInput else { return }
        guard screened(connection, at: now) || releasePasses(text, binary: binary, on: connection, at: now) else {
            return
        }
        if connection.awaitingStore {
            holdWhileAwaitingStore(text, binary: binary, on: connection)
        } else {
            handle(text, binary: binary, on: connection, at: now)
        }
    }

    /// Decodes a message that passed the screens and hands it to the session rules.
    func handle(_ text: UnsafeRawBufferPointer, binary: Bool, on connection: Connection, at now: Int64) {
        // Nearly every message: a touch in one of the page's own spellings, read in one pass, no message value
        // made. Its binary one first (the page sends it once the welcome offers it), then its JSON one.
        // A binary message is nothing else: what the one-pass read refuses is decoded again, or refused, there.
        let touch =
            binary
            ? decoder.binaryTouchInput(text) ?? decodeOtherBinary(text, on: connection)
            : decoder.plainTouchInput(text)
        if let plain = touch {
            guard screened(connection, pageTime: plain.touch.pageTime, isTouch: true, seq: plain.seq, at: now) else {
                return
            }
            apply(plain, text: text, binary: binary, on: connection, at: now)
            return
        }
        if binary { return }
        let message: ClientMessage
        do {
            message = try decoder.decode(text)
        } catch {
            refuseUndecodable(connection, error)
            return
        }
        switch consume message {  // (moved into the cases: no copy of the input to free)
        case .hello(let hello):
            connection.pageClock.reset()
            if needsStore(hello), let id = hello.session {
                awaitStore(id, connection: connection, hello: hello, at: now)
            } else {
                admit(connection, hello: hello, at: now)
            }
        case .input(let input, let seq):
            guard screened(connection, input, seq: seq, at: now) else { return }
            apply(ReceivedInput(input, seq: seq, text: text), on: connection, at: now)
        case .ping(let t):
            enqueue(.pong(t: t, serverTime: Timestamp(microseconds: now)), on: connection)
            actions.append(.wantWrite(connection))
        case .trace:
            sendTrace(to: connection)
        }
    }

    /// A binary message the one-pass read did not take: the touch its JSON text reads as, or nil once it is refused
    /// with the error that text gets (``MessageDecoder/decodeBinary(_:)``).
    @inline(never)
    private func decodeOtherBinary(_ bytes: UnsafeRawBufferPointer, on connection: Connection) -> PlainTouchInput? {
        do {
            return try decoder.decodeBinary(bytes)
        } catch {
            refuseUndecodable(connection, error)
            return nil
        }
    }

    /// A message of `connection`'s the decoder refused with `error`: counted, logged and answered.
    private func refuseUndecodable(_ connection: Connection, _ error: WireError) {
        connection.decodeErrors &+= 1
        rejectLogged(connection, error)
    }

    /// Answers `connection` with `error`, with a notice in the log (docs/HARDENING.md, "Bad input on the WebSocket").
    func rejectLogged(_ connection: Connection, _ error: WireError) {
        logger.notice(
            "rejected a message",
            metadata: [
                "connection": "\(connection.id)", "code": "\(error.code)", "ref": "\(error.ref ?? "-")",
                "reason": "\(error.message)",
            ])
        reject(connection, error)
    }

    /// Answers `connection` with `error`.
    func reject(_ connection: Connection, _ error: WireError) {
        enqueue(.error(error), on: connection)
        actions.append(.wantWrite(connection))
    }

    func enqueue(_ message: ServerMessage, on connection: Connection) {
        if connection.outbox.enqueue(message) {
            logger.warning(
                "outbox full; dropping the oldest messages until it drains",
                metadata: ["connection": "\(connection.id)", "dropped": "\(connection.outbox.dropped)"])
        }
    }

    // MARK: - Screening

    /// What becomes of a message the screens looked at.
    enum Screening {
        case proceed
        /// Drop it silently.
        case drop
        /// Answer `error` and drop it.
        case reply(WireError)
        /// Close the connection with this code.
        case close(CloseCode)
    }

    /// Runs the rate limit and carries out a refusal. - Returns: whether the message may be processed.
    func screened(_ connection: Connection, at now: Int64) -> Bool {
        var decision = connection.rateLimiter.admit(at: now)
        if case .accept = decision {
            // (the screens' verdicts are plain values: nothing to free)
            guard let bucket = connection.addressBucket, !bucket.admit(at: now) else { return true }
            decision = connection.rateLimiter.refuse(at: now)  // the address's budget is spent
            return carryOut(rateRefusal(decision, on: connection, byAddress: true), on: connection, seq: nil)
        }
        return carryOut(rateRefusal(decision, on: connection), on: connection, seq: nil)
    }

    /// The longest refused message read for a touch's release in another spelling than the page's: a `touch`
    /// with all seven fields, each number written out at length, is under 300 bytes.
    static let longestRelease = 512

    /// Whether `text`, which the rate limit refused, is a touch's release that it lets through after all
    /// (``RateLimiter/passRelease(at:)``). Read only for a refused message, and out of line: nothing on the
    /// accepted path. A flood costs no decoding while the limiter would not let a release through anyway, and
    /// the general decoder reads only messages as short as a touch is in any spelling (``longestRelease``).
    @inline(never)
    private func releasePasses(
        _ text: UnsafeRawBufferPointer, binary: Bool, on connection: Connection, at now: Int64
    ) -> Bool {
        // (a flood's refusal may have closed it)
        guard connection.lifecycle.acceptsInput, connection.rateLimiter.mayPassRelease(at: now) else { return false }
        let phase: TouchPhase?
        if binary {
            phase = decoder.binaryTouchInput(text)?.touch.phase
        } else if let plain = decoder.plainTouchInput(text) {
            phase = plain.touch.phase
        } else if text.count <= Self.longestRelease, case .touch(let touch)? = (try? decoder.decodeInput(text))?.input {
            phase = touch.phase
        } else {
            phase = nil
        }
        guard phase == .end || phase == .cancel else { return false }
        return connection.rateLimiter.passRelease(at: now)
    }

    /// Runs the page clock of a `touch` or `wheel` (``TimestampGuard``) and carries out a refusal (the `error`
    /// carries `seq`). - Returns: whether the input may be applied.
    func screened(_ connection: Connection, _ input: Input, seq: UInt64?, at now: Int64) -> Bool {
        switch input {
        case .touch(let touch): screened(connection, pageTime: touch.pageTime, isTouch: true, seq: seq, at: now)
        case .wheel(let wheel): screened(connection, pageTime: wheel.pageTime, isTouch: false, seq: seq, at: now)
        default: true
        }
    }

    /// Runs the page clock on the `pageTime` of a `touch` (`isTouch`) or a `wheel`, as
    /// ``screened(_:_:seq:at:)`` does.
    func screened(_ connection: Connection, pageTime: Double, isTouch: Bool, seq: UInt64?, at now: Int64) -> Bool {
        let verdict = connection.pageClock.check(pageTime: pageTime, serverTime: now)
        if case .accept = verdict { return true }
        return carryOut(pageClockRefusal(verdict, isTouch: isTouch, on: connection), on: connection, seq: seq)
    }

    /// Carries out what a screen decided. - Returns: whether the message may be processed.
    private func carryOut(_ screening: Screening, on connection: Connection, seq: UInt64?) -> Bool {
        switch screening {
        case .proceed: return true
        case .drop: return false
        case .reply(let error): reject(connection, error.answering(seq: seq))
        case .close(let code): requestClose(connection, code)
        }
        return false
    }

    /// What a refusal of the rate limit (``RateLimiter``) makes of a message, text or binary.
    private func rateRefusal(
        _ decision: RateLimiter.Decision, on connection: Connection, byAddress: Bool = false
    ) -> Screening {
        switch decision {
        case .accept:
            return .proceed
        case .refuse(let notify):
            guard notify else { return .drop }
            let limit = byAddress ? configuration.messagesPerSecondPerAddress : configuration.messagesPerSecond
            logger.notice(
                "rate limit exceeded; dropping messages",
                metadata: [
                    "connection": "\(connection.id)", "peer": "\(connection.peer)", "code": "rate_limited",
                    "limit": "\(limit)/s\(byAddress ? " per address" : "")",
                    "refused": "\(connection.rateLimiter.refused)",
                ])
            let who = byAddress ? "this address's connections together sent" : "this connection sent"
            return .reply(
                WireError(
                    code: .rateLimited,
                    message:
                        "\(who) more than \(limit) messages/s (bursts up to \(2 * limit)); messages are dropped until the rate falls, and a flood that goes on for \(configuration.floodCloseSeconds) s closes the connection"
                ))
        case .close:
            logger.notice(
                "flooding; closing with 1008",
                metadata: ["connection": "\(connection.id)", "refused": "\(connection.rateLimiter.refused)"])
            return .close(.policyViolation)
        }
    }

    /// What the page clock's `verdict` on a `touch` (or `wheel`) makes of it.
    private func pageClockRefusal(_ verdict: TimestampGuard.Verdict, isTouch: Bool, on connection: Connection)
        -> Screening
    {
        let field = isTouch ? "touch.t" : "wheel.t"
        guard let message = connection.pageClock.message(for: verdict, field: field) else { return .proceed }
        let error = WireError(code: .badField, message: message, ref: String(field.prefix { $0 != "." }))
        logger.notice(
            "rejected a message",
            metadata: [
                "connection": "\(connection.id)", "code": "\(error.code)", "ref": "\(error.ref ?? "-")",
                "reason": "\(message)",
            ])
        return .reply(error)
    }
}
