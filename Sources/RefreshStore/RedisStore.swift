import CHiredis
import Logging
import RefreshSessions

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The session store in Redis (docs/SCALING.md): its layout, and the reads a take-over makes.
///
/// Per session `ID`: the hash `rk:session:ID` (`head`: the trace's JSON up to its operations; `summary`: the
/// JSON after them, with the frames' count and digest; `ops`: how many operations; `generation`: the whole
/// write the list continues; `members`; `node`: the process that wrote last; `epoch` and `writer`: its fencing
/// epoch and the process that holds it, ``SessionFence``) and the list
/// `rk:session:ID:ops` (each operation's JSON). Both expire a day after their last write.
///
/// The writes are not made here: the host's batches go to a ``StoreThread``, which owns a connection of its
/// own, so the service thread never waits on Redis to write. A read (``load(_:)``) is the adapter's, on the
/// service thread, on this connection, when the host asks for one (``HostAction/readStore(_:)``,
/// ``StoreReads``): a bounded round trip (each step given at most 250 ms, and while Redis is unreachable at most
/// one connection attempt a second), made only when a page names a session this process does not hold.
final class RedisStore: SessionStore {
    private let connection: RedisConnection

    init(address: StoreAddress, logger: Logger) {
        connection = RedisConnection(address: address, logger: logger)
    }

    static let expirySeconds = 86_400

    static func key(_ session: String) -> [UInt8] { Array("rk:session:\(session)".utf8) }
    static func opsKey(_ session: String) -> [UInt8] { Array("rk:session:\(session):ops".utf8) }
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func load(_ id: String) -> StoreLoad {
        guard connection.connect() else { return .unavailable }
        connection.append([Self.bytes("MULTI")])
        connection.append([Self.bytes("HGETALL"), Self.key(id)])
        connection.append([Self.bytes("LRANGE"), Self.opsKey(id), Self.bytes("0"), Self.bytes("-1")])
        connection.append([Self.bytes("EXEC")])
        var fields: [String: [UInt8]] = [:]
        var operations: [[UInt8]] = []
        var executed = false
        let read = connection.replies(4) { index, reply in
            guard index == 3, reply.pointee.type == REDIS_REPLY_ARRAY, reply.pointee.elements == 2 else { return }
            executed = true
            let hash = reply.pointee.element[0]!
            for pair in stride(from: 0, to: hash.pointee.elements, by: 2) {
                fields[String(decoding: RedisConnection.string(hash.pointee.element[pair]!), as: UTF8.self)] =
                    RedisConnection.string(
                        hash.pointee.element[pair + 1]!)
            }
            let list = reply.pointee.element[1]!
            for index in 0..<list.pointee.elements {
                operations.append(RedisConnection.string(list.pointee.element[index]!))
            }
        }
        guard read, executed else { return .unavailable }
        guard let head = fields["head"], let summary = fields["summary"], let membersJSON = fields["members"],
            let members = StoredMembers(json: membersJSON)
        else { return unwrittenOrMissing(id) }
        if let count = fields["ops"].flatMap({ Int(String(decoding: $0, as: UTF8.self)) }), count < operations.count {
            operations.removeLast(operations.count - count)  // written with its count in one script, but be sure
        }
        var trace = head
        for (index, operation) in operations.enumerated() {
            if index > 0 { trace.append(UInt8(ascii: ",")) }
            trace += operation
        }
        trace += summary
        let node = String(decoding: fields["node"] ?? [], as: UTF8.self)
        let epoch = fields["epoch"].flatMap { Int64(String(decoding: $0, as: UTF8.self)) } ?? 0
        return .found(
            StoredSession(
                trace: trace, members: members, node: node, nodeAlive: !node.isEmpty && leaseHeld(by: node),
                epoch: epoch))
    }

    // MARK: - Leases (`rk:node:NAME`, the holder's pid, expiring after the lease's duration: NodeLease)

    /// Written by ``RedisWriter`` with the batches (``StoreLeaseChange``), read here.
    static func leaseKey(_ node: String) -> [UInt8] { Array("rk:node:\(node)".utf8) }

    /// The fencing notices left for node `node` by take-overs of its sessions (``RedisWriter/fencesScript``).
    static func fencesKey(_ node: String) -> [UInt8] { Array("rk:fenced:\(node)".utf8) }
    /// When a process (its incarnation) last renewed its serving lease, by the store's clock (``ServingLease``).
    static func renewedKey(_ incarnation: String) -> [UInt8] { Array("rk:renewed:\(incarnation)".utf8) }

    /// A session the store does not have: ``StoreLoad/unwritten(node:)`` when the node its id names
    /// (`NODE.<hex>`) holds a current lease (it made the session and has not written it yet), else missing.
    private func unwrittenOrMissing(_ id: String) -> StoreLoad {
        guard let dot = id.firstIndex(of: "."), dot > id.startIndex else { return .missing }
        let node = String(id[..<dot])
        return leaseHeld(by: node) ? .unwritten(node: node) : .missing
    }

    /// Whether node `node`'s lease is current (unknown counts as not: the store just answered, so this is rare).
    private func leaseHeld(by node: String) -> Bool {
        guard connection.connect() else { return false }
        connection.append([Self.bytes("EXISTS"), Self.leaseKey(node)])
        var held = false
        _ = connection.replies(1) { _, reply in
            held = reply.pointee.type == REDIS_REPLY_INTEGER && reply.pointee.integer == 1
        }
        return held
    }
}
