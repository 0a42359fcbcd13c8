import RefreshWire

/// Where sessions are read back from, to take over one that another process held (docs/SCALING.md). The
/// host writes each session's trace (its header, every recorded operation, the frames' digest so far) and its
/// members (their numbers and token hashes) through its actions (``HostAction/writeStore(_:)``, every
/// ~100 ms, `StoreLedger`), and asks for a session back the same way when a page names one it does not hold
/// (``HostAction/readStore(_:)``). The transport carries the read out with this and brings the answer back
/// (``SessionHost/storeRead(_:at:)``): the host itself never calls a store.
///
/// A bounded round trip (rare: only a `hello` naming a session this process does not hold), answering at once
/// that it is unavailable while the store is away.
public protocol SessionStore: AnyObject {
    /// Session `id` as stored.
    func load(_ id: String) -> StoreLoad
}

/// A session's members as a store keeps them: no tokens, only their hashes; each member's role; and the hashes of
/// the session's share keys (`SessionKeys`), by role.
public struct StoredMembers: Sendable, Hashable {
    public var members: [(number: Int, tokenHash: String)]
    /// The number the next new member gets.
    public var next: Int
    /// Each member's role by number; a member without one (a store written before roles) is read by
    /// ``role(of:)``.
    public var roles: [Int: MemberRole]
    /// SHA-256 of each share key, by role (`drive`, `watch`); empty in a store written before keys.
    public var keyHashes: [MemberRole: String]

    public init(
        members: [(number: Int, tokenHash: String)], next: Int, roles: [Int: MemberRole] = [:],
        keyHashes: [MemberRole: String] = [:]
    ) {
        self.members = members
        self.next = next
        self.roles = roles
        self.keyHashes = keyHashes
    }

    /// Member `number`'s role: the stored one, else (a store written before roles) the owner for member 0, the
    /// device that started the session, and `drive` for the others, which could do as much but configure.
    public func role(of number: Int) -> MemberRole { roles[number] ?? (number == 0 ? .owner : .drive) }

    /// Equal when they store the same: the members' roles as ``role(of:)`` reads them.
    public static func == (a: Self, b: Self) -> Bool {
        a.next == b.next && a.keyHashes == b.keyHashes
            && a.members.elementsEqual(b.members) {
                $0.number == $1.number && $0.tokenHash == $1.tokenHash && a.role(of: $0.number) == b.role(of: $1.number)
            }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(next)
        hasher.combine(keyHashes)
        for member in members {
            hasher.combine(member.number)
            hasher.combine(member.tokenHash)
            hasher.combine(role(of: member.number))
        }
    }

    /// `{"next":N,"members":[[number,"hash","role"],…],"keys":{"drive":"hash","watch":"hash"}}`
    /// (`StoredMembersJSON`, the wire's writer).
    public func json() -> [UInt8] {
        StoredMembersJSON.encode(
            next: next, members: members.map { ($0.number, $0.tokenHash, role(of: $0.number)) }, keys: keyHashes)
    }

    /// Reads ``json()``'s form back (`StoredMembersJSON`, the wire's validating reader), and the form before roles.
    public init?(json: [UInt8]) {
        guard let stored = StoredMembersJSON.decode(json) else { return nil }
        var roles: [Int: MemberRole] = [:]
        for member in stored.members { roles[member.number] = member.role }
        self.init(
            members: stored.members.map { ($0.number, $0.tokenHash) }, next: stored.next,
            roles: roles, keyHashes: stored.keys)
    }
}

/// A session read back from a store.
public struct StoredSession: Sendable {
    /// The trace's JSON (docs/TRACE.md), its digest as of the last write.
    public var trace: [UInt8]
    public var members: StoredMembers
    /// The node that wrote it last.
    public var node: String
    /// Whether that node's lease was current when the session was read: the node is alive, and holds it.
    public var nodeAlive: Bool
    /// The copy's fencing epoch (``SessionFence``); 0: none stored. A take-over claims the next.
    public var epoch: Int64

    public init(trace: [UInt8], members: StoredMembers, node: String, nodeAlive: Bool = false, epoch: Int64 = 0) {
        self.trace = trace
        self.members = members
        self.node = node
        self.nodeAlive = nodeAlive
        self.epoch = epoch
    }
}

/// What a store answered for a session.
public enum StoreLoad: Sendable {
    case found(StoredSession)
    /// The store has no such session (it never existed, or expired).
    case missing
    /// The store has no such session, but the node its id names (`NODE.<hex>`) holds a current lease: that
    /// node has just made the session and not written it yet (its first write comes within a write period).
    case unwritten(node: String)
    /// The store is unreachable.
    case unavailable
}
