import RefreshWire

/// Where a host keeps its sessions so that another process can take them over (docs/SCALING.md): each
/// session's trace (its header, every recorded operation, the frames' digest so far) and its members (their
/// numbers and token hashes). The host writes what changed about every ~100 ms (``StoreLedger``), and reads a
/// session back when a page asks for one it does not hold (``SessionHost/takeOver(_:at:)``).
///
/// Called on the host's thread; an implementation answers quickly or gives up (the host carries on in
/// memory while the store is away).
public protocol SessionStore: AnyObject {
    /// Applies `writes`, each all or nothing. - Returns: whether the store took them all; `false` means it
    /// is unreachable, and the host writes every session whole once it is back.
    func write(_ writes: [StoreWrite]) -> Bool
    /// Session `id` as stored.
    func load(_ id: String) -> StoreLoad
    /// Forgets session `id` (it expired).
    func remove(_ id: String)
    /// Node `node` is alive for the next `milliseconds`: its lease, which the host renews well before it
    /// lapses (``NodeLease``). - Returns: whether the store took it.
    func renewLease(node: String, milliseconds: Int) -> Bool
    /// Node `node` stops (SIGTERM, after writing every session): its lease ends now.
    func endLease(node: String)
}

/// What a store is to change about one session.
public struct StoreWrite: Sendable, Hashable {
    public var session: String
    /// The node that holds the session now.
    public var node: String
    /// Replace what the store has of the session (the first write, and every write after the store was
    /// away): `head` is then the trace's JSON up to its operations.
    public var whole: Bool
    public var head: [UInt8]
    /// The operations recorded since the previous write (each one element of the trace's `ops`), in order.
    public var operations: [[UInt8]]
    /// The trace's JSON after its operations as of this write: the frames' count and digest.
    public var summary: [UInt8]
    /// Operations the store holds after this write.
    public var operationCount: Int
    /// The members, when they changed since the previous write (else `nil`).
    public var members: StoredMembers?
}

/// A session's members as a store keeps them: no tokens, only their hashes.
public struct StoredMembers: Sendable, Hashable {
    public var members: [(number: Int, tokenHash: String)]
    /// The number the next new member gets.
    public var next: Int

    public init(members: [(number: Int, tokenHash: String)], next: Int) {
        self.members = members
        self.next = next
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.next == b.next
            && a.members.elementsEqual(b.members) { $0.number == $1.number && $0.tokenHash == $1.tokenHash }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(next)
        for member in members {
            hasher.combine(member.number)
            hasher.combine(member.tokenHash)
        }
    }

    /// `{"next":N,"members":[[number,"hash"],…]}`.
    public func json() -> [UInt8] {
        var text = #"{"next":\#(next),"members":["#
        for (index, member) in members.enumerated() {
            text += (index > 0 ? "," : "") + #"[\#(member.number),"\#(member.tokenHash)"]"#
        }
        return Array((text + "]}").utf8)
    }

    /// Reads ``json()``'s form back.
    public init?(json: [UInt8]) {
        let text = String(decoding: json, as: UTF8.self)
        guard let nextStart = text.range(of: #"{"next":"#)?.upperBound,
            let comma = text[nextStart...].firstIndex(of: ","), let next = Int(text[nextStart..<comma]),
            let listStart = text.range(of: #""members":["#)?.upperBound
        else { return nil }
        var members: [(number: Int, tokenHash: String)] = []
        var rest = text[listStart...]
        while let open = rest.firstIndex(of: "[") {
            guard let close = rest[open...].firstIndex(of: "]") else { return nil }
            let parts = rest[rest.index(after: open)..<close].split(separator: ",")
            guard parts.count == 2, let number = Int(parts[0]), parts[1].count == 66 else { return nil }
            members.append((number, String(parts[1].dropFirst().dropLast())))
            rest = rest[rest.index(after: close)...]
        }
        self.init(members: members, next: next)
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

    public init(trace: [UInt8], members: StoredMembers, node: String, nodeAlive: Bool = false) {
        self.trace = trace
        self.members = members
        self.node = node
        self.nodeAlive = nodeAlive
    }
}

/// What a store answered for a session.
public enum StoreLoad: Sendable {
    case found(StoredSession)
    /// The store has no such session (it never existed, or expired).
    case missing
    /// The store is unreachable.
    case unavailable
}
