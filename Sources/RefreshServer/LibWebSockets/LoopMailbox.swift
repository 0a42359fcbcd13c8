import RefreshHosting
import RefreshThreads
import Synchronization

/// The loop's hop (``HostDriver/start(hop:)``): what the feed's workers and the store's reads bring from their
/// threads waits here, the loop is woken (`lws_cancel_service`), and the end of its turn hands it to the driver.
/// A turn with nothing waiting pays one atomic load. Closed before the context is destroyed: from then on nothing
/// wakes it (``ContextWaker``).
final class LoopMailbox: Sendable {
    private let box: LockedValue<(arrivals: [HostArrival], waker: ContextWaker?)>
    private let hasMail = Atomic<Bool>(false)

    init(waking waker: ContextWaker) { box = LockedValue(([], waker)) }

    /// From any thread: `arrival` waits for the loop, which is woken. The feed's reports are one arrival however
    /// often its workers wake the loop before it takes them.
    func post(_ arrival: HostArrival) {
        box.withLock { box in
            guard let waker = box.waker else { return }
            if case .feedReports = arrival, box.arrivals.contains(where: \.isFeedReports) { return }
            box.arrivals.append(arrival)
            hasMail.store(true, ordering: .releasing)
            waker.wake()
        }
    }

    /// On the loop: what waits, oldest first (none, at the cost of one load, when nothing does).
    func take() -> [HostArrival] {
        guard hasMail.load(ordering: .acquiring) else { return [] }
        return box.withLock { box in
            hasMail.store(false, ordering: .relaxed)
            defer { box.arrivals.removeAll() }
            return box.arrivals
        }
    }

    /// Nothing wakes the loop from now on, and what would arrive is dropped.
    func close() {
        box.withLock { box in
            box.waker = nil
            box.arrivals.removeAll()
        }
    }
}

extension HostArrival {
    fileprivate var isFeedReports: Bool {
        if case .feedReports = self { true } else { false }
    }
}
