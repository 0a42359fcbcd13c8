import Logging
import RefreshKit
import RefreshWire

// The shared store (docs/SCALING.md): writing every session's new operations every ~100 ms, and taking a
// session over from it when a page asks for one this process does not hold.
//
// The writes are actions (``HostAction/writeStore(_:)``): the transport hands each batch to the store and
// comes back with its answer as an event (``storeAnswered(_:at:)``), so the host never waits on the store to
// write. The reads stay a call (``SessionStore/load(_:)``): a bounded round trip, only on a take-over.
extension SessionHost {
    /// The liveness sweep also writes to the store, so with a store it runs every ``StoreLedger/period``.
    var sweepPeriod: Int64 { store == nil ? Self.sweepPeriod : StoreLedger.period }

    /// Hands what changed to the store, if a write is due at `now` (or `force`d: a take-over, shutting down)
    /// and the store has answered the previous one. The batch renews this node's lease when a renewal is due
    /// (``NodeLease``) or forced, while the node holds sessions; `endingLease`: it ends the lease instead,
    /// after the writes (a SIGTERM).
    func writeToStore(at now: Int64, force: Bool = false, endingLease: Bool = false) {
        // After a shutdown's last batch, nothing more: a later renewal would bring the ended lease back.
        guard store != nil, !shuttingDown else { return }
        let node = configuration.node
        var lease: StoreLeaseChange?
        if endingLease {
            lease = .end(node: node)
        } else if !registry.isEmpty, force || nodeLease.due(at: now) {
            lease = .renew(node: node, milliseconds: Int(NodeLease.duration / 1000))
        }
        guard
            let batch = storeLedger.batch(
                for: registry.sessions.values, node: node, lease: lease, at: now, force: force)
        else { return }
        if case .renew = lease { nodeLease.renewed(at: now) }
        actions.append(.writeStore(batch))
    }

    /// Whether the store has taken every batch handed to it (the transport waits for this, bounded, before
    /// closing the connections at a shutdown).
    public var storeIsIdle: Bool { storeLedger.phase == .idle }

    /// The store answered a batch (``HostAction/writeStore(_:)``) at `now`: what it did not take is written
    /// whole next time.
    public func storeAnswered(_ report: StoreReport, at now: Int64) {
        switch storeLedger.settle(report, at: now) {
        case .ignored:
            break
        case .written(let refused, let backAfter):
            if let backAfter {
                logger.notice(
                    "the session store is back; sessions written to it again",
                    metadata: ["sessions": "\(registry.sessions.count)", "awaySeconds": "\(Double(backAfter) / 1e6)"])
            }
            if refused > 0 {
                logger.notice(
                    "the session store refused appends to copies it no longer has; those sessions are written whole",
                    metadata: ["sessions": "\(refused)"])
            }
        case .failed(let wentAway):
            guard wentAway, case .failed(let reason) = report.outcome else { break }
            logger.error(
                "the session store is unreachable; sessions carry on in memory and are written again when it is back",
                metadata: ["sessions": "\(registry.sessions.count)", "reason": "\(reason)"])
        }
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
            traced = try TracedListModel.replaying(
                trace, limits: configuration.traceLimits, presets: configuration.presets)
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
        guard store != nil else { return }
        storeLedger.forget(id)
    }
}
