import RefreshHosting
import RefreshThreads
import Synchronization

/// The loop's hop (``HostDriver/start(hop:)``): what the feed's workers and the store's reads bring from their
/// threads waits here, the loop is woken (`lws_cancel_service`), and the end of its turn hands it to the driver.
/// A turn with nothing waiting pays one atomic load. Made with the loop, opened once its context is (what arrives
/// before waits for the first turn), closed before the context is destroyed: from then on nothing wakes it
/// (``ContextWaker``).
final class LoopMailbox: Sendable {
    private let box = LockedValue<(arrivals: [HostArrival], waker: ContextWaker?, closed: Bool)>(([], nil, false))
    private let mail = Atomic<Bool>(false)

    /// From now on what arrives wakes the loop of `waker`'s context (what arrived before waits for its first turn).
    func open(waking waker: ContextWaker) {
        box.withLock { box in
            box.waker = waker
            if !box.arrivals.isEmpty { waker.wake() }
        }
    }

    /// Whether anything waits (a hint, read at every turn's end without the lock: ``take()`` takes it under it).
    var hasMail: Bool { mail.load(ordering: .relaxed) }

    /// From any thread: `arrival` waits for the loop, which is woken. The feed's reports are one arrival however
    /// often its workers wake the loop before it takes them.
    func post(_ arrival: HostArrival) {
        box.withLock { box in
            guard !box.closed else { return }
            if case .feedReports = arrival, box.arrivals.contains(where: \.isFeedReports) { return }
            box.arrivals.append(arrival)
            mail.store(true, ordering: .releasing)
            box.waker?.wake()
        }
    }

    /// On the loop: what waits, oldest first.
    func take() -> [HostArrival] {
        box.withLock { box in
            mail.store(false, ordering: .relaxed)
            defer { box.arrivals.removeAll() }
            return box.arrivals
        }
    }

    /// Nothing wakes the loop from now on, and what would arrive is dropped.
    func close() {
        box.withLock { box in
            box.waker = nil
            box.closed = true
            box.arrivals.removeAll()
        }
    }
}

extension HostArrival {
    fileprivate var isFeedReports: Bool {
        if case .feedReports = self { true } else { false }
    }
}
