import Foundation
import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// A store in memory, applying batches as the Redis script does (docs/SCALING.md, RedisWriter.swift): each
/// write all or nothing, whole or appended; an append only to the copy it continues (its generation, holding
/// exactly its base of operations), a whole write only when no later batch wrote the session (one process
/// here); anything else is refused and changes nothing.
final class MemoryStore: SessionStore {
    struct Stored: Equatable {
        var head: [UInt8] = []
        var generation = ""
        var operations: [[UInt8]] = []
        var summary: [UInt8] = []
        var members: StoredMembers?
        var node = ""
        /// The batch that wrote it last.
        var batch: UInt64 = 0
    }
    var sessions: [String: Stored] = [:]
    var reachable = true
    /// The writes of every batch applied, in order.
    private(set) var writes: [[StoreWrite]] = []
    /// The appends refused, by session.
    private(set) var refused: [String] = []

    /// Applies `batch` (`reachable`), or fails without changing anything.
    func apply(_ batch: StoreBatch) -> StoreOutcome {
        guard reachable else { return .failed(reason: "unreachable") }
        if !batch.writes.isEmpty { writes.append(batch.writes) }
        for id in batch.removals { sessions[id] = nil }
        defer {
            switch batch.lease {
            case .renew(let node, let milliseconds): renewLease(node: node, milliseconds: milliseconds)
            case .end(let node): leases[node] = nil
            case nil: break
            }
        }
        var refusedNow: [String] = []
        for write in batch.writes {
            var stored: Stored
            if write.whole {
                if let found = sessions[write.session], found.batch > batch.number {
                    refusedNow.append(write.session)
                    continue
                }
                stored = Stored(head: write.head, generation: write.generation)
            } else {
                guard let found = sessions[write.session], found.generation == write.generation,
                    found.operations.count == write.base
                else {
                    refusedNow.append(write.session)
                    continue
                }
                stored = found
            }
            stored.operations += write.operations
            stored.summary = write.summary
            stored.node = write.node
            stored.batch = batch.number
            if let members = write.members { stored.members = members }
            sessions[write.session] = stored
        }
        refused += refusedNow
        return .written(refused: refusedNow)
    }

    func load(_ id: String) -> StoreLoad {
        guard reachable else { return .unavailable }
        guard let stored = sessions[id], let members = stored.members else {
            // as RedisStore: the id's node, alive, made it and has not written it yet
            let node = id.split(separator: ".").first.map(String.init) ?? ""
            let alive = id.contains(".") && (leases[node].map { $0 > time() } ?? false)
            return alive ? .unwritten(node: node) : .missing
        }
        var trace = stored.head
        for (index, operation) in stored.operations.enumerated() {
            if index > 0 { trace.append(UInt8(ascii: ",")) }
            trace += operation
        }
        let alive = leases[stored.node].map { $0 > time() } ?? false
        return .found(
            StoredSession(trace: trace + stored.summary, members: members, node: stored.node, nodeAlive: alive))
    }

    /// Each node's lease: when it lapses, on ``time``'s clock (µs).
    var leases: [String: Int64] = [:]
    /// The clock the leases run on (a test's host time); 0 unless a test sets it.
    var time: () -> Int64 = { 0 }

    /// Node `node` is alive for `milliseconds` (a batch's lease renewal, or a test's).
    func renewLease(node: String, milliseconds: Int) {
        leases[node] = time() + Int64(milliseconds) * 1000
    }
}

extension TestTransport {
    /// A host that is node `name` of a cluster sharing `store`: its session ids name it (docs/SCALING.md).
    static func node(_ name: String, _ store: MemoryStore) -> TestTransport {
        let transport = TestTransport {
            $0.node = name
            $0.prefixesIDs = true
        }
        transport.store = store
        transport.host.hasStore = true
        return transport
    }

    /// Opens a connection, sends `hello` on it, and returns it with its `welcome`.
    func welcomed(_ hello: String) throws -> (Connection, [String: Any]) {
        let page = open()
        send(hello, on: page)
        return (page, try #require(welcome(page), "welcomed: \(messages(page))"))
    }
}
