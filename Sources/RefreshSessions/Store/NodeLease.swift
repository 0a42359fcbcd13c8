/// Which process holds a session, as the store tells it (docs/SCALING.md, "Who holds a session"): every process
/// that holds sessions keeps a lease in the store, renewed every ``renewal`` for ``duration``, and each session
/// names the node that wrote it last. A process asked for a session it does not hold reads both and decides
/// (``decide(storedBy:storedNodeAlive:me:home:)``) whether to take it over or to send the page to the
/// holder. The rule as a value; the host renews the lease from its sweep.
struct NodeLease {
    /// How long a lease lasts (µs): how long after a SIGKILL the store still says the node is alive.
    static let duration: Int64 = 1_000_000
    /// How often the host renews it (µs): four renewals per lease, so a late sweep or a slow write does not
    /// let it lapse while the node lives.
    static let renewal: Int64 = 250_000

    /// When the next renewal is due (µs).
    private(set) var nextRenewal: Int64 = 0

    /// Whether a renewal is due at `now`; if so, the next one is due ``renewal`` later.
    mutating func due(at now: Int64) -> Bool {
        guard now >= nextRenewal else { return false }
        nextRenewal = now + Self.renewal
        return true
    }

    /// What a process does with a `hello` for a session the store has and it does not hold.
    enum Decision: Equatable {
        /// Take the session over from the store.
        case takeOver
        /// Node `node` holds it: the page is to connect there (``ErrorCode/sessionElsewhere``).
        case elsewhere(node: String)
    }

    /// The rule. `storedBy` wrote the session last; `storedNodeAlive`: its lease was current. `me` is this
    /// process's node; `home`: the session's id names this node (``SessionHost/Configuration/idPrefix``).
    ///
    /// - Written last by this node (an earlier run of it, under the same name): take it over.
    /// - Written by another node whose lease lapsed: that node is gone; take it over.
    /// - Written by another live node, and the id names this one: the balancer sent the page here because the
    ///   id names this node (the page's link has no `n`, or an old one), not because the holder is down: send
    ///   the page there. Taking it over would split the session between two processes.
    /// - Written by another live node, and the id names some other node: the balancer sent the page here only
    ///   as a backup, because the holder's node refused a connection. Its lease has not lapsed yet (it dies
    ///   with a SIGKILL up to ``duration`` before the store knows): take it over, so that a killed process's
    ///   pages are back at once.
    static func decide(storedBy node: String, storedNodeAlive: Bool, me: String, home: Bool) -> Decision {
        guard node != me, storedNodeAlive, home else { return .takeOver }
        return .elsewhere(node: node)
    }
}
