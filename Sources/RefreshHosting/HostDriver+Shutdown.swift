import RefreshStore

/// Where a shutdown stands (``HostDriver/nextShutdownStep(on:)``).
enum ShutdownPhase {
    case serving
    /// Waiting for the batch the store was writing when the shutdown began.
    case waitingForTheBatchInFlight
    /// Every session handed to the store in a last batch: waiting for it.
    case waitingForTheHandOver
    /// The closes are out: the transport waits for its sockets to close.
    case closing
}

/// What the transport does next in a shutdown.
public enum ShutdownStep {
    /// Wait (off the serving thread, if it can) until `store` has answered, a second at most
    /// (``HostDriver/storeHandOverSeconds``), then ask for the next step.
    case waitForTheStore(StoreThread)
    /// The closes (1001) are on their way: wait for the sockets to close, or the grace period to end.
    case closing
}

// A graceful shutdown: every session handed to the store before the pages are closed, so they come back to what it
// holds (docs/SCALING.md, "Guarantees and their limits": a process is stopped); then every WebSocket closed with 1001.
extension HostDriver {
    /// How long a shutdown waits for the store, twice at most: for the batch being written, then for the last
    /// one (each is at most a connection attempt, a script load and a write, 250 ms apiece).
    public static let storeHandOverSeconds = 1.0

    /// The shutdown's next step: the transport calls it until it says ``ShutdownStep/closing``, waiting for the
    /// store between calls when asked.
    public func nextShutdownStep(on transport: some HostTransport) -> ShutdownStep {
        switch shutdown {
        case .serving:
            if let storeThread {
                shutdown = .waitingForTheBatchInFlight
                return .waitForTheStore(storeThread)
            }
            host.beginShutdown(at: clock.now())
        case .waitingForTheBatchInFlight:
            deliverStoreReports()
            // the host's first action is the last batch; the closes are written only once the loop runs
            host.beginShutdown(at: clock.now())
            carryOutActions(on: transport)
            shutdown = .waitingForTheHandOver
            if let storeThread { return .waitForTheStore(storeThread) }
        case .waitingForTheHandOver:
            deliverStoreReports()
            if !host.storeIsIdle {
                logger.error("the session store did not answer in time; sessions may not have been handed over")
            }
        case .closing:
            return .closing
        }
        shutdown = .closing
        carryOutActions(on: transport)
        return .closing
    }
}
