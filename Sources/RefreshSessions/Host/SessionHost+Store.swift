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
        let writes = storeLedger.writes(for: registry.rooms.values, node: configuration.node)
        guard !writes.isEmpty else { return }
        if store.write(writes) {
            if storeLedger.succeeded() {
                logger.notice("the session store is back; sessions written to it again", metadata: ["sessions": "\(writes.count)"])
            }
        } else if storeLedger.failed() {
            logger.error(
                "the session store is unreachable; sessions carry on in memory and are written again when it is back",
                metadata: ["sessions": "\(registry.rooms.count)"])
        }
    }

    /// A `hello` names session `id`, which this process does not hold: load it from the store, replay its
    /// trace, check the frames' digest, and hold it with its members (who resume with their tokens). Any
    /// failure leaves the session unknown here (the `hello` then gets a new session, `session_expired`).
    func takeOver(_ id: String, at now: Int64) {
        guard let store, registry.rooms[id] == nil else { return }
        let started = clock()
        let stored: StoredSession
        switch store.load(id) {
        case .missing: return
        case .unavailable:
            logger.error("could not take a session over: the session store is unreachable", metadata: ["session": "\(id)"])
            return
        case .found(let found): stored = found
        }
        let traced: TracedSession
        let operations: Int
        do {
            let trace = try Trace(json: stored.trace)
            guard !trace.truncated else {
                throw TraceError("its trace was truncated (a recording limit), so it does not rebuild the session")
            }
            traced = try TracedSession.replaying(trace, limits: configuration.traceLimits)
            operations = trace.operations.count
        } catch {
            logger.error(
                "could not take a session over", metadata: ["session": "\(id)", "from": "\(stored.node)", "reason": "\(error)"])
            return
        }
        let room = Room(id: id, traced: traced, headroom: headroom)
        room.adopt(stored.members)
        room.expiresAt = now + configuration.graceMicroseconds  // until a member attaches
        registry.adopt(room)
        let record = TakeOver(from: stored.node, catchUpMicroseconds: clock() - started, operations: operations)
        takeOvers[id] = record
        logger.notice(
            "session taken over",
            metadata: [
                "session": "\(id)", "from": "\(stored.node)", "operations": "\(operations)",
                "catchUpMs": "\(Double(record.catchUpMicroseconds) / 1000)",
                "frames": "\(traced.recorder.frames.count)",
            ])
    }

    /// Session `id` was freed: the store forgets it too.
    func forgetInStore(_ id: String) {
        takeOvers[id] = nil
        storeLedger.forget(id)
        store?.remove(id)
    }
}
