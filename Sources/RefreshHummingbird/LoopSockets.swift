import NIOCore
import RefreshHosting
import RefreshSessions

/// The host driver's transport on the app's event loop (``HostLoop``): each WebSocket's writer woken through its
/// signal, a connection the host drops marked for its writer to end, and the host's timers as the loop's
/// scheduled tasks. Only touched on the loop, by the actor that owns it.
final class LoopSockets: HostTransport {
    /// One WebSocket as the loop knows it: the host's connection, and the signal that wakes its writer.
    struct Link {
        let connection: Connection
        let wake: AsyncStream<Void>.Continuation
        /// The host dropped it: its writer ends it without another write.
        var killed = false
    }

    let eventLoop: any EventLoop
    /// The actor the timers call back (set once it starts).
    weak var loop: HostLoop?
    var links: [UInt64: Link] = [:]
    private var tick: Scheduled<Void>?
    private var sweep: Scheduled<Void>?

    init(eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func wake(_ connection: Connection, soon: Bool) {
        links[connection.id]?.wake.yield()
    }

    func close(_ connection: Connection) {
        links[connection.id]?.killed = true
        links[connection.id]?.wake.yield()
    }

    func arm(_ timer: HostTimer, inMicroseconds microseconds: Int64) {
        let task = eventLoop.scheduleTask(in: .microseconds(microseconds)) { [weak loop] in
            guard let loop else { return }
            loop.assumeIsolated { $0.fire(timer) }
        }
        switch timer {
        case .tick:
            tick?.cancel()
            tick = task
        case .sweep:
            sweep?.cancel()
            sweep = task
        }
    }

    func stopTimers() {
        tick?.cancel()
        sweep?.cancel()
    }
}
