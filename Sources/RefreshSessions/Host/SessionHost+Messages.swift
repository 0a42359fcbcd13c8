import RefreshKit
import RefreshWire

// What one complete text message does: screened, decoded, then handed to the session rules.
extension SessionHost {
    func process(_ text: UnsafeRawBufferPointer, on connection: Connection, at now: Int64) {
        connection.messagesReceived &+= 1
        counters.messages &+= 1
        connection.heard(at: now)  // application traffic proves the peer is alive
        guard connection.lifecycle.acceptsInput else { return }
        guard screened(connection, at: now) else { return }
        if connection.awaitingStore {
            holdWhileAwaitingStore(text, on: connection)
        } else {
            handle(text, on: connection, at: now)
        }
    }

    /// Decodes a message that passed the screens and hands it to the session rules.
    func handle(_ text: UnsafeRawBufferPointer, on connection: Connection, at now: Int64) {
        let message: ClientMessage
        do {
            message = try decoder.decode(text)
        } catch {
            connection.decodeErrors &+= 1
            logger.notice(
                "rejected a message",
                metadata: [
                    "connection": "\(connection.id)", "code": "\(error.code)", "ref": "\(error.ref ?? "-")",
                    "reason": "\(error.message)",
                ])
            reject(connection, error)
            return
        }
        switch message {
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

    /// Runs the rate limit (and, for `input`, the page clock) and carries out a refusal (an `error` answering
    /// an input numbered `seq` carries it). - Returns: whether the message may be processed.
    func screened(_ connection: Connection, _ input: Input? = nil, seq: UInt64? = nil, at now: Int64) -> Bool {
        switch input.map({ screenPageClock($0, on: connection, at: now) }) ?? screenRate(connection, at: now) {
        case .proceed: return true
        case .drop: return false
        case .reply(let error): reject(connection, error.answering(seq: seq))
        case .close(let code): requestClose(connection, code)
        }
        return false
    }

    /// Every complete message (text or binary), before it is decoded: the rate limit (``RateLimiter``).
    func screenRate(_ connection: Connection, at now: Int64) -> Screening {
        switch connection.rateLimiter.admit(at: now) {
        case .accept:
            return .proceed
        case .refuse(let notify):
            guard notify else { return .drop }
            let limit = configuration.messagesPerSecond
            logger.notice(
                "rate limit exceeded; dropping messages",
                metadata: [
                    "connection": "\(connection.id)", "code": "rate_limited", "limit": "\(limit)/s",
                    "refused": "\(connection.rateLimiter.refused)",
                ])
            return .reply(
                WireError(
                    code: .rateLimited,
                    message:
                        "more than \(limit) messages/s (bursts up to \(configuration.messageBurst)); messages are dropped until the rate falls, and a flood that goes on for \(configuration.floodCloseSeconds) s closes the connection"
                ))
        case .close:
            logger.notice(
                "flooding; closing with 1008",
                metadata: ["connection": "\(connection.id)", "refused": "\(connection.rateLimiter.refused)"])
            return .close(.policyViolation)
        }
    }

    /// A decoded input, before the session sees it: the page clock of `touch` and `wheel` (``TimestampGuard``).
    func screenPageClock(_ input: Input, on connection: Connection, at now: Int64) -> Screening {
        let field: String
        let pageTime: Double
        switch input {
        case .touch(let touch): (field, pageTime) = ("touch.t", touch.pageTime)
        case .wheel(let wheel): (field, pageTime) = ("wheel.t", wheel.pageTime)
        default: return .proceed
        }
        let verdict = connection.pageClock.check(pageTime: pageTime, serverTime: now)
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
