import Logging
import RefreshWire

// Exactly one holder per session (docs/SCALING.md, "Fencing"; ``SessionFence``). The store refuses a write
// whose epoch is older than its copy's, and leaves the previous holder a notice when a take-over claims a
// session; both come back with a batch's answer (``StoreReport/fenced``). The host then lets the session go at
// once: its pages are told where it is now (`session_elsewhere` with the node) and their connections close,
// and nothing more of it is written (the store keeps the new holder's copy).
extension SessionHost {
    /// The store's answer named sessions another process holds now (`fenced`): each one this process still
    /// holds at an epoch no newer is let go.
    func handleFences(_ fenced: [StoreFence], at now: Int64) {
        for fence in fenced {
            guard let session = registry.sessions[fence.session], fence.node != configuration.node,
                SessionFence.mustStepDown(held: storeLedger.epoch(of: fence.session), told: fence)
            else { continue }
            stepDown(session, to: fence, at: now)
        }
    }

    /// Lets `session` go: node `fence.node` holds it at `fence.epoch`.
    private func stepDown(_ session: Session, to fence: StoreFence, at now: Int64) {
        if heldSession === session { flushHeldFrame() }
        let held = storeLedger.epoch(of: session.id)
        registry.remove(session)
        storeLedger.release(session.id)
        servingLease.forget(session.id)
        takeOvers[session.id] = nil
        let pages = session.connections
        for connection in pages {
            connection.session = nil
            reject(connection, .sessionMoved(session.id, node: fence.node))
            connection.lifecycle.drain()  // the error goes first, then the close (1001): the page reconnects there
            actions.append(.wantWrite(connection))
        }
        fencedSessions += 1
        logger.notice(
            "session held by another process now (its epoch is newer); stopped serving it, pages sent there",
            metadata: [
                "session": "\(SessionLogID(session.id))", "node": "\(fence.node)", "epoch": "\(fence.epoch)",
                "heldEpoch": "\(held)", "pages": "\(pages.count)",
            ])
    }
}
