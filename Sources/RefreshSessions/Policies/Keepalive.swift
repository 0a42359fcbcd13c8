/// When to ping a quiet WebSocket, and when to give up on it.
///
/// lws 4.1.6 has this built in (its "validity" policy), but it keeps every connection's validity timer in
/// one sorted linked list and re-sorts it on every pong: O(connections) per pong, which made idle connections
/// cost a share of a core (docs/PERFORMANCE.md, "The event loop and the keepalive"). The server sweeps its
/// connections once a second instead, and a message or a pong only stores a time.
struct Keepalive: Hashable, Sendable {
    /// Quiet this long (µs), a connection is pinged.
    let pingAfter: Int64
    /// Quiet this long (µs) at the least, it is hung up: the ping went unanswered.
    let hangUpAfter: Int64

    init(pingIntervalSeconds: Int, hangupSeconds: Int) {
        pingAfter = Int64(pingIntervalSeconds) * 1_000_000
        hangUpAfter = Int64(hangupSeconds) * 1_000_000
    }

    /// How long (µs) a pinged peer has to answer: the hang-up time less the ping interval (at least 1 s, as
    /// the configuration keeps the interval shorter, in whole seconds).
    var answerWindow: Int64 { hangUpAfter - pingAfter }

    enum Verdict: Hashable, Sendable {
        case fine
        case ping
        case hangUp
    }

    /// What a connection last heard from at `lastHeard` needs at `now`; `pingedAt`: when it was pinged since
    /// (nil: not yet).
    ///
    /// Only an unanswered ping hangs up. Silence alone never does: a sweep comes about once a second, and one
    /// that came late (a busy loop) could otherwise find a connection past the hang-up time before any
    /// sweep had pinged it, and drop a live peer that was never asked.
    func verdict(lastHeard: Int64, pingedAt: Int64?, now: Int64) -> Verdict {
        if let pingedAt { return now - pingedAt >= answerWindow ? .hangUp : .fine }
        return now - lastHeard >= pingAfter ? .ping : .fine
    }
}
