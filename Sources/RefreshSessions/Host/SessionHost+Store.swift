import Logging
import RefreshKit
import RefreshWire

// The shared store (docs/SCALING.md): writing every session's new operations every ~100 ms, and taking a
// session over from it when a page asks for one this process does not hold.
extension SessionHost {
    /// The liveness sweep also writes to the store, so with a store it runs every ``StoreLedger/period``.
    var sweepPeriod: Int64 { store == nil ? Self.sweepPeriod : StoreLedger.period }

    /// Writes what changed to the store, if a write is due at `now` (or `force`d: shutting down).
    func writeToStore(at now: Int64, force: Bool = false) {
        guard let store else { return }
        guard storeLedger.due(at: now) || force else { return }
        let writes = storeLedger.writes(for: registry.sessions.values, node: configuration.node)
        guard !writes.isEmpty else { return }
        if store.write(writes) {
            if storeLedger.succeeded() {
                logger.notice(
                    "the session store is back; sessions written to it again", metadata: ["sessions": "\(writes.count)"]
                )
            }
        } else if storeLedger.failed() {
            logger.error(
                "the session store is unreachable; sessions carry on in memory and are written again when it is back",
                metadata: ["sessions": "\(registry.sessions.count)"])
        }
    }

    /// Renews this node's lease in the store when it is due (``NodeLease``) or `force`d, while the node holds
    /// sessions.
    func renewLease(at now: Int64, force: Bool = false) {
        guard let store, !registry.isEmpty, nodeLease.due(at: now) || force else { return }
        _ = store.renewLease(node: configuration.node, milliseconds: Int(NodeLease.duration / 1000))
    }

    /// A `hello` names session `id`, which this process does not hold: load it from the store, replay its
    /// trace, check the frames' digest, and hold it with its members (who resume with their tokens). Any
    /// failure leaves the session unknown here (the `hello` then gets a new session, `session_expired`).
    /// - Returns: the node to send the page to instead, when another live process holds the session
    ///   (``NodeLease/decide(storedBy:storedNodeAlive:me:home:)``).
    func takeOver(_ id: String, at now: Int64) -> String? {
        guard let store, registry.sessions[id] == nil else { return nil }
        let started = clock()
        let stored: StoredSession
        switch store.load(id) {
        case .missing: return nil
        case .unavailable:
            logger.error(
                "could not take a session over: the session store is unreachable", metadata: ["session": "\(id)"])
            return nil
        case .found(let found): stored = found
        }
        let home = !configuration.idPrefix.isEmpty && id.hasPrefix(configuration.idPrefix)
        let decision = NodeLease.decide(
            storedBy: stored.node, storedNodeAlive: stored.nodeAlive, me: configuration.node, home: home)
        if case .elsewhere(let node) = decision {
            logger.notice(
                "session held by another live process; the page is sent there",
                metadata: ["session": "\(id)", "node": "\(node)"])
            return node
        }
        var traced: TracedListModel
        let trace: Trace
        do {
            trace = try Trace(json: stored.trace)
            guard !trace.truncated else {
                throw TraceError("its trace was truncated (a recording limit), so it does not rebuild the session")
            }
            traced = try TracedListModel.replaying(trace, limits: configuration.traceLimits)
        } catch {
            logger.error(
                "could not take a session over",
                metadata: ["session": "\(id)", "from": "\(stored.node)", "reason": "\(error)"])
            return nil
        }
        let operations = trace.operations.count
        noteClock(behindBy: traced.model.now.microseconds - now, session: id, from: stored.node)
        liftPointers(in: &traced, recordedIn: trace, at: now)
        let session = Session(id: id, traced: traced, headroom: headroom)
        session.adopt(stored.members)
        session.expiresAt = now + configuration.graceMicroseconds  // until a member attaches
        registry.adopt(session)
        let record = TakeOver(from: stored.node, catchUpMicroseconds: clock() - started, operations: operations)
        takeOvers[id] = record
        logger.notice(
            "session taken over",
            metadata: [
                "session": "\(id)", "from": "\(stored.node)", "operations": "\(operations)",
                "catchUpMs": "\(Double(record.catchUpMicroseconds) / 1000)",
                "frames": "\(traced.recorder.frames.count)",
            ])
        // The store names this node as the holder at once, with a current lease, so that no other process
        // takes the session too (the id's own node, restarted, would otherwise: ``NodeLease``).
        renewLease(at: now, force: true)
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
            "session": "\(id)", "from": "\(node)", "behindMs": "\(Double(behind) / 1000)",
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

    /// Lifts every pointer the trace leaves down (a `touch cancel` each, recorded, as when a member leaves):
    /// nobody is connected to a session taken over, and a finger that lifted while its process was gone would
    /// otherwise hold the drag forever.
    private func liftPointers(in traced: inout TracedListModel, recordedIn trace: Trace, at now: Int64) {
        var down: [Int: [(pointer: Int, pageTime: Double)]] = [:]
        for operation in trace.operations {
            guard case .apply(_, let member, let text) = operation,
                let received = text.withUnsafeBytes({ try? decoder.decodeInput($0) }),
                case .touch(let touch) = received.input
            else { continue }
            var pointers = down[member, default: []]
            pointers.removeAll { $0.pointer == touch.pointer }
            if touch.phase == .start || touch.phase == .move { pointers.append((touch.pointer, touch.pageTime)) }
            down[member] = pointers
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

    /// Session `id` was freed: the store forgets it too.
    func forgetInStore(_ id: String) {
        takeOvers[id] = nil
        storeLedger.forget(id)
        store?.remove(id)
    }
}
