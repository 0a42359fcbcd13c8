import RefreshKit
import RefreshWire

// What one write sends: a due ping first, then queued control messages and events in order, then the
// session's frame, and last the close.
extension SessionHost {
    /// `connection` can be written: exactly one message is handed to `write` (the kind, and a buffer that
    /// starts with the host's headroom; it returns whether the transport took it), or the close to send is
    /// returned.
    public func writeable(
        _ connection: Connection, at now: Int64, write: (HostWrite, UnsafeMutableRawBufferPointer) -> Bool
    ) -> WriteOutcome {
        guard connection.lifecycle.mayWrite else { return .written }
        if case .closeRequested = connection.lifecycle, let code = connection.lifecycle.issueClose() {
            return .close(code)
        }
        if sendBuffer.count > headroom {
            sendBuffer.removeSubrange(headroom...)
        }
        if connection.pingDue {
            // A control frame of its own, before anything queued (a transport interleaves control frames
            // correctly only between messages, which is where every write here is). A payload, because
            // lws 4.1.6 does not report an empty pong to the protocol.
            connection.pingDue = false
            sendBuffer.append(contentsOf: Self.pingPayload)
            return finish(connection, sendBuffer.withUnsafeMutableBytes { write(.ping, $0) }, bytes: 0)
        }
        if let message = connection.outbox.next() {
            encode(message, for: connection)
            connection.messagesSent &+= 1
        } else if connection.outbox.framePending, let session = connection.unretainedSession {
            // Borrowed, not retained: nothing here lets the session go, so a retain and a release per write would
            // buy nothing (docs/PERFORMANCE.md, "No copies per input").
            return session._withUnsafeGuaranteedRef { writeFrame(of: $0, to: connection, at: now, write: write) }
        } else {
            _ = connection.outbox.takeFrame()  // (a frame pending without a session is dropped)
            // Draining, and everything is written: the close; else nothing to say.
            return connection.lifecycle.issueClose().map { .close($0) } ?? .written
        }
        let written = sendBuffer.withUnsafeMutableBytes { write(.text, $0) }
        let outcome = finish(connection, written, bytes: sendBuffer.count - headroom)
        if sendBuffer.capacity > Self.largestKeptSendBuffer {
            // A trace or a large welcome passed through: give the memory back rather than keep it for small
            // messages.
            sendBuffer = Self.emptySendBuffer(headroom: headroom)
        }
        return outcome
    }

    /// `connection`'s write of its `session`'s frame (pending): the frame, or nothing while the session is not
    /// served here (a draining connection then drops it and closes).
    private func writeFrame(
        of session: Session, to connection: Connection, at now: Int64,
        write: (HostWrite, UnsafeMutableRawBufferPointer) -> Bool
    ) -> WriteOutcome {
        guard mayServe(session, at: now) else {
            // Not under a current lease (SessionHost+Serving.swift): the frame waits; a closing connection
            // drops it.
            guard connection.lifecycle == .draining else { return .written }
            _ = connection.outbox.takeFrame()
            return connection.lifecycle.issueClose().map { .close($0) } ?? .written
        }
        // The session's frame, encoded once for every member (a delta once per base), written from the
        // session's own buffers.
        _ = connection.outbox.takeFrame()
        connection.framesSent &+= 1
        counters.frames &+= 1
        if let heard = connection.unansweredInputAt {
            // The first frame made after this connection's oldest unanswered input includes it.
            counters.inputToFrame.record(microseconds: now - heard)
            connection.unansweredInputAt = nil
        }
        var count = 0
        let headroom = headroom  // (captured as a number, not through the host: no retain of the host)
        // (It makes the frame if the session changed since the last: its trace bytes are counted after.)
        let written = session.withFrameMessage(for: connection) { buffer in
            count = buffer.count - headroom
            return write(.text, buffer)
        }
        registry.account(session)
        return finish(connection, written, bytes: count)
    }

    /// After a write: a failed one drops the connection; else more to send (or a close to issue) asks for
    /// the next write.
    private func finish(_ connection: Connection, _ written: Bool, bytes: Int) -> WriteOutcome {
        guard written else {
            logger.info("write failed; closing", metadata: ["connection": "\(connection.id)"])
            connection.lifecycle.kill()
            return .failed
        }
        counters.sentBytes &+= UInt64(bytes)
        if connection.hasPendingOutput || connection.lifecycle == .draining {
            actions.append(.wantWrite(connection))
        }
        return .written
    }

    private func encode(_ message: ServerMessage, for connection: Connection) {
        if case .error(let error) = message { metrics.error(error.code) }
        encoder.encode(message, into: &sendBuffer)
    }

    static let pingPayload = Array("alive?".utf8)

    /// The host's send buffer keeps at most this much between writes (a welcome with the preset catalogue
    /// fits; a trace does not).
    static let largestKeptSendBuffer = 64 << 10

    /// `headroom` zeros, and room for 4 KiB of message.
    static func emptySendBuffer(headroom: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: headroom)
        buffer.reserveCapacity(headroom + 4096)
        return buffer
    }
}
