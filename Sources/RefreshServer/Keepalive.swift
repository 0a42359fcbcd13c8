/// When to ping a quiet WebSocket, and when to give up on it.
///
/// lws 4.1.6 has this built in (its "validity" policy), but it keeps every connection's validity timer in
/// one sorted linked list and re-sorts it on every pong: O(connections) per pong, which made 5 000 idle
/// connections cost 8–12 % of a core (docs/PERFORMANCE.md). The server sweeps its connections once a
/// second instead, and a message or a pong only stores a time.
struct Keepalive: Hashable, Sendable {
    /// Quiet this long (µs), a connection is pinged.
    let pingAfter: Int64
    /// Quiet this long (µs), it is hung up: the ping went unanswered.
    let hangUpAfter: Int64

    init(pingIntervalSeconds: Int, hangupSeconds: Int) {
        pingAfter = Int64(pingIntervalSeconds) * 1_000_000
        hangUpAfter = Int64(hangupSeconds) * 1_000_000
    }

    enum Verdict: Hashable, Sendable {
        case fine
        case ping
        case hangUp
    }

    /// What a connection last heard from at `lastHeard` needs at `now`; `pinged`: a ping went out since.
    func verdict(lastHeard: Int64, pinged: Bool, now: Int64) -> Verdict {
        let quiet = now - lastHeard
        if quiet >= hangUpAfter { return .hangUp }
        if quiet >= pingAfter && !pinged { return .ping }
        return .fine
    }
}
