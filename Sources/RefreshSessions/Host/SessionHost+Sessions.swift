import RefreshKit
import RefreshWire

// The session rules: who is admitted to which session, what leaving does, when a session is freed, and
// who is told what (PROTOCOL.md, "Sessions").
extension SessionHost {
    /// `hello`: a new session, a new member of a shared one, or a member coming back (``SessionRegistry``). A
    /// second `hello` on a connection leaves its room first (its token stays valid), once the new one is
    /// admitted; a refused `hello` changes nothing. The same member on a newer connection wins: the older is
    /// closed with 4001, so it does not take the member back.
    func admit(_ connection: Connection, hello: Hello, at nowMicroseconds: Int64) {
        let now = Timestamp(microseconds: nowMicroseconds)
        let room: Room
        let member: Room.Member
        var notice: String?
        var resumed = false
        if let id = hello.session { takeOver(id, at: nowMicroseconds) }
        switch registry.admit(hello, at: now) {
        case .refused(let error):
            logger.notice(
                "hello refused",
                metadata: ["connection": "\(connection.id)", "code": "\(error.code)", "reason": "\(error.message)"])
            reject(connection, error)
            return
        case .created(let created, let first, let createdNotice):
            (room, member, notice) = (created, first, createdNotice)
            logger.info(
                "session started",
                metadata: [
                    "connection": "\(connection.id)", "session": "\(room.id)", "preset": "\(room.session.presetName)",
                    "viewport": "\(hello.viewport)", "share": "\(shareBase)/?s=\(room.id)",
                    "notice": "\(notice ?? "-")",
                ])
        case .joined(let joined, let new):
            (room, member) = (joined, new)
            logger.info(
                "session joined",
                metadata: ["connection": "\(connection.id)", "session": "\(room.id)", "member": "\(member.number)"])
        case .resumed(let found, let returning):
            (room, member, resumed) = (found, returning, true)
            logger.info(
                "session resumed",
                metadata: ["connection": "\(connection.id)", "session": "\(room.id)", "member": "\(member.number)"])
        }
        if let current = connection.room {
            if current === room {
                connection.room = nil
                room.detach(member: connection.member, at: now)
            } else {
                leaveRoom(connection, reason: "hello again", at: nowMicroseconds)
            }
        }
        if let previous = room.member(member.number)?.connection, previous !== connection {
            previous.room = nil
            room.detach(member: member.number, at: now)
            requestClose(previous, .sessionTaken)
        }
        _ = room.attach(connection, member: member.number)
        connection.frameFormat = hello.frames
        connection.room = room
        connection.member = member.number
        room.advance(to: now)  // a room nobody was connected to did not tick
        registry.account(room)
        let welcome = Welcome(
            // A member adopted from a store has only its token's hash: its page sent the token itself.
            session: room.id, token: member.tokenHash == nil ? member.token : hello.token ?? "",
            preset: room.session.presetName, presets: Preset.names,
            configuration: room.session.configuration, serverTime: now, member: member.number, resumed: resumed,
            notice: notice, ack: resumed ? room.acknowledged(member: member.number) : nil,
            share: shareBase, node: configuration.node, takeOver: takeOvers[room.id])
        enqueue(.welcome(welcome), on: connection)
        broadcast(room.takeEvents(), in: room)
        announceMembers(of: room)
        armTick(for: room, at: nowMicroseconds)
    }

    /// Takes `connection` out of its room: its pointers are lifted, the others are told, and a room left
    /// with nobody connected waits out the grace period (or is freed at once when it is 0).
    func leaveRoom(_ connection: Connection, reason: String, at nowMicroseconds: Int64) {
        guard let room = connection.room else { return }
        connection.room = nil
        // While shutting down nothing is scheduled or sent any more.
        guard !shuttingDown, room.member(connection.member)?.connection === connection else { return }
        let now = Timestamp(microseconds: nowMicroseconds)
        room.detach(member: connection.member, at: now)
        registry.account(room)
        logger.info(
            "session left",
            metadata: [
                "connection": "\(connection.id)", "session": "\(room.id)", "member": "\(connection.member)",
                "reason": "\(reason)",
            ])
        if room.connectedCount > 0 {
            broadcast(room.takeEvents(), in: room)
            announceMembers(of: room)
            armTick(for: room, at: nowMicroseconds)
            return
        }
        _ = room.takeEvents()  // nobody to tell; the frames will show where things are
        let grace = configuration.graceMicroseconds
        if grace <= 0 {
            expire(room)
            return
        }
        room.expiresAt = nowMicroseconds + grace
        logger.debug(
            "session idle", metadata: ["session": "\(room.id)", "expiresIn": "\(configuration.sessionGraceSeconds) s"])
        armTimer(by: nowMicroseconds + grace)
    }

    func expire(_ room: Room) {
        registry.remove(room)
        forgetInStore(room.id)
        logger.info(
            "session freed",
            metadata: [
                "session": "\(room.id)", "idle": "\(configuration.sessionGraceSeconds) s",
                "traceOps": "\(room.traced.recorder.operationCount)", "frames": "\(room.traced.recorder.frames.count)",
            ])
    }

    /// Applies `received` from `connection`'s member; a refusal's `error` carries its `seq`.
    func apply(_ received: ReceivedInput, on connection: Connection, at nowMicroseconds: Int64) {
        let (input, seq) = (received.input, received.seq)
        guard let room = connection.room else {
            reject(
                connection,
                WireError(
                    code: .notReady, message: "send hello before any input", ref: Self.type(of: input), seq: seq))
            return
        }
        do {
            try room.apply(received, member: connection.member, at: Timestamp(microseconds: nowMicroseconds))
        } catch {
            reject(connection, WireError(error, ref: Self.type(of: input), seq: seq))
            registry.account(room)
            return
        }
        registry.account(room)
        metrics.inputs.increment()
        if connection.unansweredInputAt == nil { connection.unansweredInputAt = nowMicroseconds }
        if case .configure = input { announceConfiguration(of: room) }
        hold(room, events: room.takeEvents())
        armTick(for: room, at: nowMicroseconds)
    }

    /// After an accepted `configure`: every member gets the whole new configuration (`config`).
    func announceConfiguration(of room: Room) {
        let message = ServerMessage.config(preset: room.session.presetName, configuration: room.session.configuration)
        for connection in room.connections where connection.lifecycle.takesSessionOutput {
            enqueue(message, on: connection)
        }
    }

    /// `trace`: the room's recording so far, as one `trace` message.
    func sendTrace(to connection: Connection) {
        guard let room = connection.room else {
            reject(
                connection, WireError(code: .notReady, message: "send hello before asking for a trace", ref: "trace"))
            return
        }
        let recorder = room.traced.recorder  // a snapshot: the recording goes on
        logger.debug(
            "trace sent",
            metadata: [
                "connection": "\(connection.id)", "session": "\(room.id)", "bytes": "\(recorder.jsonByteEstimate)",
                "ops": "\(recorder.operationCount)", "truncated": "\(recorder.truncated)",
            ])
        enqueue(.trace(recorder), on: connection)
        actions.append(.wantWrite(connection))
    }

    // MARK: - Telling the members

    /// Queues `events` for every connected member, and the room's next frame, written now.
    func broadcast(_ events: [Event], in room: Room) {
        queue(events, in: room)
        writeFrames(of: room)
    }

    /// Queues `events` and marks the room's frame pending for every connected member.
    func queue(_ events: [Event], in room: Room) {
        for connection in room.connections where connection.lifecycle.takesSessionOutput {
            for event in events { enqueue(.event(event), on: connection) }
            connection.outbox.markFramePending()
        }
    }

    /// Queues `events` and holds the room's frame until the transport moves on (``flushHeldFrame()``). An
    /// input of another room comes from another socket's read, which flushed the held frame before it.
    func hold(_ room: Room, events: [Event]) {
        assert(heldRoom == nil || heldRoom === room, "a held frame outlived its read")
        queue(events, in: room)
        heldRoom = room
    }

    /// The room's pending frame goes to its members now where it is the only thing to send (the frame leaves
    /// in the same turn of the loop as the input that made it), else when each can be written.
    func writeFrames(of room: Room) {
        for connection in room.connections where connection.lifecycle.takesSessionOutput {
            let alone = connection.outbox.framePending && connection.outbox.isEmpty && !connection.pingDue
            actions.append(alone ? .writeSoon(connection) : .wantWrite(connection))
        }
    }

    /// Tells every connected member how many devices share the session.
    func announceMembers(of room: Room) {
        let count = room.connectedCount
        for connection in room.connections where connection.lifecycle.takesSessionOutput {
            enqueue(.room(members: count, member: connection.member), on: connection)
            actions.append(.wantWrite(connection))
        }
    }

    /// The wire `type` of an input, for `error.ref`.
    static func type(of input: Input) -> String {
        switch input {
        case .touch: "touch"
        case .wheel: "wheel"
        case .resize: "resize"
        case .command: "command"
        case .configure: "configure"
        }
    }
}
