/// Which process holds a session, as the store tells it (docs/SCALING.md, "Who holds a session"): every process
/// that holds sessions keeps a lease in the store, renewed every ``renewal`` for ``duration``, and each session
/// names the node that wrote it last. A process asked for a session it does not hold reads both and decides
/// (``decide(storedBy:storedNodeAlive:me:balancerFoundDown:)``) whether to take it over or to send the page to the
/// holder. The rule as a value; the host renews the lease from its sweep.
struct NodeLease {
    /// How long a lease lasts (µs): how long after a SIGKILL the store still says the node is alive.
    static let duration: Int64 = 1_000_000
    /// How often the host renews it (µs): four renewals per lease, so a late sweep or a slow write does not
    /// let it lapse while the node lives.
    static let renewal: Int64 = 250_000

    /// When the next renewal is due (µs).
    private(set) var nextRenewal: Int64 = 0

    /// Whether a renewal is due at `now`.
    func due(at now: Int64) -> Bool { now >= nextRenewal }

    /// A renewal went to the store at `now` (with a batch): the next one is due ``renewal`` later.
    mutating func renewed(at now: Int64) { nextRenewal = now + Self.renewal }

    /// What a process does with a `hello` for a session the store has and it does not hold.
    enum Decision: Equatable {
        /// Take the session over from the store.
        case takeOver
        /// Node `node` holds it: the page is to connect there (``ErrorCode/sessionElsewhere``).
        case elsewhere(node: String)
    }

    /// The rule. `storedBy` holds the session: the node that wrote it last, or, for a session not in the store
    /// yet, the node its id names (``StoreLoad/unwritten(node:)``); `storedNodeAlive`: its lease was current.
    /// `me` is this process's node. `balancerFoundDown`: the balancer sent this page here as a backup for that
    /// very node (its `X-RefreshKit-Backend` header names it, ``Connection/balancerBackend``): the node refused
    /// the balancer's connection or failed its check.
    ///
    /// - Written last by this node (an earlier run of it, under the same name): take it over.
    /// - Written by another node whose lease lapsed: that node is gone; take it over.
    /// - Written by another live node that the balancer found down: it has just died (a SIGKILL leaves its
    ///   lease current for up to ``duration``): take it over at once, so that a killed process's pages are back
    ///   without waiting for the lease.
    /// - Written by another live node, in any other case (a page at `/` with the id in its `hello` only, a
    ///   link whose `s` or `n` names another node, a connection straight to this process): send the page
    ///   there, whatever its URL said. Taking it over, or opening a new session, would split it.
    static func decide(storedBy node: String, storedNodeAlive: Bool, me: String, balancerFoundDown: Bool)
        -> Decision
    {
        guard node != me, storedNodeAlive, !balancerFoundDown else { return .takeOver }
        return .elsewhere(node: node)
    }
}
