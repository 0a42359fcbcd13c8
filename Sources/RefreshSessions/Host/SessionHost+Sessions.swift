import RefreshKit
import RefreshWire

// The session rules: who is admitted to which session, what leaving does, when a session is freed, and
// who is told what (PROTOCOL.md, "Sessions").
extension SessionHost {
    /// `hello`: a new session, a new member of a shared one, or a member coming back (``SessionRegistry``). A
    /// second `hello` on a connection leaves its session first (its token stays valid), once the new one is
    /// admitted; a refused `hello` changes nothing. The same member on a newer connection wins: the older is
    /// closed with 4001, so it does not take the member back. (A `hello` naming a session this process does not
    /// hold comes here once the store has answered: SessionHost+TakeOver.swift.)
    func admit(_ connection: Connection, hello: Hello, at nowMicroseconds: Int64) {
        let now = Timestamp(microseconds: nowMicroseconds)
        let session: Session
        let member: Session.Member
        var (notice, resumed, created): (String?, Bool, Bool) = (nil, false, false)
        switch registry.admit(hello, credentials: credentials[connection.id], peer: connection.peer, at: now) {
        case .refused(let error):
            logger.notice(
                "hello refused",
                metadata: ["connection": "\(connection.id)", "code": "\(error.code)", "reason": "\(error.message)"])
            reject(connection, error)
            return
        case .created(let createdSession, let first, let createdNotice):
            (session, member, notice, created) = (createdSession, first, createdNotice, true)
            logger.info(
                "session started",
                metadata: [
                    "connection": "\(connection.id)", "session": "\(SessionLogID(session.id))",
                    "preset": "\(session.model.presetName)", "viewport": "\(hello.viewport)", "share": "\(shareBase)",
                    "notice": "\(notice ?? "-")",
                ])
        case .joined(let joined, let new):
            (session, member) = (joined, new)
            logger.info(
                "session joined",
                metadata: [
                    "connection": "\(connection.id)", "session": "\(SessionLogID(session.id))",
                    "member": "\(member.number)", "role": "\(member.role)",
                ])
        case .resumed(let found, let returning):
            (session, member, resumed) = (found, returning, true)
            logger.info(
                "session resumed",
                metadata: [
                    "connection": "\(connection.id)", "session": "\(SessionLogID(session.id))",
                    "member": "\(member.number)",
                ])
        }
        if let current = connection.session {
            if current === session {
                connection.session = nil
                session.detach(member: connection.member, at: now)
            } else {
                leaveSession(connection, reason: "hello again", at: nowMicroseconds)
            }
        }
        if let previous = session.member(member.number)?.connection, previous !== connection {
            previous.session = nil
            session.detach(member: member.number, at: now)
            requestClose(previous, .sessionTaken)
        }
        _ = session.attach(connection, member: member.number)
        connection.frameFormat = hello.frames
        connection.session = session
        connection.member = member.number
        connection.role = member.role
        session.admitted(member: member.number, at: now, restoring: created ? hello.position : nil)
        registry.account(session)
        let welcome = Welcome(
            // A member adopted from a store has only its token's hash: its page sent the token itself.
            session: session.id, token: member.tokenHash == nil ? member.token : hello.token ?? "",
            preset: session.model.presetName, presets: configuration.presets.names,
            catalogue: configuration.presets.presets,
            configuration: session.model.configuration, serverTime: now, member: member.number, resumed: resumed,
            notice: notice, ack: resumed ? session.acknowledged(member: member.number) ?? 0 : nil,
            share: shareBase, authority: configuration.authorityPage, node: configuration.node,
            takeOver: takeOvers[session.id], feed: welcomeFeed(of: session),
            role: member.role, links: member.role == .owner ? session.keys.links(for: session.id) : nil)
        enqueue(.welcome(welcome), on: connection)
        welcomeFeed(connection, to: session)
        broadcast(session.takeEvents(), in: session)
        announceMembers(of: session)
        armTick(for: session, at: nowMicroseconds)
        // A new session goes to the store at once (not a write period later), with this node's lease: a device
        // joining it with the id in its `hello` at another process is sent here (NodeLease).
        if created { writeToStore(at: nowMicroseconds, force: true) }
    }

    /// Takes `connection` out of its session: its pointers are lifted, the others are told, and a session left
    /// with nobody connected waits out the grace period (or is freed at once when it is 0).
    func leaveSession(_ connection: Connection, reason: String, at nowMicroseconds: Int64) {
        guard let session = connection.session else { return }
        connection.session = nil
        // While shutting down nothing is scheduled or sent any more.
        guard !shuttingDown, session.member(connection.member)?.connection === connection else { return }
        let now = Timestamp(microseconds: nowMicroseconds)
        session.detach(member: connection.member, at: now)
        registry.account(session)
        logger.info(
            "session left",
            metadata: [
                "connection": "\(connection.id)", "session": "\(SessionLogID(session.id))",
                "member": "\(connection.member)", "reason": "\(reason)",
            ])
        if session.connectedCount > 0 {
            broadcast(session.takeEvents(), in: session)
            announceMembers(of: session)
            armTick(for: session, at: nowMicroseconds)
            return
        }
        _ = session.takeEvents()  // nobody to tell; the frames will show where things are
        let grace = configuration.graceMicroseconds
        if grace <= 0 {
            expire(session)
            return
        }
        session.expiresAt = nowMicroseconds + grace
        logger.debug(
            "session idle",
            metadata: ["session": "\(SessionLogID(session.id))", "expiresIn": "\(configuration.sessionGraceSeconds) s"])
        armTimer(by: nowMicroseconds + grace)
    }

    func expire(_ session: Session) {
        registry.remove(session)
        forgetInStore(session.id)
        logger.info(
            "session freed",
            metadata: [
                "session": "\(SessionLogID(session.id))", "idle": "\(configuration.sessionGraceSeconds) s",
                "traceOps": "\(session.traced.recorder.operationCount)",
                "frames": "\(session.traced.recorder.frames.count)",
            ])
    }

    /// Applies `received` from `connection`'s member; a refusal's `error` carries its `seq`. (Inlined in
    /// ``handle(_:binary:on:at:)``, its only caller: docs/PERFORMANCE.md, "Inlining on an input's path".)
    @inline(__always)
    func apply(_ received: ReceivedInput, on connection: Connection, at nowMicroseconds: Int64) {
        let (input, seq) = (received.input, received.seq)
        guard let session = target(of: connection, ref: input.wireType, seq: seq, may: connection.role.may(input))
        else { return }
        do {
            try session.apply(received, member: connection.member, at: Timestamp(microseconds: nowMicroseconds))
        } catch {
            refuse(connection, error, ref: input.wireType, seq: seq, in: session)
            return
        }
        noteApplied(in: session, on: connection, at: nowMicroseconds)
        if case .configure = input { announceConfiguration(of: session) }
        if case .measure(let batch) = input { announceHeights(batch, of: session) }
        armTick(for: session, at: nowMicroseconds)
        // Last: the held reference takes this one over (no retain and release of the session).
        hold(session, events: session.takeEvents())
    }

    /// Applies a touch the page spelled as it always does, received as `text`, its binary spelling when `binary`
    /// (``MessageDecoder/binaryTouchInput(_:)``, ``MessageDecoder/plainTouchInput(_:)``), as ``apply(_:on:at:)``
    /// applies its ``ReceivedInput``, without making one: one made here was freed through its input type's value
    /// witnesses (docs/PERFORMANCE.md, "No copies per input"). (Inlined in ``handle(_:binary:on:at:)``, its only
    /// caller, like ``apply(_:on:at:)``.)
    @inline(__always)
    func apply(
        _ plain: PlainTouchInput, text: UnsafeRawBufferPointer, binary: Bool, on connection: Connection,
        at nowMicroseconds: Int64
    ) {
        guard let session = target(of: connection, ref: "touch", seq: plain.seq, may: connection.role.mayTouch)
        else { return }
        do {
            try session.apply(
                plain.touch, seq: plain.seq, text: text, binary: binary, member: connection.member,
                at: Timestamp(microseconds: nowMicroseconds))
        } catch {
            refuse(connection, error, ref: "touch", seq: plain.seq, in: session)
            return
        }
        noteApplied(in: session, on: connection, at: nowMicroseconds)
        armTick(for: session, at: nowMicroseconds)
        // Last: the held reference takes this one over (no retain and release of the session).
        hold(session, events: session.takeEvents())
    }

    /// Counts an input `session` applied from `connection` at `nowMicroseconds`: its trace's bytes, the host's
    /// inputs, and the time the connection waits for a frame since.
    @inline(__always)
    private func noteApplied(in session: Session, on connection: Connection, at nowMicroseconds: Int64) {
        registry.account(session)
        counters.inputs &+= 1
        if connection.unansweredInputAt == nil { connection.unansweredInputAt = nowMicroseconds }
    }

    /// The session `connection`'s input (`ref`, its `type`) numbered `seq` goes to; nil when it was answered
    /// instead: before the connection's `hello` (`not_ready`), not the member's to send (`may`, what its
    /// ``MemberRole`` says: `forbidden`, the one place the host checks a member's rights), or applied already
    /// (`already_applied`: a page's resend that crossed its first sending, docs/SCALING.md "Resending").
    @inline(__always)
    private func target(of connection: Connection, ref: String, seq: UInt64?, may: Bool) -> Session? {
        guard let session = connection.session else {
            reject(connection, WireError(code: .notReady, message: "send hello before any input", ref: ref, seq: seq))
            return nil
        }
        guard may else {
            rejectLogged(connection, connection.role.refusal(ref, seq: seq))
            return nil
        }
        guard let seq, let applied = session.appliedAlready(seq, member: connection.member) else { return session }
        rejectLogged(connection, .alreadyApplied(seq: seq, applied: applied, ref: ref))
        return nil
    }

    /// The engine refused `connection`'s input (`ref`, its `type`) with `error`: answered and logged, as any refusal.
    private func refuse(
        _ connection: Connection, _ error: ListModelError, ref: String, seq: UInt64?, in session: Session
    ) {
        rejectLogged(connection, WireError(error, ref: ref, seq: seq))
        registry.account(session)
    }

    /// After an accepted `configure`: every member gets the whole new configuration (`config`).
    func announceConfiguration(of session: Session) {
        let message = ServerMessage.config(preset: session.model.presetName, configuration: session.model.configuration)
        for connection in session.connections where connection.lifecycle.takesSessionOutput {
            enqueue(message, on: connection)
        }
    }

    /// `trace`: the session's recording so far, as one `trace` message.
    func sendTrace(to connection: Connection) {
        guard let session = connection.session else {
            reject(
                connection, WireError(code: .notReady, message: "send hello before asking for a trace", ref: "trace"))
            return
        }
        // A snapshot of just its records (the recording goes on), as the member may see it: the owner's whole.
        let recorder = session.traced.recorder.exported(for: connection.role == .owner ? nil : connection.member)
        logger.debug(
            "trace sent",
            metadata: [
                "connection": "\(connection.id)", "session": "\(SessionLogID(session.id))",
                "bytes": "\(recorder.jsonByteEstimate)",
                "ops": "\(recorder.operationCount)", "truncated": "\(recorder.truncated)",
            ])
        enqueue(.trace(recorder), on: connection)
        actions.append(.wantWrite(connection))
    }

    // MARK: - Telling the members

    /// Queues `events` for every connected member, and the session's next frame, written now.
    func broadcast(_ events: [Event], in session: Session) {
        queue(events, in: session)
        writeFrames(of: session)
    }

    /// Queues `events` and marks the session's frame pending for every connected member.
    func queue(_ events: [Event], in session: Session) {
        if events.isEmpty {
            // Most inputs: a loop that only marks, with no call in it, retains neither the connections nor
            // their array, nor sets up for the events (docs/PERFORMANCE.md, "No copies per input").
            for connection in session.connections where connection.lifecycle.takesSessionOutput {
                connection.outbox.markFramePending()
            }
            return
        }
        for connection in session.connections where connection.lifecycle.takesSessionOutput {
            for event in events { enqueue(.event(event), on: connection) }
            connection.outbox.markFramePending()
        }
    }

    /// Queues `events` and holds the session's frame until the transport moves on (``flushHeldFrame()``). An
    /// input of another session comes from another socket's read, which flushed the held frame before it.
    func hold(_ session: Session, events: [Event]) {
        assert(heldSession == nil || heldSession === session, "a held frame outlived its read")
        queue(events, in: session)
        heldSession = session
    }

    /// The session's pending frame goes to its members now where it is the only thing to send (the frame leaves
    /// in the same turn of the loop as the input that made it), else when each can be written.
    func writeFrames(of session: Session) {
        followFeed(of: session)
        // By index: a loop over the array itself, with a call in it (the append), retained and released the
        // array on every input (docs/PERFORMANCE.md, "No copies per input").
        for index in session.connections.indices where session.connections[index].lifecycle.takesSessionOutput {
            let connection = session.connections[index]
            let alone = connection.outbox.framePending && connection.outbox.isEmpty && !connection.pingDue
            // (Consumed: the action takes this reference, not a retain of its own.)
            actions.append(alone ? .writeSoon(consume connection) : .wantWrite(consume connection))
        }
    }

    /// Tells every connected member how many devices share the session.
    func announceMembers(of session: Session) {
        let count = session.connectedCount
        for connection in session.connections where connection.lifecycle.takesSessionOutput {
            enqueue(.room(members: count, member: connection.member), on: connection)
            actions.append(.wantWrite(connection))
        }
    }
}
