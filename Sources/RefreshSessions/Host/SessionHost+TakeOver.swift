import Logging
import RefreshKit
import RefreshWire

// Taking a session over from the shared store (docs/SCALING.md, "Who holds a session"), when a page's `hello`
// names one this process does not hold. The read is an action out (``HostAction/readStore(_:)``) and an event
// back (``storeRead(_:at:)``), as the writes are: the host neither waits on the store nor reads a clock.
//
//     hello(session: id) ──▶ awaitStore ──▶ .readStore(read) ─── transport reads ───▶ storeRead(answer, at:)
//                              │ the connection's hello waits; its later              │ decide (NodeLease), replay,
//                              │ messages are held (at most maxHeldMessages)          ▼ admit every waiting hello,
//                              │                                                      then its held messages
//                              └── another hello for id meanwhile: waits on the same read
extension SessionHost {
    /// A take-over's read the store has not answered yet, and the `hello`s waiting for it.
    struct PendingStoreRead {
        let read: StoreRead
        /// When the first `hello` asked (µs): the take-over's catch-up runs from then.
        let askedAt: Int64
        var waiting: [(connection: Connection, hello: Hello)]
    }

    /// Messages a connection may send while its `hello` waits for the store; more are refused (`not_ready`).
    static let maxHeldMessages = 64

    /// Whether `hello` needs the store first: it names a session this process does not hold, and there is one.
    func needsStore(_ hello: Hello) -> Bool {
        guard hasStore, let id = hello.session else { return false }
        return registry.sessions[id] == nil
    }

    /// `connection`'s `hello` names session `id`, which this process does not hold: it waits for the store's
    /// answer, asked for now unless a read of `id` is already under way.
    func awaitStore(_ id: String, connection: Connection, hello: Hello, at now: Int64) {
        connection.awaitingStore = true
        if storeReads[id] != nil {
            storeReads[id]?.waiting.append((connection, hello))
            return
        }
        storeReadsAsked += 1
        let read = StoreRead(number: storeReadsAsked, session: id)
        storeReads[id] = PendingStoreRead(read: read, askedAt: now, waiting: [(connection, hello)])
        actions.append(.readStore(read))
    }

    /// A message came on `connection` while its `hello` waits for the store: held until the answer (in
    /// order), or refused when too many wait already.
    func holdWhileAwaitingStore(_ text: UnsafeRawBufferPointer, binary: Bool, on connection: Connection) {
        guard connection.heldMessages.count < Self.maxHeldMessages else {
            reject(
                connection,
                WireError(
                    code: .notReady,
                    message:
                        "the session is being read from the store; this message was dropped (wait for the welcome)"))
            return
        }
        connection.heldMessages.append((Array(text), binary))
    }

    /// The store answered a take-over's read (``HostAction/readStore(_:)``) at `now`: the session is taken over
    /// (or the pages are sent to its live holder), every `hello` waiting for it is admitted, then the messages
    /// each of their connections sent meanwhile are handled, in order.
    public func storeRead(_ answer: StoreReadAnswer, at now: Int64) {
        flushHeldFrame()
        let id = answer.read.session
        guard let pending = storeReads[id], pending.read == answer.read else { return }  // not waited for
        storeReads[id] = nil
        let open = pending.waiting.filter { connections[$0.connection.id] === $0.connection }
        // Nobody waits any more (every page went, or the server is stopping): nothing is taken over.
        var elsewhere: String?
        if !shuttingDown, !open.isEmpty {
            let backends = Set(open.compactMap { $0.connection.balancerBackend })
            elsewhere = takeOver(id, from: answer.load, backends: backends, askedAt: pending.askedAt, at: now)
        }
        for (connection, hello) in pending.waiting {
            connection.awaitingStore = false
            guard connections[connection.id] === connection, connection.lifecycle.acceptsInput else {
                connection.heldMessages.removeAll()
                continue
            }
            if let elsewhere {
                reject(connection, .sessionElsewhere(id, node: elsewhere))
            } else {
                admit(connection, hello: hello, at: now)
            }
            handleHeldMessages(of: connection, at: now)
        }
    }

    /// Handles what `connection` sent while its `hello` waited, in order, until none is left or another `hello`
    /// waits for the store in turn.
    private func handleHeldMessages(of connection: Connection, at now: Int64) {
        while !connection.awaitingStore, !connection.heldMessages.isEmpty,
            connection.lifecycle.acceptsInput
        {
            let message = connection.heldMessages.removeFirst()
            // As from another socket's read: the frame another session's input holds goes first.
            if let held = heldSession, held !== connection.session { flushHeldFrame() }
            message.bytes.withUnsafeBytes { handle($0, binary: message.binary, on: connection, at: now) }
        }
    }

    /// Takes session `id` over from what the store answered (`load`): checks who holds it, replays its trace,
    /// checks the frames' digest, and holds it with its members (who resume with their tokens). Any failure
    /// leaves the session unknown here (the `hello` then gets a new session, `session_expired`). `backends`:
    /// the nodes whose backends the balancer routed the waiting pages through (``Connection/balancerBackend``).
    /// - Returns: the node to send the page to instead, when another live process holds the session, or made
    ///   it and has not written it yet (``NodeLease/decide(storedBy:storedNodeAlive:me:balancerFoundDown:)``).
    func takeOver(_ id: String, from load: StoreLoad, backends: Set<String>, askedAt: Int64, at now: Int64)
        -> String?
    {
        guard registry.sessions[id] == nil else { return nil }
        let stored: StoredSession
        switch load {
        case .missing: return nil
        case .unwritten(let node):
            // Nothing to take over: the node the id names made it and lives. The page goes there, unless the
            // balancer found that node down (then a new session, as for a missing one).
            let decision = NodeLease.decide(
                storedBy: node, storedNodeAlive: true, me: configuration.node,
                balancerFoundDown: backends.contains(node))
            guard case .elsewhere(let holder) = decision else { return nil }
            logger.notice(
                "session not in the store yet, and the live process that made it holds it; the page is sent there",
                metadata: ["session": "\(SessionLogID(id))", "node": "\(holder)"])
            return holder
        case .unavailable:
            logger.error(
                "could not take a session over: the session store is unreachable",
                metadata: ["session": "\(SessionLogID(id))"])
            return nil
        case .found(let found): stored = found
        }
        let decision = NodeLease.decide(
            storedBy: stored.node, storedNodeAlive: stored.nodeAlive, me: configuration.node,
            balancerFoundDown: backends.contains(stored.node))
        if case .elsewhere(let node) = decision {
            logger.notice(
                "session held by another live process; the page is sent there",
                metadata: ["session": "\(SessionLogID(id))", "node": "\(node)"])
            return node
        }
        var traced: TracedListModel
        let trace: Trace
        do {
            trace = try Trace(json: stored.trace)
            guard !trace.truncated else {
                throw TraceError("its trace was truncated (a recording limit), so it does not rebuild the session")
            }
            traced = try TracedListModel.replaying(
                trace, limits: configuration.traceLimits, presets: configuration.presets)
        } catch {
            logger.error(
                "could not take a session over",
                metadata: ["session": "\(SessionLogID(id))", "from": "\(stored.node)", "reason": "\(error)"])
            return nil
        }
        let operations = trace.operations.count
        noteClock(behindBy: traced.model.now.microseconds - now, session: id, from: stored.node)
        liftPointers(in: &traced, at: now)
        let session = Session(id: id, traced: traced, messages: registry.frameMessages)
        session.adopt(stored.members)
        session.expiresAt = now + configuration.graceMicroseconds  // until a member attaches
        registry.adopt(session)
        // Its first write claims the next epoch: the store refuses it if another process claimed first.
        storeLedger.claim(id, epoch: SessionFence.claim(after: stored.epoch))
        servingLease.tookOver(id)  // its frames wait for the claim and the previous holder's lease
        // From the hello to the store's answer: the wait the page saw (the replay that follows is not timed: the
        // host reads no clock).
        let record = TakeOver(from: stored.node, catchUpMicroseconds: max(0, now - askedAt), operations: operations)
        takeOvers[id] = record
        logger.notice(
            "session taken over",
            metadata: [
                "session": "\(SessionLogID(id))", "from": "\(stored.node)", "operations": "\(operations)",
                "epoch": "\(storeLedger.epoch(of: id))",
                "catchUpMs": "\(Double(record.catchUpMicroseconds) / 1000)",
                "frames": "\(traced.recorder.frames.count)",
            ])
        // The store names this node as the holder at once, with a current lease, so that no other process
        // takes the session too (the id's own node, restarted, would otherwise: ``NodeLease``).
        // (With the next batch when the store has not answered the last one yet: within a sweep period.)
        writeToStore(at: now, force: true)
        return nil
    }

    /// The session taken over was last at a time `behind` µs later than this process's clock reads now: its time
    /// holds until the clock passes it (``TracedListModel/sessionTime(_:)``). That takes a clock behind the
    /// previous holder's by more than the time that passed since the session's last operation, and it lasts no
    /// longer than the two clocks disagree: milliseconds between machines synchronised by NTP. More than a second
    /// means they are not, and the session stands still for as long: said as a warning.
    private func noteClock(behindBy behind: Int64, session id: String, from node: String) {
        guard behind > 0 else { return }
        let metadata: Logger.Metadata = [
            "session": "\(SessionLogID(id))", "from": "\(node)", "behindMs": "\(Double(behind) / 1000)",
        ]
        if behind > Self.clockDisagreementWarning {
            logger.warning(
                "this process's clock is behind the previous holder's; the session stands still until it catches up (are the clocks synchronised?)",
                metadata: metadata)
        } else {
            logger.info("the session's time holds until this process's clock catches up", metadata: metadata)
        }
    }

    /// A clock behind the previous holder's by more than this (µs) is reported as a warning.
    static let clockDisagreementWarning: Int64 = 1_000_000

    /// Lifts every pointer the session has down (``TracedListModel/pointersDown``: the trace's touches, and its
    /// snapshot's) with a `touch cancel` each, recorded, as when a member leaves: nobody is connected to a session
    /// taken over, and a finger that lifted while its process was gone would otherwise hold the drag forever.
    private func liftPointers(in traced: inout TracedListModel, at now: Int64) {
        var down: [Int: [(pointer: Int, pageTime: Double)]] = [:]
        for pointer in traced.pointersDown {
            down[pointer.member, default: []].append((pointer.pointer, pointer.pageTime))
        }
        let time = Timestamp(microseconds: now)
        for (member, pointers) in down.sorted(by: { $0.key < $1.key }) {
            for (pointer, pageTime) in pointers.sorted(by: { $0.pointer < $1.pointer }) {
                let cancel = SynthesizedTouch.cancel(pointer: pointer, pageTime: pageTime)
                cancel.text.withUnsafeBytes { text in
                    _ = try? traced.apply(ReceivedInput(cancel.input, text: text), member: member, at: time)
                }
            }
        }
    }
}
