import Logging

// Frames only under a lease (docs/SCALING.md, "Fencing"; ``ServingLease``): with a store, a session's frame is
// written only while this process's lease is current and, for a session taken over, once the previous
// holder's lease is over. A frame held so stays pending (the session's latest frame is written once it may
// be), and the host asks for the write again when the lease is renewed or the wait ends.
extension SessionHost {
    /// Whether `session`'s frame may be written at `now` (always, without a store). (The test of the store
    /// inlined in the write, the lease's check out of line.)
    @inline(__always)
    func mayServe(_ session: Session, at now: Int64) -> Bool {
        !hasStore || leaseAllows(session, at: now)
    }

    @inline(never)
    private func leaseAllows(_ session: Session, at now: Int64) -> Bool {
        servingLease.allows(session.id, at: now)
    }

    /// `batch` is being handed to the store at `now`: the lease counts from now, and it carries the notices the
    /// last answer brought, to clear.
    func servingSent(_ batch: StoreBatch, at now: Int64) -> StoreBatch {
        var batch = batch
        batch.noticesSeen = servingLease.noticesSeen
        servingLease.sent(batch: batch.number, writing: batch.writes.map(\.session), at: now)
        return batch
    }

    /// The store answered `report` at `now`: a renewal, and the claims' waits.
    func servingAnswered(_ report: StoreReport, at now: Int64) {
        var written = false
        if case .written = report.outcome { written = true }
        let answer = servingLease.answered(
            batch: report.batch, written: written, notices: report.fenced, claims: report.claims, at: now)
        if case .renewed(wasLapsed: true) = answer {
            // Frames held while the lease had lapsed may go now (those of sessions let go in this same event
            // find no session when written).
            for connection in connections.values where connection.outbox.framePending && connection.session != nil {
                actions.append(.wantWrite(connection))
            }
        }
        wakeServedSessions(at: now)
        if let end = servingLease.nextWaitEnd { armTimer(by: end) }  // the tick wakes them on time
    }

    /// The sessions taken over whose wait ended by `now`: their frames are written now.
    func wakeServedSessions(at now: Int64) {
        guard hasStore, !servingLease.waits.isEmpty else { return }
        for id in servingLease.waitsOver(at: now) {
            guard let session = registry.sessions[id] else { continue }
            for connection in session.connections where connection.outbox.framePending {
                actions.append(.wantWrite(connection))
            }
        }
    }
}
