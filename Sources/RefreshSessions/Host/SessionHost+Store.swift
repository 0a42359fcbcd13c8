import Logging
import RefreshKit
import RefreshWire

// The shared store (docs/SCALING.md): writing every session's new operations every ~100 ms (a take-over, the
// read, is SessionHost+TakeOver.swift's).
//
// The writes are actions (``HostAction/writeStore(_:)``): the transport hands each batch to the store and
// comes back with its answer as an event (``storeAnswered(_:at:)``), so the host never waits on the store.
extension SessionHost {
    /// The liveness sweep also writes to the store, so with a store it runs every ``StoreLedger/period``.
    var sweepPeriod: Int64 { hasStore ? StoreLedger.period : Self.sweepPeriod }

    /// Hands what changed to the store, if a write is due at `now` (or `force`d: a take-over, shutting down)
    /// and the store has answered the previous one. The batch renews this node's lease when a renewal is due
    /// (``NodeLease``) or forced, while the node holds sessions; `endingLease`: it ends the lease instead,
    /// after the writes (a SIGTERM).
    func writeToStore(at now: Int64, force: Bool = false, endingLease: Bool = false) {
        // After a shutdown's last batch, nothing more: a later renewal would bring the ended lease back.
        guard hasStore, !shuttingDown else { return }
        let node = configuration.node
        var lease: StoreLeaseChange?
        if endingLease {
            lease = .end(node: node)
        } else if !registry.isEmpty, force || nodeLease.due(at: now) || servingLease.renewalDue(at: now) {
            lease = .renew(node: node, milliseconds: Int(NodeLease.duration / 1000))
        }
        guard
            let batch = storeLedger.batch(
                for: registry.sessions.values, node: node, lease: lease, at: now, force: force)
        else { return }
        if case .renew = lease { nodeLease.renewed(at: now) }
        actions.append(.writeStore(servingSent(batch, at: now)))  // SessionHost+Serving.swift
    }

    /// Whether the store has taken every batch handed to it (the transport waits for this, bounded, before
    /// closing the connections at a shutdown).
    public var storeIsIdle: Bool { storeLedger.phase == .idle }

    /// The store answered a batch (``HostAction/writeStore(_:)``) at `now`: what it did not take is written
    /// whole next time; a session another process holds now is let go.
    public func storeAnswered(_ report: StoreReport, at now: Int64) {
        defer { handleFences(report.fenced, at: now) }  // SessionHost+Fencing.swift
        servingAnswered(report, at: now)  // SessionHost+Serving.swift
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

    /// Session `id` was freed: the store forgets it too.
    func forgetInStore(_ id: String) {
        takeOvers[id] = nil
        guard hasStore else { return }
        servingLease.forget(id)
        storeLedger.forget(id)
    }
}
